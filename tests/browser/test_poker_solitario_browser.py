"""A cancelled match in a real browser (Solitario and Poker moved to test_card_games_browser.py).
Screenshots at 1366 px and 390 px go to test-artifacts/."""

from __future__ import annotations

import re
import time

import pytest

from .test_table_browser import Player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


def create_table(player: Player, game: str) -> int:
    page = player.page
    page.goto(f"{player.base}/tables/")
    page.select_option("#create-game", game)
    page.click("#create-table")
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    player.table_id = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
    return player.table_id


def board_version(player: Player) -> int:
    return int(player.page.locator(f"#table-{player.table_id}-board").get_attribute("data-version") or 0)


def wait_version_above(player: Player, version: int, seconds: float = 10) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        now = board_version(player)
        if now > version:
            return now
        time.sleep(0.1)
    raise AssertionError(f"the board stayed at version {version}")


def shots(player: Player, artifacts, name: str) -> None:
    for width in (1366, 390):
        player.page.set_viewport_size({"width": width, "height": 900})
        player.page.screenshot(path=str(artifacts / f"{name}-{width}.png"), full_page=True)
    player.page.set_viewport_size({"width": 1366, "height": 900})


def test_a_cancelled_match_is_announced_on_the_board(chromium, mazziere_server, artifacts):
    """Alone with a robot, the player's own proposal cancels the match (the robot does not
    vote, platform.md §8.4): the board says so and offers the next match."""
    base, _, still_up = mazziere_server
    anna = Player(chromium, base, "anna")
    anna.log_in()
    table_id = create_table(anna, "scopa")
    anna.page.click(".robot-button")
    board = anna.page.locator(f"#table-{table_id}-board")
    anna.page.locator(f"#table-{table_id}-actions .my-hand svg[data-card]").first.wait_for(timeout=10_000)
    anna.page.locator(f"#table-{table_id}-actions .cancel-vote button").click()
    board.locator("text=Partita annullata").wait_for(timeout=10_000)
    assert anna.page.locator("text=Gioca ancora").count()
    shots(anna, artifacts, "cancelled")
    assert not anna.errors, anna.errors
    anna.context.close()
    still_up()
