"""The operator's add-tournament form in Debian's chromium against the real `manage.py serve`
(issue 25): the chosen game's options only, the payouts table, the live split preview in
euro while typing, a refused save that keeps everything typed; at 1366 and 390 px."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

WIDTHS = ((1366, 900), (390, 844))


def test_add_tournament_form(chromium, mazziere_server, artifacts):
    base, _env, still_up = mazziere_server
    for width, height in WIDTHS:
        context = chromium.new_context(viewport={"width": width, "height": height}, locale="it-IT")
        page = context.new_page()
        page.goto(f"{base}/admin/login/?next=/admin/tournaments/tournament/add/")
        page.fill("input[name=username]", "operatore")
        page.fill("input[name=password]", "mazziere-demo")
        page.click("input[type=submit], button[type=submit]")
        page.wait_for_url(re.compile(r"/admin/tournaments/tournament/add/$"))
        name = f"Coppa {width}"
        page.fill("#id_name", name)
        page.select_option("#id_game", "briscola")
        assert page.locator("fieldset.game-options-briscola").is_visible()
        assert not page.locator("fieldset.game-options-scopa").is_visible()
        assert not page.locator(".field-starts_at").is_visible()  # a Sit and Go has no start time
        page.fill("#id_buy_in_cents", "2,50")
        page.fill("#id_fee_cents", "0,50")
        page.fill("#id_max_players", "8")
        page.click(".payouts-table .payout-remove >> nth=2")  # 50 30 20 -> 50 30
        page.fill(".payout-percent >> nth=0", "60")
        page.fill(".payout-percent >> nth=1", "30")
        page.click(".payouts-table .payout-add")
        page.fill(".payout-percent >> nth=2", "10")
        assert page.locator(".payouts-sum").inner_text() == "100"
        page.fill("#preview-entrants", "8")
        # 8 x (2,50 - 0,50) = €16,00 split 60/30/10 by the rules: €9,60 · €4,80 · €1,60
        page.wait_for_function("document.querySelectorAll('#split-preview td[data-cents]').length === 3 && "
                               "document.querySelector('#split-preview td[data-cents]').dataset.cents === '960'",
                               timeout=10_000)
        assert page.locator("#split-preview td[data-cents]").all_inner_texts() == ["€9,60", "€4,80", "€1,60"]
        assert "€16,00" in page.locator("#split-preview .preview-pool").inner_text()
        page.fill("#preview-entrants", "2")  # fewer entrants than places: the rest to 1st
        page.wait_for_function("document.querySelectorAll('#split-preview td[data-cents]').length === 2",
                               timeout=10_000)
        assert page.locator("#split-preview td[data-cents]").all_inner_texts() == ["€2,80", "€1,20"]
        page.fill("#preview-entrants", "8")
        page.wait_for_function("document.querySelectorAll('#split-preview td[data-cents]').length === 3",
                               timeout=10_000)
        page.screenshot(path=str(artifacts / f"admin-tournament-add-{width}.png"), full_page=True)
        # a refused save comes back with everything typed and the reason at the field
        page.fill("#id_buy_in_cents", "2,555")
        page.click("input[name=_save]")
        page.wait_for_load_state()
        assert page.locator(".field-buy_in_cents .errorlist").is_visible()
        assert page.input_value("#id_name") == name and page.input_value("#id_buy_in_cents") == "2,555"
        assert page.input_value("#id_game") == "briscola"
        assert page.locator(".payout-percent").evaluate_all("els => els.map(e => e.value)") == ["60", "30", "10"]
        page.screenshot(path=str(artifacts / f"admin-tournament-add-refused-{width}.png"), full_page=True)
        page.fill("#id_buy_in_cents", "2,50")
        page.click("input[name=_save]")
        page.wait_for_url(re.compile(r"/admin/tournaments/tournament/$"))
        assert page.locator(f"text={name}").count() >= 1
        page.screenshot(path=str(artifacts / f"admin-tournament-list-{width}.png"), full_page=True)
        page.click(f"text={name}")
        page.click("text=Riepilogo, anteprima, rimborsi")
        assert "€2,50 (€2,00+€0,50)" in page.locator("#money").inner_text()
        assert page.locator("#preview td[data-cents]").all_inner_texts() == ["€9,60", "€4,80", "€1,60"]
        page.screenshot(path=str(artifacts / f"admin-tournament-overview-{width}.png"), full_page=True)
        still_up()
        context.close()
