"""Poker all'italiana, Solitario, Burraco and Scala 40 played whole through the REST API
(issues 13 and 14, "at the tables"): each player reads the match as the API shows it and
posts a move; robots (practice tables) answer at once. The moves chosen are the engine
robot's, computed from the state the test reads (a player's strategy, not the platform's).
"""

from __future__ import annotations

import random

import pytest

from apps.games.engines import get_engine
from apps.matches.models import Match

from ..conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def play_over_rest(api, match_id: int, users_by_seat: dict[int, object], *, max_moves: int = 3000,
                   choose=None) -> Match:
    """Every human move through ``POST /api/matches/{id}/actions/``, each player with the
    version the API gave them, until the match is over."""
    rng = random.Random(7)
    clients = {seat: api(user) for seat, user in users_by_seat.items()}
    for _ in range(max_moves):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.PLAYING:
            return match
        state = get_engine(match.game).from_json(match.state)
        seat = next(s for s in state.to_act if s in clients)
        detail = clients[seat].get(f"/api/matches/{match_id}/")
        assert detail.status_code == 200, detail.content
        body = detail.json()
        assert body["version"] == match.version and body["legal_actions"], body
        engine = get_engine(match.game)
        action = choose(state, seat, rng, body["legal_actions"]) if choose else engine.bot_action(state, seat, rng)
        assert action in body["legal_actions"]
        answer = clients[seat].post(f"/api/matches/{match_id}/actions/",
                                    {"action": action, "version": body["version"]}, format="json")
        assert answer.status_code == 200, answer.content
    raise AssertionError("the match did not end")


def create(api, user, game: str, **body):
    answer = api(user).post("/api/tables/", {"game": game, **body}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_solitario_one_seat_table_plays_a_whole_game(api):
    luca = make_user(nickname="Luca_sol")
    table = create(api, luca, "solitario", official=True)
    assert table["players"] == 1 and table["match"] is not None  # its creator fills it: it starts at once
    match = play_over_rest(api, table["match"], {0: luca})
    assert match.status == Match.FINISHED
    score = match.result["scores"][0]
    assert score == match.result["hands"][0]["score"] >= 0
    # the score goes to the Solitario leaderboard (XP only for a solved game, platform.md §9)
    board = api(None).get("/api/rankings/solitario/").json()
    row = next(r for r in board if r["nickname"] == "Luca_sol")
    assert row["matches"] == 1 and row["best_score"] == score
    assert row["xp"] == (5 if match.result["winner"] == 0 else 0)
    page = api(None).get("/rankings/solitario/")
    assert page.status_code == 200 and str(score) in page.content.decode()


def test_burraco_express_two_players(api):
    """Variant and Express (target 0, one hand) are table options; a robot plays seat 1."""
    anna = make_user(nickname="Anna_bur")
    table = create(api, anna, "burraco", game_options={"variant": "aperto", "target": 0})
    detail = api(anna).get(f"/api/tables/{table['id']}/").json()
    assert detail["game_options"] == {"variant": "aperto", "target": 0}
    bad = api(anna).post("/api/tables/", {"game": "burraco", "game_options": {"target": 1500}}, format="json")
    assert bad.status_code == 400 and "game_options" in bad.json()["fields"]
    api(anna).post(f"/api/tables/{table['id']}/robot/", {"seat": 1}, format="json")
    match_id = api(anna).get(f"/api/tables/{table['id']}/").json()["match"]
    match = play_over_rest(api, match_id, {0: anna})
    assert match.status == Match.FINISHED
    assert match.options["target"] == 0 and match.options["variant"] == "aperto"
    assert len(match.result["hands"]) == 1  # Express: one hand
    assert match.result["winner"] in (0, 1)


def test_burraco_two_teams_of_two_with_robots(api):
    carla = make_user(nickname="Carla_bur")
    table = create(api, carla, "burraco", players=4, game_options={"target": 0, "variant": "chiuso"})
    for seat in (1, 2, 3):
        assert api(carla).post(f"/api/tables/{table['id']}/robot/", {"seat": seat}, format="json").status_code == 200
    match_id = api(carla).get(f"/api/tables/{table['id']}/").json()["match"]
    match = play_over_rest(api, match_id, {0: carla})
    assert match.status == Match.FINISHED and len(match.result["hands"]) == 1
    state = get_engine("burraco").from_json(match.state)
    assert state.teams == [[0, 2], [1, 3]]


def test_burraco_meld_in_page_order_is_refused_and_the_listed_one_accepted(api):
    """The engine takes a meld's cards only in canonical order: the page sends the listed
    action, never the selection order (tables/games/_card_controls.html, card_games.js)."""
    anna, bruno = make_user(nickname="Anna_ord"), make_user(nickname="Bruno_ord")
    table = create(api, anna, "burraco", game_options={"target": 0})
    match_id = api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json").json()["match"]
    users = {0: anna, 1: bruno}
    engine = get_engine("burraco")
    rng = random.Random(3)
    for _ in range(400):
        match = Match.objects.get(pk=match_id)
        state = engine.from_json(match.state)
        seat = state.to_act[0]
        melds = [a for a in state.legal_actions(seat) if a["type"] == "meld"
                 and list(reversed(a["cards"])) != a["cards"]]
        if melds:
            meld = melds[0]
            client = api(users[seat])
            backwards = {**meld, "cards": list(reversed(meld["cards"]))}
            if backwards not in state.legal_actions(seat):
                refused = client.post(f"/api/matches/{match_id}/actions/",
                                      {"action": backwards, "version": match.version}, format="json")
                assert refused.status_code == 400 and refused.json()["code"] == "illegal_action"
                assert Match.objects.get(pk=match_id).version == match.version  # nothing changed
            accepted = client.post(f"/api/matches/{match_id}/actions/",
                                   {"action": meld, "version": match.version}, format="json")
            assert accepted.status_code == 200, accepted.content
            return
        action = engine.bot_action(state, seat, rng)
        api(users[seat]).post(f"/api/matches/{match_id}/actions/", {"action": action, "version": match.version},
                              format="json")
    pytest.fail("no meld was ever possible")


def test_scala40_three_players_practice_match(api):
    dario = make_user(nickname="Dario_s40")
    table = create(api, dario, "scala40", players=3, game_options={"mode": "hands", "hands": 1})  # one hand: quick
    for seat in (1, 2):
        api(dario).post(f"/api/tables/{table['id']}/robot/", {"seat": seat}, format="json")
    match_id = api(dario).get(f"/api/tables/{table['id']}/").json()["match"]
    match = play_over_rest(api, match_id, {0: dario})
    assert match.status == Match.FINISHED
    result = match.result
    assert result["winner"] in (0, 1, 2) and result["pot"] == sum(result["fees"])


def test_poker_hand_between_two_players(api):
    elena, fabio = make_user(nickname="Elena_pok"), make_user(nickname="Fabio_pok")
    table = create(api, elena, "poker_italiana")
    match_id = api(fabio).post(f"/api/tables/{table['id']}/sit/", format="json").json()["match"]
    match = play_over_rest(api, match_id, {0: elena, 1: fabio})
    assert match.status == Match.FINISHED
    assert sum(match.result["scores"]) == 0 and len(match.result["hands"]) == 1

