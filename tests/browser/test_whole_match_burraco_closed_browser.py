"""A whole match of Burraco in the closed variants (chiuso, chiuso sporco, chiuso STCL), through
the page in Debian's chromium (see tests/browser/whole_match.py). One module per family, each with its own server, so that the
browser workers of ``make test`` play the families side by side."""

from __future__ import annotations

import os

import pytest

from .whole_match import BURRACO_CLOSED, play_whole_match

pytestmark = [
    pytest.mark.browser, pytest.mark.timeout(int(os.environ.get("MAZZIERE_BROWSER_TIMEOUT", "1800"))),
    # a Burraco match is ~100 clicks a hand for the page's player: longer than CI's whole budget
    pytest.mark.skipif(not os.environ.get("MAZZIERE_LONG_BROWSER"),
                       reason="a whole Burraco match by clicking outlasts CI: set MAZZIERE_LONG_BROWSER=1"),
]


@pytest.mark.parametrize(("name", "game", "players", "options"), BURRACO_CLOSED, ids=[g[0] for g in BURRACO_CLOSED])
def test_a_whole_match_through_the_page(chromium, fast_server, artifacts, name, game, players, options):
    play_whole_match(chromium, fast_server, artifacts, name, game, players, options)
