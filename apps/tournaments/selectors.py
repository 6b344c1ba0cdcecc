"""Reads for tournaments: the detail, lobby, standings, matches and refund progress (§5.11, §6.6)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.common.errors import NotFoundError
from apps.common.roles import OPERATOR, has_role

from . import rules
from .models import Registration, Tournament, TournamentMatch
from .services import prize_list, prize_preview, registration_open


def tournament_get(*, tournament_id: Any) -> Tournament:
    if type(tournament_id) is not int:
        raise NotFoundError("No such tournament.")
    t = Tournament.objects.select_related("satellite_target").filter(pk=tournament_id).first()
    if t is None:
        raise NotFoundError("No such tournament.")
    return t


def tournament_names(*, ids: list[int]) -> dict[int, str]:
    """Names by id, for ledger lines that say which tournament (``tournament:12``)."""
    return dict(Tournament.objects.filter(pk__in=ids).values_list("pk", "name"))


def tournament_list(*, status: str | None = None, game: str | None = None) -> QuerySet:
    """Newest first, each with ``n_entrants`` and its target's entry cost: one query."""
    qs = (Tournament.objects.select_related("satellite_target")
          .annotate(n_entrants=Count("registrations", filter=Q(registrations__active=True))).order_by("-id"))
    if status:
        qs = qs.filter(status=status)
    if game:
        qs = qs.filter(game=game)
    return qs


def _entrants(t: Tournament) -> int:
    n = getattr(t, "n_entrants", None)
    return n if n is not None else t.registrations.filter(active=True).count()


def tournament_money(t: Tournament, entrants: int) -> dict[str, Any]:
    """The pool as fixed at the start, or live for the current entrants before it (§5.4)."""
    if t.started_at is not None:
        _payouts, seats, leftover = prize_list(t, t.prize_pool_cents or 0, t.entrants_at_start or 0)
        return {"prize_pool_cents": t.prize_pool_cents, "overlay_cents": t.overlay_cents,
                "fees_cents": t.fees_cents, "payouts_cents": t.payouts_cents, "seats": seats,
                "leftover_cents": leftover}
    return prize_preview(t, entrants)


def tournament_as_dict(t: Tournament, *, nicknames: bool = True) -> dict[str, Any]:
    entrants = _entrants(t)
    data: dict[str, Any] = {
        "id": t.pk, "name": t.name, "game": t.game, "kind": t.kind, "format": t.format,
        "buy_in_cents": t.buy_in_cents, "fee_cents": t.fee_cents, "guaranteed_cents": t.guaranteed_cents,
        "prize": t.prize, "satellite_target": t.satellite_target_id, "min_players": t.min_players,
        "max_players": t.max_players, "starts_at": t.starts_at.isoformat() if t.starts_at else None,
        "payouts": t.payouts, "game_options": t.game_options, "rounds": t.rounds, "turn_seconds": t.turn_seconds,
        "status": t.status, "registration_open": registration_open(t),
        "registrations_paused": t.registrations_paused_at is not None,
        "registrations_pause_reason": t.registrations_pause_reason or None,
        "registrations_close_at": t.registrations_close_at.isoformat() if t.registrations_close_at else None,
        "entrants": entrants, "entry": rules.entry_display(buy_in_cents=t.buy_in_cents, fee_cents=t.fee_cents),
        "current_round": t.current_round,
        "started_at": t.started_at.isoformat() if t.started_at else None,
        "finished_at": t.finished_at.isoformat() if t.finished_at else None,
        "cancelled_at": t.cancelled_at.isoformat() if t.cancelled_at else None,
        "cancel_reason": t.cancel_reason_display or None, "cancel_code": t.cancel_code or None,
        # regulation.md §7.4, §8: every tournament is regime "torneo"; ADM's session code
        "regime": "torneo", "adm_session_code": t.adm_session_code or None,
        **tournament_money(t, entrants),
    }
    if nicknames:
        data["nicknames"] = list(t.registrations.filter(active=True).order_by("pk").values_list("nickname", flat=True))
    return data


