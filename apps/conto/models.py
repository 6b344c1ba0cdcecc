"""The conto di gioco (regulation.md §1): a player's gaming account, its identity and KYC,
its state and history, the identity documents, the self-limits, staff notes and the local
stand-in of the national self-exclusion registry.

Nothing here is deleted (§0.4): the conto is one row per player whose every change of state,
KYC status or identity is kept in an append-only history row; documents, limit changes,
notes and registry entries are append-only themselves or never deleted.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.common.models import AppendOnlyModel

from . import states as S


class Conto(models.Model):
    """One per player (never for staff); made by the sign-up, by ``seed_demo``, or on demand
    for a player who existed before (``origin: legacy``, §1.6)."""

    STATE_CHOICES = [(s, s) for s in S.STATES]
    REASON_CHOICES = [("", "")] + [(r, r) for r in S.REASONS]
    KYC_CHOICES = [(k, k) for k in S.KYC_STATUSES]
    ORIGIN_CHOICES = [(o, o) for o in S.ORIGINS]

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, primary_key=True,
                                related_name="conto")
    origin = models.CharField(max_length=10, choices=ORIGIN_CHOICES)
    state = models.CharField(max_length=12, choices=STATE_CHOICES, default=S.IN_VERIFICA)
    state_reason = models.CharField(max_length=16, choices=REASON_CHOICES, blank=True, default="")
    #: the state (and reason) to go back to when a block or a self-exclusion of scope ``all``
    #: ends (§1.4, §1.8): "state/reason", empty when nothing is remembered
    state_before = models.CharField(max_length=40, blank=True, default="")
    state_changed_at = models.DateTimeField(null=True, blank=True)
    kyc_status = models.CharField(max_length=24, choices=KYC_CHOICES, default=S.DOCUMENTS_REQUIRED)
    kyc_reason = models.CharField(max_length=500, blank=True, default="")
    kyc_verified_at = models.DateTimeField(null=True, blank=True)
    #: when both sides of the current submission were in (the KYC queue's order)
    submitted_at = models.DateTimeField(null=True, blank=True)
    #: which submission the uploads belong to: a resubmission request starts the next one
    submission = models.PositiveIntegerField(default=1)
    #: legacy mode (§1.6): an in_verifica conto may play for money until then
    play_until = models.DateTimeField(null=True, blank=True)

    # identity (§1.1); empty for a legacy conto until completed
    first_name = models.CharField(max_length=60, blank=True, default="")
    last_name = models.CharField(max_length=60, blank=True, default="")
    sex = models.CharField(max_length=1, blank=True, default="")
    birth_date = models.DateField(null=True, blank=True)
    birth_place = models.JSONField(default=dict, blank=True)
    #: upper case, no spaces; NULL for a legacy conto (NULLs never clash in the unique index)
    codice_fiscale = models.CharField(max_length=16, null=True, blank=True, unique=True)  # noqa: DJ001
    residence = models.JSONField(default=dict, blank=True)
    email = models.EmailField(max_length=254, blank=True, default="")
    mobile = models.CharField(max_length=16, blank=True, default="")
    #: {"type", "number", "issuer", "expires_at"} of the identity document declared
    document = models.JSONField(default=dict, blank=True)
    #: the approved document's expiry (§1.4: "document valid" while today or later)
    document_expires_at = models.DateField(null=True, blank=True)
    #: the account code ADM issued for account_open (§7.1)
    adm_account_code = models.CharField(max_length=32, blank=True, default="")
    #: the national registry could not answer at the last login (§3.4): money play and deposits
    #: answer 503 registry_unavailable until a check succeeds
    registry_unreachable = models.BooleanField(default=False)
    #: the last login, ledger entry, deposit or withdrawal request (dormancy, §1.8)
    last_activity_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("gaming account")
        verbose_name_plural = _("gaming accounts")
        indexes = [models.Index(fields=["kyc_status", "submitted_at"], name="conto_kyc_queue")]
        constraints = [
            # the email is unique among players case-insensitively (§1.1); legacy conti have none
            models.UniqueConstraint(models.functions.Upper("email"), condition=~models.Q(email=""),
                                    name="conto_email_unique_ci"),
        ]

    def __str__(self) -> str:
        return f"conto {self.user_id} ({self.state})"

    @property
    def identity_complete(self) -> bool:
        return bool(self.codice_fiscale)


class StateChange(AppendOnlyModel):
    """§1.4: every change of a conto's state, with who (null: the system), when and why."""

    conto = models.ForeignKey(Conto, on_delete=models.PROTECT, related_name="state_changes")
    from_state = models.CharField(max_length=12, blank=True, default="")
    from_reason = models.CharField(max_length=16, blank=True, default="")
    state = models.CharField(max_length=12)
    state_reason = models.CharField(max_length=16, blank=True, default="")
    reason = models.CharField(max_length=500, blank=True, default="")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                           related_name="+")
    at = models.DateTimeField()

    class Meta:
        verbose_name = _("account state change")
        verbose_name_plural = _("account state changes")
        ordering = ["-at", "-id"]


