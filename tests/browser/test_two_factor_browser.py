"""Staff two-factor authentication (regulation.md §10) in Debian's chromium against the real
`manage.py serve` with MAZZIERE_STAFF_OTP_REQUIRED=1: the demo operator logs in, is sent to
/accounts/2fa/, enrols with a code computed from the shown secret, sees the 10 recovery codes
once and reaches the back office; at 390 px the page needs no sideways scrolling."""

from __future__ import annotations

import re
from base64 import b32decode

import pytest
from django_otp.oath import totp

from tests.browser.conftest import CHROMIUM, _still_up
from tests.embedded import serving, wait_for

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def otp_server(tmp_path_factory):
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium not installed: apt-get install chromium (CI does)")
    var_dir = tmp_path_factory.mktemp("serve")
    with serving(var_dir, reuse_seed=True, MAZZIERE_STAFF_OTP_REQUIRED="1") as (base, env, proc):
        wait_for(f"{base}/")
        yield base, lambda: _still_up(proc, var_dir)


def test_operator_enrols_at_first_login_then_reaches_the_back_office(chromium, otp_server):
    base, still_up = otp_server
    context = chromium.new_context(viewport={"width": 390, "height": 844}, locale="it-IT")
    page = context.new_page()
    page.goto(f"{base}/admin/login/?next=/backoffice/")
    page.fill("input[name=username]", "operatore")
    page.fill("input[name=password]", "mazziere-demo")
    page.click("input[type=submit], button[type=submit]")
    page.wait_for_url(re.compile(r"/accounts/2fa/\?next=/backoffice/"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    secret = page.inner_text("[data-testid=otp-secret]").strip()
    assert page.inner_text("[data-testid=otp-url]").startswith("otpauth://totp/")
    page.fill("#otp-code", f"{totp(b32decode(secret), digits=6):06d}")
    page.click("main form button[type=submit]")
    codes = page.locator("[data-testid=recovery-codes] code").all_inner_texts()
    assert len(codes) == 10 and all(re.fullmatch(r"[a-z0-9]{10}", code) for code in codes)
    page.click("[data-testid=recovery-codes] a")
    page.wait_for_url(re.compile(r"/backoffice/$"))
    still_up()
    context.close()
