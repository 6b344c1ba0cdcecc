"""regulation.md §7.5 and §11.1: the money movements ADM has not accepted a message for."""

from django.core.management.base import BaseCommand

from apps.wallet.selectors import adm_reconciliation


class Command(BaseCommand):
    help = "list the transactions older than ADM_RECONCILE_HOURS that no accepted ADM message covers"

    def handle(self, *args, **options):
        report = adm_reconciliation()
        for row in report["flagged"]:
            self.stdout.write(f"{row['transaction']} {row['kind']} {row['reference']} player {row['player']} "
                              f"{row['amount_cents']} {row['created']} {row['message_status'] or 'none'}")
        self.stdout.write(f"flagged: {report['count']}")
