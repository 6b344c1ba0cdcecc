"""Money shown the Italian way: 1000 cents -> "€10,00"."""

from django import template

register = template.Library()


def format_euro(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    cents = abs(int(cents))
    euros, rest = divmod(cents, 100)
    grouped = f"{euros:,}".replace(",", ".")
    return f"{sign}€{grouped},{rest:02d}"


@register.filter
def euro(cents) -> str:
    try:
        return format_euro(int(cents))
    except (TypeError, ValueError):
        return ""
