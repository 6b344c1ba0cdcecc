"""Small template helpers of the table page."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from apps.common.templatetags.money import format_euro
from apps.matches.regimes import bank_share

register = template.Library()


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """``mapping[key]`` in a template (a card's controls by its code); None when absent."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None


@register.filter
def team_names(name: Any) -> str:
    """A team's names ("Mario_88 & Robot Bice") that never break inside a nickname: on a wide
    sheet they read "A & B", on a phone's (table.css) one name a line, so that the sheet keeps
    every column in sight."""
    parts = [format_html('<span class="team-name">{}</span>', part) for part in str(name or "").split(" & ")]
    return mark_safe('<span class="team-amp"> &amp; </span>'.join(parts))  # noqa: S308 (parts escaped by format_html)


@register.filter
def cash_stake(table: Any) -> str:
    """A money table's stake as regulation.md §8 shows it: "€1,00 (0,90+0,10)", the part that
    goes to the pot and the bank's."""
    read = table.get if isinstance(table, dict) else lambda name: getattr(table, name, None)
    stake = int(read("stake") or 0)
    bank = stake * bank_share(read("game"), read("currency")) // 100
    if not bank:
        return format_euro(stake)
    return f"{format_euro(stake)} ({format_euro(stake - bank)[1:]}+{format_euro(bank)[1:]})"
