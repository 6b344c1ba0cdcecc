from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    """The lobby a player lands on (issue 25): tables waiting for a player, "Gioca subito" per
    game, the tournaments starting next, who is online. It reads the tables and tournaments
    below it and owns no data."""

    name = "apps.lobby"
    label = "lobby"
    verbose_name = _("Lobby")
