from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "apps.tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # the receivers import the services (models): only once the registry is ready
        from . import receivers

        receivers.connect()
