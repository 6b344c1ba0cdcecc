"""Self-exclusion (regulation.md §3): start, extend never shorten, revoke an indefinite one
only after 6 calendar months and 7 days; the conto suspended and restored; §3.5's example."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from apps.adm.models import AdmMessage
from apps.common.errors import DomainError
from apps.conto import states as S
from apps.conto.exclusions import (
    exclusion_check,
    exclusions_of,
    exclusions_record_due,
    self_exclusion_request,
    self_exclusion_revoke,
)
from apps.conto.models import Conto, SelfExclusion
from apps.conto.selectors import conto_can, effective_state

pytestmark = pytest.mark.django_db
ROME = ZoneInfo("Europe/Rome")


def _conto(user) -> Conto:
    return Conto.objects.create(user=user, origin=S.ORIGIN_SIGNUP, state=S.APERTO, kyc_status=S.APPROVED,
                                codice_fiscale=f"X{user.pk:015d}", kyc_verified_at=dt.datetime(2026, 1, 1, tzinfo=ROME),
                                document_expires_at=dt.date(2030, 1, 1))


def _refused(call, code):
    with pytest.raises(DomainError) as refused:
        call()
    assert refused.value.code == code, refused.value.as_dict()
    return refused.value


def test_the_example_of_section_3_5(player, clock):
    clock.set(dt.datetime(2027, 3, 1, 10, 0, tzinfo=ROME))
    conto = _conto(player)
    exclusion, created = self_exclusion_request(user=player, data={"scope": "all", "days": 30})
    assert created and exclusion.ends_at == dt.datetime(2027, 3, 31, 10, 0, tzinfo=ROME)
    conto.refresh_from_db()
    assert (conto.state, conto.state_reason, conto.state_before) == ("sospeso", "autoesclusione", "aperto/")
    assert conto_can(conto) == {"money_play": False, "deposit": False, "withdraw": True}
    for what in ("tournament", "money_table", "deposit", "bonus"):
        error = _refused(lambda w=what: exclusion_check(conto=conto, what=w), "self_excluded")
        assert error.status == 403 and error.extra == {"scope": "all", "until": "2027-03-31T10:00:00+02:00"}
    clock.set(dt.datetime(2027, 3, 5, 10, 0, tzinfo=ROME))
    _refused(lambda: self_exclusion_request(user=player, data={"scope": "all", "days": 10}),
             "self_exclusion_cannot_shorten")
    extended, created = self_exclusion_request(user=player, data={"scope": "all", "days": 60})
    assert not created and extended.pk == exclusion.pk
    assert extended.ends_at == dt.datetime(2027, 5, 4, 10, 0, tzinfo=ROME)
    clock.set(dt.datetime(2027, 3, 6, 10, 0, tzinfo=ROME))
    indefinite, _created = self_exclusion_request(user=player, data={"scope": "all", "indefinite": True})
    shape = exclusions_of(conto=conto)[0]
    assert shape["indefinite"] and shape["revocable_from"] == "2027-09-06T10:00:00+02:00"
    clock.set(dt.datetime(2027, 9, 1, 10, 0, tzinfo=ROME))
    error = _refused(lambda: self_exclusion_revoke(user=player, exclusion_id=indefinite.pk), "revocation_too_early")
    assert error.extra["revocable_from"] == "2027-09-06T10:00:00+02:00"
    clock.set(dt.datetime(2027, 9, 10, 10, 0, tzinfo=ROME))
    revoked = self_exclusion_revoke(user=player, exclusion_id=indefinite.pk)
    assert revoked.revocation_effective_at == dt.datetime(2027, 9, 17, 10, 0, tzinfo=ROME)
    _refused(lambda: self_exclusion_revoke(user=player, exclusion_id=indefinite.pk), "invalid_transition")
    clock.set(dt.datetime(2027, 9, 17, 9, 59, tzinfo=ROME))
    assert effective_state(Conto.objects.get(pk=conto.pk)) == ("sospeso", "autoesclusione")
    clock.set(dt.datetime(2027, 9, 17, 10, 0, tzinfo=ROME))
    # the end holds on read, before any tick ran ...
    assert effective_state(Conto.objects.get(pk=conto.pk)) == ("aperto", "")
    exclusion_check(conto=conto, what="tournament")
    # ... and the tick records it once, restoring the state and telling ADM
    assert exclusions_record_due() == 1 and exclusions_record_due() == 0
    conto.refresh_from_db()
    assert (conto.state, conto.state_reason) == ("aperto", "")
    assert AdmMessage.objects.filter(type="self_exclusion").count() == 5  # started, extended, extended, revocation, ended


def test_a_fixed_exclusion_cannot_be_revoked_and_indefinite_to_fixed_is_a_shortening(player, clock):
    _conto(player)
    fixed, _ = self_exclusion_request(user=player, data={"scope": "tournaments", "days": 7})
    _refused(lambda: self_exclusion_revoke(user=player, exclusion_id=fixed.pk), "self_exclusion_fixed")
    self_exclusion_request(user=player, data={"scope": "money_tables", "indefinite": True})
    _refused(lambda: self_exclusion_request(user=player, data={"scope": "money_tables", "days": 270}),
             "self_exclusion_cannot_shorten")


def test_category_exclusions_refuse_only_their_category_and_leave_the_state(player, clock):
    conto = _conto(player)
    self_exclusion_request(user=player, data={"scope": "tournaments", "days": 7})
    _refused(lambda: exclusion_check(conto=conto, what="tournament"), "self_excluded")
    exclusion_check(conto=conto, what="money_table")
    exclusion_check(conto=conto, what="deposit")
    conto.refresh_from_db()
    assert conto.state == "aperto"


@pytest.mark.parametrize("data", [{"scope": "all", "days": 6}, {"scope": "all", "days": 271}, {"scope": "x", "days": 7},
                                  {"scope": "all"}, {"scope": "all", "days": "7"}, {"scope": "all", "indefinite": "yes"},
                                  {"scope": "all", "days": 7, "indefinite": True}, [], None])
def test_bad_requests_change_nothing(player, data):
    _conto(player)
    _refused(lambda: self_exclusion_request(user=player, data=data), "validation_error")
    assert not SelfExclusion.objects.exists() and not AdmMessage.objects.filter(type="self_exclusion").exists()


def test_revoking_someone_elses_or_a_missing_exclusion_is_not_found(player, user_factory):
    other = user_factory(nickname="Other1")
    _conto(player)
    _conto(other)
    exclusion, _ = self_exclusion_request(user=other, data={"scope": "all", "indefinite": True})
    _refused(lambda: self_exclusion_revoke(user=player, exclusion_id=exclusion.pk), "not_found")
    _refused(lambda: self_exclusion_revoke(user=player, exclusion_id="abc"), "not_found")
