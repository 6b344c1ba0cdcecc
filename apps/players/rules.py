"""Nickname rules (platform.md §2): pure functions, tested without a database."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

NICKNAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{2,15}$")
RESERVED = frozenset({
    "admin", "administrator", "staff", "system", "root", "support", "moderator",
    "operator", "finance", "compliance", "robot",
    # the same staff words in Italian, the site's language (docs/decisions.md)
    "amministratore", "sistema", "supporto", "assistenza", "moderatore", "operatore", "finanza", "conformita",
})
#: look-alikes of §2: after lower-casing, ``1`` and ``i`` read as ``l`` and ``0`` as ``o``
_CONFUSABLE = str.maketrans({"1": "l", "i": "l", "0": "o"})


def skeleton(nickname: str) -> str:
    """The form two nicknames share when a reader could take one for the other (§2).

    One character maps to one character, so a position in the skeleton is the same
    position in the nickname. The unique index is on this form.
    """
    return nickname.lower().translate(_CONFUSABLE)


_RESERVED_SKELETONS = frozenset(skeleton(word) for word in RESERVED)


def is_reserved(nickname: str) -> bool:
    """A reserved word's look-alike, or one followed by ``_`` or a digit; anything from ``robot``."""
    form = skeleton(nickname)
    if form.startswith(skeleton("robot")):
        return True
    for word in _RESERVED_SKELETONS:
        if form == word:
            return True
        if form.startswith(word) and (nickname[len(word)] == "_" or nickname[len(word)].isdigit()):
            return True
    return False


def rule_sentence() -> str:
    return _("A nickname has 3 to 16 characters: ASCII letters, digits and underscore, starting with a"
             " letter (no spaces).")


def nickname_problem(nickname: object) -> str | None:
    """Why ``nickname`` is not acceptable, or None if it is."""
    if not isinstance(nickname, str) or not nickname:
        return _("Choose a nickname.") + " " + rule_sentence()
    if not NICKNAME_RE.fullmatch(nickname):
        return _("The nickname '%(nickname)s' is not valid.") % {"nickname": nickname} + " " + rule_sentence()
    if is_reserved(nickname):
        return _("The nickname '%(nickname)s' is reserved: choose another one.") % {"nickname": nickname}
    return None
