from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ContoConfig(AppConfig):
    name = "apps.conto"
    label = "conto"
    verbose_name = _("Gaming accounts")
