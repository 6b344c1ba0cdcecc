from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AdmConfig(AppConfig):
    name = "apps.adm"
    label = "adm"
    verbose_name = _("ADM central system")
