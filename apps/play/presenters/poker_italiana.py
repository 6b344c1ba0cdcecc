"""Poker all'italiana: chips, bets and changes per seat; a folded hand is out, a shown one
face up in the middle; the betting round's name."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from .base import Names, Presenter

PHASES = {"bet1": gettext_lazy("first betting round"), "draw": gettext_lazy("change of cards"),
          "bet2": gettext_lazy("second betting round")}


class PokerPresenter(Presenter):
    games = ("poker_italiana",)
    public_board = True
    board_moves = True
    pick_rule = "change"
    # Busso before the draw, Parola after it (poker_italiana.md, Decisions)
    button_words = {("check", "bet1"): gettext_noop("Busso (check)")}

    def scores(self, view: dict[str, Any], names: Names, teams: list[list[int]], players: int, *,
               per_seat: dict[int, list[tuple[str, Any]]], staked: bool, show_points: bool) -> dict[str, Any]:
        for info in view.get("seat_info") or []:
            s = info["seat"]
            if s not in per_seat:
                continue
            per_seat[s].append((_("Chips"), info["chips"]))
            if info["bet"]:
                per_seat[s].append((_("Bet"), info["bet"]))
            if info["changed"] is not None:
                per_seat[s].append((_("Changed"), _("none") if info["changed"] == 0 else info["changed"]))
            status = (_("not dealt in") if not info["dealt_in"] else _("folded") if info["folded"]
                      else _("all in") if info["all_in"] else "")
            if status:
                per_seat[s].append((_("Status"), status))
        return {"columns": [], "rows": [], "notes": [], "sheet": None}

    def hand_counts(self, view: dict[str, Any], counts: list[Any], players: int) -> list[Any]:
        shown = {int(x["seat"]) for x in view.get("shown") or []}
        folded = view.get("folded") or [False] * players
        return [None if n in shown else 0 if folded[n] else c for n, c in enumerate(counts)]

    def board_extras(self, view: dict[str, Any]) -> dict[str, Any]:
        return {"poker_phase": PHASES.get(view.get("phase"), "")}


PRESENTER = PokerPresenter()
