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


def _tournament_with_addresses(operator, addresses: list[str]):
    """A scheduled knockout tournament with one registration per address (through the API, so
    the request's address is the one recorded), started: its first round is drawn."""
    from apps.tournaments import services as tournaments
    from apps.tournaments.models import TournamentMatch

    from ..conftest import api_client
    from ..tournaments.conftest import create, players

    people = players(len(addresses), cash=5000, prefix="Ip")
    t = create(operator, kind="scheduled", max_players=8, min_players=2, payouts=[100])
    for person, ip in zip(people, addresses, strict=True):
        answer = api_client(person, ip=ip).post(f"/api/tournaments/{t['id']}/register/")
        assert answer.status_code == 201, answer.json()
    tournaments.tournament_start(tournament_id=t["id"], actor=operator)
    pairs = {tm.match_id: {tm.first.player_id, tm.second.player_id}
             for tm in TournamentMatch.objects.filter(tournament_id=t["id"], match_id__isnull=False)
             .select_related("first", "second")}
    return t, people, pairs


def test_players_who_registered_for_one_tournament_from_one_address(operator):
    from apps.matches.models import Match, MatchSeat
    from apps.review.selectors import shared_ip_tournaments

    t, people, pairs = _tournament_with_addresses(
        operator, ["203.0.113.7", "203.0.113.7", "198.51.100.20", "198.51.100.21"])
    a, b = people[0], people[1]
    rows = shared_ip_tournaments()
    assert [(r.ip, r.tournament_id, sorted(r.player_ids)) for r in rows] == [
        ("203.0.113.7", t["id"], sorted([a.pk, b.pk]))]
    row = rows[0]
    from apps.players.selectors import nickname_of

    assert row.tournament == t["name"] and sorted(row.players) == sorted([nickname_of(a), nickname_of(b)])
    theirs = sorted((m for m, seated in pairs.items() if seated & {a.pk, b.pk}), reverse=True)
    assert row.matches == theirs  # every match of the tournament either played, linked
    met = [m for m, seated in pairs.items() if seated == {a.pk, b.pk}]
    assert row.met == met
    # the seats of the tournament's matches carry the registration's address
    assert set(MatchSeat.objects.filter(match_id__in=pairs, player=a).values_list("ip", flat=True)) == {
        "203.0.113.7"}
    assert list(Match.objects.filter(pk__in=met).values_list("flagged_same_ip", flat=True)) == [True] * len(met)


def test_no_tournament_signal_for_distinct_addresses_or_one_player(operator):
    from apps.review.selectors import shared_ip_tournaments

    _tournament_with_addresses(operator, ["192.0.2.31", "192.0.2.32", "192.0.2.33"])
    assert shared_ip_tournaments() == []


def test_the_signals_page_lists_the_tournament_row_with_its_links(operator, compliance, client):
    from django.urls import reverse

    t, people, pairs = _tournament_with_addresses(operator, ["203.0.113.9", "203.0.113.9"])
    client.force_login(compliance)
    page = client.get("/compliance/signals/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "203.0.113.9" in html
    assert reverse("tournaments:detail", args=[t["id"]]) in html
    for person in people:
        assert reverse("review:player", args=[person.pk]) in html
    for match_id in pairs:
        assert f"#{match_id}" in html
