"""The money out: the prize pool and its split (§5.4, §5.9), the prizes and seats paid at the end, the refunds of a cancelled tournament (§6) in slices."""

from __future__ import annotations

import math
from collections import defaultdict
from types import SimpleNamespace
from typing import Any

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from apps.adm.services import adm_enqueue
from apps.common.bulk import rows_update
from apps.compliance.selectors import sanction_active_kinds
from apps.wallet.models import BONUS, CASH, Account
from apps.wallet.services import (
    Leg,
    Posting,
    escrow_close,
    ledger_post,
    ledger_post_many,
    player_code,
)

from .. import broadcast, play, rules
from ..models import Registration, Tournament
from .core import _adm_participation_cancel, _locked, _rng, _touch, log

#: a refund run commits in at most this many slices: progress shows between them, and the
#: number of queries does not grow with the number of entrants
REFUND_SLICES = 10


def prize_preview(t: Tournament, entrants: int) -> dict[str, Any]:
    """``{"prize_pool_cents", "overlay_cents", "fees_cents", "payouts_cents"}`` for N entrants."""
    pool = rules.pool_compute(entrants=entrants, buy_in_cents=t.buy_in_cents, fee_cents=t.fee_cents,
                              guaranteed_cents=t.guaranteed_cents)
    prizes, seats, leftover = prize_list(t, pool.prize_pool, entrants)
    return {"prize_pool_cents": pool.prize_pool, "overlay_cents": pool.overlay, "fees_cents": pool.fees,
            "payouts_cents": prizes, "seats": seats, "leftover_cents": leftover}


def prize_list(t: Tournament, prize_pool: int, entrants: int) -> tuple[list[int], int | None, int | None]:
    """(payouts_cents, seats, leftover): a satellite's seats and leftover (§5.9), else the split.

    A satellite with more seats than entrants gives every entrant a seat and the rest to 1st
    place (docs/decisions.md)."""
    if t.prize != Tournament.SATELLITE:
        return rules.payouts_compute(prize_pool, t.payouts, entrants), None, None
    target_buy_in = t.satellite_target.buy_in_cents if t.satellite_target_id else 0
    seats, leftover, prizes = rules.satellite_prizes(prize_pool, target_buy_in)
    if entrants and seats >= entrants:
        seats, leftover = entrants, prize_pool - entrants * target_buy_in
        prizes = [target_buy_in] * entrants
        prizes[0] += leftover
    return prizes, seats, leftover


def _points_records(t: Tournament, regs: list[Registration]) -> dict[int, rules.PointsRecord]:
    records = {r.pk: rules.PointsRecord(order=r.pk, vp=r.vp, game_diff=r.game_diff, byes=r.byes,
                                        disqualified=r.disqualified) for r in regs}
    for first_id, second_id in t.tmatches.filter(second__isnull=False).values_list("first_id", "second_id"):
        if first_id in records and second_id in records:
            records[first_id].opponents.append(second_id)
            records[second_id].opponents.append(first_id)
    return records


def _standings_positions(t: Tournament, regs: list[Registration]) -> list[tuple[int, list[Registration]]]:
    """Final groups ``(first position, members in registration order)``, best first."""
    if t.format == Tournament.KNOCKOUT:
        groups: dict[int, list[Registration]] = defaultdict(list)
        for r in regs:
            if not r.eliminated:
                r.position, r.position_size = 1, 1
            groups[r.position].append(r)
        return sorted(groups.items())
    records = _points_records(t, regs)
    ranking = rules.points_ranking(records)
    by_id = {r.pk: r for r in regs}
    out = []
    for i, reg_id in enumerate(ranking, start=1):
        by_id[reg_id].position, by_id[reg_id].position_size = i, 1
        out.append((i, [by_id[reg_id]]))
    return out


