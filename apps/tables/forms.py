"""The create-table form: fields derived from each engine's option schema, money in euro.

Pages parse input here and make one domain call (``services.table_create``), which still
validates everything; this module only turns form text into the values the service takes
and gives every option a label in words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from apps.common.templatetags.money import format_euro
from apps.games.engines import ENGINES

#: options a player never sets from the page (the dealer is drawn; stacks follow the stake)
HIDDEN_OPTIONS = {"dealer", "stacks"}

OPTION_LABELS = {
    "mode": _("Match decided by"), "target": _("Points to win"), "hands": _("Hands"),
    "knockout": _("Knockout (every hand counts)"), "rounds": _("Rounds"), "buio": _("Playing blind allowed"),
    "variant": _("Variant"), "max_hands": _("At most hands"), "ante": _("Ante"), "min_bet": _("Minimum bet"),
    "max_bet": _("Maximum bet (0: no limit)"), "stack": _("Starting chips"), "opening": _("Opening"),
    "blind_open": _("Blind opening allowed"), "max_draw": _("Most cards changed"), "limit": _("Elimination at"),
    "entry_fee": _("Entry fee (chips)"), "reentry_fee": _("Re-entry fee (chips)"),
    "max_reentries": _("Re-entries allowed"), "draw": _("Cards turned from the stock"),
    "recycles": _("Times the stock turns over (-1: no limit)"), "max_moves": _("Most moves"),
    "ante_doubling": _("Ante doubles every (hands)"),
}
CHOICE_LABELS = {
    ("mode", "points"): _("points"), ("mode", "hands"): _("hands won"), ("mode", "freezeout"): _("last one standing"),
    ("opening", "jacks"): _("with a pair of jacks or better"), ("opening", "free"): _("free"),
    ("variant", "vincere"): _("to win (a vincere)"), ("variant", "perdere"): _("to lose (a perdere)"),
    ("variant", "aperto"): _("open"), ("variant", "aperto_sporco"): _("open, dirty allowed"),
    ("variant", "chiuso"): _("closed"), ("variant", "chiuso_stcl"): _("closed, clean burraco to close"),
    ("variant", "chiuso_sporco"): _("closed, dirty allowed"),
    ("target", 0): _("no target (hands only)"),
}


@dataclass
class OptionField:
    """One game option as a form control: a select for choices, a number input otherwise."""

    game: str
    name: str
    label: str
    default: Any
    choices: list[tuple[str, str]] = field(default_factory=list)  # (form value, label)
    minimum: int | None = None
    maximum: int | None = None

    @property
    def input_name(self) -> str:
        return f"opt-{self.game}-{self.name}"

    @property
    def default_value(self) -> str:
        return _form_value(self.default)


def _form_value(value: Any) -> str:
    return "true" if value is True else "false" if value is False else str(value)


def _choice_label(name: str, value: Any) -> str:
    if (name, value) in CHOICE_LABELS:
        return str(CHOICE_LABELS[(name, value)])
    if value is True:
        return str(_("yes"))
    if value is False:
        return str(_("no"))
    return str(value)


def option_fields(game: str) -> list[OptionField]:
    """The controls of one game's options, in the engine's order."""
    engine = ENGINES[game]
    fields = []
    for name, rule in engine.options.items():
        if name in HIDDEN_OPTIONS or ("choices" not in rule and "min" not in rule and "max" not in rule):
            continue
        label = str(OPTION_LABELS.get(name, name.replace("_", " ")))
        if "choices" in rule:
            fields.append(OptionField(game, name, label, rule.get("default"),
                                      choices=[(_form_value(c), _choice_label(name, c)) for c in rule["choices"]]))
        else:
            fields.append(OptionField(game, name, label, rule.get("default"), minimum=rule.get("min"),
                                      maximum=rule.get("max")))
    return fields


def options_from_form(game: str, form) -> dict[str, Any] | None:
    """The options a player set for ``game`` (only those that differ from the default);
    ``None`` when a value is not one the schema allows (the service then names the field)."""
    engine = ENGINES.get(game)
    if engine is None:
        return {}
    options: dict[str, Any] = {}
    for option in option_fields(game):
        raw = form.get(option.input_name)
        if raw is None or raw == "":
            continue
        if option.choices:
            rule = engine.options[option.name]["choices"]
            value = next((c for c in rule if _form_value(c) == raw), None)
            if value is None:
                return None
        else:
            try:
                value = int(raw)
            except ValueError:
                return None
        if value != option.default or type(value) is not type(option.default):
            options[option.name] = value
    return options


def option_problems(game: str, form) -> list[str]:
    """What is wrong with the options a player set for ``game``, one sentence per option in
    the page's language ("Points to win: from 1 to 101."); empty when all are allowed."""
    if game not in ENGINES:
        return []
    problems = []
    for option in option_fields(game):
        raw = form.get(option.input_name)
        if raw is None or raw == "":
            continue
        if option.choices:
            if raw not in {value for value, _label in option.choices}:
                problems.append(_("%(option)s: choose one of %(choices)s.") % {
                    "option": option.label, "choices": ", ".join(label for _value, label in option.choices)})
            continue
        try:
            value = int(raw)
        except ValueError:
            value = None
        low, high = option.minimum, option.maximum
        if value is None or (low is not None and value < low) or (high is not None and value > high):
            if low is not None and high is not None:
                problems.append(_("%(option)s: a whole number from %(low)s to %(high)s.") % {
                    "option": option.label, "low": low, "high": high})
            elif low is not None:
                problems.append(_("%(option)s: a whole number of at least %(low)s.") % {"option": option.label, "low": low})
            else:
                problems.append(_("%(option)s: a whole number.") % {"option": option.label})
    return problems


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
    return _choice_label(name, value)


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
                before = _choice_label(key, old[key]) if key in old else "—"
                after = _choice_label(key, new[key]) if key in new else "—"
                parts.append(f"{label}: {before} → {after}")
            continue
        label = str(SETTING_LABELS.get(name, name.replace("_", " ")))
        if name == "stake":
            was = changes.get("currency", {}).get("old", currency)
            parts.append(f"{label}: {_stake_words(old, was)} → {_stake_words(new, currency)}")
        else:
            parts.append(f"{label}: {_setting_value(name, old)} → {_setting_value(name, new)}")
    return "; ".join(parts)
