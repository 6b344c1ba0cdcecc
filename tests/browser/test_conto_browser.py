"""The conto di gioco in Debian's chromium against the real `manage.py serve` (regulation.md
§1.1, §1.3, §1.7): a new player signs up at 390 px (errors beside their fields, then success),
uploads the front and back of a document; compliance finds the submission in the KYC queue at
1366 and 390 px, sees the images beside the data, and approves it. Then responsible gaming
(§2, §3, §4): a demo player lowers a limit and asks for a raise (pending, then cancelled), sees
the session header and the sessions page, and excludes themselves from money tables after the
confirmation. Screenshots in test-artifacts/."""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.conftest import CHROMIUM, _still_up
from tests.conto.kyc_helpers import PDF, png
from tests.embedded import serving, wait_for

pytestmark = pytest.mark.browser

FORM = {
    "#f-username": "nuovo_giocatore", "#f-password": "Tavolo-Verde-85", "#f-email": "nuovo@example.it",
    "#f-mobile": "+393331234567", "#f-first-name": "Paola", "#f-last-name": "Verdi",
    "#f-birth-date": "1992-01-01", "#f-codice-fiscale": "VRDPLA92A41L219Q",
    "#f-birth-place-comune": "Torino", "#f-birth-place-provincia": "TO",
    "#f-residence-address": "Corso Buenos Aires 10", "#f-residence-postal-code": "20124",
    "#f-residence-comune": "Milano", "#f-residence-provincia": "MI",
    "#f-document-number": "CA98765ZZ", "#f-document-issuer": "Comune di Milano", "#f-document-expires-at": "2031-05-01",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium not installed: apt-get install chromium (CI does)")
    var_dir = tmp_path_factory.mktemp("serve")
    with serving(var_dir, reuse_seed=True) as (base, env, proc):
        wait_for(f"{base}/")
        yield base, lambda: _still_up(proc, var_dir)


def _narrow(page, width):
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_sign_up_upload_and_kyc_review(chromium, server, artifacts, tmp_path):
    base, still_up = server
    phone = chromium.new_context(viewport={"width": 390, "height": 844}, locale="it-IT")
    page = phone.new_page()
    page.goto(f"{base}/accounts/signup/")
    for selector, value in FORM.items():
        page.fill(selector, value)
    page.select_option("#f-sex", "F")
    page.select_option("#f-document-type", "carta_identita")
    page.check("#f-accept-terms")
    page.click("form.signup-form button[type=submit]")
    error = page.locator(".field-error[data-field=codice_fiscale]")
    assert "non è valido" in error.inner_text()
    assert page.input_value("#f-residence-address") == "Corso Buenos Aires 10"  # nothing typed is lost
    error.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "signup-error-390.png"), full_page=True)
    _narrow(page, 390)
    page.fill("#f-password", "Tavolo-Verde-85")
    page.fill("#f-codice-fiscale", "vrdpla92a41l219p")
    page.click("form.signup-form button[type=submit]")
    page.wait_for_url(re.compile(r"/accounts/nickname/"))
    page.fill("input[name=nickname]", "PaolaV")
    page.click("main form button[type=submit]")
    page.goto(f"{base}/accounts/account/")
    assert page.locator("[data-testid=conto-state]").get_attribute("data-state") == "in_verifica"
    front, back = tmp_path / "front.png", tmp_path / "back.pdf"
    front.write_bytes(png(40, 25))
    back.write_bytes(PDF)
    for side, path in (("front", front), ("back", back)):
        page.select_option("select[name=side]", side)
        page.set_input_files("input[name=file]", str(path))
        page.click(".upload-form button[type=submit]")
        page.wait_for_load_state()
    assert "72" in page.locator(".state-words").inner_text()  # waiting for verification
    page.screenshot(path=str(artifacts / "account-submitted-390.png"), full_page=True)
    _narrow(page, 390)
    phone.close()

    for width in (1366, 390):
        desk = chromium.new_context(viewport={"width": width, "height": 900}, locale="it-IT")
        page = desk.new_page()
        page.goto(f"{base}/accounts/login/")
        page.fill("input[name=username]", "conformita")
        page.fill("input[name=password]", "mazziere-demo")
        page.click("form.card button[type=submit]")
        page.goto(f"{base}/compliance/kyc/")
        row = page.locator("table.kyc-queue tr", has_text="nuovo_giocatore")
        assert row.count() == 1
        page.screenshot(path=str(artifacts / f"kyc-queue-{width}.png"), full_page=True)
        _narrow(page, width)
        row.locator("a.button").click()
        page.wait_for_url(re.compile(r"/compliance/kyc/\d+/$"))
        images = page.locator(".kyc-doc img")
        assert images.count() == 1 and page.locator(".kyc-doc a.button").count() == 1  # the PNG shown, the PDF linked
        assert images.evaluate("img => img.naturalWidth") == 40
        page.screenshot(path=str(artifacts / f"kyc-review-{width}.png"), full_page=True)
        _narrow(page, width)
        if width == 390:
            for _attempt in range(40):  # ADM's answer to account_open comes from the worker
                page.click("form.decision button.approve")
                page.wait_for_load_state()
                if "/compliance/kyc/" in page.url and not re.search(r"/kyc/\d+/", page.url):
                    break
                time.sleep(0.5)
            assert page.locator(".messages .success").count() == 1
            assert page.locator("table.kyc-queue tr", has_text="nuovo_giocatore").count() == 0
        desk.close()
    still_up()


def _login(page, base, username):
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "mazziere-demo")
    page.click("form.card button[type=submit]")
    page.wait_for_load_state()


