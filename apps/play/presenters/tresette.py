"""Tressette: tricks this hand and the running totals."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .base import Names, Presenter, team_name


class TresettePresenter(Presenter):
    games = ("tresette",)
    public_board = True
    partners_at_four = True

    def scores(self, view: dict[str, Any], names: Names, teams: list[list[int]], players: int, *,
               per_seat: dict[int, list[tuple[str, Any]]], staked: bool, show_points: bool) -> dict[str, Any]:
        columns = [_("Tricks this hand"), _("Total")]
        rows = [{"name": team_name(names, team), "team": t, "values": [
            (view.get("tricks_taken") or [0, 0])[t], (view.get("totals") or [0, 0])[t]]} for t, team in enumerate(teams)]
        notes = []
        if view.get("mode") == "points":
            notes.append(_("Hand %(n)s · the first to %(target)s points wins") % {
                "n": view.get("hand_number"), "target": view.get("target")})
        else:
            notes.append(_("Hand %(n)s of %(of)s") % {"n": view.get("hand_number"), "of": view.get("hands_to_play")})
        if view.get("variant") == "perdere":
            notes.append(_("Tressette a perdere: the fewest points win"))
        last = view.get("last_hand")
        if last:
            notes.append(_("Last hand: %(points)s") % {"points": " – ".join(map(str, last.get("points") or []))})
        return {"columns": columns, "rows": rows, "notes": notes, "sheet": None}


PRESENTER = TresettePresenter()
