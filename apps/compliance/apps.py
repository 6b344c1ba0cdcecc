from django.apps import AppConfig
from django.db.models.signals import post_save


def _close_sockets_of_sanctioned(sender, instance, created, **kwargs):
    """A sanction that keeps a player out of the lobby closes their open sockets (4403)."""
    from .selectors import LOBBY_BLOCKING

    if created and instance.kind in LOBBY_BLOCKING:
        from apps.tables.broadcast import user_sockets_close

        user_sockets_close(user_id=instance.player_id, code=4403)


class ComplianceConfig(AppConfig):
    name = "apps.compliance"
    label = "compliance"
    verbose_name = "Compliance"

    def ready(self) -> None:
        from .models import Sanction

        post_save.connect(_close_sockets_of_sanctioned, sender=Sanction, dispatch_uid="mazziere_sanction_sockets")
