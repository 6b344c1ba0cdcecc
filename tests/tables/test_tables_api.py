"""Tables and matches over REST (API.md, platform.md §8): creating, sitting, playing, errors."""

from __future__ import annotations

import pytest

from apps.games.engines import get_engine
from apps.matches.models import Match, MatchAction
from apps.tables.models import Seat
from apps.wallet.selectors import ledger_check, wallet_get

from ..conftest import make_user
from .conftest import fund

pytestmark = pytest.mark.django_db(transaction=True)


def create(api, user, **body):
    return api(user).post("/api/tables/", {"game": "briscola", **body}, format="json")


def test_create_sit_and_the_match_starts(api, two_players):
    alice, bruno = two_players
    answer = create(api, alice, turn_seconds=20)
    assert answer.status_code == 201
    table = answer.json()
    assert table["leader"] == "Alice_1" and table["players"] == 2 and table["match"] is None
    assert table["seats"][0] == {"seat": 0, "nickname": "Alice_1", "robot": False, "connected": False}
    assert table["seats"][1]["nickname"] is None
    sat = api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json")
    assert sat.status_code == 200 and sat.json()["match"] is not None
    match_id = sat.json()["match"]
    view = api(alice).get(f"/api/matches/{match_id}/").json()
    assert set(view) >= {"id", "game", "status", "version", "to_act", "view", "legal_actions"}
    assert view["status"] == "playing" and view["version"] == 0 and len(view["view"]["hand"]) == 3


def test_seat_errors_in_order(api, two_players, operator, newcomer):
    alice, bruno = two_players
    table = create(api, alice).json()
    url = f"/api/tables/{table['id']}/sit/"
    assert api(newcomer).post(url, format="json").json()["code"] == "nickname_required"
    assert api(operator).post(url, format="json").json()["code"] == "staff_cannot_play"
    assert api(alice).post(url, format="json").json()["code"] == "already_seated"
    taken = api(bruno).post(url, {"seat": 0}, format="json")
    assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"
    assert api(bruno).post(url, {"seat": 1}, format="json").status_code == 200
    third = make_user(nickname="Carla_3")
    full = api(third).post(url, format="json")
    assert full.status_code == 409 and full.json()["code"] == "table_full"
    bad = api(third).post("/api/tables/999999/sit/", format="json")
    assert bad.status_code == 404 and bad.json()["code"] == "not_found"


def test_bad_table_settings(api, player):
    for body, field in [({"game": "nope"}, "game"), ({"players": 3}, "players"), ({"turn_seconds": 5}, "turn_seconds"),
                        ({"stake": 10}, "stake"), ({"currency": "bonus"}, "currency"),
                        ({"game_options": {"mode": "x"}}, "game_options"), ({"official": "yes"}, "official")]:
        answer = create(api, player, **body)
        assert answer.status_code == 400, body
        assert answer.json()["code"] == "validation_error" and field in answer.json()["fields"], answer.json()


def test_stake_needs_funds(api, two_players):
    alice, _ = two_players
    answer = create(api, alice, official=True, stake=1000, currency="cash")
    assert answer.status_code == 402 and answer.json()["code"] == "insufficient_funds"
    fund(alice, cash=1000)
    assert create(api, alice, official=True, stake=1000, currency="cash").status_code == 201


def test_play_a_whole_match_over_rest_with_every_error(api, two_players):
    alice, bruno = two_players
    table = create(api, alice).json()
    match_id = api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json").json()["match"]
    users = {0: alice, 1: bruno}
    moves = 0
    while True:
        match = Match.objects.get(pk=match_id)
        if match.status != Match.PLAYING:
            break
        state = get_engine("briscola").from_json(match.state)
        seat = state.to_act[0]
        me, other = users[seat], users[1 - seat]
        if moves == 3:
            before = (match.version, match.state)
            legal = api(me).get(f"/api/matches/{match_id}/").json()["legal_actions"]
            errors = [
                (other, {"action": legal[0], "version": match.version}, 409, "not_your_turn"),
                (me, {"action": legal[0], "version": match.version - 1}, 409, "stale_version"),
                (me, {"action": {"type": "play", "card": "Zz"}, "version": match.version}, 400, "illegal_action"),
                (me, {"action": {"type": "play"}, "version": match.version}, 400, "illegal_action"),
                (me, {"action": legal[0]}, 400, "validation_error"),
                (me, {"action": legal[0], "version": "x"}, 400, "validation_error"),
                (make_user(nickname="Outsider"), {"action": legal[0], "version": match.version}, 403,
                 "permission_denied"),
            ]
            for who, body, status, code in errors:
                answer = api(who).post(f"/api/matches/{match_id}/actions/", body, format="json")
                assert (answer.status_code, answer.json()["code"]) == (status, code), (body, answer.json())
                match.refresh_from_db()
                assert (match.version, match.state) == before
        answer = api(me).post(f"/api/matches/{match_id}/actions/",
                              {"action": state.legal_actions(seat)[0], "version": match.version}, format="json")
        assert answer.status_code == 200, answer.json()
        assert answer.json()["version"] == match.version + 1
        moves += 1
    assert moves == 40 or moves == 80  # a decisive hand, or a drawn one replayed
    match = Match.objects.get(pk=match_id)
    assert match.status == "finished" and match.result["winner"] in (0, 1)
    assert MatchAction.objects.filter(match=match).count() == moves
    late = api(alice).post(f"/api/matches/{match_id}/actions/", {"action": {"type": "play", "card": "Ad"},
                                                                 "version": match.version}, format="json")
    assert late.status_code == 409 and late.json()["code"] == "match_over"
    # the log replays the match exactly
    log = api(alice).get(f"/api/matches/{match_id}/log/").json()
    assert set(log) == {"match", "game", "players", "options", "seed", "deck", "seats", "actions", "result",
                        "status", "started_at", "finished_at"}
    engine = get_engine(log["game"])
    state = engine.new_game(log["players"], options=log["options"], seed=log["seed"], deck=log["deck"])
    for entry in log["actions"]:
        state.apply(entry["seat"], entry["action"])
    assert state.is_over and state.result() == log["result"]
    assert state.to_json() == match.state


