"""Solitario: the score, the moves, the stock's turns."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .base import Names, Presenter


class SolitarioPresenter(Presenter):
    games = ("solitario",)
    public_board = True
    board_moves = True
    pick_rule = "first"

    def scores(self, view: dict[str, Any], names: Names, teams: list[list[int]], players: int, *,
               per_seat: dict[int, list[tuple[str, Any]]], staked: bool, show_points: bool) -> dict[str, Any]:
        left = view.get("recycles_left")
        notes = [_("Points: %(score)s · moves: %(moves)s") % {"score": view.get("score"), "moves": view.get("moves")},
                 _("Stock turned over %(n)s times") % {"n": view.get("recycles_used")} + (
                     " · " + _("%(left)s left") % {"left": left} if left is not None else ""),
                 _("Three cards at a time") if view.get("draw") == 3 else _("One card at a time")]
        return {"columns": [], "rows": [], "notes": notes, "sheet": None}


PRESENTER = SolitarioPresenter()
