"""The match fragments are Jinja2 templates (issue 30: half the CPU of Django's engine on the move
path; apps/play/jinja.py). They draw escaped, in the page's language, and makemessages keeps
their strings (apps/play/fragment_strings.py, generated)."""

from __future__ import annotations

import gettext
import importlib.util
from pathlib import Path

import pytest
from django.template import engines
from django.template.loader import render_to_string
from django.utils import translation

from apps.play.jinja import fragment_exists, fragment_render

ROOT = Path(__file__).resolve().parents[2]
MO = ROOT / "locale" / "it" / "LC_MESSAGES" / "django.mo"


def _script():
    spec = importlib.util.spec_from_file_location("fragment_strings_script", ROOT / "scripts" / "fragment_strings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_strings_module_is_current():
    script = _script()
    assert (ROOT / "apps" / "play" / "fragment_strings.py").read_text(encoding="utf-8") == script.module_text(), \
        "a fragment's strings changed: run python scripts/fragment_strings.py, then makemessages and fill_po.py"


def test_every_fragment_string_has_its_italian():
    with MO.open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)._catalog  # noqa: SLF001 (the parsed .mo)
    messages = _script().fragment_messages()
    assert len(messages) > 100
    missing = [m for m in messages if (m if isinstance(m, str) else (m[0], 0)) not in catalogue]
    assert missing == []


SEAT = {"number": 0, "name": '<img src=x onerror="alert(1)">', "to_act": True, "connected": True}


def test_a_fragment_escapes_what_players_wrote():
    html = fragment_render("tables/_seats.html", {"dom_id": "table-1", "version": 3, "seats": [SEAT]})
    assert "<img" not in html and "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in html


@pytest.mark.parametrize(("language", "words"), [("it", "di turno"), ("en", "to play")])
def test_a_fragment_speaks_the_page_language(language, words):
    with translation.override(language):
        html = fragment_render("tables/_seats.html", {"dom_id": "table-1", "version": 3, "seats": [SEAT]})
    assert f'<span class="tag turn">{words}</span>' in html


def test_a_missing_name_draws_nothing_as_in_django_templates():
    html = fragment_render("tables/_timer.html", {"dom_id": "table-9", "seconds_left": None})
    assert html == '<div id="table-9-timer" class="timer" data-version="" data-deadline=""></div>'


def test_a_django_page_draws_a_fragment_from_its_own_context():
    page = engines["django"].from_string('{% load fragments %}<main>{% fragment "tables/_timer.html" %}</main>')
    html = page.render({"dom_id": "table-4", "version": 7, "deadline": "", "seconds_left": 12, "turn_names": ["Ada"]})
    assert html.startswith('<main><div id="table-4-timer" class="timer" data-version="7"') and "12</span> s" in html


def test_game_boards_are_found_among_the_fragments():
    assert fragment_exists("tables/games/burraco/board.html")
    assert not fragment_exists("tables/games/briscola/board.html")  # drawn by the generic board
    assert "felt-grid" in render_to_string("tables/games/_table.html", {"seats": [], "players": 2})


def test_a_fragment_draws_the_backs_as_the_django_tag_does():
    seat = {"number": 1, "name": "Bice", "hand_count": 3, "team": None}
    with translation.override("it"):
        html = fragment_render("tables/games/_table.html", {"seats": [seat], "players": 2, "face": "french"})
        tag = engines["django"].from_string('{% load cards %}{% card_backs 3 %}').render({"face": "french"})
    assert '<span class="backs" aria-label="3 carte">' in html and html.count('class="playing-card back') == 3
    assert tag in html
