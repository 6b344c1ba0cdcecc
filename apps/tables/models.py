"""Tables, seats, invitations, the table's link to each match played at it, and open sockets
(platform.md §8, §10; API.md "Tables and matches"). The matches themselves live in
``apps.matches``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.matches.models import Match

CASH, CREDITS = "cash", "credits"


class Table(models.Model):
    OPEN, CLOSED = "open", "closed"

    game = models.CharField(max_length=40, db_index=True)
    players = models.PositiveSmallIntegerField()
    stake = models.PositiveIntegerField(default=0, help_text="per match and per human seat, cents or credits")
    currency = models.CharField(max_length=8, choices=[(CASH, CASH), (CREDITS, CREDITS)], default=CREDITS)
    turn_seconds = models.PositiveSmallIntegerField(default=30)
    official = models.BooleanField(default=False)
    private = models.BooleanField(default=False)
    spectators = models.BooleanField(default=True)
    game_options = models.JSONField(default=dict, blank=True)
    face = models.CharField(max_length=10, default="auto", help_text="card faces: auto, italian or french")
    show_points = models.BooleanField(default=False, help_text="running points shown during a hand (games that hide them)")
    leader = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=8, default=OPEN, db_index=True)
    created = models.DateTimeField(auto_now_add=True)
    #: "between matches": when the next match may start (a deadline, platform.md §0.2)
    next_match_at = models.DateTimeField(null=True, blank=True)
    #: after a match: seated humans who have not confirmed the next one by then are stood
    #: up, charged nothing (platform.md §8.1, "between matches")
    confirm_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    #: since when no human is seated (the table closes after 5 minutes)
    empty_since = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    settings_version = models.PositiveIntegerField(default=0)
    #: Poker all'italiana (each hand is a match): the table seat of the last hand's dealer,
    #: and the table seats dealt in the hand in play, in match-seat order
    poker_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    hand_seats = models.JSONField(default=list, blank=True)
    #: grows after every committed change a table page shows (moves, seats, settings,
    #: connections): sockets reuse a snapshot read at the current revision
    revision = models.PositiveBigIntegerField(default=0)
    #: the operator may switch a table's chat off (seed 000: "se la stessa è abilitata"); the
    #: leader cannot: it is not one of §8.2's settings
    chat_enabled = models.BooleanField(_("chat enabled"), default=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"table {self.pk} ({self.game})"

    @property
    def matches(self) -> models.QuerySet[Match]:
        """The matches played at this table (through its ``TableMatch`` links)."""
        return Match.objects.filter(table_link__table=self)


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                               related_name="seats")
    robot = models.BooleanField(default=False)
    since = models.DateTimeField(null=True, blank=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    #: the player asked for the next match (sitting down asks for one; the end of a match
    #: clears it, "Gioca ancora" sets it again): no stake is ever taken without it
    ready = models.BooleanField(default=False)
    #: Poker all'italiana (platform.md §8.5): why the player is not dealt in ("" = dealt in):
    #: by choice, away (last socket closed), short of credits, or leaving at the hand's end
    sitting_out = models.CharField(max_length=8, blank=True, default="")
    sitting_out_since = models.DateTimeField(null=True, blank=True, db_index=True)
    #: a practice poker table's stack, carried from hand to hand (official tables use credits)
    chips = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_table_number_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_table_player_unique"),
            models.CheckConstraint(condition=~(models.Q(robot=True) & models.Q(player__isnull=False)),
                                   name="seat_robot_or_player"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of {self.table_id}"

    @property
    def taken(self) -> bool:
        return self.robot or self.player_id is not None


class TableInvite(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invites")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("table invitation")
        verbose_name_plural = _("table invitations")
        constraints = [models.UniqueConstraint(fields=["table", "player"], name="invite_unique")]

    def __str__(self) -> str:
        return f"invite of {self.player_id} to {self.table_id}"


class TableMatch(models.Model):
    """Which table a match was played at: the table's side of the link (a match knows no
    table, docs/layers.md)."""

    match = models.OneToOneField(Match, primary_key=True, on_delete=models.PROTECT, related_name="table_link")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="match_links")
    #: the table has handled the match's end (the window to confirm the next one opened):
    #: until then no next match starts, whatever the seats asked before (platform.md §8.1)
    ended = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("table match")
        verbose_name_plural = _("table matches")
        ordering = ["-match"]

    def __str__(self) -> str:
        return f"match {self.match_id} at table {self.table_id}"


class SocketConnection(models.Model):
    """An open table socket: a seated player is connected while one of these exists.

    A row is a lease (platform.md §10.1): its socket renews ``renewed`` every
    ``WS_LEASE_RENEW_SECONDS``; the tick removes a row not renewed for ``WS_LEASE_SECONDS``
    (its process crashed or was killed), and a server that starts removes the rows its
    earlier processes (same ``server``, another ``process``) left behind.
    """

    channel_name = models.CharField(max_length=200, unique=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="connections")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    renewed = models.DateTimeField(default=timezone.now, db_index=True)
    server = models.CharField(max_length=200, blank=True, default="", db_index=True)
    process = models.CharField(max_length=100, blank=True, default="")

    class Meta:
        verbose_name = _("table connection")
        verbose_name_plural = _("table connections")

    def __str__(self) -> str:
        return self.channel_name
