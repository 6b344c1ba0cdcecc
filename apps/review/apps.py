from django.apps import AppConfig


class ReviewConfig(AppConfig):
    """Compliance's review area (platform.md §7.3-§7.5): pages and the sanctions API, above
    the chat and the tables, whose lines and matches it reads."""

    name = "apps.review"
    label = "review"
    verbose_name = "Compliance review"
