"""Self-limits (regulation.md §2): caps, lowering at once, raising after 7 days, spend read
from the ledger, the Rome periods, and §2.6's worked example."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from apps.common.errors import DomainError
from apps.conto import states as S
from apps.conto.limits import (
    limit_pending_cancel,
    limits_change,
    limits_record_due,
    limits_set_initial,
    limits_validate,
    limits_view,
    period_bounds,
    spend_check,
)
from apps.conto.models import Conto, LimitChange
from apps.wallet.services import wallet_credit, wallet_debit

pytestmark = pytest.mark.django_db
ROME = ZoneInfo("Europe/Rome")


def _conto(user, birth=dt.date(1985, 3, 15)) -> Conto:
    return Conto.objects.create(user=user, origin=S.ORIGIN_SIGNUP, state=S.APERTO, kyc_status=S.APPROVED,
                                birth_date=birth, codice_fiscale=f"X{user.pk:015d}")


def test_the_periods_are_the_rome_day_week_from_monday_and_calendar_month():
    monday_late = dt.datetime(2026, 12, 7, 23, 30, tzinfo=ROME)
    assert period_bounds("spend_day", monday_late) == (dt.datetime(2026, 12, 7, tzinfo=ROME),
                                                       dt.datetime(2026, 12, 8, tzinfo=ROME))
    sunday = dt.datetime(2026, 12, 13, 12, tzinfo=ROME)
    assert period_bounds("spend_week", sunday) == (dt.datetime(2026, 12, 7, tzinfo=ROME),
                                                   dt.datetime(2026, 12, 14, tzinfo=ROME))
    assert period_bounds("deposit_month", sunday) == (dt.datetime(2026, 12, 1, tzinfo=ROME),
                                                      dt.datetime(2027, 1, 1, tzinfo=ROME))
    # 23:30 UTC on 7 December is already 8 December in Rome
    assert period_bounds("spend_day", dt.datetime(2026, 12, 7, 23, 30, tzinfo=dt.UTC))[0] == \
        dt.datetime(2026, 12, 8, tzinfo=ROME)


@given(st.datetimes(min_value=dt.datetime(2024, 1, 1), max_value=dt.datetime(2030, 12, 31),
                    timezones=st.just(dt.UTC)), st.sampled_from(["spend_day", "spend_week", "spend_month"]))
@hsettings(max_examples=200, deadline=None)
def test_a_moment_always_lies_in_its_period(moment, key):
    start, end = period_bounds(key, moment)
    assert start <= moment < end
    assert start.astimezone(ROME).time() == dt.time(0) and end.astimezone(ROME).time() == dt.time(0)


def test_first_activation_caps_and_the_young_ones(player, user_factory):
    conto = _conto(player)
    with pytest.raises(DomainError) as refused:
        limits_validate({"deposit_day": 20001}, conto=conto, first=True, field_prefix="limits.")
    assert "limits.deposit_day" in refused.value.extra["fields"]
    assert limits_validate({"deposit_day": 20000, "spend_day": 10000, "time_day": 180, "spend_month": 10 ** 8},
                           conto=conto, first=True)
    young = _conto(user_factory(), birth=dt.date.today().replace(year=dt.date.today().year - 20))
    with pytest.raises(DomainError) as refused:
        limits_validate({"spend_day": 5001}, conto=young, first=True)
    assert "spend_day" in refused.value.extra["fields"]


@pytest.mark.parametrize("values", [{"spend_day": None}, {"spend_day": "10"}, {"spend_day": -1},
                                    {"spend_day": 100_000_001}, {"time_day": 1441}, {"nope": 1},
                                    {"spend_day": 1.5}, {"spend_day": True}])
def test_bad_limits_are_refused_naming_the_field_and_change_nothing(player, values):
    conto = _conto(player)
    limits_set_initial(conto=conto, values={"spend_day": 3000})
    before = LimitChange.objects.count()
    with pytest.raises(DomainError) as refused:
        limits_change(user=player, values=values)
    assert refused.value.code == "validation_error" and set(refused.value.extra["fields"]) == set(values)
    assert LimitChange.objects.count() == before
    assert limits_view(conto=conto)["spend_day"]["value"] == 3000


def test_the_worked_example_of_section_2_6(player, clock):
    """Monday 7 December, Rome: 5,000 → 3,000 at once; 3,000 → 8,000 pending until 14 December
    10:00; a registration and its refund, a stake lost, a match played 1,000 won 900: spend
    600, 2,400 left; the next day starts again."""
    clock.set(dt.datetime(2026, 12, 7, 9, 0, tzinfo=ROME))
    conto = _conto(player)
    wallet_credit(player=player, currency="cash", amount=10_000, kind="adjustment", reference="t",
                  source="house:cashier")
    limits_set_initial(conto=conto, values={"spend_day": 5000})
    clock.set(dt.datetime(2026, 12, 7, 10, 0, tzinfo=ROME))
    assert limits_change(user=player, values={"spend_day": 3000})["spend_day"]["value"] == 3000
    shape = limits_change(user=player, values={"spend_day": 8000})
    assert shape["spend_day"]["value"] == 3000
    assert shape["spend_day"]["pending"] == {"value": 8000, "effective_at": "2026-12-14T10:00:00+01:00"}
    # adjustments count nowhere
    assert shape["spend_day"]["used"] == 0
    wallet_debit(player=player, currency="cash", amount=1000, kind="buy_in", reference="tournament:1",
                 destination="escrow:tournament:1")
    wallet_credit(player=player, currency="cash", amount=1000, kind="unregister_refund", reference="tournament:1",
                  source="escrow:tournament:1")
    assert limits_view(conto=conto)["spend_day"]["used"] == 0
    wallet_debit(player=player, currency="cash", amount=500, kind="stake", reference="match:1",
                 destination="escrow:match:1")
    wallet_debit(player=player, currency="cash", amount=1000, kind="stake", reference="match:2",
                 destination="escrow:match:2")
    wallet_credit(player=player, currency="cash", amount=900, kind="winnings", reference="match:2",
                  source="escrow:match:2")
    day = limits_view(conto=conto)["spend_day"]
    assert (day["used"], day["remaining"], day["resets_at"]) == (600, 2400, "2026-12-08T00:00:00+01:00")
    with pytest.raises(DomainError) as refused:
        spend_check(conto=conto, amount=2401)
    assert refused.value.code == "spend_limit_exceeded" and refused.value.status == 409
    assert (refused.value.extra["limit"], refused.value.extra["remaining_cents"],
            refused.value.extra["needed_cents"], refused.value.extra["limit_cents"]) == ("spend_day", 2400, 2401, 3000)
    spend_check(conto=conto, amount=2400)
    clock.set(dt.datetime(2026, 12, 8, 0, 0, tzinfo=ROME))
    assert limits_view(conto=conto)["spend_day"]["used"] == 0
    # the raise holds from its instant on read, and the tick only writes it down, once
    clock.set(dt.datetime(2026, 12, 14, 10, 0, tzinfo=ROME))
    assert limits_view(conto=conto)["spend_day"]["value"] == 8000
    assert limits_record_due() == 1 and limits_record_due() == 0
    assert LimitChange.objects.filter(conto=conto, action="raised", value=8000).count() == 1


def test_lowering_cancels_a_pending_raise_and_a_raise_can_be_cancelled(player, clock):
    conto = _conto(player)
    limits_set_initial(conto=conto, values={"deposit_day": 10000})
    limits_change(user=player, values={"deposit_day": 15000})
    assert limit_pending_cancel(user=player, key="deposit_day")["deposit_day"]["pending"] is None
    with pytest.raises(DomainError) as refused:
        limit_pending_cancel(user=player, key="deposit_day")
    assert refused.value.code == "not_found"
    limits_change(user=player, values={"deposit_day": 15000})
    shape = limits_change(user=player, values={"deposit_day": 9000})
    assert (shape["deposit_day"]["value"], shape["deposit_day"]["pending"]) == (9000, None)


def test_week_and_month_spend_limits_are_checked_in_order(player, clock):
    clock.set(dt.datetime(2026, 12, 9, 12, 0, tzinfo=ROME))
    conto = _conto(player)
    limits_set_initial(conto=conto, values={"spend_day": 10000, "spend_week": 700, "spend_month": 600})
    with pytest.raises(DomainError) as refused:
        spend_check(conto=conto, amount=650)
    assert refused.value.extra["limit"] == "spend_month"
    with pytest.raises(DomainError) as refused:
        spend_check(conto=conto, amount=800)
    assert refused.value.extra["limit"] == "spend_week"
