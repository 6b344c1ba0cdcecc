from django.core.management.base import BaseCommand, CommandError

from apps.wallet.selectors import ledger_check


class Command(BaseCommand):
    help = "Verify the money invariants (platform.md §3.8); exit 1 naming the first broken one."

    def handle(self, *args, **options):
        problem = ledger_check()
        if problem:
            raise CommandError(f"ledger BROKEN: {problem}")
        self.stdout.write("ledger OK")
