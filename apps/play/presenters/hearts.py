"""Hearts: points this hand and totals, the fewest win; three cards passed to the right."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .base import Names, Presenter, seat_name


class HeartsPresenter(Presenter):
    games = ("hearts",)
    public_board = True

    def scores(self, view: dict[str, Any], names: Names, teams: list[list[int]], players: int, *,
               per_seat: dict[int, list[tuple[str, Any]]], staked: bool, show_points: bool) -> dict[str, Any]:
        columns = [_("Points this hand"), _("Total")]
        rows = [{"name": seat_name(names, s), "team": s, "values": [
            (view.get("taken_points") or [0] * 4)[s], (view.get("totals") or [0] * 4)[s]]} for s in range(players)]
        notes = []
        if view.get("mode") == "points":
            notes.append(_("Hand %(n)s · the match ends at %(target)s points: the fewest win") % {
                "n": view.get("hand_number"), "target": view.get("target")})
        elif (view.get("hand_number") or 0) > (view.get("hands_planned") or 0):  # tied for the fewest: one more
            notes.append(_("Hand %(n)s, to break the tie · the fewest points win") % {"n": view.get("hand_number")})
        else:
            notes.append(_("Hand %(n)s of %(of)s · the fewest points win") % {
                "n": view.get("hand_number"), "of": view.get("hands_planned")})
        if view.get("phase") == "pass":
            notes.append(_("Everyone passes three cards to the player on their right"))
        if view.get("hearts_broken"):
            notes.append(_("Hearts are broken"))
        return {"columns": columns, "rows": rows, "notes": notes, "sheet": None}

    def pass_to(self, view: dict[str, Any], seat: int, names: Names) -> str | None:
        return seat_name(names, (seat + 1) % 4) if view.get("phase") == "pass" else None


PRESENTER = HeartsPresenter()
