"""Solitario, Poker all'italiana, Burraco and Scala 40 played in a real browser, over the
real server, with their own boards: every move is made the way a person makes it, by
clicking cards on the board (and then a column, a meld or the move the page proposes).
Screenshots at 1366 px and 390 px go to test-artifacts/."""

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
        player.page.locator(f"#table-{player.table_id}-board {within} [data-pick][data-card='{code}']").nth(n).click(
            position={"x": 8, "y": 8})  # the corner a fanned card shows
        used[code] = n + 1


def plain(player: Player, kind: str):
    return player.page.locator(f"#table-{player.table_id}-actions form[data-type='{kind}'] button")


def test_solitario_moves_by_clicking_a_card_then_its_destination(chromium, mazziere_server, artifacts):
    base, _, still_up = mazziere_server
    luca = Player(chromium, base, "luca")
    luca.log_in()
    table_id = create_table(luca, "solitario")
    board = luca.page.locator(f"#table-{table_id}-board")
    board.locator(".sol-columns").wait_for()
    assert board.locator(".sol-column").count() == 7
    shots(luca, artifacts, "solitario-start")
    moved = drawn = 0
    for _ in range(30):
        assert wait_my_turn(luca)
        version = board_version(luca)
        moves = [m["action"] for m in legal_moves(luca) if m["action"]["type"] == "move"
                 and not (m["action"]["to"] != "f" and board.locator(
                     f".sol-foundations [data-card='{m['action']['card']}']").count())]
        if moves and moved < 6:
            move = next((m for m in moves if m["to"] == "f"), moves[0])
            luca.page.locator(f"#table-{table_id}-board [data-pick][data-card='{move['card']}']").click(
                position={"x": 8, "y": 8})
            assert board.locator(".card-pick.selected").count() == 1
            luca.page.locator(f"#table-{table_id}-board [data-target='{move['to']}']").first.click(
                position={"x": 5, "y": 5})
            moved += 1
        elif board.locator(".sol-stock [data-send]").count():
            board.locator(".sol-stock [data-send]").click()
            drawn += 1
        else:
            break
        wait_version_above(luca, version)
        if moved >= 6 and drawn >= 2:
            break
    assert moved >= 1 and drawn >= 1, (moved, drawn)
    assert "moves: 0" not in board.inner_text() and "mosse: 0" not in board.inner_text()  # the waste may be empty again
    shots(luca, artifacts, "solitario-later")
    assert not luca.errors, luca.errors
    luca.context.close()
    still_up()


def test_poker_hand_with_the_draw_by_selection(chromium, mazziere_server, artifacts):
    base, _, still_up = mazziere_server
    anna = Player(chromium, base, "anna")
    anna.log_in()
    table_id = create_table(anna, "poker_italiana", options={"opening": "free"})
    add_robots(anna, 1)
    board = anna.page.locator(f"#table-{table_id}-board")
    board.locator(".poker-seats").wait_for(timeout=10_000)
    assert board.locator(".my-hand svg[data-card]").count() == 5
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
    board.locator(".poker-seats tr.to-act").first.wait_for(timeout=15_000)  # the next hand, dealt at once
    assert not anna.errors, anna.errors
    anna.context.close()
    still_up()


def meld_turns(player: Player, artifacts, game: str, turns: int) -> int:
    """Play ``turns`` turns of a meld game by clicking: draw, meld what can be melded
    (cards clicked in reverse order: the page sends them in the engine's order), discard."""
    table_id = player.table_id
    board = player.page.locator(f"#table-{table_id}-board")
    melded = 0
    for _turn in range(turns):
        if not wait_my_turn(player, 30):
            break
        version = board_version(player)
        if plain(player, "reenter").count():
            plain(player, "reenter").click()
            version = wait_version_above(player, version)
            continue
        if plain(player, "draw").count():
            plain(player, "draw").click()
            version = wait_version_above(player, version)
        for _ in range(3):
            melds = [m["action"] for m in legal_moves(player) if m["action"]["type"] == "meld"]
            if not melds:
                break
            click_cards(player, list(reversed(melds[0]["cards"])))
            proposal = player.page.locator("#proposals button.proposal")
            proposal.first.wait_for()
            if not melded:
                shots(player, artifacts, f"{game}-selected")
            proposal.first.click()
            version = wait_version_above(player, version)
            melded += 1
        discards = [m["action"] for m in legal_moves(player) if m["action"]["type"] == "discard"]
        if not discards:
            cancel = plain(player, "cancel")
            if cancel.count():
                cancel.click()
                version = wait_version_above(player, version)
                discards = [m["action"] for m in legal_moves(player) if m["action"]["type"] == "discard"]
        if not discards:
            continue  # the hand ended with the last meld (Burraco: going out)
        click_cards(player, [discards[0]["card"]])
        player.page.locator("#proposals button.proposal", has_text=re.compile("Scart|Discard")).click()
        wait_version_above(player, version)
        assert board.locator(".my-hand").count()
    return melded


def test_burraco_melds_by_selecting_cards(chromium, mazziere_server, artifacts):
    base, _, still_up = mazziere_server
    mario = Player(chromium, base, "mario")
    mario.log_in()
    create_table(mario, "burraco", options={"target": 0, "variant": "aperto"})
    add_robots(mario, 1)
    board = mario.page.locator(f"#table-{mario.table_id}-board")
    board.locator(".teams-melds").wait_for(timeout=10_000)
    assert "Express" in board.inner_text()
    shots(mario, artifacts, "burraco-start")
    melded = meld_turns(mario, artifacts, "burraco", 10)
    assert melded >= 1
    assert board.locator(".team-melds.mine .meld").count() >= 1
    shots(mario, artifacts, "burraco-later")
    assert not mario.errors, mario.errors
    mario.context.close()
    still_up()


def test_scala40_melds_and_the_table(chromium, mazziere_server, artifacts):
    base, _, still_up = mazziere_server
    giulia = Player(chromium, base, "giulia")
    giulia.log_in()
    create_table(giulia, "scala40", players=3)
    add_robots(giulia, 2)
    board = giulia.page.locator(f"#table-{giulia.table_id}-board")
    board.locator(".s40-players").wait_for(timeout=10_000)
    shots(giulia, artifacts, "scala40-start")
    meld_turns(giulia, artifacts, "scala40", 12)
    shots(giulia, artifacts, "scala40-later")
    assert not giulia.errors, giulia.errors
    giulia.context.close()
    still_up()
