from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo world: the top floor, it calls each app's own demo function."""

    name = "apps.demo"
    label = "demo"
    verbose_name = "Demo world"
