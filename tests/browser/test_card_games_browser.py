"""Poker all'italiana's change of cards by selection and sitting out between hands, in a real
browser over the real server. (Solitario, Burraco and Scala 40 are played by clicking, whole
matches, in tests/browser/test_whole_match_*_browser.py.) Screenshots at 1366 px and 390 px
go to test-artifacts/."""

from __future__ import annotations

import re
import time

import pytest

from .test_table_browser import Player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def create_table(player: Player, game: str, *, players: int | None = None, options: dict | None = None) -> int:
    page = player.page
    page.goto(f"{player.base}/tables/")
    page.select_option("#create-game", game)
    if players:
        page.select_option("#create-players", str(players))
    for name, value in (options or {}).items():  # the lobby's per-game option controls
        control = page.locator(f"[name='opt-{game}-{name}']")
        if control.evaluate("el => el.tagName") == "SELECT":
            control.select_option(str(value).lower() if isinstance(value, bool) else str(value))
        else:
            control.fill(str(value))
    page.click("#create-table")
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    player.table_id = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
    return player.table_id


def add_robots(player: Player, count: int) -> None:
    for _ in range(count):
        buttons = player.page.locator(".robot-button")
        before = buttons.count()
        buttons.first.click()
        deadline = time.monotonic() + 10
        while buttons.count() >= before and time.monotonic() < deadline:
            time.sleep(0.1)


def board_version(player: Player) -> int:
    return int(player.page.locator(f"#table-{player.table_id}-board").get_attribute("data-version") or 0)


def wait_version_above(player: Player, version: int, seconds: float = 15) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        now = board_version(player)
        if now > version:
            return now
        player.page.wait_for_timeout(100)
    raise AssertionError(f"the board stayed at version {version}")


def wait_my_turn(player: Player, seconds: float = 20) -> bool:
    """True when the page offers moves, False when the match is over."""
    deadline = time.monotonic() + seconds
    board = player.page.locator(f"#table-{player.table_id}-board")
    while time.monotonic() < deadline:
        if board.locator(".result").count():
            return False
        if player.page.locator("#move-form").count():
            return True
        player.page.wait_for_timeout(100)
    raise AssertionError("neither my turn nor the end came")


def legal_moves(player: Player) -> list[dict]:
    return player.page.evaluate(
        "() => { const el = document.getElementById('legal-moves'); return el ? JSON.parse(el.textContent) : []; }")


def shots(player: Player, artifacts, name: str) -> None:
    for width in (1366, 390):
        player.page.set_viewport_size({"width": width, "height": 900})
        player.page.screenshot(path=str(artifacts / f"{name}-{width}.png"), full_page=True)
    player.page.set_viewport_size({"width": 1366, "height": 900})


def click_cards(player: Player, cards: list[str], within: str = ".my-hand") -> None:
    """Select cards by clicking them (each code once, duplicates of a double deck too)."""
    used: dict[str, int] = {}
    for code in cards:
        n = used.get(code, 0)
        player.page.locator(f"#table-root {within} [data-pick][data-card='{code}']").nth(n).click(
            position={"x": 8, "y": 8})  # the corner a fanned card shows
        used[code] = n + 1


def plain(player: Player, kind: str):
    return player.page.locator(f"#table-{player.table_id}-actions form[data-type='{kind}'] button")


def test_poker_hand_with_the_draw_by_selection(chromium, mazziere_server, artifacts):
    base, _, still_up = mazziere_server
    anna = Player(chromium, base, "anna")
    anna.log_in()
    # the poker entry screen: the recharge button with its rules, and no cash (seed 001)
    anna.page.goto(f"{base}/tables/?game=poker_italiana")
    assert anna.page.locator("#recharge-button").is_visible() and anna.page.locator("#recharge-rules").is_visible()
    anna.page.select_option("#create-game", "poker_italiana")
    assert anna.page.eval_on_selector("#create-currency option[value=cash]", "e => e.hidden && e.disabled")
    table_id = create_table(anna, "poker_italiana", options={"opening": "free"})
    assert anna.page.locator("#recharge-button").is_visible()  # and at the poker table
    add_robots(anna, 1)
    board = anna.page.locator(f"#table-{table_id}-board")
    board.locator(".poker").wait_for(timeout=10_000)
    assert anna.page.locator(f"#table-{table_id}-actions .my-hand svg[data-card]").count() == 5
    shots(anna, artifacts, "poker-start")
    drew = False
    for _ in range(12):
        if not wait_my_turn(anna):
            break
        version = board_version(anna)
        if legal_moves(anna):  # the change of cards: click two cards, then the proposed change
            cards = [m["action"]["cards"] for m in legal_moves(anna) if len(m["action"]["cards"]) == 2][0]
            click_cards(anna, cards)
            proposal = anna.page.locator("#proposals button.proposal")
            proposal.wait_for()
            if not drew:  # a fresh render (as after a timer or another seat's move) keeps the pick
                anna.page.evaluate("""() => new Promise((done) => {
                    document.addEventListener("htmx:wsAfterMessage", () => setTimeout(done, 50), {once: true});
                    document.getElementById("table-root").dispatchEvent(new Event("table:sync"));
                })""")
                still = anna.page.eval_on_selector_all(
                    f"#table-{table_id}-actions .my-hand [data-pick].selected", "els => els.map(e => e.dataset.card)")
                assert sorted(still) == sorted(cards), (still, cards)
                proposal.wait_for()
            shots(anna, artifacts, "poker-draw")
            proposal.click()
            drew = True
        elif plain(anna, "call").count():
            plain(anna, "call").click()
        elif plain(anna, "check").count():
            plain(anna, "check").click()
        else:
            anna.page.locator(f"#table-{table_id}-actions .bet-form button").click()
        wait_version_above(anna, version)
    board.locator(".result").wait_for(timeout=20_000)
    shots(anna, artifacts, "poker-end")
    assert drew
    # between hands: sit out (no hand is dealt to her, so none at all with only a robot), then back in
    anna.page.click("#sit-out-button")
    anna.page.locator("#sit-in-button").wait_for(timeout=10_000)
    shots(anna, artifacts, "poker-sitting-out")
    anna.page.wait_for_timeout(6000)
    assert board.locator(".result").count(), "a hand was dealt to a player sitting out"
    anna.page.click("#sit-in-button")
    board.locator(".seat-spot.to-act").first.wait_for(timeout=15_000)  # the next hand, dealt at once
    assert not anna.errors, anna.errors
    anna.context.close()
    still_up()