def _live_points_positions(t: Tournament, regs: list[Registration]) -> dict[int, int]:
    records = {r.pk: rules.PointsRecord(order=r.pk, vp=r.vp, game_diff=r.game_diff, byes=r.byes,
                                        disqualified=r.disqualified) for r in regs}
    for a, b in t.tmatches.filter(second__isnull=False).values_list("first_id", "second_id"):
        if a in records and b in records:
            records[a].opponents.append(b)
            records[b].opponents.append(a)
    return {pk: i for i, pk in enumerate(rules.points_ranking(records), start=1)}


def standings(t: Tournament) -> list[dict[str, Any]]:
    """One row per registration (§5.11): players still in by registration order, then the
    others by position; refund columns after a cancellation (§6.6)."""
    regs = list(t.registrations.filter(active=True).order_by("pk"))
    live = _live_points_positions(t, regs) if t.format == Tournament.POINTS and t.status == Tournament.RUNNING \
        else {}
    rows = []
    for r in regs:
        if t.status == Tournament.FINISHED:
            status = Registration.WINNER if r.position == 1 else Registration.ELIMINATED
        elif r.eliminated or r.disqualified:
            status = Registration.ELIMINATED
        else:
            status = Registration.PLAYING
        position = r.position
        if t.format == Tournament.POINTS and t.status == Tournament.RUNNING:
            position = live.get(r.pk)
        if t.format == Tournament.KNOCKOUT and status == Registration.PLAYING:
            position = None
        if t.status == Tournament.CANCELLED and t.format == Tournament.POINTS and not r.disqualified:
            position = None
        rows.append({"nickname": r.nickname, "status": status, "position": position, "vp": r.vp,
                     "prize_cents": r.prize_cents if t.status == Tournament.FINISHED else 0,
                     "refund_cents": r.refund_cents if t.status == Tournament.CANCELLED else None,
                     "refund_rule": r.refund_rule or None, "refund_parts": r.refund_parts or {},
                     "refund_paid": r.refund_paid_at is not None, "_order": r.pk, "_player": r.player_id})
    rows.sort(key=lambda row: (row["status"] != Registration.PLAYING or t.status == Tournament.FINISHED,
                               row["position"] or 0 if row["status"] != Registration.PLAYING else 0, row["_order"]))
    return rows


def standings_public(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in row.items() if not k.startswith("_")} for row in rows]


def tournament_matches(t: Tournament) -> list[dict[str, Any]]:
    rows = (t.tmatches.select_related("first", "second", "winner").order_by("round", "id"))
    out = []
    for tm in rows:
        seats = [tm.first.nickname] + ([tm.second.nickname] if tm.second_id else [])
        out.append({"id": tm.match_id, "round": tm.round, "seats": seats, "status": tm.status,
                    "winner": tm.winner.nickname if tm.winner_id else None, "scores": tm.scores,
                    "replay": tm.replay_of_id is not None, "forfeit": tm.forfeit})
    return out


def refund_progress(t: Tournament) -> dict[str, Any]:
    """Refunded n of N and the amount so far; where a stopped run is (§6.6)."""
    agg = Registration.objects.filter(tournament=t, active=True, refund_cents__gt=0).aggregate(
        paid=Count("pk", filter=Q(refund_paid_at__isnull=False)),
        amount=Sum("refund_cents", filter=Q(refund_paid_at__isnull=False)),
        total_amount=Sum("refund_cents"))
    return {"paid": agg["paid"] or 0, "total": t.refunds_total, "amount_cents": agg["amount"] or 0,
            "total_cents": agg["total_amount"] or 0, "done": t.refunds_done_at is not None}


def is_operator(user: Any) -> bool:
    return has_role(user, OPERATOR)


def my_registration(t: Tournament, user: Any) -> Registration | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return t.registrations.filter(active=True, player=user).first()


def lobby_groups(*, game: str | None = None) -> list[tuple[str, list[Tournament]]]:
    """Open and running tournaments (and the latest finished or cancelled), by game."""
    recent = timezone.now() - timedelta(days=7)
    qs = tournament_list(game=game).filter(
        Q(status__in=[Tournament.OPEN, Tournament.RUNNING]) | Q(finished_at__gte=recent) | Q(cancelled_at__gte=recent))
    rank = {Tournament.OPEN: 0, Tournament.RUNNING: 1, Tournament.FINISHED: 2, Tournament.CANCELLED: 3}
    groups: dict[str, list[Tournament]] = {}
    for t in sorted(qs, key=lambda t: (t.game, rank[t.status], t.starts_at is not None,
                                        t.starts_at or t.created, t.pk)):
        groups.setdefault(t.game, []).append(t)
    return sorted(groups.items())


