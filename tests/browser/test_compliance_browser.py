"""The compliance review area and the lobby chat in Debian's chromium, against `manage.py
serve` with the demo world (a few hundred seeded lines, flags, reports, a sanction). Every
page is saved at 1366 and 390 px under test-artifacts/; the common path is the queue, a line's
context, a sanction button and its confirmation (which says what the sanction will do)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
WIDTHS = ((1366, 900), (390, 844))


def login(page, base, username):
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "mazziere-demo")
    page.click("button[type=submit]")
    page.wait_for_load_state()


def no_overflow(page) -> None:
    """Nothing wider than the screen (a phone must not scroll sideways)."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), page.url


def test_the_lobby_chat_records_and_offers_a_report_button(chromium, mazziere_server, artifacts):
    base, _env, still_up = mazziere_server
    for (width, height), username in zip(WIDTHS, ("luca", "anna"), strict=True):
        context = chromium.new_context(viewport={"width": width, "height": height}, locale="it-IT")
        page = context.new_page()
        login(page, base, username)
        page.goto(f"{base}/")
        page.wait_for_selector("#lobby-chat-lines")
        page.wait_for_function("document.querySelector('#lobby-chat')?.hasAttribute('ws-connect')")
        page.wait_for_timeout(500)  # the socket opens
        line = f"ciao dalla lobby {width}"
        page.fill("#lobby-chat input[name=chat]", line)
        page.press("#lobby-chat input[name=chat]", "Enter")
        page.wait_for_selector(f"#lobby-chat-lines .chat-line:has-text('{line}')", timeout=10000)
        assert page.locator("#lobby-chat-lines .chat-report summary").count() >= 1
        other = page.locator("#lobby-chat-lines .chat-line").first
        other.locator("summary").click()
        no_overflow(page)
        page.screenshot(path=str(artifacts / f"lobby-chat-{width}.png"), full_page=True)
        other.locator("button[type=submit]").click()
        page.wait_for_selector("#lobby-chat-status:not(:empty)", timeout=10000)
        context.close()
    still_up()


def test_every_compliance_page_and_the_three_click_path(chromium, mazziere_server, artifacts):
    base, _env, still_up = mazziere_server
    for width, height in WIDTHS:
        context = chromium.new_context(viewport={"width": width, "height": height}, locale="it-IT")
        page = context.new_page()
        login(page, base, "conformita")
        page.goto(f"{base}/compliance/")
        rows = page.locator(".review-row")
        assert rows.count() >= 5
        assert page.locator(".flag").first.is_visible()
        no_overflow(page)
        page.screenshot(path=str(artifacts / f"compliance-queue-{width}.png"), full_page=True)
        for name, path in [("search", "/compliance/messages/?q=whatsapp"),
                           ("search-all", "/compliance/messages/"),
                           ("sanctions", "/compliance/sanctions/?active=all"),
                           ("words", "/compliance/words/"), ("signals", "/compliance/signals/")]:
            answer = page.goto(f"{base}{path}")
            assert answer.status == 200, path
            no_overflow(page)
            page.screenshot(path=str(artifacts / f"compliance-{name}-{width}.png"), full_page=True)
        # the signals name the two demo players on one address, with links to their matches
        page.goto(f"{base}/compliance/signals/")
        assert "192.0.2.77" in page.inner_text("main") and "Volpe_7" in page.inner_text("main")
        # and the two demo players who registered for one tournament from one address
        assert "203.0.113.45" in page.inner_text("main") and "SoleMio" in page.inner_text("main")
        # a line written during a match: its context shows the match at that moment
        page.goto(f"{base}/compliance/messages/?q=come+d%27accordo")
        page.locator(".review-row a.primary-link").first.click()
        page.wait_for_load_state()
        moment = page.inner_text(".moment")
        assert "briscola" in moment and ("GattoNero" in moment or "Volpe_7" in moment)
        no_overflow(page)
        page.screenshot(path=str(artifacts / f"compliance-context-{width}.png"), full_page=True)
        # the export of a search is a CSV of its lines
        with page.expect_download() as download:
            page.goto(f"{base}/compliance/messages/?q=whatsapp")
            page.click("text=CSV")
        csv_text = Path(download.value.path()).read_text(encoding="utf-8")
        assert csv_text.startswith("id,created,player,nickname") and "whatsapp" in csv_text
        # the queue (1) → a line's context (2) → a sanction button (3) → its confirmation (4)
        page.goto(f"{base}/compliance/")
        text = page.locator(".review-row .row-text").first.inner_text()
        page.locator(".review-row a.primary-link").first.click()  # click 2
        page.wait_for_load_state()
        assert text in page.inner_text(".focus-text")
        page.screenshot(path=str(artifacts / f"compliance-context-queue-{width}.png"), full_page=True)
        if width == 1366:  # the authority report asks first, saying how much it moves; going back changes nothing
            page.locator("button.preset-authority_report").first.click()
            page.wait_for_load_state()
            moved = page.inner_text("#sanction-confirm [data-key=authority]")
            assert re.search(r"€\d+,\d\d", moved) and "Autorità" in moved
            no_overflow(page)
            page.screenshot(path=str(artifacts / f"compliance-confirm-authority-{width}.png"), full_page=True)
            page.click("#sanction-confirm a.button.secondary")  # cancel: back to the line
            page.wait_for_load_state()
            assert text in page.inner_text(".focus-text")
        preset = "chat_ban" if width == 1366 else "lobby_ban"  # never the same sanction twice
        page.locator(f"button.preset-{preset}").first.click()  # click 3: what it will do
        page.wait_for_load_state()
        assert page.locator("#sanction-confirm").count() == 1 and page.locator(".sanction-row").count() == 0
        no_overflow(page)
        page.screenshot(path=str(artifacts / f"compliance-confirm-{preset}-{width}.png"), full_page=True)
        page.click("#sanction-confirm-button")  # and its confirmation
        page.wait_for_load_state()
        assert re.search(r"/compliance/players/\d+/", page.url)
        assert page.locator(".sanction-row.active").count() >= 1
        no_overflow(page)
        page.screenshot(path=str(artifacts / f"compliance-player-{width}.png"), full_page=True)
        context.close()
    still_up()
