"""The double-entry ledger (platform.md §3).

Accounts hold a cached balance per currency; transactions and entries are append-only
(model guard + database trigger). Within a transaction the entries of each currency
sum to zero, so money is never created or lost by accident.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.common.models import AppendOnlyModel

CASH, BONUS, CREDITS = "cash", "bonus", "credits"
CURRENCIES = (CASH, BONUS, CREDITS)
CURRENCY_CHOICES = [(c, c) for c in CURRENCIES]


class Account(models.Model):
    """One balance: ``code`` names the owner (``player:12``, ``house:bank``,
    ``escrow:match:7``), with one row per currency."""

    code = models.CharField(max_length=80)
    currency = models.CharField(max_length=8, choices=CURRENCY_CHOICES)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                               related_name="accounts")
    allow_negative = models.BooleanField(default=False)
    balance = models.BigIntegerField(default=0)
    closed = models.BooleanField(default=False, help_text="an escrow whose match or tournament is over: must be 0")
    #: a player's cash or bonus account under an authority report: money arriving for the player
    #: goes to house:authority_frozen. A mirror of the active divert freezes, written under this
    #: row's lock by ``wallet_freeze_set``, so a credit reads it fresh with its own lock
    #: (platform.md §7.4, ``_divert_decide``)
    diverted = models.BooleanField(default=False, help_text="an authority report holds arriving cash and bonus")

    class Meta:
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        constraints = [
            models.UniqueConstraint(fields=["code", "currency"], name="account_code_currency_unique"),
            models.CheckConstraint(condition=Q(allow_negative=True) | Q(balance__gte=0),
                                   name="account_balance_not_negative"),
            models.CheckConstraint(condition=Q(player__isnull=True) | Q(allow_negative=False),
                                   name="account_player_never_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.code}:{self.currency}"


class Transaction(AppendOnlyModel):
    kind = models.CharField(max_length=40, db_index=True)
    reference = models.CharField(max_length=120, blank=True, db_index=True)
    idempotency_key = models.CharField(max_length=200, null=True, blank=True, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+", help_text="null: the system")
    memo = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("transaction")
        verbose_name_plural = _("transactions")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"#{self.pk} {self.kind} {self.reference}"


class Entry(AppendOnlyModel):
    transaction = models.ForeignKey(Transaction, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    currency = models.CharField(max_length=8, choices=CURRENCY_CHOICES)
    amount = models.BigIntegerField()
    balance_after = models.BigIntegerField()
    #: what this entry is to its account's owner (``stake_return`` and ``winnings`` can share
    #: one settlement transaction); the transaction's kind when not given
    kind = models.CharField(max_length=40, blank=True)
    #: the player concerned: the owner of a player account, or the player whose share a
    #: shared house account holds (house:authority_frozen)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                               related_name="+")
    created = models.DateTimeField()

    class Meta:
        verbose_name = _("ledger entry")
        verbose_name_plural = _("ledger entries")
        ordering = ["-id"]
        constraints = [models.CheckConstraint(condition=~Q(amount=0), name="entry_amount_not_zero")]
        indexes = [models.Index(fields=["account", "-id"])]

    def __str__(self) -> str:
        return f"{self.account} {self.amount:+d}"


class Adjustment(AppendOnlyModel):
    """A finance adjustment (deposit, withdrawal, correction), with its reason."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="adjustments")
    currency = models.CharField(max_length=8, choices=CURRENCY_CHOICES)
    amount = models.BigIntegerField()
    reason = models.CharField(max_length=200)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created = models.DateTimeField()

    class Meta:
        verbose_name = _("adjustment")
        verbose_name_plural = _("adjustments")
        ordering = ["-id"]


