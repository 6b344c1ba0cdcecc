"""A player is Django's auth.User plus a Profile holding the nickname (platform.md §2)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

from apps.common.models import AppendOnlyModel


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="profile")
    # NULL until chosen: NULLs never clash in the unique index, empty strings would
    nickname = models.CharField(max_length=16, null=True, blank=True)  # noqa: DJ001
    nickname_set_at = models.DateTimeField(null=True, blank=True)
    passport_paid_at = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # case-insensitive uniqueness: two concurrent claims give exactly one winner
            models.UniqueConstraint(Lower("nickname"), name="profile_nickname_ci_unique"),
        ]

    def __str__(self) -> str:
        return self.nickname or f"user {self.user_id} (no nickname)"


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
        ordering = ["-created", "-id"]
