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

        # the admin index lists the back office's pages the user's role opens
        admin.site.index_template = "admin/backoffice_index.html"
        admin.site.site_header = _("Mazziere · administration")
        admin.site.site_title = _("Mazziere administration")
        admin.site.index_title = _("Administration and back office")
