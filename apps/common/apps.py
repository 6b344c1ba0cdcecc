from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _

from .tick import tick_jobs_discover


def _ensure_groups(sender, **kwargs):
    from django.contrib.auth.models import Group, Permission

    from .groups import ensure_staff_groups

    ensure_staff_groups(Group, Permission)


class CommonConfig(AppConfig):
    name = "apps.common"
    label = "common"
    verbose_name = _("Common")

    def ready(self) -> None:
        post_migrate.connect(_ensure_groups, dispatch_uid="mazziere_staff_groups")
        tick_jobs_discover()  # every app's jobs module, once all models are loaded

