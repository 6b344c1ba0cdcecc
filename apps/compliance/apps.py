from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class ComplianceConfig(AppConfig):
    name = "apps.compliance"
    label = "compliance"
    verbose_name = _("Compliance")

    def ready(self) -> None:
        from .services import sanction_saved  # it imports models: only once the registry is ready

        post_save.connect(sanction_saved, sender="compliance.Sanction", dispatch_uid="mazziere_sanction_freeze")
