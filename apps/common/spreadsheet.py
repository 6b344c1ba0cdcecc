"""Text a spreadsheet must show as text: no cell of an export may run as a formula.

Excel, LibreOffice and Sheets read a CSV field starting with ``=``, ``+``, ``-`` or ``@``
(and a tab or carriage return before one) as a formula: ``=HYPERLINK(...)`` in a chat line,
a ledger memo or a username would become a live link or worse on a staff member's machine.
"""

from __future__ import annotations

#: what a spreadsheet takes as the start of a formula (OWASP's "CSV injection" list)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def is_formula_like(value: object) -> bool:
    return isinstance(value, str) and value.startswith(FORMULA_STARTS)


def csv_safe(value: object) -> object:
    """A CSV field as written: text that would start a formula gets a leading ``'`` (the
    spreadsheet's own mark for "this is text"); numbers and other text are unchanged."""
    return "'" + value if is_formula_like(value) else value


def csv_safe_row(row: list) -> list:
    return [csv_safe(value) for value in row]
