"""Every registered game has a rules page, rendered from docs/rules/<game>.md, for players."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.games.engines import ENGINES
from apps.games.views import RULES_DIR, rules_for_players


@pytest.mark.parametrize("game", sorted(ENGINES))
@pytest.mark.django_db
def test_rules_page_of_every_game(game):
    assert (RULES_DIR / f"{game}.md").is_file(), f"copy shared/spec/games/{game}.md to docs/rules/"
    answer = Client().get(f"/games/{game}/rules/")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert ENGINES[game].name.replace("'", "&#x27;") in html
    assert "<h2>" in html and "Sources" not in html and "<h1>" in html


@pytest.mark.django_db
def test_unknown_game_has_no_rules_page():
    assert Client().get("/games/nope/rules/").status_code == 404
    assert Client().get("/games/..%2Fsettings/rules/").status_code == 404


def test_player_rules_leave_out_the_developers_sections():
    text = "# T\n\nintro\n\n## 1. Sources\nseed\n## 2. Play\nplay it\n## 6. Actions (exact JSON)\n{}\n## 9. Options\nopts"
    kept = rules_for_players(text)
    assert "play it" in kept and "opts" in kept and "intro" not in kept and "## Play" in kept
    assert "seed" not in kept and "{}" not in kept and "# T" not in kept
