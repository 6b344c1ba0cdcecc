"""The "Gioca ancora" button between matches (platform.md §8.1), in Debian's chromium.

Anna and Mario finish a match at a practice table (played through the service in the
server's own database, to be quick); the page then offers "Gioca ancora". Anna presses it
and sees that Mario is awaited; Mario presses it and the next match starts on both pages.
Screenshots at 1366 px and 390 px go to test-artifacts/.
"""

from __future__ import annotations

import pytest

from tests.embedded import manage

from .test_table_browser import Player, _wait

pytestmark = pytest.mark.browser

FINISH = (
    "from apps.players.models import Profile; from apps.tables import services;"
    "from apps.matches.models import Match; from apps.games.engines import get_engine;"
    "from apps.matches.services import match_action_apply;"
    "a = Profile.objects.get(user__username='anna').user; m = Profile.objects.get(user__username='mario').user;"
    "t = services.table_create(user=a, data={'game': 'briscola'}); services.table_sit(user=m, table_id=t.pk);"
    "match = t.matches.get(); users = {0: a, 1: m}\n"
    "while True:\n"
    "    match.refresh_from_db()\n"
    "    if match.status != 'playing': break\n"
    "    s = get_engine('briscola').from_json(match.state); seat = s.to_act[0]\n"
    "    match_action_apply(match_id=match.pk, action=s.legal_actions(seat)[0], version=match.version,"
    " user=users[seat])\n"
    "print(t.pk)"
)


def test_play_again_between_matches(chromium, mazziere_server, artifacts):
    base, env, still_up = mazziere_server
    table_id = int(manage(env, "shell", "-c", FINISH).strip().splitlines()[-1])
    anna, mario = Player(chromium, base, "anna"), Player(chromium, base, "mario")
    for p in (anna, mario):
        p.log_in()
        p.page.goto(f"{base}/tables/{table_id}/")
        p.page.wait_for_selector("#ready-button")
    assert "Gioca ancora" in anna.page.inner_text("#ready-button")
    anna.page.click("#ready-button")
    _wait(anna.page, lambda: anna.page.locator("#ready-button").count() == 0
          and "mario" in anna.page.inner_text(f"#table-{table_id}-next").lower(), 5, "Anna to see Mario awaited")
    for width, height in ((1366, 900), (390, 844)):
        for p in (anna, mario):
            p.page.set_viewport_size({"width": width, "height": height})
            p.screenshot(artifacts / f"play-again-{p.username}-{width}.png")
    mario.page.click("#ready-button")
    for p in (anna, mario):
        _wait(p.page, lambda p=p: p.page.locator(f"#table-{table_id}-next").count() == 0
              and p.page.locator(f"#table-{table_id}-result").count() == 0, 8, f"{p.username}: the next match")
        assert not p.errors, p.errors
        p.context.close()
    still_up()
