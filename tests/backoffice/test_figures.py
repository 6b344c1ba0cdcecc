"""Every dashboard and finance figure against a hand-computed ledger scenario.

The scenario (Europe/Rome days D1 = 30/11/2026 and D2 = 01/12/2026):

- table matches, through the wallet's own stake and settlement services:
  A briscola, cash, 100 + 100 at 10:00 D1 → bank 40;
  B scopa, cash, 250 + 250 at 23:30 D1 → bank 100;
  C briscola, credits, 50 + 50 at 00:30 D2 (23:30 UTC on D1: the Rome day decides) → bank 20 credits.
- tournament 7 (hand-made ledger rows, as the tournament app posts them): buy-in 1000 with
  a fee of 100, three entrants (the third pays 300 bonus + 700 cash), guarantee 5000:
  at the start on D1 fees 300 to house:fees, overlay 5000 − 2700 = 2300 from house:guarantee,
  bonus conversion 300; on D2 prizes 3000 and 2000.
- tournament 8: two buy-ins of 500, cancelled after the start on D2: rule a2 pays 400,
  rule b1 pays 600 (memo ``refund_rule=…``).
- bonus granted on D1: 300 (to the third entrant) + 500 (another player) = 800.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from apps.backoffice import selectors
from apps.backoffice.periods import Period, period_parse
from apps.common.errors import ValidationFailed
from apps.matches.models import Match, MatchSeat
from apps.tables.models import SocketConnection, Table, TableMatch
from apps.tournaments.models import Registration, Tournament, TournamentMatch
from apps.wallet.services import Leg, escrow_settle, ledger_post, stakes_collect, wallet_adjust

from ..conftest import make_user

pytestmark = pytest.mark.django_db

D1, D2 = date(2026, 11, 30), date(2026, 12, 1)
BOTH = Period(D1, D2)


def utc(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11 if day == 30 else 12, day, hour, minute, tzinfo=UTC)


def table_match(game: str, currency: str, players: list, started: datetime, finished: datetime | None) -> Match:
    table = Table.objects.create(game=game, players=2, currency=currency)
    match = Match.objects.create(game=game, players=2, seed="1", state={}, started_at=started,
                                 finished_at=finished, currency=currency,
                                 status=Match.FINISHED if finished else Match.PLAYING)
    TableMatch.objects.create(table=table, match=match, ended=finished is not None)
    match.table = table
    for n, p in enumerate(players):
        MatchSeat.objects.create(match=match, number=n, player=p, nickname=f"p{n}")
    return match


def tournament_rows(clock, p1, p2, p3, p4) -> None:
    t = "tournament:7"
    clock.set(utc(30, 15))
    for p in (p1, p2):
        ledger_post(kind="buy_in", reference=t, legs=[Leg(f"player:{p.pk}", "cash", -1000),
                                                      Leg("escrow:tournament:7", "cash", 1000)])
    ledger_post(kind="buy_in", reference=t, legs=[
        Leg(f"player:{p3.pk}", "bonus", -300), Leg("escrow:tournament:7", "bonus", 300),
        Leg(f"player:{p3.pk}", "cash", -700), Leg("escrow:tournament:7", "cash", 700)])
    clock.set(utc(30, 18))
    ledger_post(kind="tournament_start", reference=t, legs=[
        Leg("escrow:tournament:7", "cash", -300), Leg("house:fees", "cash", 300),
        Leg("house:guarantee", "cash", -2300), Leg("escrow:tournament:7", "cash", 2300)])
    ledger_post(kind="bonus_conversion", reference=t, legs=[
        Leg("escrow:tournament:7", "bonus", -300), Leg("house:promotions", "bonus", 300),
        Leg("house:promotions", "cash", -300), Leg("escrow:tournament:7", "cash", 300)])
    clock.set(utc(1, 10))
    ledger_post(kind="prize", reference=t, legs=[Leg("escrow:tournament:7", "cash", -5000),
                                                 Leg(f"player:{p1.pk}", "cash", 3000),
                                                 Leg(f"player:{p2.pk}", "cash", 2000)])
    # tournament 8: cancelled after the start
    clock.set(utc(1, 11))
    for p in (p1, p4):
        ledger_post(kind="buy_in", reference="tournament:8", legs=[Leg(f"player:{p.pk}", "cash", -500),
                                                                   Leg("escrow:tournament:8", "cash", 500)])
    clock.set(utc(1, 12))
    ledger_post(kind="cancel_refund", reference="tournament:8", memo="refund_rule=a2",
                legs=[Leg("escrow:tournament:8", "cash", -400), Leg(f"player:{p1.pk}", "cash", 400)])
    ledger_post(kind="cancel_refund", reference="tournament:8", memo="refund_rule=b1",
                legs=[Leg("escrow:tournament:8", "cash", -600), Leg(f"player:{p4.pk}", "cash", 600)])


@pytest.fixture
def scenario(clock):
    finance = make_user(group="finance")
    p1, p2, p3, p4 = (make_user() for _ in range(4))
    clock.set(utc(30, 8))
    for p in (p1, p2, p3, p4):
        wallet_adjust(actor=finance, player=p, currency="cash", amount=10_000, reason="deposit")
        wallet_adjust(actor=finance, player=p, currency="credits", amount=1_000, reason="credits")
    wallet_adjust(actor=finance, player=p3, currency="bonus", amount=300, reason="promo")
    wallet_adjust(actor=finance, player=p4, currency="bonus", amount=500, reason="promo")
    # match A: briscola cash at 10:00 Rome on D1
    clock.set(utc(30, 9))
    a = table_match("briscola", "cash", [p1, p2], utc(30, 9), utc(30, 9, 20))
    stakes_collect(match_id=a.pk, currency="cash", stakes={p1.pk: 100, p2.pk: 100})
    clock.set(utc(30, 9, 20))
    escrow_settle(match_id=a.pk, currency="cash", payouts={p1.pk: 160}, paid={p1.pk: 100, p2.pk: 100}, bank=40)
    # match B: scopa cash at 23:30 Rome on D1
    clock.set(utc(30, 22, 30))
    b = table_match("scopa", "cash", [p1, p2], utc(30, 22, 30), utc(30, 22, 50))
    stakes_collect(match_id=b.pk, currency="cash", stakes={p1.pk: 250, p2.pk: 250})
    clock.set(utc(30, 22, 50))
    escrow_settle(match_id=b.pk, currency="cash", payouts={p2.pk: 400}, paid={p1.pk: 250, p2.pk: 250}, bank=100)
    # match C: briscola credits at 00:30 Rome on D2 (23:30 UTC on D1), first stakes of p3 and p4
    clock.set(utc(30, 23, 30))
    c = table_match("briscola", "credits", [p3, p4], utc(30, 23, 30), None)
    stakes_collect(match_id=c.pk, currency="credits", stakes={p3.pk: 50, p4.pk: 50})
    clock.set(utc(30, 23, 59))
    escrow_settle(match_id=c.pk, currency="credits", payouts={p4.pk: 80}, paid={p3.pk: 50, p4.pk: 50}, bank=20)
    Match.objects.filter(pk=c.pk).update(status=Match.PLAYING, finished_at=None)  # still in play, for the hours
    tournament_rows(clock, p1, p2, p3, p4)
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(pk__in=[p1.pk, p2.pk]).update(date_joined=utc(30, 7))
    get_user_model().objects.filter(pk__in=[p3.pk, p4.pk]).update(date_joined=utc(1, 7))
    SocketConnection.objects.create(channel_name="a", table=c.table, user=p3)
    SocketConnection.objects.create(channel_name="b", table=c.table, user=p4)
    SocketConnection.objects.create(channel_name="c", table=c.table, user=make_user(group="operator"))
    return {"players": (p1, p2, p3, p4), "matches": (a, b, c)}


def test_bank_by_day_and_game_in_rome_days(scenario):
    by_day, by_game = selectors.bank_figures(period=BOTH, currency="cash")
    assert by_day.labels == ["2026-11-30", "2026-12-01"]
    assert by_day.series == {"briscola": [40, 0], "scopa": [100, 0]}
    assert dict(zip(by_game.labels, by_game.series["total"], strict=True)) == {"briscola": 40, "scopa": 100}
    credits_day, credits_game = selectors.bank_figures(period=BOTH, currency="credits")
    # settled at 23:59 UTC on 30/11, which is 00:59 on 01/12 in Rome
    assert credits_day.series == {"briscola": [0, 20]}
    only_d1, _ = selectors.bank_figures(period=Period(D1, D1), currency="credits")
    assert only_d1.series == {}


def test_fees_overlay_prizes_bonus(scenario):
    fees_day, fees_game = selectors.fees_figures(period=BOTH)
    assert fees_day.series == {selectors.UNKNOWN: [300, 0]}  # the game shows once tournaments are installed
    assert fees_game.series == {"total": [300]}
    assert selectors.overlay_by_day(period=BOTH).series == {"cash": [2300, 0], "bonus": [0, 0]}
    assert selectors.prize_pools_by_day(period=BOTH).series == {"cash": [0, 5000], "bonus": [0, 0]}
    # the 300 + 500 bonus adjustments; the bonus conversion is the house's, not a grant
    assert selectors.bonus_granted_by_day(period=BOTH).series == {"bonus": [800, 0]}


def tournament(pk: int, status: str, *, at: datetime | None = None, max_players: int = 8,
               entrants: int | None = None, game: str = "briscola", prize: str = "cash") -> Tournament:
    """A tournament row in its final state (the ledger rows, if any, are posted apart)."""
    return Tournament.objects.create(
        pk=pk, name=f"T{pk}", game=game, kind="sit_and_go", format="knockout", min_players=2,
        max_players=max_players, status=status, entrants_at_start=entrants, prize=prize,
        finished_at=at if status == Tournament.FINISHED else None,
        cancelled_at=at if status == Tournament.CANCELLED else None)


def test_refunds_by_rule_and_tournaments(scenario):
    refunds = selectors.refunds_by_rule(period=BOTH)
    assert refunds.labels == ["a2", "b1"]
    assert refunds.series == {"cash": [400, 600], "bonus": [0, 0], "refunded": [1, 1]}
    tournament(7, Tournament.FINISHED, at=utc(1, 10), entrants=3)
    tournament(8, Tournament.CANCELLED, at=utc(1, 12), entrants=2)
    tournaments = selectors.tournaments_by_day(period=BOTH)
    assert tournaments.series["run"] == [0, 1]
    assert tournaments.series["cancelled"] == [0, 1]
    assert selectors.refunds_by_rule(period=Period(D1, D1)).labels == []


def test_tournaments_are_counted_from_their_own_states(scenario):
    """Issue 25: a freeroll cancelled before its start posts no refund, yet it is cancelled; a
    full freeroll is 100% full though nobody paid; a satellite seat fills a seat like a buy-in.
    Counts and fill rates come from the tournaments' rows, not from ledger lines."""
    p1, p2, p3, p4 = scenario["players"]
    tournament(7, Tournament.FINISHED, at=utc(1, 10), entrants=3)  # 3 of 8: 37%
    tournament(8, Tournament.CANCELLED, at=utc(1, 12), entrants=2)  # after its start, refunds a2/b1
    tournament(9, Tournament.CANCELLED, at=utc(1, 13), prize="bonus")  # a freeroll cancelled before its start
    tournament(10, Tournament.FINISHED, at=utc(1, 14), max_players=4, entrants=4, prize="bonus")  # full freeroll
    # a satellite seat: the paid entry went back as an unregister_refund, the seat still plays
    target = tournament(11, Tournament.FINISHED, at=utc(1, 15), max_players=4, entrants=2)
    ledger_post(kind="buy_in", reference="tournament:11", legs=[Leg(f"player:{p1.pk}", "cash", -500),
                                                                Leg("escrow:tournament:11", "cash", 500)])
    ledger_post(kind="unregister_refund", reference="tournament:11", legs=[
        Leg("escrow:tournament:11", "cash", -500), Leg(f"player:{p1.pk}", "cash", 500)])
    Registration.objects.create(tournament=target, player=p1, nickname="p1", created=utc(1, 9), seat_from_id=7)
    Registration.objects.create(tournament=target, player=p2, nickname="p2", created=utc(1, 9))
    tournament(12, Tournament.RUNNING)  # neither finished nor cancelled
    figure = selectors.tournaments_by_day(period=BOTH)
    assert figure.series["run"] == [0, 3]
    assert figure.series["cancelled"] == [0, 2]
    assert selectors.tournament_fill_rates(ids={7, 10, 11}) == {7: 37, 10: 100, 11: 50}
    assert figure.series["fill_percent"] == [0, (37 + 100 + 50) // 3]
    assert figure.total("fill_percent") == 62  # the period's average over the three that finished
    # before the start the entrants are the active registrations
    Tournament.objects.filter(pk=11).update(entrants_at_start=None)
    assert selectors.tournament_fill_rates(ids={11}) == {11: 50}


def test_refund_rule_is_read_from_the_memo():
    assert selectors.refund_rule_of("refund_rule=b2_scaled") == "b2_scaled"
    assert selectors.refund_rule_of("rule b2, registration 4") == "b2"
    assert selectors.refund_rule_of("full refund before the start") == "full"
    assert selectors.refund_rule_of("") == selectors.UNKNOWN


def test_activity_newcomers_and_online(scenario):
    hours = selectors.activity_by_hour(period=BOTH, now=utc(1, 1))  # 02:00 Rome on D2
    peaks = {label: (t, p) for label, t, p in zip(hours.labels, hours.series["tables"], hours.series["players"],
                                                    strict=True) if t}
    # A at 10 h, B at 23 h (Rome) on D1; C from 00:30 to now (02:00) on D2
    assert peaks == {"10": (1, 2), "23": (1, 2), "00": (1, 2), "01": (1, 2)}
    newcomers = selectors.newcomers_by_day(period=BOTH)
    assert newcomers.series == {"new_players": [2, 2], "first_stakes": [2, 2]}
    online = selectors.online_now()
    assert online["players_online"] == 2 and online["tables_connected"] == 1  # the operator is not a player
    assert online["matches_playing"] == 1


def test_busiest_hour_counts_tournament_matches(scenario):
    """Issue 25: "Ora di punta" counted tables only (2 in an hour with 71 tournament matches).
    Three tournament matches at 10 h Rome on D1 (one of them still in play at 02:00 on D2)
    count beside table A, and their players with A's."""
    p1, p2, p3, p4 = scenario["players"]
    target = tournament(7, Tournament.RUNNING)
    regs = [Registration.objects.create(tournament=target, player=p, nickname=f"n{p.pk}", created=utc(30, 8))
            for p in (p1, p2, p3, p4)]
    for n, (a, b, end) in enumerate(((0, 1, utc(30, 9, 40)), (2, 3, utc(30, 9, 50)), (0, 3, None))):
        match = Match.objects.create(game="briscola", players=2, seed=str(n), state={}, started_at=utc(30, 9, 5),
                                     finished_at=end, status=Match.FINISHED if end else Match.PLAYING)
        for seat, reg in enumerate((regs[a], regs[b])):
            MatchSeat.objects.create(match=match, number=seat, player=reg.player, nickname=reg.nickname)
        TournamentMatch.objects.create(tournament=target, round=1, match_id=match.pk, first=regs[a], second=regs[b])
    hours = selectors.activity_by_hour(period=BOTH, now=utc(1, 1))
    peaks = {label: (t, m, p) for label, t, m, p in zip(hours.labels, hours.series["tables"],
                                                         hours.series["tournament_matches"], hours.series["players"],
                                                         strict=True) if t or m}
    assert peaks["10"] == (1, 3, 4)  # table A (p1, p2) and three tournament matches (p1-p4)
    assert peaks["23"] == (1, 1, 3)  # table B (p1, p2) and the one still in play (p1, p4)
    assert peaks["11"] == (0, 1, 2) and peaks["01"] == (1, 1, 3)


def test_reconciliation_sums_to_zero(scenario):
    report = selectors.reconciliation(day=D2)
    assert report["check_ok"] and report["check"] == "ledger OK"
    for block in report["currencies"]:
        assert block["total"] == 0 and block["balanced"]
    cash = next(b for b in report["currencies"] if b["currency"] == "cash")
    house = dict(cash["house"])
    assert house["house:bank"] == 140 and house["house:fees"] == 300 and house["house:guarantee"] == -2300
    assert cash["escrows"] == 0
    # 4 × 10000 deposits, −1200 table stakes +... : the players' side is minus every house account
    assert cash["players"] == -sum(house.values())
    d1 = selectors.reconciliation(day=D1)
    by_entry = {(k["kind"], k["currency"]): k for k in d1["entry_kinds"]}
    assert by_entry[("stake", "cash")]["net"] == -700 and by_entry[("stake", "cash")]["entries"] == 4
    assert by_entry[("winnings", "cash")]["credited"] == 160 + 400  # A and B paid their winners


def test_reconciliation_separates_transaction_kinds_from_entry_kinds(scenario):
    """Issue 25: one table mixed transaction and entry kinds (a settlement's ``bank``,
    ``stake_return`` and ``winnings`` rows each one-sided), so it looked unbalanced. By
    transaction kind every row balances; the players' entries by kind add up to the players'
    side of the transactions."""
    for day in (D1, D2):
        report = selectors.reconciliation(day=day)
        assert report["kinds"] and all(k["balance"] == 0 and k["credited"] == -k["debited"] for k in report["kinds"])
        kinds = {k["kind"] for k in report["kinds"]}
        assert "bank" not in kinds and "winnings" not in kinds  # entry kinds are in their own table
        for total in report["kind_totals"]:
            assert total["balanced"]
            assert total["entries_net"] == sum(k["net"] for k in report["entry_kinds"]
                                               if k["currency"] == total["currency"])
    d1 = {(k["kind"], k["currency"]): k for k in selectors.reconciliation(day=D1)["kinds"]}
    assert d1[("stake", "cash")]["transactions"] == 4 and d1[("stake", "cash")]["players"] == -700
    assert d1[("buy_in", "cash")]["credited"] == 2700 and d1[("buy_in", "bonus")]["players"] == -300


def test_periods_in_rome_days():
    now = utc(30, 23, 30)  # 00:30 on 01/12 in Rome
    assert period_parse(name="today", now=now) == Period(D2, D2, "today")
    assert period_parse(name="7d", now=now).first == date(2026, 11, 25)
    assert period_parse(name="30d", now=now).first == date(2026, 11, 2)
    assert period_parse(name="custom", first="2026-11-30", last="2026-12-01").days() == [D1, D2]
    for bad in ({"name": "week"}, {"name": "custom", "first": "x", "last": "2026-12-01"},
                {"name": "custom", "first": "2026-12-02", "last": "2026-12-01"},
                {"name": "custom", "first": "2024-01-01", "last": "2026-12-01"}):
        with pytest.raises(ValidationFailed):
            period_parse(**bad)


def test_tournament_results_from_the_ledger(scenario):
    p1, p2, p3, p4 = scenario["players"]
    seven = {r["player"]: r for r in selectors.tournament_results(tournament_id=7)}
    assert list(seven) == [p1.pk, p2.pk, p3.pk]  # registration order
    assert (seven[p1.pk]["paid_cash"], seven[p1.pk]["prize_cash"], seven[p1.pk]["net"]) == (1000, 3000, 2000)
    assert (seven[p3.pk]["paid_cash"], seven[p3.pk]["paid_bonus"], seven[p3.pk]["net"]) == (700, 300, -1000)
    eight = {r["player"]: r for r in selectors.tournament_results(tournament_id=8)}
    assert (eight[p1.pk]["cancel_refund"], eight[p1.pk]["refund_rule"]) == (400, "a2")
    assert (eight[p4.pk]["cancel_refund"], eight[p4.pk]["refund_rule"], eight[p4.pk]["net"]) == (600, "b1", 100)
    assert selectors.tournament_results(tournament_id=99) == []


def test_fees_by_game_and_fill_rate_once_the_tournaments_are_known(scenario):
    """With the tournaments' own rows (7: briscola, 8 seats, 3 entrants; 8: scopa), the fees
    figure names the game and the finished tournament's fill rate is 3 / 8 = 37 %."""
    tournament(7, Tournament.FINISHED, at=utc(1, 10), entrants=3)
    tournament(8, Tournament.CANCELLED, at=utc(1, 12), entrants=2, game="scopa")
    fees_day, fees_game = selectors.fees_figures(period=BOTH)
    assert fees_day.series == {"briscola": [300, 0]}
    assert dict(zip(fees_game.labels, fees_game.series["total"], strict=True)) == {"briscola": 300}
    tournaments = selectors.tournaments_by_day(period=BOTH)
    assert tournaments.series["fill_percent"] == [0, 37]  # finished on D2; tournament 8 was cancelled
    assert selectors.tournament_fill_rates(ids={7}) == {7: 37}
    # the presets end today (Rome): a period that does not hold D1 or D2 shows nothing of them
    assert selectors.fees_figures(period=Period(date(2026, 11, 1), date(2026, 11, 29)))[0].series == {}
