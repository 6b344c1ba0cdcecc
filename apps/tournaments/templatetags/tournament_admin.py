"""Money on the admin's tournament pages in the page's language: "€32,00" / "€32.00"."""

from __future__ import annotations

from django import template

from apps.tournaments.amounts import euro_text

register = template.Library()


@register.filter
def euro_l10n(cents) -> str:
    try:
        return euro_text(None if cents in (None, "") else int(cents))
    except (TypeError, ValueError):
        return ""
