"""Starting (§5.2), pairing and rounds, a match that ends (§5.5–5.7), cancelling (§6), the tick."""

from __future__ import annotations

import json
import secrets
from collections import defaultdict
from types import SimpleNamespace
from typing import Any

from celery import shared_task
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.adm.services import adm_enqueue
from apps.audit.services import audit_record
from apps.common.errors import (
    Conflict,
    ValidationFailed,
)
from apps.games.engines import get_engine
from apps.wallet.models import BONUS, CASH
from apps.wallet.services import (
    Leg,
    ledger_post,
)

from .. import broadcast, play, rules
from ..models import Registration, Tournament, TournamentMatch
from .core import _locked, _rng, _touch
from .settlement import (
    REFUND_FIELDS,
    _finish,
    _points_records,
    _refund_table,
    prize_list,
    refunds_pay,
    tournament_refunds_pay,
)


def tournament_start(*, tournament_id: Any, actor: User | None = None, ip: str | None = None) -> Tournament:
    """Start now: an operator's ``start`` (checks and 409s), or the system's (Sit&Go full,
    scheduled time), which does nothing unless the tournament is still ``open``. Starting
    twice pairs once: the state is checked under the row lock."""
    with transaction.atomic():
        t = _locked(tournament_id)
        entrants = t.registrations.filter(active=True).count()
        if actor is not None:
            if t.kind != Tournament.SCHEDULED:
                raise Conflict(_("A Sit and Go starts by itself when it is full."), code="not_scheduled")
            if t.status != Tournament.OPEN:
                raise Conflict(_("The tournament has already started."), code="already_started")
            if entrants < t.min_players:
                raise Conflict(_("%(n)s registered: at least %(least)s are needed.") % {"n": entrants, "least": t.min_players},
                               code="not_enough_players")
        elif t.status != Tournament.OPEN or entrants < t.min_players or (
                t.kind == Tournament.SIT_AND_GO and entrants < t.max_players):
            return t
        _start(t)
        if actor is not None:
            audit_record(actor=actor, action="tournament_start", target=t, after={"entrants": entrants}, ip=ip)
        _touch(t)
        broadcast.lobby_changed()
    return t


def _start(t: Tournament) -> None:
    regs = list(t.registrations.filter(active=True).order_by("pk"))
    n = len(regs)
    pool = rules.pool_compute(entrants=n, buy_in_cents=t.buy_in_cents, fee_cents=t.fee_cents,
                              guaranteed_cents=t.guaranteed_cents)
    prizes, _, _ = prize_list(t, pool.prize_pool, n)
    bonus_held = sum(r.paid_bonus_cents for r in regs)
    currency = t.prize_currency
    legs = [
        # the bonus held has been spent: it becomes cash (§3.4)
        Leg(t.escrow, BONUS, -bonus_held), Leg("house:promotions", BONUS, bonus_held),
        Leg("house:promotions", CASH, -bonus_held), Leg(t.escrow, CASH, bonus_held),
        Leg("house:guarantee", currency, -pool.overlay), Leg(t.escrow, currency, pool.overlay),
        Leg(t.escrow, CASH, -pool.fees), Leg("house:fees", CASH, pool.fees),
    ]
    if any(leg.amount for leg in legs):
        ledger_post(kind="tournament_start", reference=f"tournament:{t.pk}", legs=legs,
                    idempotency_key=f"tournament_start:tournament:{t.pk}")
    adm_enqueue(type="prize_plan", reference=f"tournament:{t.pk}", payload={
        "session_code": t.adm_session_code, "entrants": n, "prize_pool_cents": pool.prize_pool, "prizes": prizes})
    now = timezone.now()
    t.status = Tournament.RUNNING
    t.started_at = now
    t.entrants_at_start = n
    t.prize_pool_cents = pool.prize_pool
    t.overlay_cents = pool.overlay
    t.fees_cents = pool.fees
    t.payouts_cents = prizes
    if t.format == Tournament.POINTS:
        t.rounds = rules.points_rounds(n, t.rounds)
    t.current_round = 0
    t.save()
    _next_round(t, regs)


def _match_options(t: Tournament) -> dict[str, Any]:
    return play.tournament_match_options(game=t.game, options=t.game_options,
                                         knockout=t.format == Tournament.KNOCKOUT)


def _pair(t: Tournament, round_no: int, first: Registration, second: Registration,
          replay_of: TournamentMatch | None = None) -> TournamentMatch:
    seats = [first, second]
    _rng().shuffle(seats)  # seat 0 is drawn at random (§5.7)
    match_id = play.match_start(game=t.game, options=_match_options(t),
                                player_ids=[seats[0].player_id, seats[1].player_id], turn_seconds=t.turn_seconds,
                                ips=[seats[0].ip, seats[1].ip])
    tm = TournamentMatch.objects.create(tournament=t, round=round_no, match_id=match_id, first=seats[0],
                                        second=seats[1], replay_of=replay_of)
    broadcast.tables_ready(user_ids=[seats[0].player_id, seats[1].player_id], match_id=match_id)
    return tm