def tournament_match_ids(t: Tournament) -> list[int]:
    return list(TournamentMatch.objects.filter(tournament=t, match_id__isnull=False).values_list("match_id", flat=True))


def tournament_match_get(*, match_id: Any) -> TournamentMatch:
    """The tournament's row of a match (404 for any match that is not a tournament's)."""
    try:
        pk = int(match_id)
    except (TypeError, ValueError):
        raise NotFoundError(_("No such match.")) from None
    tm = TournamentMatch.objects.select_related("tournament").filter(match_id=pk).first()
    if tm is None:
        raise NotFoundError(_("No such match."))
    return tm


def my_matches_in_play(*, user: Any, tournament: Tournament | None = None) -> list[TournamentMatch]:
    """The tournament matches ``user`` is seated at and still in play ("Play your match")."""
    if not getattr(user, "is_authenticated", False):
        return []
    rows = TournamentMatch.objects.filter(status=TournamentMatch.PLAYING, match_id__isnull=False).filter(
        Q(first__player=user) | Q(second__player=user)).select_related("tournament").order_by("id")
    if tournament is not None:
        rows = rows.filter(tournament=tournament)
    return list(rows)


def tournaments_next(*, limit: int = 6) -> list[dict[str, Any]]:
    """Tournaments taking registrations, as the lobby a player lands on lists them (issue 25):
    scheduled ones by start time, then Sit&Go by seats left (the fullest starts first); one query."""
    now = timezone.now()
    qs = tournament_list(status=Tournament.OPEN).filter(registrations_paused_at__isnull=True).filter(
        Q(kind=Tournament.SIT_AND_GO) | Q(registrations_close_at__gt=now))
    rows = []
    for t in qs[:100]:
        seats_left = max(0, t.max_players - t.n_entrants)
        rows.append({"id": t.pk, "name": t.name, "game": t.game, "kind": t.kind, "starts_at": t.starts_at,
                     "buy_in_cents": t.buy_in_cents, "prize": t.prize,
                     "entry": rules.entry_display(buy_in_cents=t.buy_in_cents, fee_cents=t.fee_cents),
                     "entrants": t.n_entrants, "max_players": t.max_players, "seats_left": seats_left})
    rows.sort(key=lambda r: (r["starts_at"] is None, r["starts_at"] or now, r["seats_left"], r["id"]))
    return rows[:limit]
def satellite_targets(*, exclude_id: int | None = None) -> QuerySet:
    """The tournaments a satellite may award seats of (§5.9): still open (not started,
    finished or cancelled), with an entry cost, paying cash or seats; never itself."""
    qs = (Tournament.objects.filter(status=Tournament.OPEN, buy_in_cents__gt=0)
          .exclude(prize=Tournament.BONUS).order_by("starts_at", "pk"))
    return qs.exclude(pk=exclude_id) if exclude_id else qs


def split_preview(*, buy_in_cents: int, fee_cents: int, guaranteed_cents: int, prize: str,
                  payouts: list[int] | None, satellite_target: Tournament | None, entrants: int) -> dict[str, Any]:
    """The prize split for ``entrants`` of a tournament still being typed (not saved): the
    service's own ``prize_preview`` on an unsaved row, plus the effective percentages by
    position (§5.4: missing places go to 1st), so the operator sees the rules' numbers."""
    draft = Tournament(buy_in_cents=buy_in_cents, fee_cents=fee_cents, guaranteed_cents=guaranteed_cents,
                       prize=prize, payouts=payouts or [100], satellite_target=satellite_target)
    preview = prize_preview(draft, entrants)
    percentages = None if prize == Tournament.SATELLITE else rules.effective_percentages(payouts or [100], entrants)
    preview["percentages"] = percentages
    preview["entrants"] = entrants
    return preview
