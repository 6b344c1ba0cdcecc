"""A demo world (API.md, management commands): safe to run again, it only adds what is missing.

Each app owns its demo data (``apps/<app>/demo.py``); this command, on the top floor,
calls them in order: accounts first, then what needs them (tables, tournaments).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from apps.cashier.demo import demo_cards
from apps.players.demo import demo_accounts
from apps.review.demo import demo_compliance
from apps.tables.demo import demo_tables
from apps.tournaments.demo import demo_tournaments

STEPS = [demo_accounts, demo_cards, demo_tables, demo_tournaments, demo_compliance]


class Command(BaseCommand):
    help = "Create demo players with nicknames and balances, staff accounts, and demo tables/tournaments."

    def handle(self, *args, **options):
        for step in STEPS:
            step(self.stdout)
        self.stdout.write("demo world ready")
