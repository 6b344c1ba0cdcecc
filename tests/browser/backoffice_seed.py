"""A week of history for the back office's screenshots, through the wallet's real services
(run with ``manage.py shell -c`` against the served demo database).

Table matches with the bank's 20% (cash and credits, Briscola and Scopa), and the ledger rows
tournaments post (buy-ins, fees, overlay, prizes, cancellation refunds by rule), day by day.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from apps.matches.models import Match, MatchSeat
from apps.tables.models import Table, TableMatch
from apps.tournaments.models import Tournament
from apps.wallet.services import Leg, escrow_settle, ledger_post, stakes_collect, wallet_adjust

REAL_NOW = timezone.now


def at(moment):
    timezone.now = lambda: moment


def run() -> None:
    users = get_user_model().objects
    admin = users.get(username="admin")
    players = [users.get(username=u) for u in ("mario", "giulia", "luca", "anna")]
    base = REAL_NOW().replace(minute=0, second=0, microsecond=0)
    try:
        at(base - timedelta(days=7))
        for p in players:
            wallet_adjust(actor=admin, player=p, currency="cash", amount=50_000, reason="demo deposit")
            wallet_adjust(actor=admin, player=p, currency="credits", amount=5_000, reason="demo credits")
        for day in range(6, -1, -1):
            for n, (game, currency, stake) in enumerate([("briscola", "cash", 100 + 50 * day), ("scopa", "cash", 200),
                                                         ("briscola", "credits", 50), ("scopa", "credits", 100)]):
                if (day + n) % 3 == 0:
                    continue
                start = base - timedelta(days=day, hours=3 * n + 1)
                at(start)
                a, b = players[n % 4], players[(n + 1 + day) % 4 if (n + 1 + day) % 4 != n % 4 else (n + 2) % 4]
                table = Table.objects.create(game=game, players=2, currency=currency, stake=stake, official=True,
                                             status=Table.CLOSED, closed_at=start + timedelta(minutes=20))
                match = Match.objects.create(game=game, players=2, seed="1", state={}, official=True,
                                             stake=stake, currency=currency, started_at=start,
                                             finished_at=start + timedelta(minutes=20), status=Match.FINISHED,
                                             settled=True)
                TableMatch.objects.create(table=table, match=match, ended=True)
                for seat, p in enumerate((a, b)):
                    MatchSeat.objects.create(match=match, number=seat, player=p, nickname=p.username,
                                             stake_paid=stake)
                stakes_collect(match_id=match.pk, currency=currency, stakes={a.pk: stake, b.pk: stake})
                at(start + timedelta(minutes=20))
                pot = 2 * stake
                escrow_settle(match_id=match.pk, currency=currency, payouts={a.pk: pot - pot // 5},
                              paid={a.pk: stake, b.pk: stake}, bank=pot // 5)
            # a tournament every other day: 4 entrants × €10 (fee €1), guarantee €50
            if day % 2 == 0:
                tid, ref = 900 + day, f"tournament:{900 + day}"
                # the tournament's own row (4 of 8 seats; day 2's cancelled): its game, state and fill rate show
                ended = base - timedelta(days=day, hours=4)
                Tournament.objects.get_or_create(pk=tid, defaults={
                    "name": f"Sit&Go {tid}", "game": ("briscola", "scopa")[day // 2 % 2], "kind": "sit_and_go",
                    "format": "knockout", "min_players": 2, "max_players": 8, "entrants_at_start": 4,
                    "status": "cancelled" if day == 2 else "finished",
                    "cancelled_at" if day == 2 else "finished_at": ended})
                at(base - timedelta(days=day, hours=6))
                for p in players:
                    ledger_post(kind="buy_in", reference=ref, legs=[Leg(f"player:{p.pk}", "cash", -1000),
                                                                    Leg(f"escrow:tournament:{tid}", "cash", 1000)])
                at(base - timedelta(days=day, hours=5))
                ledger_post(kind="tournament_start", reference=ref, legs=[
                    Leg(f"escrow:tournament:{tid}", "cash", -400), Leg("house:fees", "cash", 400),
                    Leg("house:guarantee", "cash", -1400), Leg(f"escrow:tournament:{tid}", "cash", 1400)])
                at(base - timedelta(days=day, hours=4))
                if day == 2:  # cancelled after the start: a2 for the eliminated, b1 for the others
                    for p, (amount, rule) in zip(players, [(1500, "a2"), (0, "a1"), (1750, "b1"), (1750, "b1")],
                                                 strict=True):
                        if amount:
                            ledger_post(kind="cancel_refund", reference=ref, memo=f"refund_rule={rule}", legs=[
                                Leg(f"escrow:tournament:{tid}", "cash", -amount), Leg(f"player:{p.pk}", "cash", amount)])
                else:
                    ledger_post(kind="prize", reference=ref, legs=[
                        Leg(f"escrow:tournament:{tid}", "cash", -5000), Leg(f"player:{players[day % 4].pk}", "cash", 3000),
                        Leg(f"player:{players[(day + 1) % 4].pk}", "cash", 2000)])
            at(base - timedelta(days=day, hours=2))
            wallet_adjust(actor=admin, player=players[day % 4], currency="bonus", amount=500 + 100 * day,
                          reason="welcome promotion")
    finally:
        timezone.now = REAL_NOW
