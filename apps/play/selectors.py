"""Who reads a match, and as what: a seat or a spectator (the owners add their own rules)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from apps.common.errors import Forbidden
from apps.matches.models import Match
from apps.matches.selectors import match_view

#: what an owner's access rule answers for a match that is not its own
NOT_OWNED = object()
#: the owners' access rules (a table's: private tables, spectators), registered by each
#: owner's ``AppConfig.ready``: the play floor never imports its owners
_OWNER_RULES: list[Callable[..., Any]] = []


@dataclass(frozen=True)
class Access:
    """How a user sees a table or match: as a seat (int) or as a spectator (None)."""

    seat: int | None
    can_chat: bool
    silent: bool = False  # staff watching for review: no chat, no controls


def match_reader_access(*, match: Match, user: Any) -> Access | None:
    """A match with no table (a tournament's): its players read it from their seats, anyone
    logged in watches it (tournament matches are public to watch, platform.md §5.7)."""
    if user is None or not user.is_authenticated:
        return None
    ms = next((m for m in match.match_seats.all() if m.player_id == user.pk), None)
    if ms is not None:
        return Access(seat=ms.number, can_chat=True)
    return Access(seat=None, can_chat=False)


def match_access_rule_register(rule: Callable[..., Any]) -> None:
    """Add an owner's rule ``rule(match=, user=) -> Access | None | NOT_OWNED`` (once)."""
    if rule not in _OWNER_RULES:
        _OWNER_RULES.append(rule)


def match_access(*, match: Match, user: Any) -> Access | None:
    """How ``user`` reads ``match``: its owner's rule, else a reader of a match with no table."""
    for rule in _OWNER_RULES:
        verdict = rule(match=match, user=user)
        if verdict is not NOT_OWNED:
            return verdict
    return match_reader_access(match=match, user=user)


def match_view_get(*, match: Match, user: Any, access: Access | None = None) -> dict[str, Any]:
    """``GET /api/matches/{id}/``: the caller's own view and legal actions, nothing more."""
    access = access or match_access(match=match, user=user)
    if access is None:
        raise Forbidden(_("You cannot watch this match."))
    return match_view(match=match, seat=access.seat)