def test_views_hold_no_hidden_card(api, two_players):
    alice, bruno = two_players
    table = create(api, alice).json()
    match_id = api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json").json()["match"]
    state = get_engine("briscola").from_json(Match.objects.get(pk=match_id).state)
    alice_view = api(alice).get(f"/api/matches/{match_id}/").content.decode()
    for card in state.hidden_from(0):
        assert f'"{card}"' not in alice_view
    spectator = make_user(nickname="Watcher")
    seen = api(spectator).get(f"/api/matches/{match_id}/").json()
    assert seen["legal_actions"] == [] and seen["view"]["hand"] == []
    for card in state.hidden_from(None):
        assert f'"{card}"' not in str(seen)


def test_log_is_for_staff_or_players_after_the_end(api, two_players, operator, finance):
    alice, bruno = two_players
    table = create(api, alice).json()
    match_id = api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json").json()["match"]
    assert api(alice).get(f"/api/matches/{match_id}/log/").status_code == 403  # not over yet
    # staff too see no log while the match is in play (platform.md §8.2); after the end see
    # tests/tables/test_staff_review.py
    assert api(operator).get(f"/api/matches/{match_id}/log/").status_code == 403
    assert api(finance).get(f"/api/matches/{match_id}/log/").status_code == 403


def test_robot_only_on_practice_tables_and_robots_play(api, two_players):
    alice, _ = two_players
    fund(alice, cash=500)
    official = create(api, alice, official=True, stake=100, currency="cash").json()
    refused = api(alice).post(f"/api/tables/{official['id']}/robot/", {"seat": 1}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "robots_practice_only"
    practice = create(api, alice).json()
    other = make_user(nickname="NotLeader")
    assert api(other).post(f"/api/tables/{practice['id']}/robot/", {"seat": 1},
                           format="json").json()["code"] == "not_table_leader"
    answer = api(alice).post(f"/api/tables/{practice['id']}/robot/", {"seat": 1}, format="json")
    assert answer.status_code == 200 and answer.json()["seats"][1]["robot"] is True
    match = Match.objects.get(pk=answer.json()["match"])
    # the robot moves right after the action that gives it the turn (eager Celery)
    for _ in range(60):
        match.refresh_from_db()
        if match.status != "playing":
            break
        state = get_engine("briscola").from_json(match.state)
        assert state.to_act == [0], "the robot must have played at once"
        api(alice).post(f"/api/matches/{match.pk}/actions/",
                        {"action": state.legal_actions(0)[0], "version": match.version}, format="json")
    match.refresh_from_db()
    assert match.status == "finished"
    assert MatchAction.objects.filter(match=match, by="robot").exists()


def test_stakes_settled_once_with_the_bank(api, two_players):
    alice, bruno = two_players
    fund(alice, cash=1000)
    fund(bruno, cash=1000)
    table = create(api, alice, official=True, stake=100, currency="cash").json()
    match_id = api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json").json()["match"]
    assert wallet_get(player=alice)["cash_cents"] == 900 and wallet_get(player=bruno)["cash_cents"] == 900
    from .conftest import play_out

    match = play_out(match_id, {0: alice, 1: bruno})
    winner_seat = match.result["winner"]  # 2 players: team = seat
    winner, loser = (alice, bruno) if winner_seat == 0 else (bruno, alice)
    assert wallet_get(player=winner)["cash_cents"] == 900 + 180  # the cash regime: the bank keeps 10%
    assert wallet_get(player=loser)["cash_cents"] == 900
    from apps.wallet.models import Account

    assert Account.objects.get(code="house:bank", currency="cash").balance == 20
    assert Account.objects.get(code=f"escrow:match:{match_id}", currency="cash").balance == 0
    assert ledger_check() is None
    kinds = [r["kind"] for r in api(winner).get("/api/me/ledger/").json()["results"][:2]]
    assert kinds == ["winnings", "stake"]
    # settling again pays nothing twice
    from apps.matches.services.ending import _settle

    _settle(match, list(match.match_seats.all()), [[0], [1]], winner_seat, match.result)
    assert wallet_get(player=winner)["cash_cents"] == 1080


def test_leaving_during_a_match_is_an_abandonment(api, two_players):
    alice, bruno = two_players
    fund(alice, cash=500)
    fund(bruno, cash=500)
    table = create(api, alice, official=True, stake=100, currency="cash").json()
    match_id = api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json").json()["match"]
    assert api(bruno).post(f"/api/tables/{table['id']}/leave/", format="json").status_code == 200
    match = Match.objects.get(pk=match_id)
    assert match.status == "finished" and match.result["winner"] == 0 and match.result["abandoned"] == [1]
    assert wallet_get(player=alice)["cash_cents"] == 400 + 180
    assert wallet_get(player=bruno)["cash_cents"] == 400
    assert not Seat.objects.filter(table_id=table["id"], player=bruno).exists()
    from apps.rankings.models import XpAward

    assert list(XpAward.objects.filter(match=match).values_list("player__profile__nickname", "xp")) == [
        ("Alice_1", 10)]


def test_settings_only_by_the_leader_between_matches(api, two_players):
    alice, bruno = two_players
    table = create(api, alice).json()
    url = f"/api/tables/{table['id']}/"
    assert api(bruno).patch(url, {"turn_seconds": 60}, format="json").json()["code"] == "not_table_leader"
    changed = api(alice).patch(url, {"turn_seconds": 60}, format="json")
    assert changed.status_code == 200 and changed.json()["turn_seconds"] == 60
    assert api(alice).patch(url, {"game": "scopa"}, format="json").json()["code"] == "validation_error"
    api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json")
    # the settings change postponed the first match by 15 seconds: it is not running yet
    assert api(alice).get(url).json()["match"] is None
    from django.core.management import call_command
    from django.utils import timezone

    from apps.tables.models import Table

    Table.objects.filter(pk=table["id"]).update(next_match_at=timezone.now())
    call_command("tournaments_tick")
    assert api(alice).get(url).json()["match"] is not None
    busy = api(alice).patch(url, {"turn_seconds": 30}, format="json")
    assert busy.status_code == 409 and busy.json()["code"] == "match_in_progress"


def test_private_tables_and_spectators(api, two_players, compliance):
    alice, bruno = two_players
    table = create(api, alice, private=True, spectators=False).json()
    refused = api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "private_table"
    assert api(alice).post(f"/api/tables/{table['id']}/invite/", {"nickname": "bruno_2"},
                           format="json").status_code == 201
    match_id = api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json").json()["match"]
    stranger = make_user(nickname="Stranger")
    assert api(stranger).get(f"/api/matches/{match_id}/").status_code == 403
    watched = api(compliance).get(f"/api/matches/{match_id}/")
    assert watched.status_code == 200 and watched.json()["view"]["hand"] == []


def test_friendly_cancellation_returns_stakes(api, two_players):
    alice, bruno = two_players
    fund(alice, cash=500)
    fund(bruno, cash=500)
    table = create(api, alice, official=True, stake=100, currency="cash").json()
    match_id = api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json").json()["match"]
    first = api(alice).post(f"/api/matches/{match_id}/cancel-vote/", {"accept": True}, format="json").json()
    assert first == {"proposal": {"votes": {"Alice_1": True}, "waiting": ["Bruno_2"], "cancelled": False}}
    second = api(bruno).post(f"/api/matches/{match_id}/cancel-vote/", {"accept": True}, format="json").json()
    assert second["proposal"]["cancelled"] is True
    assert Match.objects.get(pk=match_id).status == "cancelled"
    assert wallet_get(player=alice)["cash_cents"] == 500 and wallet_get(player=bruno)["cash_cents"] == 500
    over = api(alice).post(f"/api/matches/{match_id}/cancel-vote/", {"accept": True}, format="json")
    assert over.status_code == 409 and over.json()["code"] == "match_over"
    assert ledger_check() is None


def test_one_refusal_closes_the_proposal(api, two_players):
    alice, bruno = two_players
    table = create(api, alice).json()
    match_id = api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json").json()["match"]
    api(alice).post(f"/api/matches/{match_id}/cancel-vote/", {"accept": True}, format="json")
    no = api(bruno).post(f"/api/matches/{match_id}/cancel-vote/", {"accept": False}, format="json").json()
    assert no["proposal"]["cancelled"] is False and Match.objects.get(pk=match_id).status == "playing"
    bad = api(bruno).post(f"/api/matches/{match_id}/cancel-vote/", {"accept": "yes"}, format="json")
    assert bad.status_code == 400


def test_turn_timer_moves_for_the_player(api, two_players, clock):
    from django.core.management import call_command

    alice, bruno = two_players
    table = create(api, alice, turn_seconds=10).json()
    match_id = api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json").json()["match"]
    match = Match.objects.get(pk=match_id)
    assert match.turn_deadline is not None and match.version == 0  # eager countdown did nothing
    clock.advance(seconds=9)
    call_command("tournaments_tick")
    assert Match.objects.get(pk=match_id).version == 0
    clock.advance(seconds=2)
    call_command("tournaments_tick")
    match.refresh_from_db()
    assert match.version == 1 and MatchAction.objects.get(match=match).by == "timeout"


def test_same_ip_at_the_table_earns_nobody_xp(api, two_players):
    from apps.rankings.models import XpAward

    from .conftest import play_out

    alice, bruno = two_players
    table = api(alice, ip="192.0.2.7").post("/api/tables/", {"game": "briscola", "official": True},
                                            format="json").json()
    match_id = api(bruno, ip="192.0.2.7").post(f"/api/tables/{table['id']}/sit/", format="json").json()["match"]
    match = play_out(match_id, {0: alice, 1: bruno})
    assert match.flagged_same_ip and not XpAward.objects.filter(match=match).exists()


def test_official_match_xp_and_leaderboard(api, two_players):
    from .conftest import play_out

    alice, bruno = two_players
    table = create(api, alice, official=True).json()
    match_id = api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json").json()["match"]
    match = play_out(match_id, {0: alice, 1: bruno})
    board = api(None).get("/api/rankings/briscola/").json()
    winner = "Alice_1" if match.result["winner"] == 0 else "Bruno_2"
    loser = "Bruno_2" if winner == "Alice_1" else "Alice_1"
    assert board == [{"position": 1, "nickname": winner, "xp": 10, "matches": 1, "wins": 1},
                     {"position": 2, "nickname": loser, "xp": 5, "matches": 1, "wins": 0}]
    assert api(None).get("/api/rankings/briscola/", {"period": "month"}).json() == board
    assert api(None).get("/api/rankings/nope/").status_code == 404
    page = api(None).get("/rankings/briscola/")
    assert page.status_code == 200 and winner in page.content.decode()


def test_practice_matches_earn_no_xp(api, two_players):
    from apps.rankings.models import XpAward

    from .conftest import play_out

    alice, bruno = two_players
    table = create(api, alice).json()
    match_id = api(bruno).post(f"/api/tables/{table['id']}/sit/", format="json").json()["match"]
    play_out(match_id, {0: alice, 1: bruno})
    assert not XpAward.objects.exists()


def test_fewer_seats_keeps_the_seated_players(api):
    leader, other = make_user(nickname="Resize_A"), make_user(nickname="Resize_B")
    table = api(leader).post("/api/tables/", {"game": "scopa", "players": 4}, format="json").json()
    api(other).post(f"/api/tables/{table['id']}/sit/", {"seat": 3}, format="json")
    too_few = api(leader).patch(f"/api/tables/{table['id']}/", {"players": 4}, format="json")
    assert too_few.status_code == 200
    changed = api(leader).patch(f"/api/tables/{table['id']}/", {"players": 2}, format="json").json()
    assert [s["nickname"] for s in changed["seats"]] == ["Resize_A", "Resize_B"]
    assert changed["match"] is None  # the settings pause: it starts 15 seconds later
    bigger = api(leader).patch(f"/api/tables/{table['id']}/", {"players": 4}, format="json").json()
    assert [s["nickname"] for s in bigger["seats"]] == ["Resize_A", "Resize_B", None, None]


def test_table_list_reads_a_fixed_number_of_queries(api, django_assert_max_num_queries):
    for n in range(6):
        leader = make_user(nickname=f"Many_{n}")
        table = api(leader).post("/api/tables/", {"game": "briscola"}, format="json").json()
        if n % 2:
            api(make_user(nickname=f"Guest_{n}")).post(f"/api/tables/{table['id']}/sit/", format="json")
    with django_assert_max_num_queries(12):
        listing = api(None).get("/api/tables/").json()
    assert len(listing) == 6 and sum(1 for t in listing if t["match"]) == 3
