"""Anti-money-laundering (regulation.md §6): signals raised at their event and by the nightly
scan, one a rule, player, counterparty and day; compliance's cases, each step audited."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command

from apps.aml.models import AmlSignal
from apps.aml.services import aml_scan, aml_signal_raise
from apps.audit.models import AuditLog
from apps.conto.nightly import conto_nightly
from apps.wallet.services import wallet_credit, wallet_transfer
from tests.cashier.helpers import cashier_player
from tests.conftest import api_client, make_user

pytestmark = pytest.mark.django_db


def _match(match_id: int, loser, winner, stake: int = 2_000, bank: int = 0) -> None:
    """A settled cash match: both stake, the winner takes the pot less the bank."""
    for player in (loser, winner):
        wallet_transfer(source=f"player:{player.pk}", destination=f"escrow:match:{match_id}", currency="cash",
                        amount=stake, kind="stake", reference=f"match:{match_id}")
    wallet_transfer(source=f"escrow:match:{match_id}", destination=f"player:{winner.pk}", currency="cash",
                    amount=2 * stake - bank, kind="winnings", reference=f"match:{match_id}")


def test_repeated_losses_between_a_pair_are_signalled_once_a_day():
    loser, winner = make_user(nickname="Perde"), make_user(nickname="Vince")
    for player in (loser, winner):
        wallet_credit(player=player, currency="cash", amount=50_000, kind="adjustment", reference="t",
                      source="house:cashier")
    for n in range(4):
        _match(90_000 + n, loser, winner)
    assert aml_scan()["aml_repeated_losses"] == 0  # four meetings: not yet
    _match(90_010, loser, winner)
    assert aml_scan()["aml_repeated_losses"] == 1
    signal = AmlSignal.objects.get(rule="repeated_losses")
    assert (signal.player_id, signal.counterparty_id, signal.amount) == (loser.pk, winner.pk, 10_000)
    assert aml_scan()["aml_repeated_losses"] == 0  # a second run the same day raises nothing new
    assert conto_nightly()["aml_repeated_losses"] == 0  # the nightly job runs the scan


def test_many_instruments_and_the_command():
    player, card = cashier_player()
    client = api_client(player)
    cards = [card]
    from tests.cashier.helpers import luhn_card
    for n in range(3):
        cards.append(client.post("/api/me/instruments/", {"kind": "card", "holder_name": "Mario Rossi",
                                                          "identifier": luhn_card(5_000 + n)}, format="json").json())
    for c in cards:
        client.post("/api/me/deposits/", {"amount_cents": 1_000, "instrument": getattr(c, "pk", None) or c["id"]},
                    format="json")
    call_command("aml_scan", "--days", "30")
    assert AmlSignal.objects.filter(player=player, rule="many_instruments").count() == 1


def test_cases_open_review_close_with_notes_and_audit():
    compliance = make_user(group="compliance")
    client = api_client(compliance)
    player = make_user(nickname="Caso1")
    signal = aml_signal_raise(rule="withdrawal_before_kyc", player_id=player.pk, amount=2_000)
    opened = client.post("/api/aml/cases/", {"player": player.pk, "summary": "prelievo prima del KYC",
                                             "signals": [signal.pk]}, format="json")
    assert opened.status_code == 201 and opened.json()["status"] == "open" and opened.json()["signals"] == [signal.pk]
    case_id = opened.json()["id"]
    again = client.post("/api/aml/cases/", {"player": player.pk, "summary": "ancora"}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "aml_case_exists")
    assert client.post(f"/api/aml/cases/{case_id}/review/").json()["status"] == "in_review"
    note = client.post(f"/api/aml/cases/{case_id}/notes/", {"text": "chiesti estratti conto"}, format="json")
    assert note.status_code == 201
    future = (dt.date.today() + dt.timedelta(days=3)).isoformat()
    bad = client.post(f"/api/aml/cases/{case_id}/close/", {"outcome": "reported", "reason": "sospetto",
                                                           "report_date": future, "protocol_number": "UIF-1"},
                      format="json")
    assert bad.status_code == 400 and "report_date" in bad.json()["fields"]
    assert client.post(f"/api/aml/cases/{case_id}/close/", {"outcome": "measure", "reason": "x"},
                       format="json").status_code == 400  # a measure needs its words
    closed = client.post(f"/api/aml/cases/{case_id}/close/", {
        "outcome": "reported", "reason": "operazione sospetta", "report_date": dt.date.today().isoformat(),
        "protocol_number": "UIF-2026-0042"}, format="json").json()
    assert (closed["status"], closed["protocol_number"]) == ("reported", "UIF-2026-0042")
    assert [h["status"] for h in closed["history"]] == ["open", "in_review", "reported"]
    late = client.post(f"/api/aml/cases/{case_id}/notes/", {"text": "dopo"}, format="json")
    assert (late.status_code, late.json()["code"]) == (409, "aml_case_closed")
    assert set(AuditLog.objects.filter(target_type="aml_case").values_list("action", flat=True)) == {
        "aml_case_open", "aml_case_review", "aml_case_note", "aml_case_close"}
    listed = client.get(f"/api/aml/signals/?player={player.pk}&rule=withdrawal_before_kyc").json()["results"]
    assert [s["case"] for s in listed] == [case_id]
    assert client.get("/api/aml/signals/?rule=nope").status_code == 400
    for role in ("operator", "finance"):
        assert api_client(make_user(group=role)).get("/api/aml/cases/").status_code == 403
    assert api_client(player).get("/api/aml/signals/").status_code == 403
