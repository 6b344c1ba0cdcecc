"""Every registered game has a rules page, rendered from docs/rules/<game>.md, for players."""

from __future__ import annotations

import re

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


#: a figure of each game's worked examples, as the Italian rules write it (the spec's numbers)
ITALIAN_FIGURES = {
    "scopa": "21 a 0", "scopone": "1 a 8", "asso_pigliatutto": "18 a 0", "cirulla": "33 a 0",
    "briscola": "120 − 51 = 69", "tresette": "9 a 2", "bestia": "+3, −3, −6", "hearts": "24, 0, 0, 2",
    "spades": "−207 a −20", "poker_italiana": "+220, +290, −510", "solitario": "625 punti",
    "burraco": "1300", "scala40": "0, 1, 104",
}


@pytest.mark.parametrize("game", sorted(ENGINES))
@pytest.mark.django_db
def test_rules_page_is_in_the_page_language(game):
    """An Italian page shows docs/rules/it/<game>.md, marked Italian; an English page the English file."""
    assert (RULES_DIR / "it" / f"{game}.md").is_file(), f"write docs/rules/it/{game}.md"
    italian = Client()
    italian.cookies["django_language"] = "it"
    html = italian.get(f"/games/{game}/rules/").content.decode()
    assert '<article class="card rules" lang="it">' in html
    assert ITALIAN_FIGURES[game] in html, "the worked examples keep the spec's numbers"
    assert "<h2>Punteggio</h2>" in html and "<h2>Opzioni del tavolo</h2>" in html and "<h2>Esempi</h2>" in html
    assert "written in English" not in html and "scritte in inglese" not in html
    assert "Worked examples" not in html and "`" not in html  # no English heading, no code notation
    english = Client()
    english.cookies["django_language"] = "en"
    html = english.get(f"/games/{game}/rules/").content.decode()
    assert '<article class="card rules" lang="en">' in html
    assert "Worked examples" in html and "Esempi" not in html


def test_italian_rules_leave_out_no_player_section():
    """Every Italian file has the sections a player reads, in the English file's order."""
    for game in ENGINES:
        text = (RULES_DIR / "it" / f"{game}.md").read_text(encoding="utf-8")
        headings = [line for line in text.splitlines() if line.startswith("## ")]
        assert headings[-3:] == ["## Punteggio", "## Opzioni del tavolo", "## Esempi"], game
        assert headings[0] == "## Giocatori e posti" or headings[0].startswith("## Giocator"), game
        assert not any(h.lower().startswith(("## sources", "## actions", "## view", "## robot")) for h in headings)


#: the same figures as the English rules write them (the spec's numbers)
ENGLISH_FIGURES = {
    "scopa": "21 to 0", "scopone": "1 to 8", "asso_pigliatutto": "18 to 0", "cirulla": "33 to 0",
    "briscola": "120 − 51 = 69", "tresette": "9 to 2", "bestia": "+3, −3, −6", "hearts": "24, 0, 0, 2",
    "spades": "−207 to −20", "poker_italiana": "+220, +290, −510", "solitario": "625 points",
    "burraco": "1300", "scala40": "0, 1, 104",
}
#: how a developer writes, never a player: option keys, seat numbers, the engine, card codes, JSON
DEVELOPER_WORDS = re.compile(
    r"`|\bseats? \d|\bseat `|\bengine\b|\bJSON\b|\blegal_actions\b|\bto_act\b|\bview\(|\bValueError\b|"
    r"\b(?:mode|target|hands|dealer|variant|knockout|buio|rounds)\s*=|\{\"|\"\w+\":\s*[\[\"\d{]|\b\d[hdcb]\b|\b[QJT][hdcs]\b")


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_english_rules_are_written_for_players(game):
    """The English file reads like the Italian one: the sections a player reads, in words, with the
    spec's worked figures, and nothing a developer would write (issue 12)."""
    text = (RULES_DIR / f"{game}.md").read_text(encoding="utf-8")
    players = rules_for_players(text)
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings[-3:] == ["## Scoring", "## Table options", "## Worked examples"], game
    assert headings[0].startswith("## Player"), game
    assert players.count("\n## ") + 1 == len(headings), "a section the rules page would leave out"
    found = DEVELOPER_WORDS.search(players)
    assert found is None, f"{game}: {found.group(0)!r} in {players[max(0, found.start() - 60):found.end() + 60]!r}"
    assert ENGLISH_FIGURES[game] in players


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_italian_rules_have_no_developer_words(game):
    players = rules_for_players((RULES_DIR / "it" / f"{game}.md").read_text(encoding="utf-8"))
    found = DEVELOPER_WORDS.search(players) or re.search(r"\bposto \d|\bmotore\b", players)
    assert found is None, f"{game}: {found.group(0)!r}"
