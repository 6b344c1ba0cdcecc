"""The ADM outbox (regulation.md §7.1-§7.3): the simulator accepts, rejects by type, or is
unavailable; retries back off; a message is answered once; the tick sends what is due."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.core.management import call_command
from django.db import connection

from apps.adm import transport as transport_module
from apps.adm.models import AdmMessage
from apps.adm.sending import adm_send, adm_send_due, adm_send_sync, backoff
from apps.adm.services import adm_enqueue
from apps.common.errors import DomainError
from apps.common.tick import tick_run
from apps.conto.models import Conto
from apps.conto.services import conto_ensure
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def test_the_simulator_accepts_with_a_16_character_code():
    message = adm_enqueue(type="account_open", reference="player:1")
    sent = adm_send(message_id=message.pk)
    assert sent.status == "accepted" and len(sent.code) == 16 and sent.code.isalnum() and sent.code.upper() == sent.code
    assert sent.attempts == 1 and sent.answered_at is not None
    assert adm_send(message_id=message.pk) is None  # twice changes nothing
    assert AdmMessage.objects.get(pk=message.pk).attempts == 1


def test_rejection_by_type_is_final(settings):
    settings.ADM_SIMULATOR_REJECT = ["limit_change"]
    message = adm_enqueue(type="limit_change", reference="limit:1")
    sent = adm_send(message_id=message.pk)
    assert (sent.status, sent.reject_code) == ("rejected", "SIM_REJECTED")
    settings.ADM_SIMULATOR_REJECT = []
    assert adm_send(message_id=message.pk) is None
    assert AdmMessage.objects.get(pk=message.pk).status == "rejected"


def test_unavailable_backs_off_and_the_tick_sends_it_when_due(settings, clock):
    settings.ADM_SIMULATOR_UNAVAILABLE = True
    clock.set(dt.datetime(2026, 12, 5, 10, tzinfo=dt.UTC))
    message = adm_enqueue(type="account_status", reference="player:2")
    adm_send(message_id=message.pk)
    row = AdmMessage.objects.get(pk=message.pk)
    assert (row.status, row.attempts, row.next_attempt_at) == ("pending", 1, clock.now + dt.timedelta(seconds=30))
    clock.advance(seconds=30)
    assert adm_send_due() == 1
    assert AdmMessage.objects.get(pk=message.pk).next_attempt_at == clock.now + dt.timedelta(seconds=60)
    assert [backoff(n).total_seconds() for n in (1, 2, 3, 7, 8, 20)] == [30, 60, 120, 1920, 3600, 3600]
    clock.advance(seconds=59)
    assert adm_send_due() == 0  # not due yet
    settings.ADM_SIMULATOR_UNAVAILABLE = False
    clock.advance(seconds=1)
    assert tick_run()["adm_send_due"] == 1
    assert AdmMessage.objects.get(pk=message.pk).status == "accepted"
    call_command("adm_send_due")


def test_a_synchronous_message_raises_the_contract_errors(settings):
    assert adm_send_sync(type="participation", reference="registration:1").status == "accepted"
    settings.ADM_SIMULATOR_REJECT = ["participation"]
    with pytest.raises(DomainError) as refused:
        adm_send_sync(type="participation", reference="registration:2")
    assert (refused.value.status, refused.value.code) == (409, "adm_rejected")
    assert refused.value.extra["adm_reason"]
    settings.ADM_SIMULATOR_UNAVAILABLE = True
    with pytest.raises(DomainError) as refused:
        adm_send_sync(type="session_open", reference="tournament:1")
    assert (refused.value.status, refused.value.code) == (503, "adm_unavailable")
    assert AdmMessage.objects.filter(sync=True).count() == 3


def test_the_conto_keeps_its_account_code(django_capture_on_commit_callbacks):
    player = make_user(nickname="Coded1")
    conto_ensure(user=player)
    with django_capture_on_commit_callbacks(execute=True):
        message = adm_enqueue(type="account_open", reference=f"player:{player.pk}", player_id=player.pk)
    row = AdmMessage.objects.get(pk=message.pk)
    assert row.status == "accepted"  # sent by the task enqueued on commit (eager here)
    assert Conto.objects.get(user=player).adm_account_code == row.code


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs real concurrent transactions")
def test_two_senders_of_one_message_call_the_transport_once(monkeypatch):
    message = AdmMessage.objects.create(type="movement", reference="deposit:1")  # not yet sent
    calls: list[str] = []
    original = transport_module.Simulator.send
    gate = threading.Event()

    def slow_send(self, msg):
        calls.append(str(msg.pk))
        gate.wait(2)
        return original(self, msg)

    monkeypatch.setattr(transport_module.Simulator, "send", slow_send)

    def send():
        try:
            adm_send(message_id=message.pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    threads[0].join(0.5)
    gate.set()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert AdmMessage.objects.get(pk=message.pk).attempts == 1
