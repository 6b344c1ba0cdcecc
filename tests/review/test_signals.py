"""Collusion signals (platform.md §7.5): shared addresses at a table, pairs who sit together
unusually often, chips flowing between the same pairs at stake tables; each row names its matches."""

from __future__ import annotations

import pytest

from apps.review.selectors import chip_flows, frequent_pairs, shared_ip_signals
from apps.tables import services
from apps.wallet import services as wallet

from ..conftest import make_user
from ..tables.conftest import current_match, fund

pytestmark = pytest.mark.django_db


def duel(a, b, *, ip_a, ip_b, winner=None, stake=0):
    """One finished two-player Briscola match between a and b (the winner resigns nothing: the
    settlement is written through the wallet like a real one)."""
    table = services.table_create(user=a, data={"game": "briscola", "official": bool(stake), "stake": stake,
                                                "currency": "credits"}, ip=ip_a)
    services.table_sit(user=b, table_id=table.pk, ip=ip_b)
    match = current_match(table)
    if stake and winner is not None:
        loser = b if winner == a else a
        wallet.escrow_settle(match_id=match.pk, currency="credits", payouts={winner.pk: 2 * stake - 20},
                             paid={winner.pk: stake, loser.pk: stake}, bank=20)
    return match


def test_signals_name_the_address_the_pair_and_the_flow():
    volpe, gatto, terzo, quarto = (make_user(nickname=n) for n in ("Volpe_S", "Gatto_S", "Terzo_S", "Quarto_S"))
    for user in (volpe, gatto, terzo, quarto):
        fund(user, credits=1000)
    matches = [duel(volpe, gatto, ip_a="192.0.2.9", ip_b="192.0.2.9", winner=gatto, stake=50).pk for _ in range(3)]
    duel(terzo, quarto, ip_a="198.51.100.1", ip_b="198.51.100.2")
    duel(terzo, volpe, ip_a="198.51.100.1", ip_b="198.51.100.3")
    shared = shared_ip_signals()
    assert [(s.ip, s.players, sorted(s.matches)) for s in shared] == [("192.0.2.9", ["Gatto_S", "Volpe_S"],
                                                                     sorted(matches))]
    assert shared[0].tables  # the tables are named too
    pairs = frequent_pairs()
    assert [(p.players, p.together, p.share) for p in pairs] == [(("Volpe_S", "Gatto_S"), 3, 75)]
    assert sorted(pairs[0].matches) == sorted(matches) and pairs[0].lift > 1
    flows = chip_flows()
    assert [(f.payer, f.payee, f.currency, f.amount, f.back, sorted(f.matches)) for f in flows] == [
        ("Volpe_S", "Gatto_S", "credits", 3 * 30, 0, sorted(matches))]
