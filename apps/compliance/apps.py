from django.apps import AppConfig
from django.db.models.signals import post_save


def _freeze_in_wallet(sender, instance, **kwargs):
    """Every saved sanction (issued or lifted) updates the wallet's freeze, in its transaction."""
    from .services import sanction_freeze_sync  # needs the models: not before the registry is ready

    sanction_freeze_sync(sanction=instance)


class ComplianceConfig(AppConfig):
    name = "apps.compliance"
    label = "compliance"
    verbose_name = "Compliance"

    def ready(self) -> None:
        post_save.connect(_freeze_in_wallet, sender="compliance.Sanction", dispatch_uid="mazziere_sanction_freeze")