class KycEvent(AppendOnlyModel):
    """§1.9's ``kyc_history``: submitted, approved, resubmission_requested, rejected."""

    SUBMITTED, APPROVED, RESUBMISSION_REQUESTED, REJECTED = "submitted", "approved", "resubmission_requested", "rejected"
    ACTIONS = [(a, a) for a in (SUBMITTED, APPROVED, RESUBMISSION_REQUESTED, REJECTED)]

    conto = models.ForeignKey(Conto, on_delete=models.PROTECT, related_name="kyc_events")
    action = models.CharField(max_length=24, choices=ACTIONS)
    reason = models.CharField(max_length=500, blank=True, default="")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                           related_name="+")
    at = models.DateTimeField()

    class Meta:
        verbose_name = _("KYC event")
        verbose_name_plural = _("KYC events")
        ordering = ["-at", "-id"]


class IdentityRecord(AppendOnlyModel):
    """A snapshot of the identity each time it is set (sign-up, completion, renewal): the conto
    row holds the current one, this the whole past (§0.4)."""

    conto = models.ForeignKey(Conto, on_delete=models.PROTECT, related_name="identity_records")
    data = models.JSONField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                           related_name="+")
    at = models.DateTimeField()

    class Meta:
        verbose_name = _("identity record")
        verbose_name_plural = _("identity records")
        ordering = ["-at", "-id"]


class KycDocument(AppendOnlyModel):
    """An uploaded side of an identity document (§1.3). The file lives under
    ``KYC_DOCUMENTS_DIR`` by ``stored_name`` (random), never in a served path."""

    FRONT, BACK = "front", "back"
    SIDES = [(FRONT, FRONT), (BACK, BACK)]

    conto = models.ForeignKey(Conto, on_delete=models.PROTECT, related_name="documents")
    submission = models.PositiveIntegerField()
    side = models.CharField(max_length=5, choices=SIDES)
    content_type = models.CharField(max_length=20)
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    stored_name = models.CharField(max_length=64, unique=True)
    uploaded_at = models.DateTimeField()

    class Meta:
        verbose_name = _("identity document file")
        verbose_name_plural = _("identity document files")
        ordering = ["-uploaded_at", "-id"]


class Limit(models.Model):
    """A self-limit (§2.1) in force, with its pending raise; every change is a LimitChange."""

    DEPOSIT_DAY, DEPOSIT_WEEK, DEPOSIT_MONTH = "deposit_day", "deposit_week", "deposit_month"
    SPEND_DAY, SPEND_WEEK, SPEND_MONTH = "spend_day", "spend_week", "spend_month"
    TIME_DAY = "time_day"
    KEYS = (DEPOSIT_DAY, DEPOSIT_WEEK, DEPOSIT_MONTH, SPEND_DAY, SPEND_WEEK, SPEND_MONTH, TIME_DAY)

    conto = models.ForeignKey(Conto, on_delete=models.PROTECT, related_name="limits")
    key = models.CharField(max_length=16, choices=[(k, k) for k in KEYS])
    value = models.BigIntegerField()
    pending_value = models.BigIntegerField(null=True, blank=True)
    pending_effective_at = models.DateTimeField(null=True, blank=True)
    set_at = models.DateTimeField()

    class Meta:
        verbose_name = _("limit")
        verbose_name_plural = _("limits")
        constraints = [models.UniqueConstraint(fields=["conto", "key"], name="limit_conto_key_unique")]

    def __str__(self) -> str:
        return f"{self.key}={self.value}"


class LimitChange(AppendOnlyModel):
    """§2.2's limit history: set, lowered, raise requested, raise cancelled, raise in force."""

    conto = models.ForeignKey(Conto, on_delete=models.PROTECT, related_name="limit_changes")
    key = models.CharField(max_length=16)
    action = models.CharField(max_length=24)
    old_value = models.BigIntegerField(null=True, blank=True)
    value = models.BigIntegerField(null=True, blank=True)
    effective_at = models.DateTimeField()
    at = models.DateTimeField()

    class Meta:
        verbose_name = _("limit change")
        verbose_name_plural = _("limit changes")
        ordering = ["-at", "-id"]


