"""Play-money credits (platform.md §4): the welcome and passport grants, recharge requests and their delayed credit."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.errors import Conflict, StaffCannotPlay
from apps.common.roles import is_staff_member

from ..models import (
    CREDITS,
    Account,
    CreditRecharge,
    Transaction,
)
from .accounts import account_get, player_code
from .ledger import entry_balance_after, wallet_credit

ROME = ZoneInfo("Europe/Rome")


WELCOME_CREDITS = 300


PASSPORT_CREDITS = 1000


RECHARGE_CREDITS = 300


RECHARGE_BELOW = 50


RECHARGE_DELAY = timedelta(hours=2)


RECHARGES_PER_DAY = 2


def credits_welcome_grant(*, player: User) -> Transaction:
    """The 300 welcome credits, once (an idempotency key per player guarantees it)."""
    return wallet_credit(player=player, currency=CREDITS, amount=WELCOME_CREDITS, kind="credits_welcome",
                         reference=f"player:{player.pk}", source="house:play_money",
                         idempotency_key=f"credits_welcome:player:{player.pk}")


def credits_passport_grant(*, actor: User, player: User) -> int:
    """The passport's +1000 credits, once (key per player); the new credits balance.

    The players app records the passport on the profile and calls this inside its lock."""
    txn = wallet_credit(player=player, currency=CREDITS, amount=PASSPORT_CREDITS, kind="credits_passport",
                        reference=f"player:{player.pk}", source="house:play_money", created_by=actor,
                        idempotency_key=f"credits_passport:player:{player.pk}")
    return entry_balance_after(txn, player, CREDITS)


class RechargeNotAllowed(Conflict):
    code = "recharge_not_allowed"


def _rome_day_bounds(moment: datetime) -> tuple[datetime, datetime]:
    local = moment.astimezone(ROME)
    start = local.replace(hour=0, minute=0, second=0, microsecond=0)
    end = (start + timedelta(days=1, hours=3)).replace(hour=0)  # DST-safe next midnight
    return start, end


def credits_recharge_request(*, player: User) -> CreditRecharge:
    """Ask for 300 credits, due two hours later; the tick credits them (never earlier).

    The recharge rules only: the players app checks first that the player may ask at all
    (a player, with a nickname, not kept out of the lobby: platform.md §4)."""
    if is_staff_member(player):
        raise StaffCannotPlay()
    now = timezone.now()
    with transaction.atomic():
        account = account_get(player_code(player), CREDITS)
        account = Account.objects.select_for_update().get(pk=account.pk)  # serialises requests
        if account.balance >= RECHARGE_BELOW:
            raise RechargeNotAllowed(
                _("You have %(balance)s credits: a recharge is possible only below %(below)s.")
                % {"balance": account.balance, "below": RECHARGE_BELOW},
                reason="balance_not_low")
        pending = CreditRecharge.objects.filter(player=player, credited_at__isnull=True).order_by("available_at").first()
        if pending is not None:
            at = pending.available_at.astimezone(ROME).strftime("%d/%m/%Y %H:%M")
            raise RechargeNotAllowed(
                _("A recharge is already on its way: it arrives at %(at)s (Rome time); ask again after it.") % {"at": at},
                reason="pending")
        start, end = _rome_day_bounds(now)
        if CreditRecharge.objects.filter(player=player, requested_at__gte=start, requested_at__lt=end).count() \
                >= RECHARGES_PER_DAY:
            raise RechargeNotAllowed(
                _("You already asked for %(n)s recharges today: try again tomorrow (%(day)s, Rome time).")
                % {"n": RECHARGES_PER_DAY, "day": end.strftime("%d/%m/%Y")},
                reason="daily_limit")
        return CreditRecharge.objects.create(player=player, requested_at=now, available_at=now + RECHARGE_DELAY,
                                             credits=RECHARGE_CREDITS)


def credits_recharges_credit_due() -> int:
    """Credit every recharge whose deadline has passed; safe to run twice or concurrently."""
    now = timezone.now()
    done = 0
    for recharge_id in CreditRecharge.objects.filter(credited_at__isnull=True, available_at__lte=now) \
            .values_list("pk", flat=True):
        with transaction.atomic():
            recharge = CreditRecharge.objects.select_for_update().filter(pk=recharge_id,
                                                                         credited_at__isnull=True).first()
            if recharge is None or recharge.available_at > timezone.now():
                continue
            txn = wallet_credit(player=recharge.player, currency=CREDITS, amount=recharge.credits,
                                kind="credits_recharge", reference=f"recharge:{recharge.pk}",
                                source="house:play_money", idempotency_key=f"credits_recharge:{recharge.pk}")
            recharge.credited_at = timezone.now()
            recharge.transaction = txn
            recharge.save(update_fields=["credited_at", "transaction"])
            done += 1
    return done
