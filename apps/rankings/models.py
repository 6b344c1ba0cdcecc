"""XP earned per player, game and match (platform.md §9)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.common.models import AppendOnlyModel


class XpAward(AppendOnlyModel):
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="xp_awards")
    game = models.CharField(max_length=40, db_index=True)
    match = models.ForeignKey("matches.Match", on_delete=models.PROTECT, related_name="xp_awards")
    xp = models.PositiveIntegerField()
    won = models.BooleanField(default=False)
    #: Solitario: the game's score (solitario.md §8), shown on its leaderboard
    score = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("XP award")
        verbose_name_plural = _("XP awards")
        ordering = ["-created", "-id"]
        constraints = [models.UniqueConstraint(fields=["player", "match"], name="xp_once_per_match")]

    def __str__(self) -> str:
        return f"{self.player_id} +{self.xp} ({self.game})"
