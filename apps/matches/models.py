"""Matches: the engine's state of one match, its seats, its action log, its cancellation votes.

A match keeps the engine's whole state as JSON with a version that grows by one per
applied action; every action is also written to the append-only MatchAction log, from
which the match replays exactly (game recall). A match knows nothing of who made it (a
table, a tournament): they link to it from their own app and hear of its end through
``apps.matches.signals.match_finished``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.common.models import AppendOnlyModel

CREDITS = "credits"


class Match(models.Model):
    PLAYING, FINISHED, CANCELLED = "playing", "finished", "cancelled"

    game = models.CharField(max_length=40)
    players = models.PositiveSmallIntegerField()
    #: the complete options dict passed to new_game (platform.md §8.7)
    options = models.JSONField(default=dict)
    #: the 128-bit seed drawn from secrets, as decimal digits (kept server-side)
    seed = models.CharField(max_length=60)
    deck = models.JSONField(null=True, blank=True)
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, default=PLAYING, db_index=True)
    result = models.JSONField(null=True, blank=True)
    official = models.BooleanField(default=False)
    stake = models.PositiveIntegerField(default=0)
    currency = models.CharField(max_length=8, default=CREDITS)
    turn_seconds = models.PositiveSmallIntegerField(default=30)
    #: the deadline of the current turn, for the state of ``version`` (platform.md §0.2)
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    #: when the turn-timer task in flight for this match is due (None: none): one timer a
    #: match, armed again when it fires before the turn is over (``services._timer_arm``)
    timer_due = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    #: the seat whose player abandoned (two-sided games end at once; others play on)
    flagged_same_ip = models.BooleanField(default=False)
    settled = models.BooleanField(default=False)
    #: what settlement moved (``settlement.Settlement.record``): kind, currency, pot, bank, and
    #: per human seat its nickname, what it paid in and received; None before settlement or
    #: for a match with no stake. Pages show these figures, never a recomputation.
    settlement = models.JSONField(null=True, blank=True)
    #: ADM's session code of a money match (regulation.md §7.3, §7.4), issued before its start
    adm_session_code = models.CharField(max_length=32, blank=True, default="")
    #: what the match's owner (a table, a tournament) decided for it when it was made; the
    #: match knows no owner, only these rules (platform.md §5.7 against §8):
    #: the players may cancel it by a unanimous vote (§8.4)
    cancellable = models.BooleanField(default=True)
    #: a disconnected player's seat is forfeited after the grace period (§8.6); otherwise
    #: the robot plays it under the turn timer to the end (tournaments, §5.7)
    forfeit_on_absence = models.BooleanField(default=True)
    #: XP is credited at the end of this match (§9); a tournament's matches are credited
    #: when the tournament finishes (§5.10)
    awards_xp = models.BooleanField(default=True)
    #: the channel-layer group told "changed, version n" after each committed change
    group = models.CharField(max_length=60, blank=True, default="")

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.game}, v{self.version})"


class MatchSeat(models.Model):
    """Who holds each seat of a match, and how the seat is being played right now."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="match_seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                               related_name="match_seats")
    nickname = models.CharField(max_length=16, blank=True)
    robot = models.BooleanField(default=False)
    ip = models.GenericIPAddressField(null=True, blank=True)
    stake_paid = models.PositiveIntegerField(default=0)
    #: ADM's participation for this seat's stake (regulation.md §7.3): the message and its code
    adm_participation_id = models.CharField(max_length=36, blank=True, default="")
    adm_participation_code = models.CharField(max_length=32, blank=True, default="")
    #: the robot plays this human seat's turns (disconnected, or away after timeouts)
    robot_playing = models.BooleanField(default=False)
    grace_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    abandoned = models.BooleanField(default=False)
    #: the player has not sat down yet (a tournament's match starts without them): their turn
    #: clock waits until they are seated or until this time, whichever comes first
    awaited_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("match seat")
        verbose_name_plural = _("match seats")
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="matchseat_unique")]

    def __str__(self) -> str:
        return f"seat {self.number} of match {self.match_id}"


class MatchAction(AppendOnlyModel):
    PLAYER, ROBOT, TIMEOUT = "player", "robot", "timeout"

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    by = models.CharField(max_length=8)
    #: the match version this action produced
    version = models.PositiveIntegerField()
    events = models.JSONField(default=list)
    at = models.DateTimeField()

    class Meta:
        verbose_name = _("match action")
        verbose_name_plural = _("match actions")
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="matchaction_seq_unique")]

    def __str__(self) -> str:
        return f"match {self.match_id} #{self.seq}"


class CancelProposal(models.Model):
    """A friendly cancellation vote (platform.md §8.4)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="cancel_proposals")
    opened_at = models.DateTimeField()
    deadline = models.DateTimeField(db_index=True)
    votes = models.JSONField(default=dict, help_text="seat number (as text) -> bool")
    closed = models.BooleanField(default=False)
    cancelled = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("cancellation proposal")
        verbose_name_plural = _("cancellation proposals")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"cancel vote on match {self.match_id}"
