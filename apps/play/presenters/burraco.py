"""Burraco (every variant): the sides' totals, the last hand's count, the variant's name."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .base import Names, Presenter, team_name

VARIANTS = {"aperto": gettext_lazy("Open"), "aperto_sporco": gettext_lazy("Open, dirty close"),
            "chiuso": gettext_lazy("Closed"), "chiuso_sporco": gettext_lazy("Closed, dirty close"),
            "chiuso_stcl": gettext_lazy("Closed, runs only")}


class BurracoPresenter(Presenter):
    games = ("burraco",)
    public_board = True
    board_moves = True

    def scores(self, view: dict[str, Any], names: Names, teams: list[list[int]], players: int, *,
               per_seat: dict[int, list[tuple[str, Any]]], staked: bool, show_points: bool) -> dict[str, Any]:
        columns = [_("Last hand"), _("Total")] if view.get("hand_points") else [_("Total")]
        rows = []
        for t, team in enumerate(teams):
            values = [(view.get("totals") or [0, 0])[t]]
            if view.get("hand_points"):
                values.insert(0, (view["hand_points"][-1] or [0, 0])[t])
            rows.append({"name": team_name(names, team), "team": t, "values": values})
        notes = []
        for t, count in enumerate(view.get("last_hand") or []):  # the last hand's count, line by line
            notes.append(_("Last hand, %(team)s: melded %(melded)s · burraco %(bonus)s · closing %(closing)s"
                           " · cards in hand %(hand)s · pozzetto %(pozzetto)s = %(total)s") % {
                "team": team_name(names, teams[t]), **count})
        target = view.get("target")
        notes.append(str(VARIANTS.get(view.get("variant"), view.get("variant"))) + " · " + (
            _("to %(target)s points") % {"target": target} if target else _("Express: one hand")))
        notes.append(_("Hand %(n)s") % {"n": view.get("hand_no")})
        return {"columns": columns, "rows": rows, "notes": notes, "sheet": None}

    def board_extras(self, view: dict[str, Any]) -> dict[str, Any]:
        return {"burraco_variant": VARIANTS.get(view.get("variant"), "")}


PRESENTER = BurracoPresenter()
