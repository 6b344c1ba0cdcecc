"""What a player's ledger says of tournaments (issue 25): each line names its tournament, the
entry a satellite seat replaced is named for what it is, money held for the authority after a
freeze still shows, cash is one word; the tick's cancel reason is shown in each reader's
language."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from apps.tournaments.models import Registration, Tournament
from apps.wallet.models import Transaction
from apps.wallet.services import wallet_freeze_set
from tests.conftest import api_client

from .conftest import assert_ledger_ok, create, play_to_end, players, register_all

pytestmark = pytest.mark.django_db(transaction=True)


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def page(user, path: str = "/accounts/profile/", language: str = "it") -> str:
    client = Client()
    client.force_login(user)
    resp = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert resp.status_code == 200
    return _text(resp.content.decode())


def test_tournament_lines_name_the_tournament_and_cash_is_contanti(operator):
    t = create(operator, name="Satellite per la sera", kind="scheduled", min_players=2, buy_in_cents=250)
    [p] = players(1, cash=1000)
    register_all(t["id"], [p])
    assert api_client(p).post(f"/api/tournaments/{t['id']}/unregister/").status_code == 200
    text = page(p)
    assert "Iscrizione torneo «Satellite per la sera»" in text
    assert "Iscrizione rimborsata «Satellite per la sera»" in text
    assert "Iscrizione torneo «Satellite per la sera» -€2,50 contanti" in text
    assert "denaro" not in text and "buy_in" not in text and "unregister_refund" not in text
    english = page(p, language="en")
    assert "Tournament entry «Satellite per la sera»" in english and "cash" in english


def test_a_satellite_seat_refund_is_named_entry_paid_by_the_seat(operator):
    target = create(operator, name="Gran serata", kind="scheduled", min_players=2, max_players=16,
                    buy_in_cents=2500)
    sat = create(operator, name="Sat", max_players=2, prize="satellite", satellite_target=target["id"],
                 payouts=None, buy_in_cents=1500)
    people = players(2, cash=5000)
    register_all(target["id"], people)  # both already paid the target's entry
    register_all(sat["id"], people)
    play_to_end(sat["id"])
    winner = Registration.objects.get(tournament_id=target["id"], seat_from_id=sat["id"]).player
    refund = Transaction.objects.get(kind="unregister_refund", reference=f"tournament:{target['id']}")
    assert refund.memo == "seat_funded"
    text = page(winner)
    assert "Iscrizione pagata dal posto del satellite «Gran serata»" in text
    assert "Iscrizione rimborsata" not in text and "unregister_refund" not in text
    assert "Entry paid by a satellite seat «Gran serata»" in page(winner, language="en")
    assert_ledger_ok()


def test_a_refund_held_after_an_authority_freeze_shows_in_the_players_ledger(operator):
    t = create(operator, name="Coppa ferma", kind="scheduled", min_players=2)
    a, b = players(2, cash=1000)
    register_all(t["id"], [a, b])
    wallet_freeze_set(player_id=a.pk, reference=f"test:report:{a.pk}", divert=True, starts_at=timezone.now(),
                      ends_at=None, lifted_at=None)
    assert api_client(operator).post(f"/api/tournaments/{t['id']}/cancel/", {"reason": "x"},
                                     format="json").status_code == 202
    rows = api_client(a).get("/api/me/ledger/").json()["results"]
    held = [r for r in rows if r["kind"] == "cancel_refund"]
    assert [(r["amount"], r["currency"], r["balance_after"], r.get("held")) for r in held] == [
        (1000, "cash", 0, True)]  # the player's own balance after it: still 0, not the house's total
    text = page(a)
    assert "Rimborso: torneo «Coppa ferma» annullato" in text and "trattenuto dall'autorità" in text
    assert "Trattenuto dall'autorità finché è aperta" in page(a, f"/tournaments/{t['id']}/")
    other = api_client(b).get("/api/me/ledger/").json()["results"]
    assert [r.get("held") for r in other if r["kind"] == "cancel_refund"] == [None]
    assert_ledger_ok()


def test_the_ticks_cancel_reason_reaches_each_player_in_their_language(operator, clock):
    start = timezone.now() + timedelta(minutes=30)
    t = create(operator, kind="scheduled", min_players=3, starts_at=start.isoformat())
    [p] = players(1, cash=1000)
    register_all(t["id"], [p])
    clock.advance(minutes=29)
    call_command("tournaments_tick")
    tour = Tournament.objects.get(pk=t["id"])
    assert tour.status == "cancelled" and tour.cancel_code == "not_enough_players"
    italian = page(p, f"/tournaments/{t['id']}/", "it")
    assert "Giocatori insufficienti alla chiusura delle iscrizioni." in italian
    assert "Not enough players" not in italian
    assert "Not enough players at registration close." in page(p, f"/tournaments/{t['id']}/", "en")
    detail = api_client(p).get(f"/api/tournaments/{t['id']}/", HTTP_ACCEPT_LANGUAGE="it").json()
    # the REST API answers in English (docs/decisions.md) and gives the code to translate by
    assert (detail["cancel_reason"], detail["cancel_code"]) == ("Not enough players at registration close.",
                                                                 "not_enough_players")
