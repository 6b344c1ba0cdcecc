"""The national registry at each login (regulation.md §3.4), the bonus refused to a
self-excluded player (§3.3), and the money tables left at once (§3.3)."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.common.errors import DomainError
from apps.conto.exclusions import self_exclusion_request
from apps.conto.gates import MONEY_TABLE, TOURNAMENT, money_play_gate
from apps.conto.models import Conto, SelfExclusion
from apps.conto.registry import registry_entry_add, registry_entry_remove
from apps.conto.services import conto_ensure
from apps.tables import services as tables
from apps.tables.models import Seat
from tests.conftest import api_client, make_user
from tests.tournaments.conftest import fund

pytestmark = pytest.mark.django_db
PASSWORD = "pw-Mazziere-1"
CF = "RSSMRA85C15H501R"


def _with_code(user):
    conto = conto_ensure(user=user)
    Conto.objects.filter(pk=conto.pk).update(codice_fiscale=CF)
    return conto


def _login(user):
    assert Client().post("/accounts/login/", {"username": user.username, "password": PASSWORD}).status_code == 302


def test_found_at_login_starts_a_registry_exclusion_that_ends_when_no_longer_listed():
    player = make_user(nickname="Registry1", password=PASSWORD)
    conto = _with_code(player)
    registry_entry_add(codice_fiscale=CF, days=None, scope="tournaments")
    _login(player)  # the login goes on
    exclusion = SelfExclusion.objects.get(conto=conto)
    assert (exclusion.scope, exclusion.source, exclusion.ends_at) == ("tournaments", "registry", None)
    with pytest.raises(DomainError) as refused:
        money_play_gate(user=player, what=TOURNAMENT)
    assert refused.value.code == "self_excluded"
    response = api_client(player).post(f"/api/me/self-exclusions/{exclusion.pk}/revoke/")
    assert (response.status_code, response.json()["code"]) == (409, "self_exclusion_fixed")
    _login(player)
    assert SelfExclusion.objects.filter(conto=conto).count() == 1  # not started twice
    registry_entry_remove(codice_fiscale=CF)
    _login(player)
    money_play_gate(user=player, what=TOURNAMENT)


def test_unreachable_at_login_blocks_money_play_until_a_check_succeeds(settings):
    player = make_user(nickname="Registry2", password=PASSWORD)
    _with_code(player)
    settings.SELF_EXCLUSION_REGISTRY = "tests.conto.registries.Broken"
    _login(player)
    with pytest.raises(DomainError) as refused:
        money_play_gate(user=player, what=MONEY_TABLE)
    assert (refused.value.status, refused.value.code) == (503, "registry_unavailable")
    settings.SELF_EXCLUSION_REGISTRY = "apps.conto.registry.LocalRegistry"
    response = api_client().post("/api/auth/token/", {"username": player.username, "password": PASSWORD},
                                 format="json")
    assert response.status_code == 200
    money_play_gate(user=player, what=MONEY_TABLE)


def test_a_bonus_for_a_self_excluded_player_is_refused(finance):
    player = make_user(nickname="NoBonus1")
    conto_ensure(user=player)
    self_exclusion_request(user=player, data={"scope": "all", "days": 7})
    response = api_client(finance).post(f"/api/players/{player.pk}/adjustments/",
                                        {"currency": "bonus", "amount": 500, "reason": "promo"}, format="json")
    assert (response.status_code, response.json()["code"]) == (403, "self_excluded")
    response = api_client(finance).post(f"/api/players/{player.pk}/adjustments/",
                                        {"currency": "cash", "amount": 500, "reason": "deposit"}, format="json")
    assert response.status_code == 201


def test_excluding_oneself_from_money_tables_stands_up_at_once(django_capture_on_commit_callbacks):
    player = make_user(nickname="StandUp1")
    fund(player, cash=5000)
    table = tables.table_create(user=player, data={"game": "briscola", "official": True, "stake": 500,
                                                   "currency": "cash"}, ip="10.0.0.1")
    with django_capture_on_commit_callbacks(execute=True):
        self_exclusion_request(user=player, data={"scope": "money_tables", "days": 7})
    assert not Seat.objects.filter(table=table, player=player).exists()
