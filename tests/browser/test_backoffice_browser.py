"""The back office in Debian's chromium against the real `manage.py serve`, with a week of
seeded history: the dashboard and every finance page, screenshot at 1366 and 390 px."""

from __future__ import annotations

import re

import pytest

from tests.embedded import manage

pytestmark = pytest.mark.browser

WIDTHS = ((1366, 900), (390, 844))


def login(context, base: str, username: str):
    page = context.new_page()
    page.goto(f"{base}/admin/login/?next=/admin/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "mazziere-demo")
    page.click("input[type=submit], button[type=submit]")
    page.wait_for_url(f"{base}/admin/")
    return page


def player_at_a_new_table(context, base: str, username: str):
    """A player logs in and opens a practice Briscola table of their own: its socket connects."""
    page = context.new_page()
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "mazziere-demo")
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{base}/")
    page.goto(f"{base}/tables/")
    page.select_option("#create-game", "briscola")
    page.click("#create-table")
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    return page


def no_cell_clipped(page) -> list[str]:
    """The table cells (and their boxes) whose content is wider than what shows of them."""
    return page.evaluate("""() => [...document.querySelectorAll('#content table th, #content table td, .bo-numbers')]
        .filter(e => e.scrollWidth > e.clientWidth)
        .map(e => `${(e.closest('[data-key]') || {}).id || ''} ${e.textContent.trim().slice(0, 20)}`)""")


