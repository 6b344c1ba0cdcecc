"""A seat's legal moves as controls: a choice per card, multi-card picks, plain buttons, each
in words (the games whose moves are built on the board label their own:
``templatetags/card_games.py``)."""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .words import card_words

ACTION_LABELS = {
    "knock": gettext_lazy("Knock (I play)"), "pass": gettext_lazy("Pass"), "keep": gettext_lazy("Keep my cards"),
    "buio": gettext_lazy("Play blind"), "accuso": gettext_lazy("Declare"), "bid": gettext_lazy("Bid"),
    "draw": gettext_lazy("Draw"), "discard": gettext_lazy("Discard"),
    # poker all'italiana and solitario (their tables label their own buttons: templatetags/card_games.py)
    "check": gettext_lazy("Check"), "fold": gettext_lazy("Fold"), "call": gettext_lazy("Call"),
    "bet": gettext_lazy("Bet"), "raise": gettext_lazy("Raise"), "recycle": gettext_lazy("Turn the waste over"),
    "end": gettext_lazy("End the game"),
}

def action_label(action: dict[str, Any], french: bool = False) -> str:
    kind = action.get("type")
    if kind == "play":
        capture = action.get("capture")
        card = card_words(str(action.get("card")), french)
        if capture:
            return _("%(card)s takes %(n)s cards") % {"card": card, "n": len(capture)}
        if capture == []:
            return _("%(card)s, taking nothing") % {"card": card}
        return card
    if kind == "bid":
        return _("Nil (0)") if action.get("bid") == 0 else _("Bid %(n)s") % {"n": action.get("bid")}
    if kind in ("bet", "raise") and isinstance(action.get("amount"), int):
        return f"{ACTION_LABELS[kind]} {action['amount']}"
    if kind == "accuso":
        return _("Declare %(what)s") % {"what": str(action.get("accuso") or "").title()}
    label = str(ACTION_LABELS.get(kind, str(kind)))
    extras = [f"{k}: {v}" for k, v in action.items() if k != "type"]
    return label + (f" ({', '.join(extras)})" if extras else "")


def present_actions(legal: list[dict[str, Any]], french: bool = False) -> dict[str, Any]:
    """Group legal actions into controls: per-card choices, multi-card picks, plain buttons."""
    by_card: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
    picks: dict[str, dict[str, Any]] = {}
    plain = []
    for action in legal:
        encoded = json.dumps(action, separators=(",", ":"))
        if isinstance(action.get("card"), str):
            capture = action.get("capture") if isinstance(action.get("capture"), list) else None
            by_card.setdefault(action["card"], []).append({
                "json": encoded, "label": action_label(action, french), "takes": capture,
                "takes_attr": " ".join(capture or [])})
        elif isinstance(action.get("cards"), list):
            pick = picks.setdefault(action.get("type"), {"type": action.get("type"), "count": len(action["cards"]),
                                                         "cards": set(), "min": len(action["cards"]), "max": 0})
            pick["cards"].update(action["cards"])
            pick["min"] = min(pick["min"], len(action["cards"]))
            pick["max"] = max(pick["max"], len(action["cards"]))
        else:
            plain.append({"json": encoded, "label": action_label(action, french)})
    for pick in picks.values():
        pick["cards"] = sorted(pick["cards"])
        pick["template"] = json.dumps({"type": pick["type"]})
    return {"by_card": by_card, "picks": list(picks.values()), "plain": plain,
            "single": {c: opts[0] for c, opts in by_card.items() if len(opts) == 1},
            "multi": {c: opts for c, opts in by_card.items() if len(opts) > 1}}
