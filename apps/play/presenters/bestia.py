"""Bestia: who plays, passes or goes blind, tricks and balances; who is out of the hand."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .base import Names, Presenter, seat_name


class BestiaPresenter(Presenter):
    games = ("bestia",)
    public_board = True

    def scores(self, view: dict[str, Any], names: Names, teams: list[list[int]], players: int, *,
               per_seat: dict[int, list[tuple[str, Any]]], staked: bool, show_points: bool) -> dict[str, Any]:
        declared = view.get("declared") or []
        choices = view.get("choices") or []
        words = {"knock": _("plays"), "pass": _("passes"), "keep": _("keeps the cards"), "buio": _("blind")}
        tricks = view.get("tricks") or [0] * players
        for s in range(players):
            d = declared[s] if s < len(declared) else None
            c = choices[s] if s < len(choices) else None
            if d:
                per_seat[s].append((_("Declared"), words.get(d, d) + (f" · {words.get(c, c)}" if c else "")))
            per_seat[s].append((_("Tricks"), tricks[s]))
        columns = [_("Tricks"), _("Balance")]
        rows = [{"name": seat_name(names, s), "team": s, "values": [
            tricks[s], (view.get("balances") or [0] * players)[s]]} for s in range(players)]
        notes = [_("Pot: %(pot)s stakes") % {"pot": view.get("pot")},
                 _("Hand %(n)s of %(of)s") % {"n": (view.get("hand_number") or 0) + 1, "of": view.get("hands_total")}]
        last = view.get("last_hand")
        if last and last.get("bestia"):
            notes.append(_("Bestia last hand: %(names)s") % {"names": ", ".join(seat_name(names, s) for s in last["bestia"])})
        return {"columns": columns, "rows": rows, "notes": notes, "sheet": None}

    def seat_out(self, view: dict[str, Any], seat: int) -> bool:
        return view.get("phase") == "play" and seat not in (view.get("active") or [])


PRESENTER = BestiaPresenter()
