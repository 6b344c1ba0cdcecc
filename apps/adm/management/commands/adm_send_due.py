"""Send the ADM outbox messages due now (regulation.md §11.1; the tick does it too)."""

from django.core.management.base import BaseCommand

from apps.adm.sending import adm_send_due


class Command(BaseCommand):
    help = "send the ADM outbox messages due now"

    def handle(self, *args, **options):
        self.stdout.write(f"sent: {adm_send_due()}")
