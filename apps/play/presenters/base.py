"""The presenter kit: what a game family declares about how its match is drawn and told.

A presenter is found through the registry (``apps.play.presenters``), like an engine: the
score sheet, the middle of the table and the seat's hand templates, the felt, the sides at
four, the words of its buttons. A game with none is drawn by :class:`Presenter` itself (the
generic board: its view's facts, no score sheet).
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils.translation import gettext as _

Names = dict[int, dict[str, Any]]


def seat_name(names: Names, seat: int | None) -> str:
    """A seat's name as the table shows it ("a free seat" when nobody sits there)."""
    if seat is None:
        return ""
    entry = names.get(seat)
    return (entry or {}).get("name") or _("a free seat")


def team_name(names: Names, team: list[int]) -> str:
    return " & ".join(seat_name(names, s) for s in team)


def signed(n: Any) -> str:
    """A score as a sheet prints it: a true minus sign for a negative one (−200, not -200)."""
    return f"−{-n}" if isinstance(n, int) and n < 0 else str(n)


def majority_mark(values: Any) -> int | None:
    if not values or len(values) != 2 or values[0] == values[1]:
        return None
    return 0 if values[0] > values[1] else 1


def win_mark(team: Any) -> int | None:
    return team if team in (0, 1) else None


class Presenter:
    """How the matches of some games are drawn; the defaults draw the generic board."""

    #: the engine ids this presenter draws
    games: ClassVar[tuple[str, ...]] = ()
    #: the whole table is drawn from public views and rendered once per revision (every game
    #: the platform ships); False: the generic board of facts, drawn per reader
    public_board: ClassVar[bool] = False
    #: the cards on the table are drawn in the middle, captures shown on them (the fishing games)
    felt: ClassVar[bool] = False
    #: moves are built on the board (cards selected, then a meld, a column or a bet: the page's
    #: ``card_games.js``); the middle of the table and the seat's hand are the family's own
    #: templates ``tables/games/<game>/board.html`` and ``hand.html``
    board_moves: ClassVar[bool] = False
    #: at four players partners sit opposite (0 & 2 against 1 & 3) when the view does not say
    partners_at_four: ClassVar[bool] = False
    #: buttons whose words differ from the platform's: action type -> words, or
    #: (action type, the view's phase) -> words
    button_words: ClassVar[dict[Any, Any]] = {}
    #: how the cards a player picks on the board name a move (``card_games.js``): "melds" (a
    #: card alone, or the cards of a meld), "change" (the cards picked are the change: poker's
    #: draw), "first" (the first card picked moves: Solitario)
    pick_rule: ClassVar[str] = "melds"

    def scores(self, view: dict[str, Any], names: Names, teams: list[list[int]], players: int, *,
               per_seat: dict[int, list[tuple[str, Any]]], staked: bool, show_points: bool) -> dict[str, Any]:
        """The score as the game counts it: ``columns`` and ``rows`` of a small table, ``notes``
        and a ``sheet`` (the last hand's count); per-seat facts go into ``per_seat``."""
        return {"columns": [], "rows": [], "notes": [], "sheet": None}

    def hand_counts(self, view: dict[str, Any], counts: list[Any], players: int) -> list[Any]:
        """The backs drawn at each seat (None: none drawn, the hand shown in the middle)."""
        return counts

    def seat_out(self, view: dict[str, Any], seat: int) -> bool:
        """A seat out of the hand in play (drawn greyed)."""
        return False

    def board_extras(self, view: dict[str, Any]) -> dict[str, Any]:
        """Words of the board the family's templates show (a variant's name, a betting round)."""
        return {}

    def pass_to(self, view: dict[str, Any], seat: int, names: Names) -> str | None:
        """Whom the seat passes cards to now, when the game has a passing phase."""
        return None

    def button_label(self, kind: Any, phase: str) -> str | None:
        """The family's own words for a plain button, or None for the platform's."""
        words = self.button_words.get((kind, phase)) or self.button_words.get(kind)
        return _(words) if words else None

    def templates(self, game: str) -> tuple[str, str]:
        """The middle of the table's and the seat's hand templates ('' for the platform's)."""
        if not self.board_moves:
            return "", ""
        return f"tables/games/{game}/board.html", f"tables/games/{game}/hand.html"