@pytest.mark.parametrize(("width", "username"), [(1366, "luca"), (390, "anna")])
def test_limits_sessions_and_self_exclusion(chromium, server, artifacts, width, username):
    base, still_up = server
    context = chromium.new_context(viewport={"width": width, "height": 900}, locale="it-IT")
    page = context.new_page()
    _login(page, base, username)
    assert page.locator("[data-testid=session-bar]").count() == 1
    page.goto(f"{base}/accounts/limits/")
    page.fill("input[name=spend_day]", "50")  # lower: at once
    page.fill("input[name=deposit_day]", "300")  # higher: pending for 7 days
    page.click("main form.card button[type=submit]:not(.secondary)")
    page.wait_for_load_state()
    spend = page.locator("tr[data-key=spend_day]")
    assert "50,00" in spend.inner_text()
    deposit = page.locator("tr[data-key=deposit_day]")
    assert "300,00" in deposit.locator(".pending").inner_text()
    page.screenshot(path=str(artifacts / f"limits-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    deposit.locator(".pending button").click()
    page.wait_for_load_state()
    assert page.locator("tr[data-key=deposit_day] .pending").count() == 0
    page.goto(f"{base}/accounts/sessions/")
    assert page.locator("tbody tr").count() >= 1
    page.screenshot(path=str(artifacts / f"sessions-{width}.png"), full_page=True)
    page.goto(f"{base}/accounts/self-exclusion/")
    page.select_option("select[name=scope]", "money_tables")
    page.select_option("select[name=period]", "7")
    page.screenshot(path=str(artifacts / f"self-exclusion-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.click("form button.danger")  # without the confirmation the browser refuses (required)
    assert page.locator("ul.exclusions li").count() == 0
    page.check("input[name=confirm]")
    page.click("form button.danger")
    page.wait_for_load_state()
    assert page.locator("ul.exclusions li[data-scope=money_tables].active").count() == 1
    page.screenshot(path=str(artifacts / f"self-exclusion-active-{width}.png"), full_page=True)
    still_up()
    context.close()


def test_the_cashier_deposit_withdrawal_and_cancel(chromium, server, artifacts):
    """regulation.md §5 at 390 px (1366 px: the finance test below): a demo player deposits with
    the test card, asks for a withdrawal (the money set aside), cancels it (back in the balance)."""
    base, still_up = server
    width, username = 390, "mario"
    context = chromium.new_context(viewport={"width": width, "height": 900}, locale="it-IT")
    page = context.new_page()
    _login(page, base, username)
    if width < 700:
        page.click("label.nav-button")  # the phone's menu
    page.click("nav.topnav a[href='/accounts/cashier/']")
    page.wait_for_url(f"{base}/accounts/cashier/")
    cash_before = page.inner_text("[data-testid=cash]")
    page.fill("form[action$='/deposits/'] input[name=amount]", "30")
    page.click("form[action$='/deposits/'] button[type=submit]")
    page.wait_for_load_state()
    assert "Deposito ricevuto" in page.inner_text("main")
    assert page.inner_text("[data-testid=cash]") != cash_before
    page.fill("form[action$='/withdrawals/'] input[name=amount]", "10")
    page.click("form[action$='/withdrawals/'] button[type=submit]")
    page.wait_for_load_state()
    assert page.inner_text("[data-testid=pending]") == "€10,00"
    page.screenshot(path=str(artifacts / f"cashier-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.click("form[action$='/cancel/'] button")
    page.wait_for_load_state()
    assert page.inner_text("[data-testid=pending]") == "€0,00"
    assert "annullato" in page.inner_text("main").lower()
    still_up()
    context.close()


def test_finance_approves_a_withdrawal_from_the_queue(chromium, server, artifacts):
    """regulation.md §5.4: a player asks for a withdrawal; finance sees it with its checks at
    1366 px and approves it with a reason; the player's page says it is paid."""
    base, still_up = server
    player = chromium.new_context(viewport={"width": 1366, "height": 900}, locale="it-IT").new_page()
    _login(player, base, "luca")
    player.goto(f"{base}/accounts/cashier/")
    player.fill("form[action$='/deposits/'] input[name=amount]", "20")
    player.click("form[action$='/deposits/'] button[type=submit]")
    player.wait_for_load_state()
    player.fill("form[action$='/withdrawals/'] input[name=amount]", "15")
    player.click("form[action$='/withdrawals/'] button[type=submit]")
    player.wait_for_load_state()
    assert player.inner_text("[data-testid=pending]") == "€15,00"
    player.screenshot(path=str(artifacts / "cashier-1366.png"), full_page=True)
    assert player.evaluate("document.documentElement.scrollWidth") <= 1366
    desk = chromium.new_context(viewport={"width": 1366, "height": 900}, locale="it-IT").new_page()
    _login(desk, base, "finanza")
    desk.goto(f"{base}/backoffice/withdrawals/")
    row = desk.locator("tr[data-withdrawal]", has_text="luca").first
    assert "no_aml_case" in row.inner_text() and "€15,00" in row.inner_text()
    desk.screenshot(path=str(artifacts / "withdrawal-queue-1366.png"), full_page=True)
    row.locator("form[action$='/approve/'] input[name=reason]").fill("controlli superati")
    row.locator("form[action$='/approve/'] button").click()
    desk.wait_for_load_state()
    assert "approvato" in desk.inner_text(".messagelist, .messages, body").lower()
    player.goto(f"{base}/accounts/cashier/")
    assert "pagato" in player.inner_text("main")
    still_up()
