from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "apps.players"
    label = "players"
    verbose_name = "Players"
