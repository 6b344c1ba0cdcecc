from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "apps.matches"
    label = "matches"
    verbose_name = "Matches"

    def ready(self) -> None:
        # register this app's Celery tasks in every process (web, worker, tests): the services
        # enqueue them by name, and a name resolves only once its task is registered
        from . import tasks  # noqa: F401
