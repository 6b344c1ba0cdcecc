"""Nickname rules (platform.md §2): pure functions, tested without a database."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

NICKNAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{2,15}$")
RESERVED = frozenset({
    "admin", "administrator", "staff", "system", "root", "support", "moderator",
    "operator", "finance", "compliance", "robot",
})


def rule_sentence() -> str:
    return _("A nickname has 3 to 16 characters: ASCII letters, digits and underscore, starting with a"
             " letter (no spaces).")


def nickname_problem(nickname: object) -> str | None:
    """Why ``nickname`` is not acceptable, or None if it is."""
    if not isinstance(nickname, str) or not nickname:
        return _("Choose a nickname.") + " " + rule_sentence()
    if not NICKNAME_RE.fullmatch(nickname):
        return _("The nickname '%(nickname)s' is not valid.") % {"nickname": nickname} + " " + rule_sentence()
    lowered = nickname.lower()
    if lowered in RESERVED or lowered.startswith("robot"):
        return _("The nickname '%(nickname)s' is reserved: choose another one.") % {"nickname": nickname}
    return None
