from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    """What an operator's balancer and monitoring read: /health/ and /metrics."""

    name = "apps.ops"
    label = "ops"
    verbose_name = _("Operations")
