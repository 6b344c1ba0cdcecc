"""regulation.md §11.1: §6.1's rules over the window, one signal per rule, player, counterparty and day."""

from django.core.management.base import BaseCommand, CommandError

from apps.aml.services import aml_scan


class Command(BaseCommand):
    help = "raise the AML signals of regulation.md §6.1 over the window"

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=None, help="the window in days (default AML_WINDOW_DAYS)")

    def handle(self, *args, **options):
        days = options["days"]
        if days is not None and not 1 <= days <= 3660:
            raise CommandError("--days is 1 to 3660")
        for name, count in aml_scan(days=days).items():
            self.stdout.write(f"{name}: {count}")
