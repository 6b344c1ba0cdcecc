"""Roles are group names (platform.md §1, §0.5): never model permissions."""

from __future__ import annotations

from typing import Any

OPERATOR = "operator"
FINANCE = "finance"
COMPLIANCE = "compliance"
STAFF_GROUPS = (OPERATOR, FINANCE, COMPLIANCE)


def user_groups(user: Any) -> set[str]:
    if not getattr(user, "is_authenticated", False):
        return set()
    cached = getattr(user, "_mazziere_groups", None)
    if cached is None:
        cached = set(user.groups.values_list("name", flat=True))
        user._mazziere_groups = cached
    return cached


def is_staff_member(user: Any) -> bool:
    """Superusers and members of any staff group: they never play (403 staff_cannot_play)."""
    return bool(getattr(user, "is_superuser", False)) or bool(user_groups(user) & set(STAFF_GROUPS))


def has_role(user: Any, *roles: str) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_superuser) or bool(user_groups(user) & set(roles))


def is_player(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and not is_staff_member(user)