def test_back_office_pages(chromium, mazziere_server, artifacts):
    base, env, still_up = mazziere_server
    manage(env, "shell", "-c", "from tests.browser.backoffice_seed import run; run()")
    for width, height in WIDTHS:
        context = chromium.new_context(viewport={"width": width, "height": height}, locale="it-IT")
        page = login(context, base, "finanza")
        assert page.locator("#backoffice-links a").count() >= 3
        page.screenshot(path=str(artifacts / f"backoffice-admin-index-{width}.png"), full_page=True)
        page.goto(f"{base}/backoffice/?period=7d")
        assert page.locator("section.bo-figure svg").count() == 13
        bank = page.locator("#fig-bank_cash_by_day tfoot td").first.inner_text()
        assert bank.startswith("€") and bank != "€ 0,00"
        assert page.locator("#fig-refunds_by_rule tbody th").all_inner_texts() == ["a2", "b1"]
        finished, cancelled = page.locator("#fig-tournaments_by_day tfoot td").all_inner_texts()[:2]
        assert int(finished) >= 3 and int(cancelled) >= 1  # the seeded week's, from the tournaments' rows
        assert page.locator(".bo-headline [data-key=tournaments] dd").inner_text().startswith(
            f"{finished} / {cancelled}")
        page.screenshot(path=str(artifacts / f"backoffice-dashboard-{width}.png"), full_page=True)
        assert no_cell_clipped(page) == [], "a table of the dashboard cuts its numbers"
        if width == WIDTHS[0][0]:  # issue 25: 4,430 px tall, a chart a row, "5" for 56
            assert page.evaluate("document.documentElement.scrollHeight") < 3000
            tops = page.evaluate("[...document.querySelectorAll('.bo-grid > .bo-figure')].map(f => f.offsetTop)")
            assert len(tops) == 13 and len(set(tops)) == 7, "two charts a row"
            first_chart = page.evaluate("document.querySelector('.bo-grid').getBoundingClientRect().top")
            assert page.evaluate("document.querySelector('.bo-headline').getBoundingClientRect().top") < first_chart
        # the date inputs are drawn by the browser in its locale: an Italian user's (it-IT) reads dd/mm/yyyy
        assert page.locator("html").get_attribute("lang") == "it"
        assert page.evaluate("navigator.language") == "it-IT"
        assert page.evaluate("new Intl.DateTimeFormat(undefined, {day: '2-digit', month: '2-digit', year: 'numeric'})"
                             ".format(new Date(2026, 11, 3))") == "03/12/2026"
        page.locator("form.bo-period").screenshot(path=str(artifacts / f"backoffice-period-inputs-{width}.png"))
        if width == WIDTHS[0][0]:  # "online now" moves over the staff socket as a player comes and goes
            players_online = "document.querySelector('#online-now dd[data-key=players_online]').textContent.trim()"
            page.wait_for_timeout(1500)  # the socket is open and its first push has landed
            before = int(page.locator("#online-now dd[data-key=players_online]").inner_text())
            anna = chromium.new_context(viewport={"width": width, "height": height}, locale="it-IT")
            table_page = player_at_a_new_table(anna, base, "anna")
            page.wait_for_function(f"{players_online} === '{before + 1}'", timeout=20_000)
            page.locator("section.bo-live").screenshot(path=str(artifacts / f"backoffice-online-live-{width}.png"))
            table_page.close()
            anna.close()
            page.wait_for_function(f"{players_online} === '{before}'", timeout=20_000)
        page.screenshot(path=str(artifacts / f"backoffice-dashboard-top-{width}.png"))
        page.locator("#fig-bank_cash_by_day").screenshot(path=str(artifacts / f"backoffice-figure-bank-{width}.png"))
        page.locator("#fig-refunds_by_rule").screenshot(path=str(artifacts / f"backoffice-figure-refunds-{width}.png"))
        page.goto(f"{base}/backoffice/reconciliation/")
        assert "ledger OK" in page.locator("[data-key=check_ledger]").inner_text()
        balances = page.locator("[data-key=by-transaction-kind] td[data-key=balance]")
        assert balances.count() > 3 and page.locator("[data-key=by-transaction-kind] td.broken").count() == 0
        assert page.locator("[data-key=by-entry-kind] tfoot td.broken").count() == 0
        page.screenshot(path=str(artifacts / f"backoffice-reconciliation-{width}.png"), full_page=True)
        page.goto(f"{base}/admin/auth/user/?role=player&o=-4")
        assert page.locator("td.field-cash_eur").count() >= 4  # the demo world's players, with balances
        page.screenshot(path=str(artifacts / f"backoffice-players-{width}.png"), full_page=True)
        page.locator("td.field-ledger_link a[href*='/backoffice/ledger/']").first.click()
        assert page.locator("table.bo-ledger tbody tr").count() > 5
        assert "player:" not in page.locator("table.bo-ledger tbody").inner_text()  # nicknames, not account codes
        page.screenshot(path=str(artifacts / f"backoffice-ledger-{width}.png"), full_page=True)
        page.click("form.bo-export button[value=xlsx]")
        page.wait_for_selector(".bo-progress[data-status=done]", timeout=30_000)
        page.screenshot(path=str(artifacts / f"backoffice-export-{width}.png"), full_page=True)
        page.goto(f"{base}/backoffice/ledger/?kind=cancel_refund")  # each refund line's bonus and cash parts
        split = page.locator("table.bo-ledger [data-key=refund-split]").first.inner_text()
        assert re.fullmatch(r"bonus €\d+,\d\d · \w+ €\d+,\d\d", split), split
        assert no_cell_clipped(page) == [] if width == WIDTHS[0][0] else True
        page.screenshot(path=str(artifacts / f"backoffice-ledger-refunds-{width}.png"), full_page=True)
        page.goto(f"{base}/backoffice/exports/")
        page.screenshot(path=str(artifacts / f"backoffice-exports-{width}.png"), full_page=True)
        context.close()
        context = chromium.new_context(viewport={"width": width, "height": height}, locale="it-IT")
        page = login(context, base, "operatore")
        page.goto(f"{base}/backoffice/tables/")
        assert page.locator("section.bo-table").count() >= 1
        page.screenshot(path=str(artifacts / f"backoffice-tables-{width}.png"), full_page=True)
        context.close()
    still_up()
