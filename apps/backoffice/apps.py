from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BackofficeConfig(AppConfig):
    """The operator's back office (issue 16): dashboard, finance reports, exports, table actions.

    It sits on the top floor beside apps.demo: it reads every app below and nothing imports it.
    """

    name = "apps.backoffice"
    label = "backoffice"
    verbose_name = _("Back office")

    def ready(self) -> None:
        from django.contrib import admin
        from django.db.models.signals import post_delete, post_save

        from . import receivers

        for model in ("tables.SocketConnection", "tables.Table", "matches.Match"):
            post_save.connect(receivers.online_changed, sender=model, dispatch_uid=f"backoffice_online_{model}")
        post_delete.connect(receivers.online_changed, sender="tables.SocketConnection",
                            dispatch_uid="backoffice_online_gone")

        # the admin index lists the back office's pages the user's role opens
        admin.site.index_template = "admin/backoffice_index.html"
        admin.site.site_header = _("Mazziere · administration")
        admin.site.site_title = _("Mazziere administration")
        admin.site.index_title = _("Administration and back office")
