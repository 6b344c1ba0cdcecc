"""A money match and the ADM central system (regulation.md §7.3, §7.4): the session and each
stake's participation validated before any stake moves; a refusal starts nothing and puts the
table back in the window to confirm; the end tells ADM the winners and closes the session."""

from __future__ import annotations

import random

import pytest

from apps.adm.models import AdmMessage
from apps.games.engines import get_engine
from apps.matches.models import Match
from apps.matches.services import creation as match_creation  # where a match draws its seed
from apps.tables import services
from apps.tables.models import Seat
from apps.tables.render import render_fragments
from apps.wallet.selectors import ledger_check, wallet_get
from tests.conftest import api_client, make_user

from .conftest import fund, play_out

pytestmark = pytest.mark.django_db


def _cash_table(names):
    players = [make_user(nickname=n) for n in names]
    for p in players:
        fund(p, cash=2_000)
    table = services.table_create(user=players[0], data={"game": "briscola", "official": True, "currency": "cash",
                                                          "stake": 100}, ip="10.9.0.1")
    return table, players


def test_a_money_match_opens_its_session_and_its_participations_then_tells_the_end():
    table, players = _cash_table(["AdmM1", "AdmM2"])
    services.table_sit(user=players[1], table_id=table.pk, ip="10.9.0.2")
    match = Match.objects.get(table_link__table=table)
    assert len(match.adm_session_code) == 16
    seats = list(match.match_seats.order_by("number"))
    assert all(len(ms.adm_participation_code) == 16 for ms in seats)
    references = set(AdmMessage.objects.filter(type="participation", status="accepted").values_list("reference",
                                                                                                  flat=True))
    assert references == {f"match:{match.pk}:seat:{ms.number}" for ms in seats}
    assert api_client(players[0]).get(f"/api/tables/{table.pk}/").json()["adm_session_code"] == match.adm_session_code
    html, _revision = render_fragments(table_id=table.pk, user=players[0])
    assert match.adm_session_code in html  # the table page shows it
    row = api_client(players[0]).get("/api/me/ledger/").json()["results"][0]
    assert (row["kind"], row["adm_session_code"]) == ("stake", match.adm_session_code) and row["adm_code"]
    play_out(match.pk, {ms.number: ms.player for ms in seats})
    assert set(AdmMessage.objects.filter(reference=f"match:{match.pk}").values_list("type", flat=True)) == {
        "session_open", "winners", "session_end"}
    assert ledger_check() is None


@pytest.mark.parametrize("refused", ["session_open", "participation"])
def test_a_refusal_starts_nothing_and_asks_every_seat_to_confirm_again(settings, refused):
    table, players = _cash_table([f"AdmR{refused[:3]}1", f"AdmR{refused[:3]}2"])
    settings.ADM_SIMULATOR_REJECT = [refused]
    services.table_sit(user=players[1], table_id=table.pk, ip="10.9.0.3")
    assert not Match.objects.filter(table_link__table=table).exists()
    assert [wallet_get(player=p)["cash_cents"] for p in players] == [2_000, 2_000]
    assert not Seat.objects.filter(table=table, ready=True).exists()
    table.refresh_from_db()
    assert table.confirm_deadline is not None
    assert AdmMessage.objects.filter(type=refused, status="rejected").count() == 1
    if refused == "participation":  # the session was opened; no participation was accepted
        assert not AdmMessage.objects.filter(type="participation", status="accepted").exists()
    settings.ADM_SIMULATOR_REJECT = []
    for p in players:
        services.table_ready(user=p, table_id=table.pk)
    assert Match.objects.filter(table_link__table=table).count() == 1  # confirmed again: it starts
    assert ledger_check() is None


@pytest.mark.django_db(transaction=True)
def test_a_scala40_reentry_at_a_money_table_is_a_participation_and_a_rejection_charges_nothing(
        settings, monkeypatch):
    monkeypatch.setattr(match_creation, "new_seed", lambda: 20261201)  # a deal that offers a re-entry
    players = [make_user(nickname=f"S40adm_{n}") for n in range(3)]
    for user in players:
        fund(user, cash=10_000)
    table = api_client(players[0]).post("/api/tables/", {
        "game": "scala40", "players": 3, "official": True, "stake": 100, "currency": "cash",
        "game_options": {"entry_fee": 2, "reentry_fee": 3}}, format="json").json()
    for user in players[1:]:
        assert api_client(user).post(f"/api/tables/{table['id']}/sit/", format="json").status_code == 200
    match = Match.objects.get(table_link__table_id=table["id"])
    seats = {ms.number: ms.player for ms in match.match_seats.all()}
    engine, rng = get_engine("scala40"), random.Random(5)
    for _ in range(5000):
        match.refresh_from_db()
        assert match.status == Match.PLAYING, "the deal offered no re-entry"
        state = engine.from_json(match.state)
        seat = state.to_act[0]
        user = seats[seat]
        url = f"/api/matches/{match.pk}/actions/"
        if state.view(seat)["phase"] == "reentry" and {"type": "reenter"} in state.legal_actions(seat):
            cash = wallet_get(player=user)["cash_cents"]
            settings.ADM_SIMULATOR_REJECT = ["participation"]
            refused = api_client(user).post(url, {"action": {"type": "reenter"}, "version": match.version},
                                            format="json")
            assert (refused.status_code, refused.json()["code"]) == (409, "adm_rejected")
            after = Match.objects.get(pk=match.pk)
            assert after.version == match.version and wallet_get(player=user)["cash_cents"] == cash
            assert AdmMessage.objects.filter(type="participation", status="rejected", player_id=user.pk).count() == 1
            settings.ADM_SIMULATOR_REJECT = []
            done = api_client(user).post(url, {"action": {"type": "reenter"}, "version": match.version},
                                         format="json")
            assert done.status_code == 200
            assert wallet_get(player=user)["cash_cents"] == cash - 300
            reentry = AdmMessage.objects.get(type="participation", status="accepted", reference__contains=":reentry:")
            assert reentry.transaction_ids and ledger_check() is None
            return
        action = engine.bot_action(state, seat, rng)
        if action["type"] == "reenter":
            action = {"type": "decline"}
        answer = api_client(user).post(url, {"action": action, "version": match.version}, format="json")
        assert answer.status_code == 200, answer.content
    raise AssertionError("no re-entry offered")
