from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DemoConfig(AppConfig):
    """The demo world: the top floor, it calls each app's own demo function."""

    name = "apps.demo"
    label = "demo"
    verbose_name = _("Demo world")
