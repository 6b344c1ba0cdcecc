"""What each export writes: its rows as plain values, and the CSV and XLSX writers (openpyxl).

Rows are read in id order in chunks, so a large ledger never sits in memory; the writer
reports every chunk to ``progress`` (rows done so far).
"""

from __future__ import annotations

import csv
import logging
import os
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

from django.conf import settings
from django.dispatch import Signal
from django.utils import timezone
from django.utils.dateparse import parse_date
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell

from apps.common.spreadsheet import csv_safe_row, is_formula_like
from apps.compliance.selectors import players_status_many
from apps.players.selectors import player_list

from .models import Export
from .periods import ROME
from .selectors import ledger_entries, tournament_results

log = logging.getLogger(__name__)

CHUNK = 500
#: sent after each chunk of an export is written and its progress saved (``export_id``, ``rows_done``)
export_progress = Signal()
LEDGER_COLUMNS = ["entry", "created (Europe/Rome)", "transaction", "kind", "reference", "account", "currency",
                  "amount", "balance_after", "player", "nickname", "memo"]
TOURNAMENT_COLUMNS = ["tournament", "player", "username", "nickname", "paid_cash", "paid_bonus", "unregister_refund",
                      "prize_cash", "prize_bonus", "cancel_refund", "refund_rule", "net"]
PLAYER_COLUMNS = ["id", "username", "nickname", "status", "cash_cents", "bonus_cents", "credits", "frozen_cents",
                  "joined (Europe/Rome)"]


