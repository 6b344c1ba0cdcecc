"""A player is Django's auth.User plus a Profile holding the nickname (platform.md §2)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.common.models import AppendOnlyModel

from .rules import skeleton


class Profile(models.Model):
    NAPOLETANE, PIACENTINE = "napoletane", "piacentine"
    ITALIAN_DECKS = [(NAPOLETANE, _("Napoletane")), (PIACENTINE, _("Piacentine"))]

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="profile")
    # NULL until chosen: NULLs never clash in the unique index, empty strings would
    nickname = models.CharField(max_length=16, null=True, blank=True)  # noqa: DJ001
    #: the look-alike form of §2 (``skeleton``), kept by ``save``; NULL with no nickname, and for
    #: a nickname that clashed with an older one when the index moved here (migration 0003)
    nickname_skeleton = models.CharField(max_length=16, null=True, blank=True, editable=False)  # noqa: DJ001
    nickname_set_at = models.DateTimeField(null=True, blank=True)
    passport_paid_at = models.DateTimeField(null=True, blank=True)
    #: the faces this player sees Italian cards in (any table, any game with the Italian deck)
    italian_deck = models.CharField(max_length=10, choices=ITALIAN_DECKS, default=NAPOLETANE)
    #: the player hides the table chat for themselves (lines are still recorded as always)
    chat_hidden = models.BooleanField(_("chat hidden"), default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("player profile")
        verbose_name_plural = _("player profiles")
        constraints = [
            # look-alike-insensitive uniqueness: two concurrent claims give exactly one winner
            models.UniqueConstraint(fields=["nickname_skeleton"], name="profile_nickname_skeleton_unique"),
        ]

    def __str__(self) -> str:
        return self.nickname or f"user {self.user_id} (no nickname)"

    def save(self, *args, **kwargs) -> None:
        """The skeleton follows the nickname on every save, so no path can forget it."""
        self.nickname_skeleton = skeleton(self.nickname) if self.nickname else None
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "nickname" in update_fields:
            kwargs["update_fields"] = {*update_fields, "nickname_skeleton"}
        super().save(*args, **kwargs)



class NicknameChange(AppendOnlyModel):
    """History of nicknames: the first choice and every compliance rename."""

    profile = models.ForeignKey(Profile, on_delete=models.PROTECT, related_name="nickname_changes")
    old = models.CharField(max_length=16, null=True, blank=True)  # noqa: DJ001 (none before the first choice)
    new = models.CharField(max_length=16)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("nickname change")
        verbose_name_plural = _("nickname changes")
        ordering = ["-created", "-id"]


class StaffTokenOtp(models.Model):
    """A staff API token issued with a second factor (regulation.md §10): only such a token
    counts as verified on staff endpoints."""

    key = models.CharField(max_length=40, primary_key=True)
    verified_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"token …{self.key[-4:]} verified {self.verified_at:%Y-%m-%d %H:%M}"


class AccessLogEntry(AppendOnlyModel):
    """The access log (regulation.md §4.3): every login (page, admin, token), failed login,
    logout, timeout and two-factor event; append-only, kept RETENTION_YEARS, never deleted."""

    LOGIN, LOGIN_FAILED, LOGOUT, TIMEOUT, TOKEN = "login", "login_failed", "logout", "timeout", "token"

    event = models.CharField(max_length=32)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                             related_name="+")
    #: the username tried (a failed login may name nobody real)
    username = models.CharField(max_length=150, blank=True)
    #: page, admin, token, api
    channel = models.CharField(max_length=10, blank=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    user_agent = models.CharField(max_length=300, blank=True)
    device = models.CharField(max_length=64, blank=True)
    created = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("access log entry")
        verbose_name_plural = _("access log")
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["user", "-created"], name="access_log_user_time")]

    def __str__(self) -> str:
        return f"{self.created:%Y-%m-%d %H:%M} {self.event} {self.username}"
