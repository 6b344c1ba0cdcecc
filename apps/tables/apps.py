from django.apps import AppConfig


def _close_sockets_on_logout(sender, request, user, **kwargs):
    """A logged-out user's sockets are closed (platform.md §10.1, issue: real time)."""
    if user is not None:
        from .broadcast import user_sockets_close

        user_sockets_close(user_id=user.pk, code=4401)


class TablesConfig(AppConfig):
    name = "apps.tables"
    label = "tables"
    verbose_name = "Tables and matches"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        user_logged_out.connect(_close_sockets_on_logout, dispatch_uid="mazziere_logout_sockets")
