"""The login lockout and the bad-input page in Debian's chromium, against the real `manage.py
serve` (what `make run` starts): django-axes works with the login view and the demo accounts."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_lockout_page_and_bad_address_page(chromium, mazziere_server, artifacts):
    base, _env, still_up = mazziere_server
    for width, height in ((1366, 900), (390, 844)):
        context = chromium.new_context(viewport={"width": width, "height": height}, locale="it-IT")
        page = context.new_page()
        username = "mario" if width == 1366 else "giulia"
        for n in range(10):
            page.goto(f"{base}/accounts/login/")
            page.fill("input[name=username]", username)
            page.fill("input[name=password]", f"sbagliata{n}")
            page.click("button[type=submit]")
        alert = page.locator("[role=alert][data-code=throttled]")
        assert "Troppi accessi falliti" in alert.inner_text() and "15 minuti" in alert.inner_text()
        page.screenshot(path=str(artifacts / f"login-locked-{width}.png"), full_page=True)
        # the right password is refused too while the lock lasts
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", "mazziere-demo")
        page.click("button[type=submit]")
        assert page.locator("[role=alert][data-code=throttled]").count() == 1
        assert "/accounts/login/" in page.url
        # a NUL byte in a search box of the address: a clear 400 page, never a 500
        answer = page.goto(f"{base}/tables/?game=a%00b")
        assert answer.status == 400
        assert "game" in page.inner_text("main" if page.locator("main").count() else "body")
        page.screenshot(path=str(artifacts / f"bad-input-400-{width}.png"), full_page=True)
        context.close()
    still_up()
