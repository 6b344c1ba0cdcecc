"""The lobby a player lands on, in Debian's chromium at 1366 and 390 px (issue 25): the header
shows the player's balances, a waiting table is listed live and one click seats a second
player there; "Gioca subito" opens a table; the page fits the width. When the first player's
page closes, their seat reads "… non è in linea · torna entro 2:59", counting down."""

from __future__ import annotations

import re

import pytest

from tests.browser.test_pages_phone_browser import WIDTHS, _check, _login

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

#: per width: who opens a table with "Gioca subito", who sits at it from the lobby, which game
PEOPLE = {1366: ("giulia", "luca", "tresette", "Giulia"), 390: ("anna", "mario", "cirulla", "AnnaBriscola")}


def test_the_lobby_seats_a_player_in_one_click(chromium, mazziere_server, artifacts):
    base, _env, still_up = mazziere_server
    shots = artifacts / "lobby"
    shots.mkdir(exist_ok=True)
    for width, height in WIDTHS:
        opener, sitter, game, opener_nick = PEOPLE[width]
        one = chromium.new_context(viewport={"width": width, "height": height}, locale="it-IT")
        two = chromium.new_context(viewport={"width": width, "height": height}, locale="it-IT")
        watcher = two.new_page()
        _login(watcher, base, sitter)
        watcher.goto(f"{base}/")
        balances = watcher.inner_text("#header-balances")
        assert "€" in balances and "crediti" in balances, balances
        assert "online" in watcher.inner_text("#lobby-online")
        # the demo's Briscola for credits waits for a second player: listed, with its stake
        assert watcher.locator("#lobby-tables li[data-game=briscola]").count() >= 1
        _check(watcher, "lobby", width, shots)
        # the other player presses "Gioca subito": a new table, and the watcher's lobby shows it live
        page = one.new_page()
        _login(page, base, opener)
        page.goto(f"{base}/")
        page.click(f"#game-{game} form.play-now button")
        page.wait_for_url(re.compile(r".*/tables/\d+/$"))
        table_id = re.search(r"/tables/(\d+)/$", page.url).group(1)
        row = watcher.locator(f"#lobby-tables li[data-table='{table_id}']")
        row.wait_for(timeout=15000)  # the poll: every 5 s, no reload
        assert opener_nick in row.inner_text() and "manca 1 giocatore" in row.inner_text()
        watcher.screenshot(path=str(shots / f"lobby-waiting-{width}.png"), full_page=True)
        row.locator("button").click()
        watcher.wait_for_url(re.compile(rf".*/tables/{table_id}/$"))
        watcher.wait_for_selector("[id$=-actions]", timeout=20000)
        assert opener_nick in watcher.inner_text("main")
        _check(watcher, "table-after-sit", width, shots)
        # the opener's page closes: the seat says so, with the grace period counting down (m:ss)
        one.close()
        away = watcher.locator(f"[data-grace]:has-text('{opener_nick} non è in linea')").first
        away.wait_for(timeout=15000)
        assert re.search(r"torna entro [23]:[0-5]\d", away.inner_text()), away.inner_text()
        assert "gioca il Robot" not in watcher.inner_text("main")
        watcher.screenshot(path=str(shots / f"table-away-{width}.png"), full_page=True)
        two.close()
    still_up()
