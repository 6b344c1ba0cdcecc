"""Tournaments, their registrations and their matches (platform.md §5, §6).

A tournament's money sits in ``escrow:tournament:{id}``; each registration records how
much of the buy-in came from bonus and from cash, so every refund goes back to where it
came from (§3.4). Matches are the matches app's rows; a ``TournamentMatch`` says which
round and which registrations, by the match's id (a bye has no match).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

#: reasons the system cancels for, by code: stored as the code, shown in the reader's language
CANCEL_REASONS = {"not_enough_players": _("Not enough players at registration close.")}


class Tournament(models.Model):
    SIT_AND_GO, SCHEDULED = "sit_and_go", "scheduled"
    KNOCKOUT, POINTS = "knockout", "points"
    CASH, BONUS, SATELLITE = "cash", "bonus", "satellite"
    OPEN, RUNNING, FINISHED, CANCELLED = "open", "running", "finished", "cancelled"
    KINDS = [(SIT_AND_GO, "Sit and Go"), (SCHEDULED, "scheduled")]
    FORMATS = [(KNOCKOUT, "knockout"), (POINTS, "points")]
    PRIZES = [(CASH, "cash"), (BONUS, "bonus"), (SATELLITE, "satellite")]
    STATUSES = [(OPEN, "open"), (RUNNING, "running"), (FINISHED, "finished"), (CANCELLED, "cancelled")]

    name = models.CharField(max_length=100)
    game = models.CharField(max_length=40, db_index=True)
    kind = models.CharField(max_length=12, choices=KINDS)
    format = models.CharField(max_length=10, choices=FORMATS)
    buy_in_cents = models.PositiveIntegerField(default=0, help_text="the full entry cost, fee included")
    fee_cents = models.PositiveIntegerField(default=0)
    guaranteed_cents = models.PositiveIntegerField(default=0)
    prize = models.CharField(max_length=10, choices=PRIZES, default=CASH)
    satellite_target = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT,
                                         related_name="satellites")
    min_players = models.PositiveSmallIntegerField()
    max_players = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField(null=True, blank=True, db_index=True)
    registrations_close_at = models.DateTimeField(null=True, blank=True, db_index=True)
    payouts = models.JSONField(default=list, help_text="percentages by final position")
    game_options = models.JSONField(default=dict, blank=True)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True, help_text="points format only")
    turn_seconds = models.PositiveSmallIntegerField(default=30)
    #: the operator may switch chat off for a tournament's matches (seed 000)
    chat_enabled = models.BooleanField(_("chat enabled"), default=True)
    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN, db_index=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    #: fixed at the start (platform.md §5.4); computed live before it
    entrants_at_start = models.PositiveIntegerField(null=True, blank=True)
    prize_pool_cents = models.PositiveIntegerField(null=True, blank=True)
    overlay_cents = models.PositiveIntegerField(null=True, blank=True)
    fees_cents = models.PositiveIntegerField(null=True, blank=True)
    payouts_cents = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancel_reason = models.CharField(max_length=500, blank=True)
    #: a system cancellation's reason (``CANCEL_REASONS``), translated when shown; "" for an operator's
    cancel_code = models.CharField(max_length=40, blank=True, default="")
    #: ADM's session code, issued when the tournament was created (regulation.md §7.3, §7.4)
    adm_session_code = models.CharField(max_length=32, blank=True, default="")
    #: the refund run after a cancellation: lines to pay, and when the last one was paid
    refunds_total = models.PositiveIntegerField(default=0)
    refunds_done_at = models.DateTimeField(null=True, blank=True)
    #: the draws (byes, pairings, seat lots), as the tournament log of platform.md §5.5
    draws = models.JSONField(default=list, blank=True)
    #: an operator paused the registrations (issue 16): nobody can register until resumed
    registrations_paused_at = models.DateTimeField(null=True, blank=True)
    registrations_pause_reason = models.CharField(max_length=500, blank=True)
    #: grows after every committed change the tournament page shows (live updates)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["status", "game"])]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"

    @property
    def cancel_reason_display(self) -> str:
        """The cancellation's reason in the active language: the system's by its code, an
        operator's as they wrote it."""
        label = CANCEL_REASONS.get(self.cancel_code)
        return str(label) if label is not None else self.cancel_reason

    @property
    def escrow(self) -> str:
        return f"escrow:tournament:{self.pk}"

    @property
    def prize_currency(self) -> str:
        return "bonus" if self.prize == self.BONUS else "cash"


class Registration(models.Model):
    PLAYING, ELIMINATED, WINNER = "playing", "eliminated", "winner"

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="registrations")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="registrations")
    nickname = models.CharField(max_length=16)
    created = models.DateTimeField()
    active = models.BooleanField(default=True, help_text="false once unregistered")
    unregistered_at = models.DateTimeField(null=True, blank=True)
    paid_bonus_cents = models.PositiveIntegerField(default=0)
    paid_cash_cents = models.PositiveIntegerField(default=0)
    #: the address the player registered from (collusion signals, platform.md §7.5); null for a
    #: seat won in a satellite
    ip = models.GenericIPAddressField(null=True, blank=True)
    #: ADM's participation (regulation.md §7.3): the message and the code it issued (the receipt)
    adm_participation_id = models.CharField(max_length=36, blank=True, default="")
    adm_participation_code = models.CharField(max_length=32, blank=True, default="")
    #: a satellite seat paid this entry (platform.md §5.9)
    seat_from = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # play
    eliminated = models.BooleanField(default=False)
    disqualified = models.BooleanField(default=False)
    eliminated_round = models.PositiveSmallIntegerField(null=True, blank=True)
    #: the best position of the player's tied group, and the group's size (knockout)
    position = models.PositiveIntegerField(null=True, blank=True)
    position_size = models.PositiveIntegerField(default=1)
    vp = models.PositiveIntegerField(default=0)
    game_diff = models.IntegerField(default=0)
    byes = models.PositiveSmallIntegerField(default=0)
    prize_cents = models.PositiveIntegerField(default=0)
    # a cancellation's refund line (platform.md §6.6)
    refund_cents = models.PositiveIntegerField(null=True, blank=True)
    refund_rule = models.CharField(max_length=10, blank=True)
    refund_parts = models.JSONField(default=dict, blank=True)
    refund_paid_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], condition=Q(active=True),
                                    name="registration_one_active_per_player"),
        ]
        indexes = [models.Index(fields=["tournament", "active"])]

    def __str__(self) -> str:
        return f"{self.nickname} in {self.tournament_id}"


class TournamentMatch(models.Model):
    PLAYING, FINISHED, CANCELLED, BYE = "playing", "finished", "cancelled", "bye"

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="tmatches")
    round = models.PositiveSmallIntegerField()
    #: the matches app's match (null for a bye)
    match_id = models.PositiveIntegerField(null=True, blank=True, unique=True)
    #: registrations in seat order (a bye has only ``first``)
    first = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+")
    second = models.ForeignKey(Registration, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=10, default=PLAYING, db_index=True)
    winner = models.ForeignKey(Registration, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    scores = models.JSONField(null=True, blank=True)
    #: a disqualified player's match: the opponent won without (or before the end of) play (§5.7)
    forfeit = models.BooleanField(default=False)
    #: a knockout match that ended with no winner is played again (platform.md §5.7)
    replay_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["tournament", "round", "id"]

    def __str__(self) -> str:
        return f"round {self.round} of {self.tournament_id}"
