from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ContoConfig(AppConfig):
    name = "apps.conto"
    label = "conto"
    verbose_name = _("Gaming accounts")

    def ready(self) -> None:
        # the receivers import models: only once the registry is ready
        from django.contrib.auth.signals import user_logged_in

        from apps.adm.signals import adm_message_answered

        from . import receivers, registry_login

        adm_message_answered.connect(receivers.keep_account_code, dispatch_uid="mazziere_conto_adm_answered")
        user_logged_in.connect(registry_login.on_logged_in, dispatch_uid="mazziere_conto_registry_login")
