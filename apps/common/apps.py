from django.apps import AppConfig, apps
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _

from .tick import tick_jobs_discover


def _ensure_groups(sender, **kwargs):
    """Once a migrate or a flush, after the last app's signal: every app's permissions exist by
    then (``post_migrate`` is sent once per app with models, in INSTALLED_APPS order; run for each,
    the hook cost a flush 32 passes, most of a transactional test's teardown)."""
    if sender is not [config for config in apps.get_app_configs() if config.models_module is not None][-1]:
        return
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