def _bye(t: Tournament, round_no: int, reg: Registration) -> None:
    TournamentMatch.objects.create(tournament=t, round=round_no, first=reg, status=TournamentMatch.BYE, winner=reg)
    reg.byes += 1
    if t.format == Tournament.POINTS:
        reg.vp += rules.WIN_VP
    reg.save(update_fields=["byes", "vp"])


def _next_round(t: Tournament, regs: list[Registration]) -> None:
    """Draw and start the next round (the first one at the start), recorded in ``draws``."""
    rng = _rng()
    by_id = {r.pk: r for r in regs}
    round_no = t.current_round + 1
    if t.format == Tournament.KNOCKOUT:
        if round_no == 1:
            byes, pairs = rules.knockout_draw([r.pk for r in regs], rng)
        else:
            advancing = list(t.tmatches.filter(round=t.current_round, winner__isnull=False)
                             .values_list("winner_id", flat=True))
            byes, pairs = [], rules.random_pairs(advancing, rng)
    else:
        records = _points_records(t, regs)
        ranking = rules.points_ranking(records)
        bye, pairs = rules.points_pairing(ranking, records, first_round=round_no == 1, rng=rng)
        byes = [bye] if bye is not None else []
    for reg_id in byes:
        _bye(t, round_no, by_id[reg_id])
    forfeits = []
    for a, b in pairs:
        if by_id[a].disqualified or by_id[b].disqualified:
            forfeits.append(_forfeit_pairing(t, round_no, by_id[a], by_id[b], rng))
        else:
            _pair(t, round_no, by_id[a], by_id[b])
    t.current_round = round_no
    t.draws = [*t.draws, {"round": round_no, "byes": [by_id[i].nickname for i in byes],
                          "pairs": [[by_id[a].nickname, by_id[b].nickname] for a, b in pairs],
                          "at": timezone.now().isoformat()}]
    t.save(update_fields=["current_round", "draws"])
    for tm in forfeits:  # once the whole round exists: the losers' group size is its match count
        _knockout_eliminate(t, tm, tm.second if tm.winner_id == tm.first_id else tm.first)
    _round_check(t)  # a round of forfeits only is over at once


def _forfeit_pairing(t: Tournament, round_no: int, a: Registration, b: Registration,
                     rng: secrets.SystemRandom) -> TournamentMatch:
    """A knockout pairing with a disqualified player: no match is played, the opponent wins
    (§5.7). Both disqualified: the one who goes on (to forfeit next) is drawn by lot."""
    if a.disqualified and b.disqualified:
        winner = rng.choice([a, b])
        t.draws = [*t.draws, {"round": round_no, "forfeit_lot": winner.nickname, "among": [a.nickname, b.nickname]}]
    else:
        winner = b if a.disqualified else a
    return TournamentMatch.objects.create(tournament=t, round=round_no, first=a, second=b, winner=winner,
                                          status=TournamentMatch.FINISHED, forfeit=True)


def tournament_match_finished(*, match_id: int, outcome: dict[str, Any] | None = None) -> bool:
    """Record a finished tournament match and advance the tournament; True if it did something.

    Called by the matches app's ``match_finished`` hook (receivers.py) and by the tick as a
    safety net; safe to call twice (the row's status is checked under the tournament lock)."""
    tm_row = TournamentMatch.objects.filter(match_id=match_id).values_list("tournament_id", flat=True).first()
    if tm_row is None:
        return False
    with transaction.atomic():
        t = _locked(tm_row)
        tm = TournamentMatch.objects.select_related("first", "second").get(match_id=match_id)
        if tm.status != TournamentMatch.PLAYING or t.status != Tournament.RUNNING:
            return False
        if outcome is None or outcome.get("status") is None:
            outcome = play.match_outcomes(match_ids=[match_id]).get(match_id)
        if outcome is None or outcome.get("status") == "playing":
            return False
        side = outcome.get("winner")
        if outcome.get("status") == "cancelled":
            side = None
        _record_result(t, tm, side if side in (0, 1) else None, outcome.get("scores"),
                       forfeit=bool(outcome.get("forfeit")))
        _round_check(t)
        _touch(t)
    return True


