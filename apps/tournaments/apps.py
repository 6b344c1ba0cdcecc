from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "apps.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # the receivers import the services (models): only once the registry is ready
        from . import receivers

        receivers.connect()
