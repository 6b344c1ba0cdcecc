from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CashierConfig(AppConfig):
    name = "apps.cashier"
    label = "cashier"
    verbose_name = _("Cashier")