def _record_result(t: Tournament, tm: TournamentMatch, side: int | None, scores: Any, *, forfeit: bool) -> None:
    """A match's result in the bracket or the points table (the tournament row is locked).
    A forfeit (a disqualified player's seat abandoned, §5.7) counts 2 VP to 0 and no game points."""
    tm.scores = scores
    tm.status = TournamentMatch.FINISHED
    tm.forfeit = forfeit
    regs = [tm.first, tm.second]
    tm.winner = regs[side] if side in (0, 1) else None
    tm.save(update_fields=["scores", "status", "winner", "forfeit"])
    if t.format == Tournament.KNOCKOUT:
        if tm.winner is None:
            _pair(t, tm.round, tm.first, tm.second, replay_of=tm)  # replay until someone wins
        else:
            _knockout_eliminate(t, tm, regs[1 - side])
        return
    vps = rules.match_vp(side)
    scores = scores if isinstance(scores, list) and len(scores) == 2 and not forfeit else [0, 0]
    for i, reg in enumerate(regs):
        reg.vp += vps[i]
        diff = scores[i] - scores[1 - i]
        reg.game_diff += -diff if get_engine(t.game).lower_score_wins else diff
        reg.save(update_fields=["vp", "game_diff"])


def _round_check(t: Tournament) -> None:
    if t.status == Tournament.RUNNING and not t.tmatches.filter(round=t.current_round,
                                                                status=TournamentMatch.PLAYING).exists():
        _round_complete(t)


def _knockout_eliminate(t: Tournament, tm: TournamentMatch, loser: Registration) -> None:
    in_round = t.tmatches.filter(round=tm.round)
    k = in_round.filter(replay_of__isnull=True).exclude(status=TournamentMatch.BYE).count()
    advancing = in_round.filter(replay_of__isnull=True).count()  # one per match, one per bye
    loser.eliminated = True
    loser.eliminated_round = tm.round
    loser.position = advancing + 1
    loser.position_size = k
    loser.save(update_fields=["eliminated", "eliminated_round", "position", "position_size"])


def _round_complete(t: Tournament) -> None:
    regs = list(t.registrations.filter(active=True).order_by("pk"))
    if t.format == Tournament.KNOCKOUT:
        alive = [r for r in regs if not r.eliminated]
        if len(alive) <= 1:
            _finish(t, regs)
            return
    elif t.current_round >= (t.rounds or 1):
        _finish(t, regs)
        return
    _next_round(t, regs)


def tournament_cancel(*, actor: User, tournament_id: Any, reason: Any, ip: str | None = None) -> Tournament:
    """Cancel now (status and matches in this transaction); a task pays the refunds."""
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 500:
        raise ValidationFailed(_("A reason is required (at most 500 characters)."),
                               fields={"reason": [_("A non-empty reason of at most 500 characters.")]})
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status == Tournament.FINISHED:
            raise Conflict(_("The tournament has finished: it cannot be cancelled."), code="already_finished")
        if t.status == Tournament.CANCELLED:
            raise Conflict(_("The tournament is already cancelled."), code="already_cancelled")
        _matches_ended_settle(t)
        if t.status == Tournament.RUNNING or t.status == Tournament.OPEN:
            _cancel(t, reason=reason.strip())
            audit_record(actor=actor, action="tournament_cancel", target=t, reason=reason,
                         after={"refunds": t.refunds_total}, ip=ip)
    if t.status == Tournament.FINISHED:  # its last match ended before the cancel: it stands, paid
        raise Conflict(_("The tournament has finished: it cannot be cancelled."), code="already_finished")
    return t


def _matches_ended_settle(t: Tournament) -> None:
    """Before a cancellation (the tournament row locked): lock the matches still in play and
    record those that already ended, whose after-commit hook has not reached the tournament
    yet. Their losers are eliminated (a1/a2) and their winners go on; a last match that ended
    finishes the tournament, prizes paid, and the cancel then answers ``already_finished``.
    A round completed this way is not paired: the cancellation follows at once."""
    if t.status != Tournament.RUNNING:
        return
    tms = list(t.tmatches.filter(status=TournamentMatch.PLAYING, match_id__isnull=False)
               .select_related("first", "second").order_by("match_id"))
    ended = play.match_outcomes_locked(match_ids=[tm.match_id for tm in tms])
    for tm in tms:
        outcome = ended.get(tm.match_id)
        if outcome is None:
            continue
        side = outcome.get("winner") if outcome.get("status") == "finished" else None
        _record_result(t, tm, side if side in (0, 1) else None, outcome.get("scores"),
                       forfeit=bool(outcome.get("forfeit")))
    if ended and not t.tmatches.filter(round=t.current_round, status=TournamentMatch.PLAYING).exists():
        regs = list(t.registrations.filter(active=True).order_by("pk"))
        last = (sum(not r.eliminated for r in regs) <= 1 if t.format == Tournament.KNOCKOUT
                else t.current_round >= (t.rounds or 1))
        if last:
            _finish(t, regs)
            _touch(t)