class CreditRecharge(models.Model):
    """A play-money recharge request: 300 credits due two hours after the request (§4)."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="recharges")
    requested_at = models.DateTimeField(db_index=True)
    available_at = models.DateTimeField(db_index=True)
    credits = models.PositiveIntegerField(default=300)
    credited_at = models.DateTimeField(null=True, blank=True)
    transaction = models.ForeignKey(Transaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("credit recharge")
        verbose_name_plural = _("credit recharges")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"recharge {self.pk} of {self.player_id} due {self.available_at:%Y-%m-%d %H:%M}"


class FreezeQuerySet(models.QuerySet):
    def active(self, now=None):
        now = now or timezone.now()
        return self.filter(lifted_at__isnull=True, starts_at__lte=now).filter(
            Q(ends_at__isnull=True) | Q(ends_at__gt=now))


class Freeze(models.Model):
    """A hold on a player's money (platform.md §3.6, §7.4), kept by the wallet itself.

    While active, nothing in cash or bonus can leave the player's accounts; with
    ``divert`` (an authority report) cash and bonus arriving for the player go to
    ``house:authority_frozen`` instead. Compliance writes one per freezing sanction
    through ``wallet_freeze_set``, so the wallet never reads sanctions. A freeze is
    active on the same terms as its sanction: not lifted and ``now < ends_at``.
    """

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="freezes")
    #: what put it there, e.g. ``sanction:5``: one freeze per reference
    reference = models.CharField(max_length=80, unique=True)
    divert = models.BooleanField(default=False, help_text="money arriving goes to house:authority_frozen")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    lifted_at = models.DateTimeField(null=True, blank=True)

    objects = FreezeQuerySet.as_manager()

    class Meta:
        verbose_name = _("freeze")
        verbose_name_plural = _("freezes")
        ordering = ["-starts_at", "-id"]
        indexes = [models.Index(fields=["player", "lifted_at"])]

    def __str__(self) -> str:
        return f"freeze of {self.player_id} ({self.reference})"


# -- the cashier's records (regulation.md §5): money in and out of the platform ---------------
# They live beside the ledger because the ledger's own check (``ledger_check``, §5.5 rules 7
# and 9) reads them; the checks, the provider and the pages are apps/cashier's.


class Instrument(models.Model):
    """A card, bank account or e-wallet in the holder's name (§5.2). Only a masked form and a
    hash of the identifier are kept; the hash is unique, so one instrument belongs to one conto."""

    CARD, BANK_ACCOUNT, EWALLET = "card", "bank_account", "ewallet"
    KINDS = (CARD, BANK_ACCOUNT, EWALLET)

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="instruments")
    kind = models.CharField(max_length=16, choices=[(k, k) for k in KINDS])
    holder_name = models.CharField(max_length=200)
    masked = models.CharField(max_length=64)
    fingerprint = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("payment instrument")
        verbose_name_plural = _("payment instruments")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.masked}"


class Deposit(models.Model):
    """A deposit (§5.3): ``pending`` until the provider confirms or declines it; a confirmed
    one has exactly one ``deposit`` transaction of its amount (``ledger_check`` rule 9)."""

    PENDING, CONFIRMED, DECLINED = "pending", "confirmed", "declined"
    STATUSES = (PENDING, CONFIRMED, DECLINED)

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="deposits")
    instrument = models.ForeignKey(Instrument, on_delete=models.PROTECT, related_name="deposits")
    amount = models.BigIntegerField()
    status = models.CharField(max_length=12, choices=[(s, s) for s in STATUSES], default=PENDING)
    provider = models.CharField(max_length=40)
    provider_ref = models.CharField(max_length=100, blank=True)
    redirect_url = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(default=timezone.now, db_index=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    declined_at = models.DateTimeField(null=True, blank=True)
    transaction = models.ForeignKey(Transaction, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("deposit")
        verbose_name_plural = _("deposits")
        ordering = ["-id"]
        indexes = [models.Index(fields=["player", "created"])]

    def __str__(self) -> str:
        return f"deposit {self.pk} of {self.player_id}: {self.amount} {self.status}"


class Withdrawal(models.Model):
    """A withdrawal (§5.4): the amount sits in ``escrow:withdrawal:{id}`` from the request until
    it is paid (to house:cashier) or goes back (rejected, cancelled)."""

    REQUESTED, IN_REVIEW, APPROVED, PAID = "requested", "in_review", "approved", "paid"
    REJECTED, CANCELLED = "rejected", "cancelled"
    STATUSES = (REQUESTED, IN_REVIEW, APPROVED, PAID, REJECTED, CANCELLED)
    HELD = (REQUESTED, IN_REVIEW, APPROVED)

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="withdrawals")
    instrument = models.ForeignKey(Instrument, on_delete=models.PROTECT, related_name="withdrawals")
    amount = models.BigIntegerField()
    status = models.CharField(max_length=12, choices=[(s, s) for s in STATUSES], default=REQUESTED)
    reason = models.CharField(max_length=200, blank=True)
    provider_ref = models.CharField(max_length=100, blank=True)
    created = models.DateTimeField(default=timezone.now, db_index=True)
    updated = models.DateTimeField(default=timezone.now)
    paid_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")

    class Meta:
        verbose_name = _("withdrawal")
        verbose_name_plural = _("withdrawals")
        ordering = ["id"]
        indexes = [models.Index(fields=["status", "id"])]

    def __str__(self) -> str:
        return f"withdrawal {self.pk} of {self.player_id}: {self.amount} {self.status}"

    @property
    def escrow(self) -> str:
        return f"escrow:withdrawal:{self.pk}"


class ProviderEvent(AppendOnlyModel):
    """A provider callback handled once (§5.1): a replay of its ``event_id`` changes nothing."""

    provider = models.CharField(max_length=40)
    event_id = models.CharField(max_length=100)
    deposit = models.ForeignKey(Deposit, null=True, blank=True, on_delete=models.PROTECT, related_name="events")
    status = models.CharField(max_length=12)
    received = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("provider event")
        verbose_name_plural = _("provider events")
        constraints = [models.UniqueConstraint(fields=["provider", "event_id"], name="provider_event_once")]
