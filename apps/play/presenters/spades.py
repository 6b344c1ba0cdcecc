"""Spades: each seat's bid and tricks, the sides' bags and scores."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .base import Names, Presenter, signed, team_name


class SpadesPresenter(Presenter):
    games = ("spades",)
    public_board = True
    partners_at_four = True

    def scores(self, view: dict[str, Any], names: Names, teams: list[list[int]], players: int, *,
               per_seat: dict[int, list[tuple[str, Any]]], staked: bool, show_points: bool) -> dict[str, Any]:
        bids = view.get("bids") or [None] * 4
        tricks = view.get("tricks") or [0] * 4
        for s in range(players):
            bid = bids[s]
            per_seat[s].append((_("Bid"), "—" if bid is None else (_("Nil") if bid == 0 else bid)))
            per_seat[s].append((_("Tricks"), tricks[s]))
        columns = [_("Bid"), _("Tricks"), _("Bags"), _("Score")]
        rows = []
        for t, team in enumerate(teams):
            team_bids = [bids[s] for s in team]
            rows.append({"name": team_name(names, team), "team": t, "values": [
                "—" if None in team_bids else sum(team_bids), sum(tricks[s] for s in team),
                (view.get("bags") or [0, 0])[t], (view.get("scores") or [0, 0])[t]]})
        notes = [_("The first team to %(target)s points wins; a team at %(floor)s or below loses") % {
            "target": view.get("target"), "floor": signed(view.get("floor"))}]
        if view.get("spades_broken"):
            notes.append(_("Spades are broken"))
        return {"columns": columns, "rows": rows, "notes": notes, "sheet": None}


PRESENTER = SpadesPresenter()
