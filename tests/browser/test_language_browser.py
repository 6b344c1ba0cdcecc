"""The rules pages and the create-table form in Italian and in English, at 1366 px and 390 px,
in Debian's chromium (issue 12): each rules page is in the language of the page (Italian
rules on Italian pages), nothing scrolls sideways, and screenshots go to
``test-artifacts/language/``."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from apps.games.engines import ENGINES
from tests.conftest import LONG

from .test_pages_phone_browser import WIDTHS, _check, _login

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600), LONG]  # the languages of pages: tests/test_i18n.py in CI

#: a heading every rules page of that language has, and the start of its scoring heading
HEADINGS = {"it": ("Esempi", "Punteggio"), "en": ("Worked examples", "Scoring")}
#: rules pages screenshotted whole (one of each deck and family); the rest by their first screen
WHOLE_SHOTS = {"scopa", "hearts", "burraco"}


def test_rules_and_create_form_in_both_languages(chromium, mazziere_server, artifacts):
    base, _env, still_up = mazziere_server
    shots = artifacts / "language"
    shots.mkdir(exist_ok=True)
    for language in ("it", "en"):
        for width, height in WIDTHS:
            context = chromium.new_context(viewport={"width": width, "height": height},
                                           locale="it-IT" if language == "it" else "en-GB")
            context.add_cookies([{"name": "django_language", "value": language,
                                  "domain": urlparse(base).hostname, "path": "/"}])
            page = context.new_page()
            _login(page, base, "mario" if width == 1366 else "luca")
            for game in sorted(ENGINES):
                page.goto(f"{base}/games/{game}/rules/")
                assert page.locator("html").get_attribute("lang") == language
                article = page.locator("article.rules")
                assert article.get_attribute("lang") == language, game
                headings = article.locator("h2").all_inner_texts()
                examples, scoring = HEADINGS[language]
                assert examples in headings and any(h.startswith(scoring) or "scoring" in h for h in headings), \
                    (game, language, headings)
                # every page is measured; three are shot whole, the others' first screen
                _check(page, f"rules-{game}-{language}", width, shots, full_page=game in WHOLE_SHOTS, idle=False)
            page.goto(f"{base}/tables/?new=scopa#create")
            page.locator("#create").scroll_into_view_if_needed()
            labels = page.locator("main").inner_text()
            assert ("Punti per vincere" if language == "it" else "Points to win") in labels
            _check(page, f"create-form-{language}", width, shots)
            # the browser itself holds back a stake that is not an amount and an option out of range
            page.fill("#create-stake", "2,505")
            assert page.locator("#create-stake").evaluate("e => e.validity.patternMismatch")
            page.fill("#create-stake", "2,50")
            assert not page.locator("#create-stake").evaluate("e => e.validity.patternMismatch")
            target = page.locator("input[name=opt-scopa-target]")
            target.fill("500")
            assert target.evaluate("e => e.validity.rangeOverflow")
            context.close()
            still_up()
