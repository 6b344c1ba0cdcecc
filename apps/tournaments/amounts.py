"""Euro as the operator reads and writes them on the admin's tournament pages.

The ledger and the services count cents; an operator types and reads euro in the page's
language: "2,50" and "€1.250,00" in Italian, "2.50" and "€1,250.00" in English. A comma in
English or a dot in Italian is only a thousands separator (groups of three digits), so
"2,555" in Italian is refused rather than guessed.
"""

from __future__ import annotations

import re
from decimal import Decimal

from django.utils import formats


def _separators() -> tuple[str, str]:
    """(decimal, thousands) of the active language."""
    return str(formats.get_format("DECIMAL_SEPARATOR")), str(formats.get_format("THOUSAND_SEPARATOR"))


def euro_number(cents: int) -> str:
    """``250`` -> ``"2,50"`` (it) / ``"2.50"`` (en), grouped by thousands."""
    return formats.number_format(Decimal(int(cents)) / 100, decimal_pos=2, use_l10n=True, force_grouping=True)


def euro_text(cents: int | None) -> str:
    """``3200`` -> ``"€32,00"`` (it) / ``"€32.00"`` (en); ``None`` -> ``"–"``."""
    if cents is None or cents == "":
        return "–"
    cents = int(cents)
    return f"-€{euro_number(-cents)}" if cents < 0 else f"€{euro_number(cents)}"


class AmountError(ValueError):
    """Not an amount in euro: ``negative`` says it was one, below zero."""

    def __init__(self, *, negative: bool = False) -> None:
        super().__init__("negative" if negative else "not an amount")
        self.negative = negative


def cents_from_euro(text: str) -> int:
    """The cents of an amount typed in euro in the active language; ``AmountError`` otherwise.

    At most two decimals; a thousands separator only between groups of three digits."""
    decimal, thousands = _separators()
    raw = str(text).replace("€", "").replace("\u00a0", "").replace(" ", "").strip()
    if raw.startswith("-"):
        raise AmountError(negative=True)
    pattern = rf"^([0-9]{{1,3}}(?:{re.escape(thousands)}[0-9]{{3}})+|[0-9]+)(?:{re.escape(decimal)}([0-9]{{1,2}}))?$"
    found = re.match(pattern, raw)
    if not found or len(raw) > 20:
        raise AmountError
    whole = int(found.group(1).replace(thousands, ""))
    return whole * 100 + int((found.group(2) or "0").ljust(2, "0"))
