from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "apps.matches"
    label = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        from apps.compliance.signals import sanction_started

        # register this app's Celery tasks in every process (web, worker, tests): the services
        # enqueue them by name, and a name resolves only once its task is registered
        from . import receivers, tasks  # noqa: F401

        sanction_started.connect(receivers.forfeit_matches_of_sanctioned, dispatch_uid="mazziere_sanction_forfeits")