def _finish(t: Tournament, regs: list[Registration]) -> None:
    """Positions, prizes (satellite seats), escrow to zero, ``finished``: one transaction (§5.10)."""
    prizes = list(t.payouts_cents or [])
    groups = _standings_positions(t, regs)
    seat_winners: list[Registration] = []
    paid: dict[int, int] = {}
    if t.prize == Tournament.SATELLITE:
        target_buy_in = t.satellite_target.buy_in_cents
        seats_total = sum(1 for p in prizes if p == target_buy_in) if prizes else 0
        seats_total = min(seats_total, len(regs))
        extra = (prizes[0] - target_buy_in) if prizes and seats_total == len(regs) else 0
        leftover = 0 if seats_total == len(regs) else (t.prize_pool_cents or 0) - seats_total * target_buy_in
        rng = _rng()
        for first, members in groups:
            last = first + len(members) - 1
            seat_count = max(0, min(last, seats_total) - first + 1)
            lot = list(members)
            if 0 < seat_count < len(members):
                rng.shuffle(lot)
                t.draws = [*t.draws, {"seat_lot": [m.nickname for m in lot[:seat_count]],
                                      "among": [m.nickname for m in members]}]
            seat_winners += lot[:seat_count]
            rest = sorted(lot[seat_count:], key=lambda r: r.pk)
            if first <= seats_total + 1 <= last and leftover and rest:
                for reg, share in zip(rest, rules.split_cents(leftover, [1] * len(rest)), strict=True):
                    paid[reg.pk] = share
        if extra and groups:
            paid[groups[0][1][0].pk] = paid.get(groups[0][1][0].pk, 0) + extra
    else:
        for first, members in groups:
            for reg, share in rules.tied_group_prizes(prizes, first, members).items():
                if share:
                    paid[reg.pk] = share
    for r in regs:
        r.prize_cents = paid.get(r.pk, 0) + (t.satellite_target.buy_in_cents if r in seat_winners else 0)
    rows_update(Registration, regs, ["position", "position_size", "prize_cents"])
    currency = t.prize_currency
    users = {r.pk: r.player_id for r in regs}
    postings = [Posting(kind="prize", reference=f"tournament:{t.pk}", legs=(
        Leg(t.escrow, currency, -amount), Leg(player_code(users[reg_id]), currency, amount)),
        idempotency_key=f"prize:tournament:{t.pk}:registration:{reg_id}") for reg_id, amount in paid.items()]
    ledger_post_many(postings=postings)
    for reg in sorted(seat_winners, key=lambda r: r.position or 0):
        _seat_award(t, reg)
    adm_enqueue(type="winners", reference=f"tournament:{t.pk}", payload={
        "session_code": t.adm_session_code,
        "winners": [{"player": users[reg_id], "prize_cents": amount} for reg_id, amount in sorted(paid.items())]})
    adm_enqueue(type="session_end", reference=f"tournament:{t.pk}", payload={"session_code": t.adm_session_code,
                                                                          "outcome": "finished"})
    now = timezone.now()
    t.status = Tournament.FINISHED
    t.finished_at = now
    t.save()
    _escrow_sweep(t)
    # the XP of its matches is credited only now: a cancelled tournament gives none (§5.10, §9)
    play.matches_award_xp(match_ids=t.tmatches.filter(match_id__isnull=False).values_list("match_id", flat=True))
    broadcast.lobby_changed()


def _seat_award(t: Tournament, reg: Registration) -> None:
    """A satellite seat: a registration in the target paid from this escrow (§5.9)."""
    target = Tournament.objects.select_for_update().get(pk=t.satellite_target_id)
    amount = target.buy_in_cents
    key = f"seat:tournament:{t.pk}:registration:{reg.pk}"
    sanctioned = bool(sanction_active_kinds(player_id=reg.player_id) & {"lobby_ban", "account_suspension",
                                                                         "authority_report"})
    if target.status != Tournament.OPEN or sanctioned:
        ledger_post(kind="seat_value", reference=f"tournament:{t.pk}", legs=[
            Leg(t.escrow, CASH, -amount), Leg(player_code(reg.player_id), CASH, amount)], idempotency_key=key)
        return
    ledger_post(kind="seat", reference=f"tournament:{target.pk}", legs=[
        Leg(t.escrow, CASH, -amount), Leg(target.escrow, CASH, amount)], idempotency_key=key)
    existing = target.registrations.filter(active=True, player_id=reg.player_id).first()
    if existing is not None:
        bonus, cash = existing.paid_bonus_cents, existing.paid_cash_cents
        if bonus or cash:
            ledger_post(kind="unregister_refund", reference=f"tournament:{target.pk}", legs=[
                Leg(target.escrow, BONUS, -bonus), Leg(player_code(reg.player_id), BONUS, bonus),
                Leg(target.escrow, CASH, -cash), Leg(player_code(reg.player_id), CASH, cash)],
                idempotency_key=f"seat_refund:tournament:{target.pk}:registration:{existing.pk}",
                memo="seat_funded")  # the entry a satellite seat paid: not an unregistration
        existing.paid_bonus_cents, existing.paid_cash_cents, existing.seat_from = 0, amount, t
        existing.save(update_fields=["paid_bonus_cents", "paid_cash_cents", "seat_from"])
    else:
        Registration.objects.create(tournament=target, player_id=reg.player_id, nickname=reg.nickname,
                                    created=timezone.now(), paid_cash_cents=amount, seat_from=t)
    _touch(target)


def _escrow_sweep(t: Tournament) -> None:
    """Close the escrow; cents it still holds (none by the rules) go back to the guarantee."""
    for currency in (CASH, BONUS):
        left = Account.objects.filter(code=t.escrow, currency=currency).values_list("balance", flat=True).first()
        if left:
            log.error("tournament %s: %s %s left in escrow, returned to house:guarantee", t.pk, left, currency)
            ledger_post(kind="escrow_sweep", reference=f"tournament:{t.pk}", legs=[
                Leg(t.escrow, currency, -left), Leg("house:guarantee", currency, left)],
                idempotency_key=f"escrow_sweep:tournament:{t.pk}:{currency}")
    escrow_close(code=t.escrow)


