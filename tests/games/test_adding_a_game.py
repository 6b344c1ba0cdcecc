"""A new game is an engine and a presenter, added through the registries only
(docs/adding-a-game.md): nothing else in the house changes. This toy game, "Carta alta"
(each plays a card, the higher rank takes the trick, three tricks), is registered here at run
time, seated at a table by the tables' own services, played to the end through the match
service and drawn by the table page with its presenter's score sheet."""

from __future__ import annotations

import random
from typing import Any

import pytest

from apps.games.engines import ENGINES, Engine, GameState
from apps.games.engines.cards import ITALIAN_RANKS, deal_round_robin, derive_rng, italian_deck, shuffled
from apps.matches.models import Match
from apps.play.presenters import PRESENTERS, Presenter, presenter_register
from apps.play.presenters.base import seat_name
from apps.tables import services
from apps.tables.render import render_fragments

from ..conftest import make_user
from ..tables.conftest import current_match, play_out

pytestmark = pytest.mark.django_db(transaction=True)

TRICKS = 3


class CartaAltaState(GameState):
    def __init__(self, engine: Engine, data: dict[str, Any]) -> None:
        self.engine_ = engine
        self.data = data
        self.teams = [[0], [1]]

    @property
    def to_act(self) -> list[int]:
        return [] if self.is_over else [self.data["turn"]]

    @property
    def is_over(self) -> bool:
        return sum(self.data["tricks"]) == TRICKS

    def legal_actions(self, seat: int | None) -> list[dict[str, Any]]:
        if seat not in self.to_act:
            return []
        return [{"type": "play", "card": c} for c in self.data["hands"][seat]]

    def result(self) -> dict[str, Any]:
        a, b = self.data["tricks"]
        return {"winner": 0 if a > b else 1, "scores": list(self.data["tricks"])}

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"hand": list(self.data["hands"][seat]) if seat is not None else [],
                "hand_counts": [len(h) for h in self.data["hands"]], "to_act": self.to_act,
                "trick": [{"seat": s, "card": c} for s, c in self.data["trick"]],
                "tricks": list(self.data["tricks"]), "players": 2, "seat": seat}

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)

    def card_zones(self) -> dict[str, list[str]]:
        return {"hand0": self.data["hands"][0], "hand1": self.data["hands"][1], "stock": self.data["stock"],
                "trick": [c for _s, c in self.data["trick"]], "won": self.data["won"]}

    def hidden_from(self, seat: int | None) -> list[str]:
        return [c for s, h in enumerate(self.data["hands"]) if s != seat for c in h] + self.data["stock"]

    def _apply(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        d = self.data
        d["hands"][seat].remove(action["card"])
        d["trick"].append([seat, action["card"]])
        events: list[dict[str, Any]] = [{"type": "played", "seat": seat, "card": action["card"]}]
        if len(d["trick"]) < 2:
            d["turn"] = 1 - seat
            return events
        (s0, c0), (s1, c1) = d["trick"]
        winner = s0 if ITALIAN_RANKS.index(c0[0]) >= ITALIAN_RANKS.index(c1[0]) else s1
        d["tricks"][winner] += 1
        d["won"] += [c0, c1]
        d["trick"] = []
        d["turn"] = winner
        events.append({"type": "trick_won", "seat": winner})
        return events


class CartaAlta(Engine):
    id = "carta_alta_toy"
    name = "Carta alta"
    min_players = max_players = 2
    options: dict[str, dict[str, Any]] = {}
    currencies = ("credits",)

    def deck(self, players: int, options: dict[str, Any] | None = None) -> list[str]:
        return italian_deck()

    def new_game(self, players: int, options: dict[str, Any] | None = None, seed: int | None = None,
                 deck: list[str] | None = None) -> GameState:
        setup = self.setup(players, options, seed, deck)
        cards = setup.deck or shuffled(self.deck(2), derive_rng(setup.seed, "deal"))
        hands = deal_round_robin(cards, 0, 2, TRICKS)
        return CartaAltaState(self, {"hands": hands, "stock": cards[2 * TRICKS:], "trick": [], "won": [],
                                     "tricks": [0, 0], "turn": setup.dealer})

    def from_json(self, data: dict[str, Any]) -> GameState:
        return CartaAltaState(self, {k: (list(v) if isinstance(v, list) else v) for k, v in data.items()})

    def robot_choice(self, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        return legal[0]


CartaAltaState.engine = CartaAlta()


class CartaAltaPresenter(Presenter):
    games = ("carta_alta_toy",)
    public_board = True

    def scores(self, view, names, teams, players, *, per_seat, staked, show_points):
        rows = [{"name": seat_name(names, s), "team": s, "values": [view["tricks"][s]]} for s in range(players)]
        return {"columns": ["Prese"], "rows": rows, "notes": ["Carta alta: three tricks"], "sheet": None}


@pytest.fixture
def toy_game(monkeypatch):
    engine = CartaAltaState.engine
    monkeypatch.setitem(ENGINES, engine.id, engine)
    presenter_register(CartaAltaPresenter())
    yield engine
    PRESENTERS.pop(engine.id, None)


def test_a_toy_game_added_through_the_registries_is_played_at_a_table(toy_game):
    anna, bruno = make_user(nickname="Toy_Anna"), make_user(nickname="Toy_Bruno")
    table = services.table_create(user=anna, data={"game": toy_game.id}, ip="10.0.0.1")
    services.table_sit(user=bruno, table_id=table.pk, ip="10.0.0.2")
    match = current_match(table)
    assert match is not None and match.game == toy_game.id and match.status == Match.PLAYING
    html, _revision = render_fragments(table_id=table.pk, user=anna)
    assert "Carta alta: three tricks" in html  # its presenter's score sheet, drawn by the table page
    by_seat = {ms.number: ms.player for ms in match.match_seats.all()}
    finished = play_out(match.pk, by_seat)
    assert finished.status == Match.FINISHED and sum(finished.result["scores"]) == TRICKS
    html, _revision = render_fragments(table_id=table.pk, user=anna)
    assert "Toy_Anna" in html and "Toy_Bruno" in html
