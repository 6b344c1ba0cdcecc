"""Scopa, Scopone, Asso pigliatutto and Cirulla: the cards on the felt, captures and scope,
the last hand's count line by line."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .base import Names, Presenter, majority_mark, team_name, win_mark


class FishingPresenter(Presenter):
    games = ("scopa", "scopone", "asso_pigliatutto", "cirulla")
    public_board = True
    felt = True
    partners_at_four = True

    def scores(self, view: dict[str, Any], names: Names, teams: list[list[int]], players: int, *,
               per_seat: dict[int, list[tuple[str, Any]]], staked: bool, show_points: bool) -> dict[str, Any]:
        options = view.get("options") or {}
        target, mode = options.get("target"), options.get("mode")
        columns = [_("Cards taken"), _("Scope this hand"), _("Score")]
        rows = [{"name": team_name(names, team), "team": t, "values": [
            (view.get("captured_counts") or [0, 0])[t], (view.get("scope") or [0, 0])[t],
            (view.get("scores") or [0, 0])[t]]} for t, team in enumerate(teams)]
        notes = []
        if mode == "points" and target:
            notes.append(ngettext("Hand %(n)s · the first to %(target)s point wins",
                                  "Hand %(n)s · the first to %(target)s points wins", target) % {
                "n": view.get("hand_number"), "target": target})
        else:
            notes.append(_("Hand %(n)s of %(of)s") % {"n": view.get("hand_number"), "of": options.get("hands")})
        if view.get("spareggio"):
            notes.append(_("Tie-break hand"))
        return {"columns": columns, "rows": rows, "notes": notes, "sheet": self._sheet(view.get("last_hand"), names, teams)}

    @staticmethod
    def _sheet(last: dict[str, Any] | None, names: Names, teams: list[list[int]]) -> dict[str, Any] | None:
        """The last hand's count, line by line, the winner of each line marked."""
        if not last:
            return None
        lines = [
            (_("Cards"), last.get("carte"), majority_mark(last.get("carte"))),
            (_("Coins"), last.get("denari"), majority_mark(last.get("denari"))),
            (_("Settebello"), [("✓" if last.get("settebello") == t else "") for t in range(2)],
             win_mark(last.get("settebello"))),
            (_("Primiera"), last.get("primiera_values"), win_mark(last.get("primiera"))),
            (_("Scope"), last.get("scope"), None),
        ]
        if "piccola" in last:
            lines.append((_("Piccola"), last.get("piccola"), None))
            lines.append((_("Grande"), [("✓" if last.get("grande") == t else "") for t in range(2)],
                          win_mark(last.get("grande"))))
            lines.append((_("Declarations"), last.get("accusi"), None))
        return {"hand": last.get("hand"), "teams": [team_name(names, t) for t in teams],
                "lines": [{"label": label, "values": values or ["", ""], "won": won} for label, values, won in lines],
                "points": last.get("points")}


PRESENTER = FishingPresenter()