class PlayerNote(AppendOnlyModel):
    """§9: a staff member's internal note about a player (append-only)."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="staff_notes")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField(max_length=2000)
    created = models.DateTimeField()

    class Meta:
        verbose_name = _("player note")
        verbose_name_plural = _("player notes")
        ordering = ["-created", "-id"]


class RegistryEntry(models.Model):
    """The local stand-in of the national self-exclusion registry (§3.4): kept by
    ``manage.py registry_exclusion`` and by the ADM simulator; an entry is ended
    (``removed_at``), never deleted."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    codice_fiscale = models.CharField(max_length=16, db_index=True)
    scope = models.CharField(max_length=16, default="all")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    source = models.CharField(max_length=20, default="command")
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("registry self-exclusion")
        verbose_name_plural = _("registry self-exclusions")
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return f"{self.codice_fiscale} {self.scope}"


class SelfExclusion(models.Model):
    """A self-exclusion (regulation.md §3): scope ``all``, ``tournaments`` or ``money_tables``;
    fixed (``ends_at``) or indefinite (``None``), revocable only as §3.2 says. Extended in place
    (the same id), never shortened, never deleted; each change is an ExclusionChange."""

    ALL, TOURNAMENTS, MONEY_TABLES = "all", "tournaments", "money_tables"
    SCOPES = (ALL, TOURNAMENTS, MONEY_TABLES)
    PLAYER, REGISTRY = "player", "registry"

    conto = models.ForeignKey(Conto, on_delete=models.PROTECT, related_name="self_exclusions")
    scope = models.CharField(max_length=16, choices=[(s, s) for s in SCOPES])
    source = models.CharField(max_length=10, choices=[(PLAYER, PLAYER), (REGISTRY, REGISTRY)], default=PLAYER)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    #: when it became indefinite (at the start, or by an extension): revocation counts from here
    indefinite_from = models.DateTimeField(null=True, blank=True)
    revocation_requested_at = models.DateTimeField(null=True, blank=True)
    revocation_effective_at = models.DateTimeField(null=True, blank=True)
    #: when the end was recorded (the conto's state restored, ADM told); the end holds on read
    ended_recorded_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("self-exclusion")
        verbose_name_plural = _("self-exclusions")
        ordering = ["-starts_at", "-id"]

    def __str__(self) -> str:
        return f"{self.scope} from {self.starts_at:%Y-%m-%d}"

    @property
    def indefinite(self) -> bool:
        return self.ends_at is None

    def end_at(self):
        """When it ends (or ended): its fixed end, or the revocation's effective instant."""
        if self.revocation_effective_at is not None:
            return self.revocation_effective_at
        return self.ends_at

    def active_at(self, now) -> bool:
        end = self.end_at()
        return self.starts_at <= now and (end is None or now < end)


class ExclusionChange(AppendOnlyModel):
    """A self-exclusion's history: started, extended, revocation requested, ended."""

    exclusion = models.ForeignKey(SelfExclusion, on_delete=models.PROTECT, related_name="changes")
    action = models.CharField(max_length=24)
    ends_at = models.DateTimeField(null=True, blank=True)
    at = models.DateTimeField()

    class Meta:
        verbose_name = _("self-exclusion change")
        verbose_name_plural = _("self-exclusion changes")
        ordering = ["-at", "-id"]


class GameSession(models.Model):
    """A game session (regulation.md §4.1): opened at each login, or at a request when none is
    open; ended by logout or after SESSION_INACTIVITY_MINUTES idle (``ended_at = last_seen_at``).
    Kept forever (§0.4)."""

    LOGOUT, TIMEOUT, CLOSED = "logout", "timeout", "closed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="game_sessions")
    started_at = models.DateTimeField()
    last_seen_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=10, blank=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    device = models.CharField(max_length=64, blank=True)
    user_agent = models.CharField(max_length=300, blank=True)
    #: reality checks answered (§4.2): the next is due at started_at + (answered + 1) × every
    reality_checks_answered = models.PositiveIntegerField(default=0)
    #: the reality check was answered at this point of the session (minutes), so the next counts from it
    reality_check_base_minutes = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("game session")
        verbose_name_plural = _("game sessions")
        ordering = ["-started_at"]
        indexes = [models.Index(fields=["user", "-started_at"], name="game_session_user_start")]

    def __str__(self) -> str:
        return f"session {self.user_id} {self.started_at:%Y-%m-%d %H:%M}"
