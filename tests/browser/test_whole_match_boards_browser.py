"""A whole match of Poker all'italiana, Solitario and Scala 40, through the page in Debian's chromium (see
tests/browser/whole_match.py). One module per family, each with its own server, so that the
browser workers of ``make test`` play the families side by side."""

from __future__ import annotations

import os

import pytest

from .whole_match import BOARDS, cases, play_whole_match

pytestmark = [pytest.mark.browser, pytest.mark.timeout(int(os.environ.get("MAZZIERE_BROWSER_TIMEOUT", "600")))]


@pytest.mark.parametrize(("name", "game", "players", "options"), cases(BOARDS))
def test_a_whole_match_through_the_page(chromium, fast_server, artifacts, name, game, players, options):
    play_whole_match(chromium, fast_server, artifacts, name, game, players, options)