def exports_dir() -> Path:
    path = Path(getattr(settings, "EXPORTS_DIR", settings.VAR_DIR / "exports"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def _day(value: object) -> date | None:
    try:
        return parse_date(value) if isinstance(value, str) and value else None
    except ValueError:
        return None


def ledger_queryset(params: dict):
    player = params.get("player")
    return ledger_entries(player_id=int(player) if str(player or "").isdigit() else None,
                          kind=str(params.get("entry_kind") or ""), currency=str(params.get("currency") or ""),
                          first=_day(params.get("first")), last=_day(params.get("last")))


def players_queryset(params: dict):
    return player_list(search=str(params.get("search") or "") or None)


def tournament_id(params: dict) -> int | None:
    value = str(params.get("tournament") or "")
    return int(value) if value.isdigit() else None


def rows_total(export: Export) -> int:
    if export.kind == Export.LEDGER:
        return ledger_queryset(export.params).count()
    if export.kind == Export.PLAYERS:
        return players_queryset(export.params).count()
    if export.kind == Export.TOURNAMENT:
        return len(tournament_results(tournament_id=tournament_id(export.params)))
    return 0


def _chunks(qs, size: int) -> Iterator[list]:
    """Keyset pages in descending id order (stable while rows are appended)."""
    last = None
    while True:
        page = qs.order_by("-pk")
        if last is not None:
            page = page.filter(pk__lt=last)
        batch = list(page[:size])
        if not batch:
            return
        yield batch
        last = batch[-1].pk


def _ledger_rows(params: dict, size: int) -> Iterator[list[list]]:
    for batch in _chunks(ledger_queryset(params), size):
        rows = []
        for e in batch:
            player = e.player or e.account.player if e.player_id or e.account.player_id else None
            profile = getattr(player, "profile", None) if player else None
            rows.append([e.pk, e.created.astimezone(ROME).strftime("%Y-%m-%d %H:%M:%S"), e.transaction_id,
                         e.kind or e.transaction.kind, e.transaction.reference, e.account.code, e.currency, e.amount,
                         e.balance_after, e.player_id or e.account.player_id or "",
                         profile.nickname if profile else "", e.transaction.memo])
        yield rows


def _player_rows(params: dict, size: int) -> Iterator[list[list]]:
    for batch in _chunks(players_queryset(params), size):
        yield [[r["id"], r["username"], r["nickname"] or "", r["status"], r["cash_cents"], r["bonus_cents"],
                r["credits"], r["frozen_cents"], p.date_joined.astimezone(ROME).strftime("%Y-%m-%d %H:%M")]
               for r, p in zip(players_status_many(players=batch), batch, strict=True)]


def _tournament_rows(params: dict, size: int) -> Iterator[list[list]]:
    tid = tournament_id(params)
    rows = tournament_results(tournament_id=tid)
    for start in range(0, len(rows), size):
        yield [[tid, r["player"], r["username"], r["nickname"], r["paid_cash"], r["paid_bonus"], r["unregister_refund"],
                r["prize_cash"], r["prize_bonus"], r["cancel_refund"], r["refund_rule"], r["net"]]
               for r in rows[start:start + size]]


def export_source(export: Export, size: int = CHUNK) -> tuple[list[str], Iterator[list[list]]]:
    if export.kind == Export.LEDGER:
        return LEDGER_COLUMNS, _ledger_rows(export.params, size)
    if export.kind == Export.PLAYERS:
        return PLAYER_COLUMNS, _player_rows(export.params, size)
    if export.kind == Export.TOURNAMENT:
        return TOURNAMENT_COLUMNS, _tournament_rows(export.params, size)
    raise ValueError(f"no source for {export.kind} exports")


def _text_cell(sheet, value: str) -> WriteOnlyCell:
    """A string cell holding the text as written: openpyxl would store ``=...`` as a live formula."""
    cell = WriteOnlyCell(sheet, value=value)
    cell.data_type = "s"
    return cell


def write_file(path: Path, fmt: str, columns: list[str], chunks: Iterator[list[list]],
               progress: Callable[[int], None]) -> int:
    """Write every row to ``path``; ``progress(n)`` after each chunk. Returns the row count."""
    done = 0
    if fmt == Export.CSV:
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(columns)
            for rows in chunks:
                writer.writerows(csv_safe_row(row) for row in rows)
                done += len(rows)
                progress(done)
        return done
    book = Workbook(write_only=True)
    sheet = book.create_sheet("export")
    sheet.append(columns)
    for rows in chunks:
        for row in rows:
            sheet.append([_text_cell(sheet, value) if is_formula_like(value) else value for value in row])
        done += len(rows)
        progress(done)
    book.save(path)
    return done


def export_file_name(export: Export) -> str:
    return f"mazziere-{export.kind}-{export.pk}.{export.format}"


def export_run(*, export_id: int, chunk: int | None = None) -> Export | None:
    """Write the export's file. Idempotent: a finished export with its file is left alone, and
    a run writes ``<name>.part`` then renames it, so two runs leave one file."""
    export = Export.objects.filter(pk=export_id).first()
    if export is None:
        return None
    final = exports_dir() / export_file_name(export)
    if export.status == Export.DONE and final.exists():
        return export
    Export.objects.filter(pk=export.pk).update(status=Export.RUNNING, rows_done=0, error="")
    part = final.with_name(f"{final.name}.{os.getpid()}.part")

    def progress(done: int) -> None:
        Export.objects.filter(pk=export.pk).update(rows_done=done, rows_total=max(done, export.rows_total))
        export_progress.send(sender=Export, export_id=export.pk, rows_done=done)

    try:
        columns, chunks = export_source(export, chunk or getattr(settings, "EXPORT_CHUNK_ROWS", CHUNK))
        done = write_file(part, export.format, columns, chunks, progress)
        os.replace(part, final)
    except Exception as exc:  # a failed export says so on its page; the error is logged
        log.exception("export %s failed", export.pk)
        part.unlink(missing_ok=True)
        Export.objects.filter(pk=export.pk).update(status=Export.FAILED, error=str(exc)[:200])
        return Export.objects.get(pk=export.pk)
    Export.objects.filter(pk=export.pk).update(status=Export.DONE, rows_done=done, rows_total=done,
                                               file_name=final.name, finished=timezone.now())
    return Export.objects.get(pk=export.pk)
