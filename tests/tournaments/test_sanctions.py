"""A sanction that keeps a player out of the lobby (platform.md §7.4, §5.7): registrations in
tournaments not yet started cancelled with full refunds; disqualification from running ones
(the match in progress, or the next pairing, a forfeit), in both formats and for §6 after it;
and the XP of a tournament's matches credited only when it finishes (§5.10, §9)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.compliance.services import sanction_issue, sanction_lift
from apps.matches.models import Match
from apps.players.selectors import nickname_of
from apps.rankings.models import XpAward
from apps.tournaments import services
from apps.tournaments.models import Registration, Tournament, TournamentMatch
from apps.wallet.models import Transaction
from apps.wallet.selectors import wallet_get
from tests.conftest import api_client

from .conftest import (
    assert_ledger_ok,
    balances,
    create,
    play_match,
    play_round,
    play_to_end,
    players,
    playing_matches,
    register_all,
)

pytestmark = pytest.mark.django_db(transaction=True)


def ban(compliance, player, kind="lobby_ban"):
    duration = "permanent" if kind != "lobby_ban" else "1_month"
    return sanction_issue(actor=compliance, player=player.pk, kind=kind, duration=duration, reason="collusion")


def reg_of(tid, player) -> Registration:
    return Registration.objects.get(tournament_id=tid, player=player, active=True)


def standings(tid) -> dict[str, dict]:
    return {r["nickname"]: r for r in api_client(None).get(f"/api/tournaments/{tid}/standings/").json()}


def tm_of(tid, player) -> TournamentMatch:
    return TournamentMatch.objects.filter(tournament_id=tid, status="playing").get(
        first__player=player) if TournamentMatch.objects.filter(
        tournament_id=tid, status="playing", first__player=player).exists() else \
        TournamentMatch.objects.get(tournament_id=tid, status="playing", second__player=player)


# -- registrations in tournaments not yet started ---------------------------------------------


def test_lobby_ban_cancels_registrations_not_started_with_full_refunds(operator, compliance, clock):
    clock.set(timezone.now().replace(microsecond=0))
    sng = create(operator, max_players=8, buy_in_cents=1000, fee_cents=100)
    sched = create(operator, kind="scheduled", min_players=2, max_players=8, buy_in_cents=500,
                   starts_at=(clock.now + timedelta(minutes=10)).isoformat())
    [p] = players(1, cash=1200, bonus=300)
    others = players(2, cash=1500)
    register_all(sng["id"], [p, others[0]])
    register_all(sched["id"], [p, *others])
    assert balances(p) == (0, 0)  # 300 bonus + 700 cash, then 500 cash
    clock.advance(minutes=9)  # the scheduled one's registration has closed: still refunded
    assert not services.registration_open(Tournament.objects.get(pk=sched["id"]))
    sanction = ban(compliance, p)
    assert balances(p) == (300, 1200)  # every cent back to the currency it came from
    assert not Registration.objects.filter(player=p, active=True).exists()
    refunds = Transaction.objects.filter(kind="unregister_refund", reference__in=[
        f"tournament:{sng['id']}", f"tournament:{sched['id']}"])
    assert refunds.count() == 2
    assert api_client(None).get(f"/api/tournaments/{sched['id']}/").json()["nicknames"] == [
        nickname_of(o) for o in others]
    resp = api_client(p).post(f"/api/tournaments/{sng['id']}/register/")
    assert resp.status_code == 403 and resp.json()["code"] == "sanctioned"
    # lifting restores neither the registrations nor anything else; the ban's effect ran once
    sanction_lift(actor=compliance, sanction_id=sanction.pk, reason="appeal")
    assert not Registration.objects.filter(player=p, active=True).exists()
    assert services.tournaments_sanction_apply(player_id=p.pk) == {"cancelled": 0, "disqualified": 0}
    assert balances(p) == (300, 1200)
    assert_ledger_ok()


def test_chat_ban_changes_nothing(operator, compliance):
    t = create(operator, max_players=8)
    [p] = players(1, cash=1000)
    register_all(t["id"], [p])
    sanction_issue(actor=compliance, player=p.pk, kind="chat_ban", duration="1_month", reason="rude")
    assert reg_of(t["id"], p).disqualified is False


# -- knockout ------------------------------------------------------------------------------------


def test_knockout_match_in_progress_is_a_forfeit(operator, compliance):
    t = create(operator, max_players=4, payouts=[70, 30])
    people = players(4, cash=1000)
    register_all(t["id"], people)
    cheat = people[0]
    tm = tm_of(t["id"], cheat)
    opponent = tm.second if tm.first.player_id == cheat.pk else tm.first
    ban(compliance, cheat)
    tm.refresh_from_db()
    assert tm.status == "finished" and tm.forfeit and tm.winner_id == opponent.pk
    assert Match.objects.get(pk=tm.match_id).status != "playing"  # no more moves
    reg = reg_of(t["id"], cheat)
    assert reg.disqualified and reg.eliminated and reg.eliminated_round == 1
    assert (reg.position, reg.position_size) == (3, 2)  # that round's losers: 3-4
    row = standings(t["id"])[reg.nickname]
    assert row["status"] == "eliminated" and row["position"] == 3
    play_to_end(t["id"])
    rows = standings(t["id"])
    assert rows[reg.nickname]["position"] == 3 and rows[reg.nickname]["prize_cents"] == 0
    assert rows[opponent.nickname]["position"] in (1, 2)
    matches = api_client(None).get(f"/api/tournaments/{t['id']}/matches/").json()
    assert [m["forfeit"] for m in matches].count(True) == 1
    assert_ledger_ok()


def test_knockout_waiting_player_forfeits_the_next_pairing_and_is_paid_frozen(operator, compliance):
    t = create(operator, max_players=4, payouts=[70, 30])
    people = players(4, cash=1000)
    register_all(t["id"], people)
    first, second = playing_matches(t["id"])
    play_match(first)
    winner = TournamentMatch.objects.get(match_id=first).winner
    ban(compliance, winner.player, kind="account_suspension")
    reg = Registration.objects.get(pk=winner.pk)
    assert reg.disqualified and not reg.eliminated  # still in the bracket until paired
    assert (reg.position, reg.position_size) == (2, 1)  # the next round's loser: the final's, 2nd
    play_match(second)  # the final is paired: a forfeit, no match is played
    tour = Tournament.objects.get(pk=t["id"])
    assert tour.status == "finished"
    final = tour.tmatches.get(round=2)
    assert final.forfeit and final.match_id is None and final.winner_id != reg.pk
    rows = standings(t["id"])
    assert rows[reg.nickname]["position"] == 2 and rows[reg.nickname]["status"] == "eliminated"
    # the prize is paid by the normal rules, into the frozen balance: pool 4000 -> [2800, 1200]
    assert rows[reg.nickname]["prize_cents"] == 1200
    w = wallet_get(player=winner.player)
    assert w["cash_cents"] == 1200 and w["frozen"]
    assert_ledger_ok()


def test_knockout_cancel_after_a_disqualification_counts_them_eliminated(operator, compliance):
    t = create(operator, max_players=8, payouts=[50, 30, 20])
    people = players(8, cash=1000)
    register_all(t["id"], people)
    cheat = people[3]
    ban(compliance, cheat)
    services.tournament_cancel(actor=operator, tournament_id=t["id"], reason="server fault")
    rows = standings(t["id"])
    me = rows[nickname_of(cheat)]
    # round one's losers share 5-8, unpaid: a1, nothing
    assert me["status"] == "eliminated" and me["refund_rule"] == "a1" and me["refund_cents"] == 0
    remaining = [r for r in rows.values() if r["status"] == "playing"]
    assert len(remaining) == 7 and all(r["refund_rule"] == "b1" for r in remaining)
    assert sum(r["refund_cents"] for r in remaining) == 8000
    assert balances(cheat) == (0, 0)
    assert_ledger_ok()


# -- points ---------------------------------------------------------------------------------------


def test_points_disqualified_forfeits_is_left_out_and_ranked_last(operator, compliance):
    t = create(operator, kind="scheduled", format="points", min_players=2, max_players=8, buy_in_cents=500,
               payouts=[60, 40], rounds=3)
    people = players(4, cash=500)
    register_all(t["id"], people)
    api_client(operator).post(f"/api/tournaments/{t['id']}/start/")
    cheat = people[1]
    tm = tm_of(t["id"], cheat)
    opponent = tm.second if tm.first.player_id == cheat.pk else tm.first
    ban(compliance, cheat)
    tm.refresh_from_db()
    assert tm.forfeit and tm.winner_id == opponent.pk
    assert Registration.objects.get(pk=opponent.pk).vp == 2
    reg = reg_of(t["id"], cheat)
    assert reg.disqualified and reg.vp == 0 and reg.game_diff == 0
    play_to_end(t["id"])
    later = TournamentMatch.objects.filter(tournament_id=t["id"], round__gt=1)
    assert not later.filter(first=reg).exists() and not later.filter(second=reg).exists()
    assert later.filter(status="bye").count() == 2  # three players left: one bye a round
    rows = standings(t["id"])
    assert rows[reg.nickname]["position"] == 4 and rows[reg.nickname]["status"] == "eliminated"
    assert_ledger_ok()


def test_points_cancel_after_a_disqualification(operator, compliance):
    t = create(operator, kind="scheduled", format="points", min_players=2, max_players=8, buy_in_cents=500,
               payouts=[100])
    people = players(4, cash=500)
    register_all(t["id"], people)
    api_client(operator).post(f"/api/tournaments/{t['id']}/start/")
    cheat = people[2]
    ban(compliance, cheat, kind="authority_report")
    services.tournament_cancel(actor=operator, tournament_id=t["id"], reason="server fault")
    rows = standings(t["id"])
    me = rows[nickname_of(cheat)]
    assert me["status"] == "eliminated" and me["position"] == 4 and me["refund_rule"] == "a1"
    remaining = [r for r in rows.values() if r["status"] == "playing"]
    assert len(remaining) == 3 and all(r["refund_rule"] == "b2" for r in remaining)
    assert sum(r["refund_cents"] for r in remaining) == 2000
    assert_ledger_ok()


# -- XP at the finish --------------------------------------------------------------------------


def test_xp_credited_only_when_the_tournament_finishes(operator):
    t = create(operator, game="briscola", max_players=4, payouts=[100])
    people = players(4, cash=1000)
    register_all(t["id"], people)
    play_round(t["id"])
    assert not XpAward.objects.exists()  # round one is over, the tournament is not
    play_to_end(t["id"])
    ids = list(TournamentMatch.objects.filter(tournament_id=t["id"]).values_list("match_id", flat=True))
    awards = XpAward.objects.filter(match_id__in=ids)
    assert awards.count() == 6  # three matches, two players each
    assert sorted(a.xp for a in awards) == [5, 5, 5, 10, 10, 10]
    winner = Registration.objects.get(tournament_id=t["id"], position=1).player
    assert sum(a.xp for a in awards.filter(player=winner)) == 20
    assert_ledger_ok()


def test_cancelled_tournament_gives_no_xp(operator):
    t = create(operator, game="briscola", max_players=4, payouts=[100])
    people = players(4, cash=1000)
    register_all(t["id"], people)
    play_round(t["id"])
    services.tournament_cancel(actor=operator, tournament_id=t["id"], reason="server fault")
    assert not XpAward.objects.exists()
