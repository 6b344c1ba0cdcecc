"""A game's options as form fields, in the player's words: the table form's and the
tournament form's alike (each owner adds what it sets itself)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

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


def choice_label(name: str, value: Any) -> str:
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
                                      choices=[(_form_value(c), choice_label(name, c)) for c in rule["choices"]]))
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
