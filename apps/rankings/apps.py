from django.apps import AppConfig


class RankingsConfig(AppConfig):
    name = "apps.rankings"
    label = "rankings"
    verbose_name = "Rankings"