def _cancel(t: Tournament, *, reason: str, code: str = "") -> None:
    # plain rows, not model instances: a cancellation may touch 10,000 registrations
    regs = [SimpleNamespace(**row) for row in
            t.registrations.filter(active=True).order_by("pk").values(*REFUND_FIELDS)]
    table = _refund_table(t, regs)
    # one UPDATE per distinct refund line: a handful (b1 gives two amounts, b2 one per VP total)
    groups: dict[tuple[int, str, str], list[int]] = defaultdict(list)
    for r in regs:
        line = table[r.pk]
        r.refund_cents = line.cents
        groups[(line.cents, line.rule, json.dumps(line.parts, sort_keys=True))].append(r.pk)
    for (cents, rule, parts), ids in groups.items():
        Registration.objects.filter(pk__in=ids).update(refund_cents=cents, refund_rule=rule,
                                                       refund_parts=json.loads(parts))
    dq = [r.pk for r in regs if r.disqualified]
    if t.format == Tournament.POINTS and t.started_at is not None and dq:
        # ranked below every remaining player, tied (§6.2): the position the refund table used
        Registration.objects.filter(pk__in=dq).update(position=len(regs) - len(dq) + 1, position_size=len(dq))
    playing = list(t.tmatches.filter(status=TournamentMatch.PLAYING).values_list("match_id", flat=True))
    t.tmatches.filter(status=TournamentMatch.PLAYING).update(status=TournamentMatch.CANCELLED)
    play.matches_cancel(match_ids=[m for m in playing if m])
    adm_enqueue(type="session_end", reference=f"tournament:{t.pk}", payload={"session_code": t.adm_session_code,
                                                                          "outcome": "cancelled"})
    t.status = Tournament.CANCELLED
    t.cancelled_at = timezone.now()
    t.cancel_reason = reason
    t.cancel_code = code
    t.refunds_total = sum(1 for r in regs if r.refund_cents)
    t.save()
    _touch(t)
    broadcast.lobby_changed()
    transaction.on_commit(lambda: refunds_pay.delay(t.pk))


def tournaments_due_work() -> int:
    """What is due now: cancel below the minimum at registration close, start at the start
    time, start a full Sit&Go whose task was lost, finish refund runs that stopped, and
    record finished matches whose hook was missed. Each step re-reads under the row lock."""
    now = timezone.now()
    done = 0
    open_scheduled = Tournament.objects.filter(status=Tournament.OPEN, kind=Tournament.SCHEDULED)
    short = (open_scheduled.filter(registrations_close_at__lte=now)
             .annotate(n=Count("registrations", filter=Q(registrations__active=True)))
             .values_list("pk", "n", "min_players"))
    for tid, n, least in short:
        if n < least:
            with transaction.atomic():
                t = _locked(tid)
                if t.status == Tournament.OPEN and t.registrations_close_at <= timezone.now() and \
                        t.registrations.filter(active=True).count() < t.min_players:
                    _cancel(t, reason="Not enough players at registration close.", code="not_enough_players")
                    audit_record(actor=None, action="tournament_cancel", target=t,
                                 reason="not enough players at registration close")
                    done += 1
    for tid in open_scheduled.filter(starts_at__lte=now).values_list("pk", flat=True):
        t = tournament_start(tournament_id=tid)
        done += t.status == Tournament.RUNNING
    full = (Tournament.objects.filter(status=Tournament.OPEN, kind=Tournament.SIT_AND_GO)
            .annotate(n=Count("registrations", filter=Q(registrations__active=True)))
            .values_list("pk", "n", "max_players"))
    for tid, n, most in full:
        if n >= most:
            done += tournament_start(tournament_id=tid).status == Tournament.RUNNING
    for tid in Tournament.objects.filter(status=Tournament.CANCELLED, refunds_done_at__isnull=True) \
            .values_list("pk", flat=True):
        done += tournament_refunds_pay(tournament_id=tid)
    playing = list(TournamentMatch.objects.filter(status=TournamentMatch.PLAYING, match_id__isnull=False,
                                                  tournament__status=Tournament.RUNNING)
                   .values_list("match_id", flat=True))
    for match_id, outcome in play.match_outcomes(match_ids=playing).items():
        done += tournament_match_finished(match_id=match_id, outcome=outcome)
    return done


@shared_task(name="apps.tournaments.tasks.start_when_full", ignore_result=True)
def start_when_full(tournament_id: int) -> str:
    return tournament_start(tournament_id=tournament_id).status
