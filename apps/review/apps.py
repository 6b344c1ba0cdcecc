from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReviewConfig(AppConfig):
    """Compliance's review area (platform.md §7.3-§7.5): pages and the sanctions API, above
    the chat and the tables, whose lines and matches it reads."""

    name = "apps.review"
    label = "review"
    verbose_name = _("Compliance review")
