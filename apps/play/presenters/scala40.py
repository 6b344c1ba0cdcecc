"""Scala 40: penalty points, who opened, re-entries and who is out; the rounds; the pot."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from .base import Names, Presenter, seat_name


class Scala40Presenter(Presenter):
    games = ("scala40",)
    public_board = True
    board_moves = True
    button_words = {"take": gettext_noop("Take the discard")}

    def scores(self, view: dict[str, Any], names: Names, teams: list[list[int]], players: int, *,
               per_seat: dict[int, list[tuple[str, Any]]], staked: bool, show_points: bool) -> dict[str, Any]:
        opened = view.get("opened") or []
        alive = view.get("alive") or []
        in_hand = view.get("in_hand") or []
        columns = [_("Points"), _("Opened"), _("Re-entries")]
        rows = []
        for s in range(players):
            rows.append({"name": seat_name(names, s), "team": s, "values": [
                (view.get("totals") or [0] * players)[s], "✓" if s < len(opened) and opened[s] else "—",
                (view.get("reentries") or [0] * players)[s]]})
            if s not in alive:
                per_seat[s].append((_("Status"), _("out")))
            elif s not in in_hand:
                per_seat[s].append((_("Status"), _("waiting")))
            if s < len(opened) and opened[s]:
                per_seat[s].append((_("Opened"), "✓"))
        notes = [_("Points are penalties: the fewest win"),
                 _("Out above %(limit)s points") % {"limit": view.get("limit")} if view.get("mode") == "points"
                 else _("Fixed hands")]
        # rounds around the table, counted from 1 as people count them (the engine counts turns from 0)
        round_no = (view.get("turn_no") or 0) // max(1, len(in_hand)) + 1
        notes.append(pgettext("scala40", "Round %(n)s") % {"n": round_no} + (
            " · " + _("first round: nobody closes") if view.get("first_round") else ""))
        if view.get("pot") and staked:  # a pot of entry fees means nothing at a table with no stake
            notes.append(_("In the pot: %(pot)s stakes") % {"pot": view.get("pot")})
        return {"columns": columns, "rows": rows, "notes": notes, "sheet": None}


PRESENTER = Scala40Presenter()
