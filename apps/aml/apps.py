from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AmlConfig(AppConfig):
    name = "apps.aml"
    label = "aml"
    verbose_name = _("Anti-money-laundering")

    def ready(self) -> None:
        from apps.conto.signals import nightly_steps

        from . import receivers

        nightly_steps.connect(receivers.nightly_scan, dispatch_uid="mazziere_aml_nightly_scan")