def _refund_table(t: Tournament, regs: list[Any]) -> dict[int, rules.Refund]:
    if t.status == Tournament.OPEN:
        return {r.pk: rules.Refund("full", r.paid_bonus_cents + r.paid_cash_cents, {}) for r in regs}
    eliminated = [rules.Eliminated(r.pk, r.position or len(regs), r.position_size or 1)
                  for r in regs if r.eliminated or r.disqualified]
    if t.format == Tournament.POINTS:
        count = len(regs)
        dq = [r for r in regs if r.disqualified]
        eliminated = [rules.Eliminated(r.pk, count - len(dq) + 1, len(dq)) for r in dq]
    remaining = [rules.Remaining(r.pk, r.vp) for r in regs if not (r.eliminated or r.disqualified)]
    return rules.cancellation_refunds(t.prize_pool_cents or 0, t.buy_in_cents, t.payouts_cents or [],
                                      t.format, eliminated, remaining)


REFUND_FIELDS = ("pk", "player_id", "paid_bonus_cents", "paid_cash_cents", "eliminated", "disqualified",
                 "position", "position_size", "vp")


def _refund_legs(t: Tournament, reg: Any, before_start: bool) -> list[Leg]:
    player = player_code(reg.player_id)
    cents = reg.refund_cents or 0
    if before_start:
        return [Leg(t.escrow, BONUS, -reg.paid_bonus_cents), Leg(player, BONUS, reg.paid_bonus_cents),
                Leg(t.escrow, CASH, -reg.paid_cash_cents), Leg(player, CASH, reg.paid_cash_cents)]
    to_bonus, to_cash, extra = rules.refund_currencies(cents, paid_bonus=reg.paid_bonus_cents,
                                                       paid_cash=reg.paid_cash_cents)
    held = t.prize_currency  # after the start the escrow holds only this currency
    legs = [Leg(t.escrow, held, -(to_cash + extra + (to_bonus if held == BONUS else 0)))]
    if to_bonus and held == CASH:  # the reverse of the start's bonus conversion (§3.4)
        legs += [Leg(t.escrow, CASH, -to_bonus), Leg("house:promotions", CASH, to_bonus),
                 Leg("house:promotions", BONUS, -to_bonus)]
    legs += [Leg(player, BONUS, to_bonus), Leg(player, CASH, to_cash), Leg(player, held, extra)]
    return legs


def tournament_refunds_pay(*, tournament_id: int) -> int:
    """Pay the refund lines not yet paid, in at most ``REFUND_SLICES`` committed slices.

    Each slice locks the tournament row, re-reads its unpaid lines and posts them with their
    keys, so concurrent runs, reruns, and a run killed midway all pay every line exactly once;
    the progress (lines paid) is visible between slices. Returns the lines paid by this run."""
    t = Tournament.objects.filter(pk=tournament_id, status=Tournament.CANCELLED).first()
    if t is None:
        return 0
    before_start = t.started_at is None
    pending = list(Registration.objects.filter(tournament_id=t.pk, active=True, refund_cents__gt=0,
                                               refund_paid_at__isnull=True).order_by("pk").values_list("pk", flat=True))
    size = max(1, math.ceil(max(t.refunds_total, 1) / REFUND_SLICES))
    paid = 0
    for start in range(0, len(pending), size):
        chunk = pending[start:start + size]
        with transaction.atomic():
            t = _locked(tournament_id)
            regs = [SimpleNamespace(**row) for row in Registration.objects.filter(
                pk__in=chunk, refund_paid_at__isnull=True).order_by("pk").values(
                "pk", "player_id", "paid_bonus_cents", "paid_cash_cents", "refund_cents", "refund_rule",
                "adm_participation_id")]
            # the memo names the malfunction rule: the back office's refunds by rule read it
            postings = [Posting(kind="cancel_refund", reference=f"tournament:{t.pk}",
                                legs=tuple(_refund_legs(t, r, before_start)),
                                idempotency_key=f"cancel_refund:tournament:{t.pk}:registration:{r.pk}",
                                memo=f"refund_rule={r.refund_rule}" if r.refund_rule else "")
                        for r in regs]
            written = ledger_post_many(postings=postings)
            for r in regs:
                txn = written.get(f"cancel_refund:tournament:{t.pk}:registration:{r.pk}")
                _adm_participation_cancel(reg_id=r.pk, player_id=r.player_id, participation=r.adm_participation_id,
                                          txn_id=getattr(txn, "pk", None))
            Registration.objects.filter(pk__in=[r.pk for r in regs]).update(refund_paid_at=timezone.now())
            paid += len(regs)
            _touch(t)
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.refunds_done_at is None and not Registration.objects.filter(
                tournament_id=t.pk, active=True, refund_cents__gt=0, refund_paid_at__isnull=True).exists():
            _escrow_sweep(t)
            t.refunds_done_at = timezone.now()
            t.save(update_fields=["refunds_done_at"])
            _touch(t)
    return paid


@shared_task(name="apps.tournaments.tasks.refunds_pay", ignore_result=True)
def refunds_pay(tournament_id: int) -> int:
    return tournament_refunds_pay(tournament_id=tournament_id)
