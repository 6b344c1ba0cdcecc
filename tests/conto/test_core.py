"""The conto's core (regulation.md §1.4-§1.6): the legacy conto on demand, deadlines taking
effect on read, what each state may do, and records that cannot be deleted."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection, transaction
from django.db.utils import DatabaseError
from django.utils import timezone

from apps.adm.models import AdmMessage
from apps.common.errors import DomainError, Forbidden
from apps.common.models import AppendOnlyError
from apps.conto import states as S
from apps.conto.models import Conto, StateChange
from apps.conto.selectors import conto_can, effective_state
from apps.conto.services import conto_check_money_play, conto_ensure, conto_state_set

pytestmark = pytest.mark.django_db


def _signed_up(user, **fields) -> Conto:
    values = {"origin": S.ORIGIN_SIGNUP, "state": S.IN_VERIFICA, "kyc_status": S.DOCUMENTS_REQUIRED,
              "codice_fiscale": f"RSSMRA85C15H50{user.pk % 10}R"}
    values.update(fields)
    return Conto.objects.create(user=user, **values)


def test_a_player_made_before_the_conto_gets_a_legacy_one_that_plays(player):
    conto = conto_ensure(user=player)
    assert (conto.origin, conto.state, conto.kyc_status) == ("legacy", "aperto", "legacy")
    assert conto_ensure(user=player).pk == conto.pk  # once
    assert StateChange.objects.filter(conto=conto).count() == 1
    assert conto_check_money_play(user=player) == conto
    assert conto_can(conto) == {"money_play": True, "deposit": False, "withdraw": False}


def test_legacy_money_play_follows_its_setting_at_each_use(player, settings):
    conto_ensure(user=player)
    settings.LEGACY_ACCOUNTS_MAY_PLAY = False
    with pytest.raises(DomainError) as refused:
        conto_check_money_play(user=player)
    assert refused.value.code == "account_not_open" and refused.value.status == 403
    settings.LEGACY_ACCOUNTS_MAY_PLAY = True
    conto_check_money_play(user=player)


def test_staff_have_no_conto(operator, superuser):
    for user in (operator, superuser):
        with pytest.raises(Forbidden):
            conto_ensure(user=user)
    assert not Conto.objects.exists()


def test_an_unverified_conto_may_not_play_for_money(player):
    _signed_up(player)
    with pytest.raises(DomainError) as refused:
        conto_check_money_play(user=player)
    assert refused.value.as_dict()["state"] == "in_verifica"
    assert refused.value.as_dict()["state_reason"] == ""


def test_legacy_mode_plays_until_play_until_and_no_job_is_needed_after(player, settings):
    settings.KYC_PLAY_BEFORE_VERIFICATION = True
    now = timezone.now()
    conto = _signed_up(player, play_until=now + dt.timedelta(days=1))
    conto_check_money_play(user=player, now=now)
    assert conto_can(conto, now=now)["deposit"] is True
    later = now + dt.timedelta(days=1, seconds=1)
    with pytest.raises(DomainError) as refused:
        conto_check_money_play(user=player, now=later)
    assert (refused.value.extra["state"], refused.value.extra["state_reason"]) == ("sospeso", "documenti")
    settings.KYC_PLAY_BEFORE_VERIFICATION = False  # the setting switched off closes the window too
    with pytest.raises(DomainError):
        conto_check_money_play(user=player, now=now)


def test_an_expired_document_suspends_on_read_after_the_grace(player, settings):
    today = timezone.localdate()
    conto = _signed_up(player, state=S.APERTO, kyc_status=S.APPROVED, kyc_verified_at=timezone.now(),
                       document_expires_at=today - dt.timedelta(days=1))
    assert effective_state(conto) == ("sospeso", "documenti")
    assert conto_can(conto) == {"money_play": False, "deposit": False, "withdraw": False}
    settings.DOCUMENT_EXPIRED_GRACE_DAYS = 1
    assert effective_state(conto) == ("aperto", "")
    assert conto_can(conto)["withdraw"] is False  # withdrawals stop at once (Appendix B)
    conto.document_expires_at = today  # valid through today
    assert conto_can(conto) == {"money_play": True, "deposit": True, "withdraw": True}


def test_a_state_change_keeps_history_and_tells_adm(player):
    conto = _signed_up(player, state=S.APERTO)
    with transaction.atomic():
        conto_state_set(conto=conto, state=S.SOSPESO, state_reason=S.OPERATORE, reason="third-party use",
                        remember=True)
    change = StateChange.objects.get(conto=conto)
    assert (change.from_state, change.state, change.state_reason) == ("aperto", "sospeso", "operatore")
    message = AdmMessage.objects.get(type="account_status")
    assert message.reference == f"player:{player.pk}" and message.payload["adm_reason"] == 7
    assert Conto.objects.get(pk=conto.pk).state_before == "aperto/"


def test_history_rows_are_append_only(player):
    conto = conto_ensure(user=player)
    change = StateChange.objects.get(conto=conto)
    with pytest.raises(AppendOnlyError):
        change.delete()
    with pytest.raises(AppendOnlyError):
        StateChange.objects.filter(pk=change.pk).update(reason="x")


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the delete guard is a PostgreSQL trigger")
def test_the_database_refuses_to_delete_a_conto_or_an_adm_message(player):
    conto = conto_ensure(user=player)
    message = AdmMessage.objects.create(type="account_open", reference=f"player:{player.pk}")
    for query in (Conto.objects.filter(pk=conto.pk), AdmMessage.objects.filter(pk=message.pk),
                  StateChange.objects.all()):
        with pytest.raises((DatabaseError, AppendOnlyError)), transaction.atomic():
            query._raw_delete(query.db) if hasattr(query, "_raw_delete") else query.delete()
    assert Conto.objects.filter(pk=conto.pk).exists()
