"""Briscola: cards and (when shown) points taken; the running points stay hidden while a hand
is played unless the table shows them (its registration's ``running_points_hidden``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from apps.games.engines import get_engine

from .base import Names, Presenter, team_name


class BriscolaPresenter(Presenter):
    games = ("briscola",)
    public_board = True
    partners_at_four = True

    def scores(self, view: dict[str, Any], names: Names, teams: list[list[int]], players: int, *,
               per_seat: dict[int, list[tuple[str, Any]]], staked: bool, show_points: bool) -> dict[str, Any]:
        counted = show_points or not get_engine("briscola").running_points_hidden or view.get("phase") == "over"
        last = (view.get("hands") or [None])[-1] if not counted else None  # a hand already over
        columns = [_("Cards taken")] + ([_("Points taken")] if counted else []) + ([_("Last hand")] if last else [])
        if view.get("mode") == "hands":
            columns.append(_("Hands won"))
        rows = []
        captured, taken = view.get("captured_counts") or [], view.get("points_taken") or [0, 0]
        for t, team in enumerate(teams):
            values = [captured[t] if t < len(captured) else 0]
            if counted:
                values.append(taken[t] if t < len(taken) else 0)
            if last:
                values.append((last.get("points") or [0, 0])[t])
            if view.get("mode") == "hands":
                values.append((view.get("hands_won") or [0, 0])[t])
            rows.append({"name": team_name(names, team), "team": t, "values": values})
        return {"columns": columns, "rows": rows, "notes": [_("61 points win the hand")], "sheet": None}


PRESENTER = BriscolaPresenter()
