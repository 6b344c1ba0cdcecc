"""Money shown the Italian way: 1000 cents -> "€10,00"."""

from django import template
from django.utils.translation import gettext_lazy, ngettext

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


CURRENCY_NAMES = {"cash": gettext_lazy("cash"), "bonus": gettext_lazy("bonus"), "credits": gettext_lazy("credits")}


@register.filter
def currency_name(code) -> str:
    """A ledger currency in words of the page's language ("cash" -> "contanti")."""
    return str(CURRENCY_NAMES.get(code, code))


@register.filter
def amount_in(amount, currency) -> str:
    """A ledger amount as people read it: euro for cash and bonus (cents in the ledger),
    "12 crediti" for credits."""
    try:
        amount = int(amount)
    except (TypeError, ValueError):
        return ""
    if currency == "credits":
        return ngettext("%(n)s credit", "%(n)s credits", abs(amount)) % {"n": amount}
    return format_euro(amount)
