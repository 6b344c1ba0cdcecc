"""The table forms' words: the stake as the player types it and a settings change in words.
A game's options as form fields are the play floor's (``apps.play.options``)."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext_lazy as _

from apps.common.templatetags.money import format_euro
from apps.games.engines import ENGINES
from apps.play.options import (  # noqa: F401  (the table form's options)
    CHOICE_LABELS,
    OPTION_LABELS,
    OptionField,
    choice_label,
    option_fields,
    option_problems,
    options_from_form,
)

EURO = re.compile(r"^(\d{1,15})(?:\.(\d{1,2}))?$")


def stake_from_form(text: Any, currency: str) -> int | None:
    """The stake in the unit the service takes: cents for cash ("5,50", "5.50" or "€5"),
    whole credits otherwise; ``None`` when it is not a number."""
    text = str(text or "0").replace("€", "").strip()
    if currency == "cash":
        if "," in text:  # Italian writing: "1.250,50" (dots group thousands, the comma is the decimal)
            text = text.replace(".", "").replace(",", ".")
        found = EURO.match(text)
        if not found:
            return None
        return int(found.group(1)) * 100 + int((found.group(2) or "0").ljust(2, "0"))
    try:
        return int(text)
    except ValueError:
        return None


#: the table's own settings as the create-table form names them
SETTING_LABELS = {
    "turn_seconds": _("Seconds per turn"), "official": _("Official (with a stake and XP)"),
    "stake": _("Stake per player"), "currency": _("Currency"), "private": _("Private (by invitation)"),
    "spectators": _("Spectators allowed"), "players": _("Players"), "face": _("Cards"),
    "show_points": _("Points shown during the hand"),
}
SETTING_CHOICES = {
    ("currency", "credits"): _("credits"), ("currency", "cash"): _("euro (cash)"),
    ("face", "auto"): _("the game's own deck"), ("face", "italian"): _("Italian"), ("face", "french"): _("French"),
}


def _stake_words(stake: Any, currency: str) -> str:
    if type(stake) is not int:
        return str(stake)
    return format_euro(stake) if currency == "cash" else str(_("%(n)s credits") % {"n": stake})


def _setting_value(name: str, value: Any) -> str:
    if (name, value) in SETTING_CHOICES:
        return str(SETTING_CHOICES[(name, value)])
    return choice_label(name, value)


def settings_change_words(*, game: str, currency: str, changes: dict[str, Any]) -> str:
    """A settings change as a player reads it, in the active language ("Stake per player: €1,00 →
    €2,00"): the form's labels and values, never the field keys or cents (``changes`` is the
    service's ``{name: {"old", "new"}}``; ``currency`` is the table's now). A game option left
    unset is the engine's default, so it reads as that value."""
    rules = ENGINES[game].options if game in ENGINES else {}
    parts = []
    for name, change in changes.items():
        old, new = change.get("old"), change.get("new")
        if name == "game_options":
            defaults = {k: r["default"] for k, r in rules.items() if "default" in r}
            old = {**defaults, **(old if isinstance(old, dict) else {})}
            new = {**defaults, **(new if isinstance(new, dict) else {})}
            for key in [k for k in new if old.get(k) != new[k]] + [k for k in old if k not in new]:
                label = str(OPTION_LABELS.get(key, key.replace("_", " ")))
                before = choice_label(key, old[key]) if key in old else "—"
                after = choice_label(key, new[key]) if key in new else "—"
                parts.append(f"{label}: {before} → {after}")
            continue
        label = str(SETTING_LABELS.get(name, name.replace("_", " ")))
        if name == "stake":
            was = changes.get("currency", {}).get("old", currency)
            parts.append(f"{label}: {_stake_words(old, was)} → {_stake_words(new, currency)}")
        else:
            parts.append(f"{label}: {_setting_value(name, old)} → {_setting_value(name, new)}")
    return "; ".join(parts)
