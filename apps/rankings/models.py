"""XP earned per player, game and match (platform.md §9)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from apps.common.models import AppendOnlyModel


class XpAward(AppendOnlyModel):
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="xp_awards")
    game = models.CharField(max_length=40, db_index=True)
    match = models.ForeignKey("matches.Match", on_delete=models.PROTECT, related_name="xp_awards")
    xp = models.PositiveIntegerField()
    won = models.BooleanField(default=False)
    created = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [models.UniqueConstraint(fields=["player", "match"], name="xp_once_per_match")]

    def __str__(self) -> str:
        return f"{self.player_id} +{self.xp} ({self.game})"
