from django.core.management.base import BaseCommand

from apps.common.tick import tick_run


class Command(BaseCommand):
    help = "Do what is due now: registrations, tournament starts, turn and grace deadlines, recharges."

    def handle(self, *args, **options):
        done = tick_run()
        self.stdout.write(", ".join(f"{name}: {count}" for name, count in done.items()) or "nothing due")
