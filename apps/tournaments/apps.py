from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "apps.tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # the receivers import the services (models): only once the registry is ready
        from apps.common.references import reference_namer

        from . import receivers
        from .selectors import tournament_names

        receivers.connect()
        reference_namer("tournament", lambda ids: tournament_names(ids=ids))
