"""Demo accounts for ``seed_demo``: staff in their groups, players with nicknames and cash."""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.db import transaction

from apps.conto.demo import conto_demo_ensure
from apps.wallet.models import CASH
from apps.wallet.selectors import wallet_get
from apps.wallet.services import wallet_adjust

from .selectors import nickname_of
from .services import nickname_set

DEMO_PASSWORD = "mazziere-demo"
PLAYERS = [("mario", "Mario_88", 5000), ("giulia", "Giulia", 2500), ("luca", "LucaScopa", 1000),
           ("anna", "AnnaBriscola", 0)]
STAFF = [("admin", None), ("operatore", "operator"), ("finanza", "finance"), ("conformita", "compliance")]


@cache
def _demo_password_hash() -> str:
    return make_password(DEMO_PASSWORD)


def demo_password_set(user) -> None:
    """Every demo account has the demo password: hashed once per seeding, not once per account
    (PBKDF2 costs most of a second; 26 accounts made the demo world 17 s slower to build)."""
    user.password = _demo_password_hash()


def demo_accounts(stdout) -> None:
    """Only adds what is missing: safe to run again."""
    User = get_user_model()
    with transaction.atomic():
        for username, group in STAFF:
            user, created = User.objects.get_or_create(username=username, defaults={"is_staff": True})
            if created:
                demo_password_set(user)
                user.is_superuser = group is None
                user.save()
            if group:
                user.groups.add(Group.objects.get_or_create(name=group)[0])
        admin = User.objects.get(username="admin")
        for username, nickname, cash in PLAYERS:
            user, created = User.objects.get_or_create(username=username)
            if created:
                demo_password_set(user)
                user.save()
            if not nickname_of(user):
                nickname_set(user=user, nickname=nickname)
            conto_demo_ensure(user=user, username=username, email=f"{username}@demo.mazziere.invalid")
            missing = cash - wallet_get(player=user)["cash_cents"]
            if missing > 0:
                wallet_adjust(actor=admin, player=user, currency=CASH, amount=missing, reason="demo deposit")
    stdout.write(f"demo: players {', '.join(p[0] for p in PLAYERS)}; staff "
                 f"{', '.join(s[0] for s in STAFF)}; password '{DEMO_PASSWORD}'")
