from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    name = "apps.players"
    label = "players"
    verbose_name = _("Players")

    def ready(self) -> None:
        # the receivers import models: only once the registry is ready
        from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
        from django.db.models.signals import post_save

        from . import access_log, game_session

        user_logged_in.connect(access_log.on_logged_in, dispatch_uid="mazziere_access_login")
        user_login_failed.connect(access_log.on_login_failed, dispatch_uid="mazziere_access_failed")
        user_logged_out.connect(access_log.on_logged_out, dispatch_uid="mazziere_access_logout")
        user_logged_in.connect(game_session.on_logged_in, dispatch_uid="mazziere_game_session_login")
        user_logged_out.connect(game_session.on_logged_out, dispatch_uid="mazziere_game_session_logout")
        post_save.connect(access_log.on_audit_row, sender="audit.AuditLog", dispatch_uid="mazziere_access_otp")
