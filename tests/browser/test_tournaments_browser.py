"""The tournament pages in Debian's chromium against `manage.py serve` with the demo world:
the lobby, a scheduled tournament, registering (and a clear refusal), the finished bracket,
a running bracket with byes, points standings, a cancelled tournament as its player and as
an operator. Screenshots at 1366 and 390 px."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def _login(page, base, username):
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "mazziere-demo")
    page.click("button[type=submit]")


def _open(page, base, name):
    page.goto(f"{base}/tournaments/")
    page.click(f"text={name}")
    page.wait_for_selector("#tournament-body")


def test_tournament_pages(chromium, mazziere_server, artifacts):
    base, _env, still_up = mazziere_server
    for width, height, lang in ((1366, 900, "it-IT"), (390, 844, "en-US")):
        context = chromium.new_context(viewport={"width": width, "height": height}, locale=lang)
        page = context.new_page()
        page.goto(f"{base}/tournaments/")
        assert "Sit and Go" in page.inner_text("main")
        assert "€5,00 (4,50+0,50)" in page.inner_text("main")
        page.screenshot(path=str(artifacts / f"tournaments-lobby-{width}.png"), full_page=True)

        # a player with no money is told why; one with money registers and can unregister
        _login(page, base, "anna" if width == 1366 else "demo_lia")
        _open(page, base, "Torneo della sera")
        if width == 1366:
            page.click("#register")
            assert "€10,00" in page.inner_text(".messages")
            page.screenshot(path=str(artifacts / f"tournament-register-refused-{width}.png"), full_page=True)
        else:
            page.click("#register")
            page.wait_for_selector("#unregister")
            page.screenshot(path=str(artifacts / f"tournament-registered-{width}.png"), full_page=True)
            page.click("#unregister")
            page.wait_for_selector("#register")
        page.context.clear_cookies()

        _open(page, base, "Sit and Go concluso")
        assert page.locator(".bracket-round").count() == 2
        page.screenshot(path=str(artifacts / f"tournament-bracket-finished-{width}.png"), full_page=True)

        _open(page, base, "Eliminazione in corso")  # 6 players: an 8 bracket with 2 byes, round one in play
        assert page.locator(".bracket-round").count() == 3 and page.locator(".bracket-match.bye").count() == 2
        page.screenshot(path=str(artifacts / f"tournament-knockout-running-{width}.png"), full_page=True)

        _open(page, base, "Torneo a punti concluso")
        assert page.locator("table.standings tbody tr").count() == 3
        page.screenshot(path=str(artifacts / f"tournament-points-finished-{width}.png"), full_page=True)

        _login(page, base, "demo_elsa")
        _open(page, base, "Torneo annullato")
        assert page.locator("#my-refund").count() == 1 and page.locator("#refund-progress").count() == 0
        page.screenshot(path=str(artifacts / f"tournament-cancelled-player-{width}.png"), full_page=True)
        page.context.clear_cookies()

        _login(page, base, "operatore")
        _open(page, base, "Torneo annullato")
        assert "8" in page.inner_text("#refund-progress")
        page.screenshot(path=str(artifacts / f"tournament-cancelled-operator-{width}.png"), full_page=True)
        context.close()
    still_up()
