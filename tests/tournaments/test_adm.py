"""The ADM central system and tournaments (regulation.md §7.3, §7.4): a session opened at
creation, a participation validated before each registration is written, cancelled at each
refund; a rejection or a silence charges nothing, registers nothing and keeps ADM's answer."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.adm.models import AdmMessage
from apps.tournaments.models import Registration, Tournament
from apps.wallet.selectors import ledger_check, wallet_get
from tests.conftest import api_client, make_user

from .conftest import body, create, fund

pytestmark = pytest.mark.django_db


def _player(name: str, cash: int = 5_000):
    player = make_user(nickname=name)
    fund(player, cash=cash)
    return player


def test_a_tournament_opens_its_session_and_a_rejected_one_is_not_created(settings):
    operator = make_user(group="operator")
    made = create(operator)
    assert made["regime"] == "torneo" and len(made["adm_session_code"]) == 16
    message = AdmMessage.objects.get(type="session_open", reference=f"tournament:{made['id']}")
    assert message.status == "accepted" and message.code == made["adm_session_code"]
    settings.ADM_SIMULATOR_REJECT = ["session_open"]
    before = Tournament.objects.count()
    refused = api_client(operator).post("/api/tournaments/", body(name="Rifiutato"), format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "adm_rejected") and refused.json()["adm_reason"]
    assert Tournament.objects.count() == before
    assert AdmMessage.objects.filter(type="session_open", status="rejected").count() == 1  # the answer is kept


@pytest.mark.parametrize("key", [None, "reg-1"])
def test_a_registration_is_validated_by_adm_first_and_a_rejection_charges_nothing(settings, key):
    operator = make_user(group="operator")
    t = create(operator, buy_in_cents=1_000)
    ok, refused = _player(f"AdmOk{bool(key)}"), _player(f"AdmNo{bool(key)}")
    answer = api_client(ok).post(f"/api/tournaments/{t['id']}/register/").json()
    assert answer["adm_session_code"] == t["adm_session_code"] and len(answer["adm_participation_code"]) == 16
    reg = Registration.objects.get(player=ok)
    message = AdmMessage.objects.get(type="participation", reference=f"registration:{reg.pk}")
    assert message.status == "accepted" and message.transaction_ids
    row = api_client(ok).get("/api/me/ledger/").json()["results"][0]
    assert (row["kind"], row["adm_code"], row["adm_session_code"]) == (
        "buy_in", answer["adm_participation_code"], t["adm_session_code"])
    settings.ADM_SIMULATOR_REJECT = ["participation"]
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    no = api_client(refused).post(f"/api/tournaments/{t['id']}/register/", **headers)
    assert (no.status_code, no.json()["code"], no.json()["adm_reason"]) == (409, "adm_rejected",
                                                                            "rifiutato dal simulatore")
    assert wallet_get(player=refused)["cash_cents"] == 5_000
    assert not Registration.objects.filter(player=refused).exists()
    assert AdmMessage.objects.filter(type="participation", player_id=refused.pk, status="rejected").count() == 1
    assert ledger_check() is None


def test_a_silent_adm_charges_nothing_and_cancels_the_participation(settings):
    t = create(make_user(group="operator"), buy_in_cents=1_000)
    player = _player("AdmSilent")
    settings.ADM_SIMULATOR_UNAVAILABLE = True
    answer = api_client(player).post(f"/api/tournaments/{t['id']}/register/")
    assert (answer.status_code, answer.json()["code"]) == (503, "adm_unavailable")
    assert wallet_get(player=player)["cash_cents"] == 5_000 and not Registration.objects.filter(player=player).exists()
    assert AdmMessage.objects.filter(type="participation_cancel", player_id=player.pk).count() == 1


def test_an_unregistration_cancels_the_participation_and_the_page_shows_the_codes():
    t = create(make_user(group="operator"), buy_in_cents=1_000)
    player = _player("AdmPage")
    api_client(player).post(f"/api/tournaments/{t['id']}/register/")
    reg = Registration.objects.get(player=player)
    page = Client(HTTP_ACCEPT_LANGUAGE="it")
    page.force_login(player)
    html = page.get(f"/tournaments/{t['id']}/").content.decode()
    assert t["adm_session_code"] in html and reg.adm_participation_code in html
    api_client(player).post(f"/api/tournaments/{t['id']}/unregister/")
    cancel = AdmMessage.objects.get(type="participation_cancel", reference=f"registration:{reg.pk}")
    assert cancel.payload["participation"] == reg.adm_participation_id and cancel.transaction_ids


def test_a_rejection_in_the_middle_of_a_registration_burst_leaves_the_ledger_and_the_outbox_consistent(settings):
    t = create(make_user(group="operator"), buy_in_cents=1_000, max_players=8)
    players = [_player(f"Burst{n}") for n in range(6)]
    codes = []
    for n, player in enumerate(players):
        settings.ADM_SIMULATOR_REJECT = ["participation"] if n in (2, 3) else []
        codes.append(api_client(player).post(f"/api/tournaments/{t['id']}/register/").status_code)
    assert codes == [201, 201, 409, 409, 201, 201]
    registered = set(Registration.objects.filter(tournament_id=t["id"], active=True).values_list("player_id",
                                                                                                 flat=True))
    accepted = set(AdmMessage.objects.filter(type="participation", status="accepted").values_list("player_id",
                                                                                                 flat=True))
    rejected = set(AdmMessage.objects.filter(type="participation", status="rejected").values_list("player_id",
                                                                                                 flat=True))
    assert registered == accepted == {p.pk for n, p in enumerate(players) if n not in (2, 3)}
    assert rejected == {players[2].pk, players[3].pk}
    assert [wallet_get(player=p)["cash_cents"] for p in players] == [4_000, 4_000, 5_000, 5_000, 4_000, 4_000]
    assert ledger_check() is None
