"""Money and labels for the tournament pages: cents as "€10,00", rules and statuses in words."""

from __future__ import annotations

from django import template
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from apps.tournaments.rules import euro as _euro

register = template.Library()


@register.filter
def euro(cents) -> str:
    if cents is None or cents == "":
        return "–"
    return f"€{_euro(int(cents))}"


@register.filter
def rule_label(rule) -> str:
    return {
        "full": _("full refund (cancelled before the start)"),
        "a1": _("a1: eliminated in an unpaid position"),
        "a2": _("a2: eliminated in a paid position, its prize"),
        "b1": _("b1: still in play, equal share of the residual pool"),
        "b2": _("b2: still in play, entry (or foreseen prize) plus a share by victory points"),
        "b2_scaled": _("b2 scaled down: equal share of the residual pool"),
    }.get(rule or "", "")


@register.filter
def status_label(status) -> str:
    """A tournament's or a player's status (Italian agrees with "torneo" and the player)."""
    return {"open": pgettext("tournament status", "open"), "running": pgettext("tournament status", "in progress"),
            "finished": pgettext("tournament status", "finished"),
            "cancelled": pgettext("tournament status", "cancelled"), "playing": _("playing"),
            "eliminated": _("eliminated"), "winner": _("winner"), "bye": _("bye")}.get(status or "", status)


@register.filter
def match_status_label(status) -> str:
    """A match's status in the bracket (Italian agrees with "partita")."""
    return {"playing": pgettext("match status", "in play"), "finished": pgettext("match status", "finished"),
            "cancelled": pgettext("match status", "cancelled"), "bye": _("bye")}.get(status or "", status)


@register.filter
def parse_iso(value):
    return parse_datetime(value) if isinstance(value, str) else value
