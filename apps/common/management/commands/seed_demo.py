"""A demo world (API.md, management commands): safe to run again, it only adds what is missing."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction

from apps.players.selectors import nickname_of
from apps.players.services import nickname_set
from apps.wallet.models import CASH
from apps.wallet.selectors import wallet_get
from apps.wallet.services import wallet_adjust

DEMO_PASSWORD = "mazziere-demo"
PLAYERS = [("mario", "Mario_88", 5000), ("giulia", "Giulia", 2500), ("luca", "LucaScopa", 1000),
           ("anna", "AnnaBriscola", 0)]
STAFF = [("admin", None), ("operatore", "operator"), ("finanza", "finance"), ("conformita", "compliance")]

#: steps other apps add (tables, tournaments): dotted paths of functions taking (stdout)
EXTRA_STEPS: list[str] = ["apps.tables.demo.demo_tables"]


class Command(BaseCommand):
    help = "Create demo players with nicknames and balances, staff accounts, and demo tables/tournaments."

    def handle(self, *args, **options):
        User = get_user_model()
        with transaction.atomic():
            for username, group in STAFF:
                user, created = User.objects.get_or_create(username=username, defaults={"is_staff": True})
                if created:
                    user.set_password(DEMO_PASSWORD)
                    user.is_superuser = group is None
                    user.save()
                if group:
                    user.groups.add(Group.objects.get_or_create(name=group)[0])
            admin = User.objects.get(username="admin")
            for username, nickname, cash in PLAYERS:
                user, created = User.objects.get_or_create(username=username)
                if created:
                    user.set_password(DEMO_PASSWORD)
                    user.save()
                if not nickname_of(user):
                    nickname_set(user=user, nickname=nickname)
                missing = cash - wallet_get(player=user)["cash_cents"]
                if missing > 0:
                    wallet_adjust(actor=admin, player=user, currency=CASH, amount=missing, reason="demo deposit")
        for path in EXTRA_STEPS:
            module, name = path.rsplit(".", 1)
            getattr(__import__(module, fromlist=[name]), name)(self.stdout)
        self.stdout.write(f"demo world ready: players {', '.join(p[0] for p in PLAYERS)}; staff "
                          f"{', '.join(s[0] for s in STAFF)}; password '{DEMO_PASSWORD}'")
