from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "apps.matches"
    label = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        # register this app's Celery tasks in every process (web, worker, tests): the services
        # enqueue them by name, and a name resolves only once its task is registered
        from . import receivers, tasks  # noqa: F401

        post_save.connect(receivers.forfeit_matches_of_sanctioned, sender="compliance.Sanction",
                          dispatch_uid="mazziere_sanction_forfeits")
