"""The back office's pages render their figures, and each export runs once however often it is run."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.test import Client
from openpyxl import load_workbook

from apps.backoffice.exports import export_progress, exports_dir
from apps.backoffice.models import Export
from apps.backoffice.services import export_request
from apps.backoffice.tasks import export_run_task
from apps.common.errors import ValidationFailed
from apps.wallet.services import Leg, ledger_post, wallet_adjust

from ..conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def export_folder(settings, tmp_path):
    settings.EXPORTS_DIR = tmp_path / "exports"
    return settings.EXPORTS_DIR


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def ledger_rows(n: int, finance=None):
    finance = finance or make_user(group="finance")
    player = make_user(nickname="Exported")
    for i in range(n):
        wallet_adjust(actor=finance, player=player, currency="credits", amount=i + 1, reason=f"row {i}")
    return player


def test_dashboard_shows_every_figure_as_chart_and_table(finance):
    player = ledger_rows(3)
    page = client_for(finance).get("/backoffice/?period=30d")
    assert page.status_code == 200
    html = page.content.decode()
    for key in ("fees_by_day", "bank_cash_by_day", "bank_credits_by_game", "prize_pools_by_day", "overlay_by_day",
                "bonus_granted_by_day", "refunds_by_rule", "tournaments_by_day", "activity_by_hour",
                "newcomers_by_day"):
        assert f'data-key="{key}"' in html, key
    assert html.count("<svg") >= 13 and "kozea" not in html  # pygal's SVG inline, no script from a CDN
    assert 'id="online-now"' in html and 'ws-connect="/ws/backoffice/online/?period=30d"' in html
    assert player  # the newcomer is in the table beside the chart
    bad = client_for(finance).get("/backoffice/?period=custom&first=2026-12-05&last=2026-12-01")
    assert bad.status_code == 200 and "errornote" in bad.content.decode()


def test_admin_index_links_the_back_office(operator, finance, compliance):
    assert "/backoffice/" in client_for(operator).get("/admin/").content.decode()
    assert "/backoffice/tables/" in client_for(operator).get("/admin/").content.decode()
    assert "/backoffice/reconciliation/" not in client_for(operator).get("/admin/").content.decode()
    assert "/backoffice/reconciliation/" in client_for(finance).get("/admin/").content.decode()
    assert "/backoffice/ledger/" in client_for(compliance).get("/admin/").content.decode()


def test_reconciliation_and_ledger_pages(finance):
    player = ledger_rows(3)
    html = client_for(finance).get("/backoffice/reconciliation/").content.decode()
    assert "ledger OK" in html and "house:play_money" in html
    # the totals by kind in euro and credits, not raw cents (6 credits: 1 + 2 + 3)
    assert '<td>adjustment</td><td>crediti</td><td class="num">3</td><td class="num">6</td>' in html
    ledger = client_for(finance).get(f"/backoffice/ledger/?player={player.pk}&currency=credits").content.decode()
    assert ledger.count("<tr><td>") == 4  # 3 adjustments + the welcome credits
    only = client_for(finance).get(f"/backoffice/ledger/?player={player.pk}&kind=credits_welcome").content.decode()
    assert only.count("<tr><td>") == 1
    assert client_for(finance).get("/backoffice/ledger/?player=999999").status_code == 404


def test_small_export_is_written_in_the_request(finance):
    player = ledger_rows(5)
    answer = client_for(finance).post("/backoffice/exports/", {"kind": "ledger", "format": "csv",
                                                               "player": player.pk})
    export = Export.objects.get()
    assert answer.status_code == 302 and export.status == Export.DONE and export.rows_done == 6
    download = client_for(finance).get(f"/backoffice/exports/{export.pk}/download/")
    rows = list(csv.reader(io.StringIO(b"".join(download.streaming_content).decode())))
    assert rows[0][0] == "entry" and len(rows) == 7 and {r[10] for r in rows[1:]} == {"Exported"}
    from apps.audit.models import AuditLog

    assert AuditLog.objects.filter(action="export_requested", actor=finance).count() == 1


def test_large_export_runs_as_a_task_twice_one_file_with_progress(finance, settings, export_folder,
                                                                  django_capture_on_commit_callbacks):
    settings.EXPORT_SYNC_ROWS = 10
    settings.EXPORT_CHUNK_ROWS = 7
    player = ledger_rows(24, finance)  # + 1 welcome credits = 25 entries of the player
    seen: list[tuple[int, int, str]] = []

    def watch(sender, export_id, rows_done, **kwargs):
        row = Export.objects.get(pk=export_id)  # what the progress bar reads at that moment
        seen.append((row.rows_done, row.rows_total, row.status))

    export_progress.connect(watch)
    try:
        with django_capture_on_commit_callbacks(execute=True) as queued:
            export = export_request(actor=finance, kind="ledger", fmt="xlsx", params={"player": player.pk})
            assert Export.objects.get().status == Export.PENDING  # nothing written before the commit
        assert len(queued) == 1  # the task, queued on commit (eager in tests)
    finally:
        export_progress.disconnect(watch)
    assert seen == [(7, 25, "running"), (14, 25, "running"), (21, 25, "running"), (25, 25, "running")]
    export.refresh_from_db()
    assert export.status == Export.DONE and export.rows_done == 25
    first = (exports_dir() / export.file_name).stat().st_mtime_ns
    export_run_task(export.pk)  # delivered twice: nothing written again
    export_run_task.delay(export.pk)
    assert sorted(p.name for p in export_folder.iterdir()) == [export.file_name]
    assert (exports_dir() / export.file_name).stat().st_mtime_ns == first
    rows = list(load_workbook(exports_dir() / export.file_name, read_only=True).active.iter_rows(values_only=True))
    assert len(rows) == 26 and rows[0][0] == "entry" and rows[1][10] == "Exported"
    progress = client_for(finance).get(f"/backoffice/exports/{export.pk}/progress/").content.decode()
    assert "25 of 25" in progress or "25 di 25" in progress
    assert "download" in progress


def test_progress_bar_polls_while_running(finance):
    export = Export.objects.create(kind="ledger", format="csv", requested_by=finance, status=Export.RUNNING,
                                   rows_total=9000, rows_done=4500)
    html = client_for(finance).get(f"/backoffice/exports/{export.pk}/progress/").content.decode()
    assert 'hx-trigger="every 1s"' in html and 'value="4500"' in html and 'max="9000"' in html
    assert client_for(finance).get(f"/backoffice/exports/{export.pk}/download/").status_code == 404


def test_players_export_and_bad_requests(finance):
    make_user(nickname="Listed_1")
    export = export_request(actor=finance, kind="players", fmt="csv", params={"search": "Listed"})
    assert export.rows_done == 1
    answer = client_for(finance).post("/backoffice/exports/", {"kind": "secrets", "format": "csv"})
    assert answer.status_code == 302 and Export.objects.count() == 1


def test_players_changelist_shows_balances_sorted_and_filtered(superuser):
    finance = make_user(group="finance")
    rich, poor = make_user(nickname="Ricco"), make_user(nickname="Povero")
    wallet_adjust(actor=finance, player=rich, currency="cash", amount=12_345, reason="deposit")
    wallet_adjust(actor=finance, player=poor, currency="bonus", amount=50, reason="promo")
    client = client_for(superuser)
    html = client.get("/admin/auth/user/?role=player&o=-4").content.decode()
    assert "123,45" in html and html.index("Ricco") < html.index("Povero")
    cash_only = client.get("/admin/auth/user/?balance=cash").content.decode()
    assert "Ricco" in cash_only and "Povero" not in cash_only
    assert "Povero" in client.get("/admin/auth/user/?balance=bonus").content.decode()


def test_replay_page_keeps_the_site_stylesheet_out(superuser):
    from tests.test_permissions import finished_match

    html = client_for(superuser).get(f"/admin/matches/match/{finished_match()}/replay/").content.decode()
    assert "mazziere.css" not in html and "board.css" in html


def test_tournament_results_export(finance):
    from apps.wallet.services import Leg, ledger_post

    player = ledger_rows(0)
    wallet_adjust(actor=finance, player=player, currency="cash", amount=1000, reason="deposit")
    ledger_post(kind="buy_in", reference="tournament:5", legs=[Leg(f"player:{player.pk}", "cash", -1000),
                                                               Leg("escrow:tournament:5", "cash", 1000)])
    export = export_request(actor=finance, kind="tournament_results", fmt="csv", params={"tournament": "5"})
    rows = list(csv.reader((exports_dir() / export.file_name).open()))
    assert rows[1][:5] == ["5", str(player.pk), player.username, "Exported", "1000"]
    with pytest.raises(ValidationFailed):  # no tournament id
        export_request(actor=finance, kind="tournament_results", fmt="csv", params={})


@pytest.mark.parametrize("url", [
    "/backoffice/?period=custom&first=2026-02-31&last=2026-03-01", "/backoffice/?period=forever",
    "/backoffice/reconciliation/?day=2026-02-31", "/backoffice/reconciliation/?day=x",
    "/backoffice/ledger/?first=2026-13-01&last=nope&currency=gold&kind=%27", "/backoffice/ledger/?player=abc",
    "/backoffice/ledger/?page=999", "/backoffice/exports/999/", "/backoffice/exports/999/download/",
])
def test_bad_input_is_never_a_500(superuser, url):
    assert client_for(superuser).get(url).status_code in (200, 400, 404)


def test_export_with_bad_dates_still_runs(finance):
    export = export_request(actor=finance, kind="ledger", fmt="csv", params={"first": "2026-02-31", "last": "x"})
    assert export.status == Export.DONE


def test_ledger_names_players_by_nickname_and_shows_each_refund_split(finance):
    """Issue 25: the ledger named accounts ``player:51`` and no screen showed a refund's
    bonus/cash split. A registration paid 300 bonus + 700 cash and got it all back: the
    ledger names the player by nickname and shows the line's split (bonus first, §3.4)."""
    player = make_user(nickname="Rimborsata")
    wallet_adjust(actor=finance, player=player, currency="cash", amount=700, reason="deposit")
    wallet_adjust(actor=finance, player=player, currency="bonus", amount=300, reason="promo")
    ref, escrow, me = "tournament:77", "escrow:tournament:77", f"player:{player.pk}"
    ledger_post(kind="buy_in", reference=ref, legs=[Leg(me, "bonus", -300), Leg(escrow, "bonus", 300),
                                                    Leg(me, "cash", -700), Leg(escrow, "cash", 700)])
    ledger_post(kind="cancel_refund", reference=ref, memo="refund_rule=full", legs=[
        Leg(escrow, "bonus", -300), Leg(me, "bonus", 300), Leg(escrow, "cash", -700), Leg(me, "cash", 700)])
    html = client_for(finance).get("/backoffice/ledger/?kind=cancel_refund").content.decode()
    assert f"<code>player:{player.pk}</code>" not in html
    assert f'<a href="?player={player.pk}" title="player:{player.pk}">Rimborsata</a>' in html
    splits = re.findall(r'<span data-key="refund-split">([^<]*)</span>', html)
    assert len(splits) == 2  # the line's two entries (bonus, cash), each with the whole line's split
    assert all(re.fullmatch(r"\w+ €3,00 · \w+ €7,00", split) for split in splits), splits
    assert "escrow:tournament:77" in html  # house accounts keep their code


def test_a_reference_to_a_player_names_them(finance):
    """The welcome credits' reference is ``player:{id}``: the ledger names the player instead."""
    player = make_user(nickname="Benvenuta")
    html = client_for(finance).get(f"/backoffice/ledger/?player={player.pk}").content.decode()
    assert f'<span title="player:{player.pk}">Benvenuta</span>' in html and f">player:{player.pk}<" not in html
