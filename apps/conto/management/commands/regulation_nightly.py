"""The nightly regulation job on demand (regulation.md §11.1): a second run changes nothing."""

from django.core.management.base import BaseCommand

from apps.conto.nightly import conto_nightly


class Command(BaseCommand):
    help = "record document expiries, the end of legacy mode, dormancy (regulation.md §11.1)"

    def handle(self, *args, **options):
        for name, count in conto_nightly().items():
            self.stdout.write(f"{name}: {count}")
