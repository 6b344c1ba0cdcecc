"""The conto at money-play points (regulation.md §1.5, §2.4, §3.3, §4.4): tournament
registration, money tables (creation, sitting, next-match confirmation, a match's start),
in the spec's order; a refusal writes nothing; credits and practice are never refused."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection
from django.utils import timezone

from apps.common.errors import DomainError
from apps.conto import states as S
from apps.conto.exclusions import self_exclusion_request
from apps.conto.limits import limits_set_initial
from apps.conto.models import Conto
from apps.conto.services import conto_ensure
from apps.tables import services as tables
from apps.tables.models import Seat, Table
from apps.tables.services import seating
from apps.tournaments import services as tournaments
from apps.tournaments.models import Registration
from apps.wallet.models import Entry
from tests.conftest import api_client, make_user
from tests.tournaments.conftest import create, fund

pytestmark = pytest.mark.django_db


def _refused(call, code: str) -> DomainError:
    with pytest.raises(DomainError) as refused:
        call()
    assert refused.value.code == code, refused.value.as_dict()
    return refused.value


def _suspend(user, reason=S.OPERATORE) -> None:
    conto = conto_ensure(user=user)
    Conto.objects.filter(pk=conto.pk).update(state=S.SOSPESO, state_reason=reason)


def _verification(user, **fields) -> Conto:
    conto = conto_ensure(user=user)
    Conto.objects.filter(pk=conto.pk).update(state=S.IN_VERIFICA, kyc_status=S.DOCUMENTS_REQUIRED,
                                             origin=S.ORIGIN_SIGNUP, **fields)
    return Conto.objects.get(pk=conto.pk)


def _nothing_written(user) -> None:
    assert not Entry.objects.filter(account__player=user, currency__in=("cash", "bonus")).exclude(
        transaction__kind="adjustment").exists()
    assert not Registration.objects.filter(player=user).exists()
    assert not Seat.objects.filter(player=user).exists()


@pytest.fixture
def tournament(operator):
    return create(operator, buy_in_cents=1000, max_players=8)


def test_registration_refuses_a_conto_that_is_not_open(tournament):
    for make_state, expected in ((_suspend, ("sospeso", "operatore")),
                                 (_verification, ("in_verifica", ""))):
        player = make_user(nickname=f"Reg{expected[0][:4]}")
        fund(player, cash=5000)
        make_state(player)
        error = _refused(lambda p=player: tournaments.tournament_register(user=p, tournament_id=tournament["id"]),
                         "account_not_open")
        assert (error.status, error.extra["state"], error.extra["state_reason"]) == (403, *expected)
        _nothing_written(player)


def test_freerolls_are_money_play_too(operator):
    freeroll = create(operator, buy_in_cents=0, max_players=8, prize="cash", guaranteed_cents=1000)
    player = make_user(nickname="Freeroller")
    _verification(player)
    _refused(lambda: tournaments.tournament_register(user=player, tournament_id=freeroll["id"]), "account_not_open")


def test_the_order_sanction_then_exclusion_then_state_then_spend(tournament, compliance):
    player = make_user(nickname="Ordered1")
    fund(player, cash=5000)
    conto = conto_ensure(user=player)
    limits_set_initial(conto=conto, values={"spend_day": 500})
    _refused(lambda: tournaments.tournament_register(user=player, tournament_id=tournament["id"]),
             "spend_limit_exceeded")
    _verification(player)
    _refused(lambda: tournaments.tournament_register(user=player, tournament_id=tournament["id"]), "account_not_open")
    self_exclusion_request(user=player, data={"scope": "tournaments", "days": 7})
    error = _refused(lambda: tournaments.tournament_register(user=player, tournament_id=tournament["id"]),
                     "self_excluded")
    assert error.extra["scope"] == "tournaments"
    _nothing_written(player)


def test_a_spend_limit_refusal_names_what_is_left(tournament):
    player = make_user(nickname="Limited1")
    fund(player, cash=5000)
    limits_set_initial(conto=conto_ensure(user=player), values={"spend_day": 1500, "spend_week": 900})
    error = _refused(lambda: tournaments.tournament_register(user=player, tournament_id=tournament["id"]),
                     "spend_limit_exceeded")
    assert (error.status, error.extra["limit"], error.extra["remaining_cents"], error.extra["needed_cents"]) == (
        409, "spend_week", 900, 1000)
    assert error.extra["resets_at"]
    _nothing_written(player)


def test_a_legacy_player_plays_while_the_setting_allows(tournament, settings):
    player = make_user(nickname="Legacy1")
    fund(player, cash=5000)
    settings.LEGACY_ACCOUNTS_MAY_PLAY = False
    _refused(lambda: tournaments.tournament_register(user=player, tournament_id=tournament["id"]), "account_not_open")
    settings.LEGACY_ACCOUNTS_MAY_PLAY = True
    tournaments.tournament_register(user=player, tournament_id=tournament["id"])


def test_legacy_mode_plays_until_its_deadline_on_read(tournament, settings, clock):
    settings.KYC_PLAY_BEFORE_VERIFICATION = True
    clock.set(dt.datetime(2026, 12, 5, 10, tzinfo=dt.UTC))
    player = make_user(nickname="Window1")
    fund(player, cash=5000)
    _verification(player, play_until=dt.datetime(2026, 12, 6, 10, tzinfo=dt.UTC))
    other = create(make_user(group="operator"), buy_in_cents=1000, max_players=8)
    tournaments.tournament_register(user=player, tournament_id=tournament["id"])
    clock.set(dt.datetime(2026, 12, 6, 10, tzinfo=dt.UTC))
    error = _refused(lambda: tournaments.tournament_register(user=player, tournament_id=other["id"]),
                     "account_not_open")
    assert (error.extra["state"], error.extra["state_reason"]) == ("sospeso", "documenti")


def _money_table(leader, stake=500):
    return tables.table_create(user=leader, data={"game": "briscola", "official": True, "stake": stake,
                                                  "currency": "cash"}, ip="10.0.0.1")


def test_money_tables_refuse_at_creation_and_sitting_but_credits_never(finance):
    ok = make_user(nickname="Leader1")
    fund(ok, cash=5000)
    table = _money_table(ok)
    blocked = make_user(nickname="Blocked1")
    fund(blocked, cash=5000)
    _suspend(blocked)
    _refused(lambda: _money_table(blocked), "account_not_open")
    _refused(lambda: tables.table_sit(user=blocked, table_id=table.pk), "account_not_open")
    _nothing_written(blocked)
    practice = tables.table_create(user=blocked, data={"game": "briscola"}, ip="10.0.0.3")
    assert practice.pk  # credits and practice tables are play money
    excluded = make_user(nickname="Excluded1")
    fund(excluded, cash=5000)
    self_exclusion_request(user=excluded, data={"scope": "money_tables", "days": 7})
    _refused(lambda: tables.table_sit(user=excluded, table_id=table.pk), "self_excluded")
    limited = make_user(nickname="Limited2")
    fund(limited, cash=5000)
    limits_set_initial(conto=conto_ensure(user=limited), values={"spend_day": 400})
    _refused(lambda: tables.table_sit(user=limited, table_id=table.pk), "spend_limit_exceeded")
    assert not Seat.objects.filter(table=table, player__in=[blocked, excluded, limited]).exists()


def test_a_money_match_stands_up_a_seat_whose_conto_closed_meanwhile():
    leader, second = make_user(nickname="Leader2"), make_user(nickname="Second2")
    fund(leader, cash=5000)
    fund(second, cash=5000)
    table = _money_table(leader)
    with pytest.MonkeyPatch.context() as patch:
        # the second player's conto leaves aperto between sitting and the start
        patch.setattr(seating, "table_start_if_ready", lambda **kw: None)  # sitting down starts nothing
        tables.table_sit(user=second, table_id=table.pk, ip="10.0.0.2")
        _suspend(second)
    assert tables.table_start_if_ready(table_id=table.pk) is None
    assert not table.matches.exists()
    assert not Seat.objects.filter(table=table, player=second).exists()
    assert not Entry.objects.filter(account__player=second, transaction__kind="stake").exists()


def test_the_api_answers_account_not_open_with_its_fields(tournament):
    player = make_user(nickname="Api1")
    fund(player, cash=5000)
    _suspend(player, reason=S.DOCUMENTI)
    response = api_client(player).post(f"/api/tournaments/{tournament['id']}/register/", {}, format="json")
    assert response.status_code == 403
    assert {k: response.json()[k] for k in ("code", "state", "state_reason")} == {
        "code": "account_not_open", "state": "sospeso", "state_reason": "documenti"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the race needs real concurrent transactions")
def test_two_registrations_racing_for_the_last_euros_of_a_spend_limit_never_both_pass():
    operator = make_user(group="operator")
    first, second = create(operator, buy_in_cents=1000), create(operator, buy_in_cents=1000)
    player = make_user(nickname="Racer1")
    fund(player, cash=10_000)
    limits_set_initial(conto=conto_ensure(user=player), values={"spend_day": 1500})
    barrier = threading.Barrier(2)
    codes: list[str] = []

    def register(tournament_id):
        try:
            barrier.wait()
            tournaments.tournament_register(user=player, tournament_id=tournament_id)
            codes.append("ok")
        except DomainError as exc:
            codes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=register, args=(t["id"],)) for t in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == ["ok", "spend_limit_exceeded"]
    assert Registration.objects.filter(player=player, active=True).count() == 1
    assert timezone.now()
    assert Table.objects.count() == 0
