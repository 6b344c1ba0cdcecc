"""Writes for tournaments (platform.md §5, §6): create, edit, register, start, play, finish, cancel.

Money moves only through ``apps.wallet.services``. Every path that changes a tournament
locks its row first (``_locked``): counting the seats, starting (which pairs once), a
finished match advancing the bracket and the refund run are serialised by it. Internal
money moves carry deterministic idempotency keys (``cancel_refund:tournament:12:
registration:345``), so a task that runs twice, or is killed and rerun, pays each line once:
the ledger's unique key guarantees it.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
from collections import defaultdict
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from apps.adm.sending import adm_send_sync
from apps.adm.services import adm_enqueue, adm_reference_set
from apps.audit.services import audit_record
from apps.common.bulk import rows_update
from apps.common.errors import (
    Conflict,
    InsufficientFunds,
    NicknameRequired,
    NotFoundError,
    StaffCannotPlay,
    ValidationFailed,
)
from apps.common.roles import is_staff_member
from apps.compliance.selectors import sanction_active_kinds, sanction_check_lobby
from apps.conto.gates import TOURNAMENT, money_play_gate, money_play_spend, play_time_gate
from apps.games.engines import ENGINES, get_engine
from apps.players.selectors import nickname_of
from apps.wallet.models import BONUS, CASH, Account
from apps.wallet.services import (
    Leg,
    Posting,
    account_get,
    escrow_close,
    ledger_post,
    ledger_post_many,
    player_code,
)

from . import broadcast, play, rules
from .models import Registration, Tournament, TournamentMatch

log = logging.getLogger(__name__)

REGISTRATION_CLOSES_BEFORE = timedelta(minutes=2)
#: a refund run commits in at most this many slices: progress shows between them, and the
#: number of queries does not grow with the number of entrants
REFUND_SLICES = 10
EDITABLE_AFTER_REGISTRATION = ("name", "chat_enabled")
CREATE_FIELDS = ("name", "game", "kind", "format", "buy_in_cents", "fee_cents", "guaranteed_cents", "prize",
                 "satellite_target", "min_players", "max_players", "starts_at", "payouts", "game_options",
                 "rounds", "turn_seconds", "chat_enabled")


def _rng() -> secrets.SystemRandom:
    return secrets.SystemRandom()


def _locked(tournament_id: Any) -> Tournament:
    if type(tournament_id) is not int:
        raise NotFoundError(_("No such tournament."))
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None:
        raise NotFoundError(_("No such tournament."))
    return t


def _touch(t: Tournament) -> None:
    t.version += 1
    Tournament.objects.filter(pk=t.pk).update(version=t.version)
    broadcast.tournament_changed(tournament_id=t.pk, version=t.version)


# -- creating and editing (§5.1) ----------------------------------------------------------


def _is_int(v: Any) -> bool:
    return type(v) is int


def tournament_validate(data: Any, *, current: Tournament | None = None) -> dict[str, Any]:
    """The creation rules of platform.md §5.1; 400 validation_error with ``fields``."""
    if not isinstance(data, dict):
        raise ValidationFailed(_("The body must be a JSON object."), fields={"body": [_("A JSON object.")]})
    base: dict[str, Any] = {}
    if current is not None:
        base = {f: getattr(current, f) for f in CREATE_FIELDS if f != "satellite_target"}
        base["satellite_target"] = current.satellite_target_id
        base["starts_at"] = current.starts_at
    unknown = set(data) - set(CREATE_FIELDS)
    fields: dict[str, list[str]] = {}
    for name in sorted(unknown):
        fields[name] = [_("Unknown field.")]
    d = {**{"fee_cents": 0, "guaranteed_cents": 0, "prize": Tournament.CASH, "satellite_target": None,
            "starts_at": None, "game_options": {}, "rounds": None, "turn_seconds": 30, "payouts": None,
            "chat_enabled": True},
         **base, **{k: v for k, v in data.items() if k in CREATE_FIELDS}}
    name = d.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 100 or len(name) > 100:
        fields["name"] = [_("1 to 100 characters.")]
    engine = None
    if d.get("game") not in ENGINES:
        fields["game"] = [_("A registered game: %(games)s.") % {"games": ", ".join(ENGINES)}]
    else:
        engine = get_engine(d["game"])
        if 2 not in engine.player_counts:
            fields["game"] = [_("This game cannot be played heads-up (one player a side).")]
    if d.get("kind") not in (Tournament.SIT_AND_GO, Tournament.SCHEDULED):
        fields["kind"] = [_("sit_and_go or scheduled.")]
    if d.get("format") not in (Tournament.KNOCKOUT, Tournament.POINTS):
        fields["format"] = [_("knockout or points.")]
    # the torneo regime (regulation.md §8), its settings read now
    entry_max = int(getattr(settings, "REGIME_TORNEO_ENTRY_MAX_CENTS", rules.ENTRY_MAX))
    fee_max = 100 - int(getattr(settings, "REGIME_TORNEO_MIN_POOL_PERCENT", 100 - rules.FEE_MAX_PERCENT))
    words = {"max": rules.euro(entry_max, decimals=entry_max % 100 != 0), "cents": entry_max, "percent": fee_max}
    fields.update({k: [_(m) % words if "%(" in m else _(m) for m in v] for k, v in rules.entry_errors(
        buy_in_cents=d.get("buy_in_cents"), fee_cents=d.get("fee_cents"), entry_max=entry_max,
        fee_max_percent=fee_max).items()})
    guaranteed = d.get("guaranteed_cents")
    if not _is_int(guaranteed) or guaranteed < 0 or guaranteed > 100_000_000:
        fields["guaranteed_cents"] = [_("A whole number of cents, 0 or more.")]
    elif d.get("buy_in_cents") == 0 and guaranteed == 0:
        fields["guaranteed_cents"] = [_("A freeroll needs a guaranteed prize pool above 0.")]
    prize = d.get("prize")
    if prize not in (Tournament.CASH, Tournament.BONUS, Tournament.SATELLITE):
        fields["prize"] = [_("cash, bonus or satellite.")]
    elif prize == Tournament.BONUS and d.get("buy_in_cents") != 0:
        fields["prize"] = [_("Bonus prizes only for a freeroll (entry cost 0).")]
    lo, hi = d.get("min_players"), d.get("max_players")
    if d.get("kind") == Tournament.SIT_AND_GO and lo is None:
        lo = d["min_players"] = hi
    if not _is_int(hi) or not rules.PLAYERS_MIN <= hi <= rules.PLAYERS_MAX:
        fields["max_players"] = [_("A whole number from 2 to 512.")]
    if not _is_int(lo) or not rules.PLAYERS_MIN <= lo <= rules.PLAYERS_MAX:
        fields["min_players"] = [_("A whole number from 2 to 512.")]
    elif "max_players" not in fields and lo > hi:
        fields["min_players"] = [_("At most max_players.")]
    if d.get("kind") == Tournament.SIT_AND_GO and "max_players" not in fields:
        if _is_int(lo) and lo != hi:
            fields["min_players"] = [_("A Sit and Go starts when full: min_players equals max_players.")]
        if d.get("format") == Tournament.KNOCKOUT and hi & (hi - 1):
            fields["max_players"] = [_("A knockout Sit and Go needs a power of two (2, 4, 8, 16, ...).")]
    starts_at = d.get("starts_at")
    if isinstance(starts_at, str):
        parsed = parse_datetime(starts_at) if "\x00" not in starts_at else None
        if parsed is None or parsed.tzinfo is None:
            fields["starts_at"] = [_("An ISO 8601 date and time with its time zone.")]
        starts_at = parsed
    if d.get("kind") == Tournament.SCHEDULED:
        if not isinstance(starts_at, datetime):
            fields.setdefault("starts_at", [_("Required for a scheduled tournament.")])
        elif starts_at <= timezone.now() and (current is None or "starts_at" in data):
            fields["starts_at"] = [_("It must be in the future.")]
    elif d.get("kind") == Tournament.SIT_AND_GO:
        if starts_at is not None:
            fields["starts_at"] = [_("A Sit and Go has no start time: it starts when full.")]
        starts_at = None
    payouts = d.get("payouts")
    if payouts is None and prize == Tournament.SATELLITE:
        payouts = [100]
    if (not isinstance(payouts, list) or not payouts or not all(_is_int(p) and 1 <= p <= 100 for p in payouts)
            or sum(payouts) != 100 or any(a < b for a, b in zip(payouts, payouts[1:], strict=False))):
        fields["payouts"] = [_("Whole percentages from 1 to 100, non-increasing, summing to 100.")]
    elif _is_int(hi) and len(payouts) > hi:
        fields["payouts"] = [_("At most max_players places.")]
    rounds = d.get("rounds")
    if rounds is not None:
        if d.get("format") != Tournament.POINTS:
            fields["rounds"] = [_("Only for the points format.")]
        elif not _is_int(rounds) or not 1 <= rounds <= 15:
            fields["rounds"] = [_("From 1 to 15.")]
    turn = d.get("turn_seconds")
    if not _is_int(turn) or not 10 <= turn <= 120:
        fields["turn_seconds"] = [_("From 10 to 120 seconds.")]
    if type(d.get("chat_enabled")) is not bool:
        fields["chat_enabled"] = [_("true or false")]
    options = d.get("game_options")
    if engine is not None and "game" not in fields:
        if not isinstance(options, dict):
            fields["game_options"] = [_("A JSON object of the game's options.")]
        else:
            options = {k: v for k, v in options.items() if k != "knockout"}
            try:
                engine.resolve_options(2, options)
            except ValueError as exc:
                fields["game_options"] = [str(exc)]
    target = None
    target_id = d.get("satellite_target")
    if prize == Tournament.SATELLITE:
        if not _is_int(target_id):
            fields["satellite_target"] = [_("The id of the tournament whose seats this satellite awards.")]
        else:
            target = Tournament.objects.filter(pk=target_id).first()
            if (target is None or target.status != Tournament.OPEN or target.buy_in_cents <= 0
                    or target.prize == Tournament.BONUS or (current is not None and target.pk == current.pk)):
                fields["satellite_target"] = [_("An open tournament with an entry cost, paying cash or seats.")]
            elif not fields.keys() & {"buy_in_cents", "fee_cents", "min_players", "guaranteed_cents"}:
                least = max(lo * (d["buy_in_cents"] - d["fee_cents"]), guaranteed)
                if least < target.buy_in_cents:
                    fields["satellite_target"] = [
                        _("With min_players entrants the pool must cover at least one seat of the target.")]
    elif target_id is not None:
        fields["satellite_target"] = [_("Only for prize 'satellite'.")]
    if fields:
        first = next(iter(fields))
        raise ValidationFailed(_("The tournament is not valid (%(field)s: %(error)s)")
                               % {"field": first, "error": fields[first][0]}, fields=fields)
    d["starts_at"] = starts_at
    d["payouts"] = payouts
    d["game_options"] = options
    d["satellite_target"] = target
    d["name"] = name.strip()
    return d


def _snapshot(t: Tournament) -> dict[str, Any]:
    snap = {f: getattr(t, f) for f in CREATE_FIELDS if f not in ("satellite_target", "starts_at")}
    snap["satellite_target"] = t.satellite_target_id
    snap["starts_at"] = t.starts_at.isoformat() if t.starts_at else None
    return snap


def tournament_create(*, actor, data: Any, ip: str | None = None) -> Tournament:
    d = tournament_validate(data)
    # regulation.md §7.3: ADM opens the session first; rejected or unanswered, nothing is created
    session = adm_send_sync(type="session_open", reference=f"tournament:new:{secrets.token_hex(6)}", payload={
        "regime": "torneo", "game": d["game"], "name": d["name"], "buy_in_cents": d["buy_in_cents"],
        "fee_cents": d["fee_cents"], "guaranteed_cents": d["guaranteed_cents"],
        "starts_at": d["starts_at"].isoformat() if d["starts_at"] else None})
    with transaction.atomic():
        t = Tournament.objects.create(
            **{k: d[k] for k in CREATE_FIELDS}, created_by=actor if getattr(actor, "pk", None) else None,
            registrations_close_at=(d["starts_at"] - REGISTRATION_CLOSES_BEFORE) if d["starts_at"] else None,
            adm_session_code=session.code)
        adm_reference_set(message=session, reference=f"tournament:{t.pk}")
        audit_record(actor=actor, action="tournament_create", target=t, after=_snapshot(t), ip=ip)
        broadcast.lobby_changed()
    return t


def tournament_update(*, actor, tournament_id: Any, data: Any, ip: str | None = None) -> Tournament:
    """Edit while ``open`` and without registrations; after the first one only ``name``."""
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status != Tournament.OPEN:
            raise Conflict(_("The tournament has started: it can no longer be edited."), code="already_started")
        if not isinstance(data, dict):
            raise ValidationFailed(_("The body must be a JSON object."), fields={"body": [_("A JSON object.")]})
        if t.registrations.filter(active=True).exists():
            locked = sorted(set(data) - set(EDITABLE_AFTER_REGISTRATION))
            if locked:
                raise ValidationFailed(_("Players have registered: only the name can change now."),
                                       fields={f: [_("Cannot change after the first registration.")] for f in locked})
        before = _snapshot(t)
        d = tournament_validate(data, current=t)
        for k in CREATE_FIELDS:
            setattr(t, k, d[k])
        t.registrations_close_at = (t.starts_at - REGISTRATION_CLOSES_BEFORE) if t.starts_at else None
        t.save()
        audit_record(actor=actor, action="tournament_edit", target=t, before=before, after=_snapshot(t), ip=ip)
        _touch(t)
    return t


# -- registration (§5.3) --------------------------------------------------------------------


def registration_window_open(t: Tournament, now: datetime | None = None) -> bool:
    """Not started and before the close (a Sit&Go: until it is full and starts)."""
    if t.status != Tournament.OPEN:
        return False
    if t.kind == Tournament.SIT_AND_GO:
        return True
    return (now or timezone.now()) < t.registrations_close_at


def registration_open(t: Tournament, now: datetime | None = None) -> bool:
    """Can a player register now: the window is open and an operator has not paused it."""
    return t.registrations_paused_at is None and registration_window_open(t, now)


def _pause_reason(reason: Any) -> str:
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 500:
        raise ValidationFailed(_("A reason is required (at most 500 characters)."),
                               fields={"reason": [_("A non-empty reason of at most 500 characters.")]})
    return reason.strip()


def tournament_registrations_pause(*, actor, tournament_id: Any, reason: Any, ip: str | None = None) -> Tournament:
    """An operator pauses a tournament's registrations (issue 16): nobody can register until
    they are resumed (409 ``registration_closed``, saying why); the registered may still
    unregister while the window is open. Audited; the page and its socket say so."""
    why = _pause_reason(reason)
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status != Tournament.OPEN:
            raise Conflict(_("The tournament has already started."), code="already_started")
        if t.registrations_paused_at is not None:
            raise Conflict(_("Registrations are already paused."), code="already_paused")
        t.registrations_paused_at = timezone.now()
        t.registrations_pause_reason = why
        t.save(update_fields=["registrations_paused_at", "registrations_pause_reason"])
        audit_record(actor=actor, action="tournament_registrations_pause", target=t, reason=why, ip=ip)
        _touch(t)
        broadcast.lobby_changed()
    return t


def tournament_registrations_resume(*, actor, tournament_id: Any, reason: Any, ip: str | None = None) -> Tournament:
    """Registrations open again (as far as the window allows). Audited; told like the pause."""
    why = _pause_reason(reason)
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.registrations_paused_at is None:
            raise Conflict(_("Registrations are not paused."), code="not_paused")
        before = {"paused_at": t.registrations_paused_at.isoformat(), "reason": t.registrations_pause_reason}
        t.registrations_paused_at = None
        t.registrations_pause_reason = ""
        t.save(update_fields=["registrations_paused_at", "registrations_pause_reason"])
        audit_record(actor=actor, action="tournament_registrations_resume", target=t, reason=why, before=before,
                     ip=ip)
        _touch(t)
        broadcast.lobby_changed()
    return t


def _player_checks(user) -> None:
    """nickname_required, staff_cannot_play, sanctioned: platform.md §5.3's order."""
    if not nickname_of(user):
        if is_staff_member(user):
            raise StaffCannotPlay()
        raise NicknameRequired()
    if is_staff_member(user):
        raise StaffCannotPlay()
    sanction_check_lobby(player=user)


def tournament_register(*, user, tournament_id: Any, ip: str | None = None) -> Registration:
    """Take the buy-in (bonus first) into the escrow; a full Sit&Go starts on commit. ``ip``:
    the request's address, kept on the registration for compliance's signals (§7.5)."""
    _player_checks(user)
    money_play_gate(user=user, what=TOURNAMENT)  # self_excluded, account_not_open (regulation.md §4.4)
    play_time_gate(user=user)  # time_limit_reached, reality_check_pending
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.registrations_paused_at is not None and registration_window_open(t):
            raise Conflict(_("Registrations for this tournament are paused by the operator: %(reason)s")
                           % {"reason": t.registrations_pause_reason}, code="registration_closed")
        if not registration_open(t):
            raise Conflict(_("Registration for this tournament is closed."), code="registration_closed")
        if t.registrations.filter(active=True, player=user).exists():
            raise Conflict(_("You are already registered for this tournament."), code="already_registered")
        entrants = t.registrations.filter(active=True).count()
        if entrants >= t.max_players:
            raise Conflict(_("The tournament is full."), code="tournament_full")
        # the conto's row lock, after the tournament's and before the accounts': two buy-ins
        # racing for the last euro of a spend limit are serialised (regulation.md §2.4)
        money_play_spend(user=user, amount=t.buy_in_cents, lock=True)
        from_bonus = from_cash = 0
        if t.buy_in_cents:
            ids = sorted(account_get(player_code(user), c).pk for c in (CASH, BONUS))
            balances = dict(Account.objects.select_for_update().filter(pk__in=ids).order_by("pk")
                            .values_list("currency", "balance"))
            sources = rules.buy_in_sources(t.buy_in_cents, bonus_balance=balances.get(BONUS, 0),
                                           cash_balance=balances.get(CASH, 0))
            if sources is None:
                raise InsufficientFunds(
                    _("The entry costs €%(entry)s: your bonus and cash together are €%(balance)s.")
                    % {"entry": rules.euro(t.buy_in_cents),
                       "balance": rules.euro(balances.get(BONUS, 0) + balances.get(CASH, 0))})
            from_bonus, from_cash = sources
        # regulation.md §7.3: every local check passed; ADM validates the participation (freerolls
        # too) before anything is written: rejected (409) or unanswered (503), nothing is charged
        participation = adm_send_sync(
            type="participation", reference=f"registration:new:{t.pk}:{user.pk}", player_id=user.pk,
            payload={"tournament": t.pk, "session_code": t.adm_session_code, "amount_cents": t.buy_in_cents,
                     "bonus_cents": from_bonus, "cash_cents": from_cash})
        reg = Registration.objects.create(tournament=t, player=user, nickname=nickname_of(user) or "",
                                          created=timezone.now(), paid_bonus_cents=from_bonus,
                                          paid_cash_cents=from_cash, ip=ip or None,
                                          adm_participation_id=str(participation.pk),
                                          adm_participation_code=participation.code)
        txn_ids = []
        if t.buy_in_cents:
            txn_ids.append(ledger_post(kind="buy_in", reference=f"tournament:{t.pk}", legs=[
                Leg(player_code(user), BONUS, -from_bonus), Leg(t.escrow, BONUS, from_bonus),
                Leg(player_code(user), CASH, -from_cash), Leg(t.escrow, CASH, from_cash),
            ], idempotency_key=f"buy_in:tournament:{t.pk}:registration:{reg.pk}").pk)
        adm_reference_set(message=participation, reference=f"registration:{reg.pk}", transaction_ids=txn_ids)
        _touch(t)
        broadcast.lobby_changed()
        if t.kind == Tournament.SIT_AND_GO and entrants + 1 == t.max_players:
            transaction.on_commit(lambda: start_when_full.delay(t.pk))
    return reg


def tournament_unregister(*, user, tournament_id: Any) -> tuple[int, int]:
    """The full buy-in back to the currencies it came from: (bonus, cash)."""
    if not getattr(user, "is_authenticated", False):
        raise NotFoundError(_("No such registration."))
    with transaction.atomic():
        t = _locked(tournament_id)
        reg = t.registrations.filter(active=True, player=user).first()
        if reg is None:
            raise Conflict(_("You are not registered for this tournament."), code="not_registered")
        if not registration_window_open(t):
            raise Conflict(_("Registration has closed: you can no longer unregister."), code="registration_closed")
        _registration_cancel(t, reg, key="unregister_refund")
        bonus, cash = reg.paid_bonus_cents, reg.paid_cash_cents
        _touch(t)
        broadcast.lobby_changed()
    return bonus, cash


# -- a sanction that keeps a player out of the lobby (§7.4, §5.7) ------------------------------


def tournaments_sanction_apply(*, player_id: int, sanction_id: int | None = None) -> dict[str, int]:
    """A lobby ban, account suspension or authority report has started (compliance's
    ``sanction_started``, after its commit): the player's registrations in tournaments not yet
    started are cancelled with full refunds (kind ``unregister_refund``, even after registration
    closed), and they are disqualified from running ones. One transaction per tournament, each
    under its row lock; safe to run twice (a cancelled registration is inactive, a disqualified
    one is skipped). Lifting the sanction restores neither."""
    regs = (Registration.objects.filter(player_id=player_id, active=True,
                                        tournament__status__in=[Tournament.OPEN, Tournament.RUNNING])
            .order_by("tournament_id").values_list("tournament_id", flat=True))
    done = {"cancelled": 0, "disqualified": 0}
    for tournament_id in list(regs):
        with transaction.atomic():
            t = _locked(tournament_id)
            reg = t.registrations.filter(active=True, player_id=player_id).first()
            if reg is None:
                continue
            if t.status == Tournament.OPEN:
                _registration_cancel(t, reg, key="sanction_refund")
                audit_record(actor=None, action="registration_cancel_sanction", target=t,
                             after={"registration": reg.pk, "nickname": reg.nickname, "sanction": sanction_id,
                                    "refunded_bonus_cents": reg.paid_bonus_cents,
                                    "refunded_cash_cents": reg.paid_cash_cents},
                             reason="sanction")
                done["cancelled"] += 1
            elif t.status == Tournament.RUNNING and not reg.disqualified:
                _disqualify(t, reg)
                audit_record(actor=None, action="registration_disqualify", target=t,
                             after={"registration": reg.pk, "nickname": reg.nickname, "sanction": sanction_id},
                             reason="sanction")
                done["disqualified"] += 1
            else:
                continue
            _touch(t)
            broadcast.lobby_changed()
    return done


def _registration_cancel(t: Tournament, reg: Registration, *, key: str) -> None:
    """The registration ends and its whole payment goes back to its currencies (§5.3)."""
    reg.active = False
    reg.unregistered_at = timezone.now()
    reg.save(update_fields=["active", "unregistered_at"])
    bonus, cash = reg.paid_bonus_cents, reg.paid_cash_cents
    txn = None
    if bonus or cash:
        player = player_code(reg.player_id)
        txn = ledger_post(kind="unregister_refund", reference=f"tournament:{t.pk}", legs=[
            Leg(t.escrow, BONUS, -bonus), Leg(player, BONUS, bonus),
            Leg(t.escrow, CASH, -cash), Leg(player, CASH, cash),
        ], idempotency_key=f"{key}:tournament:{t.pk}:registration:{reg.pk}")
    _adm_participation_cancel(reg_id=reg.pk, player_id=reg.player_id, participation=reg.adm_participation_id,
                              txn_id=getattr(txn, "pk", None))


def _adm_participation_cancel(*, reg_id: int, player_id: int, participation: str, txn_id: int | None) -> None:
    """regulation.md §7.1: each refund tells ADM the participation is cancelled (queued)."""
    if participation:
        adm_enqueue(type="participation_cancel", reference=f"registration:{reg_id}", player_id=player_id,
                    transaction_ids=[txn_id] if txn_id else [], payload={"participation": participation})


def _disqualify(t: Tournament, reg: Registration) -> None:
    """§5.7: the match in progress is a forfeit (the opponent wins); in the knockout format a
    player waiting for the next round forfeits it when paired, and already holds that round's
    losers' position (for a cancellation, §6.2); in the points format they are left out of later
    pairings and ranked below everyone not disqualified."""
    reg.disqualified = True
    reg.save(update_fields=["disqualified"])
    tm = (t.tmatches.filter(status=TournamentMatch.PLAYING).filter(Q(first=reg) | Q(second=reg))
          .select_related("first", "second").first())
    if tm is not None:
        tm.first.disqualified = tm.first.disqualified or tm.first_id == reg.pk
        tm.second.disqualified = tm.second.disqualified or tm.second_id == reg.pk
        if tm.match_id:
            play.match_forfeit(match_id=tm.match_id, player_id=reg.player_id)
        _record_result(t, tm, 1 if tm.first_id == reg.pk else 0, None, forfeit=True)
        _round_check(t)
    elif t.format == Tournament.KNOCKOUT and not reg.eliminated:
        going_on = t.tmatches.filter(round=t.current_round, replay_of__isnull=True).count()
        reg.eliminated_round = t.current_round + 1
        reg.position, reg.position_size = going_on // 2 + 1, max(1, going_on // 2)
        reg.save(update_fields=["eliminated_round", "position", "position_size"])


# -- the prize pool (§5.4, §5.9) ----------------------------------------------------------------


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


# -- starting (§5.2) ----------------------------------------------------------------------------


def tournament_start(*, tournament_id: Any, actor=None, ip: str | None = None) -> Tournament:
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


def _points_records(t: Tournament, regs: list[Registration]) -> dict[int, rules.PointsRecord]:
    records = {r.pk: rules.PointsRecord(order=r.pk, vp=r.vp, game_diff=r.game_diff, byes=r.byes,
                                        disqualified=r.disqualified) for r in regs}
    for first_id, second_id in t.tmatches.filter(second__isnull=False).values_list("first_id", "second_id"):
        if first_id in records and second_id in records:
            records[first_id].opponents.append(second_id)
            records[second_id].opponents.append(first_id)
    return records


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


# -- a match ends (§5.5–5.7) ---------------------------------------------------------------------


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


# -- cancellation (§6) -----------------------------------------------------------------------


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


def tournament_cancel(*, actor, tournament_id: Any, reason: Any, ip: str | None = None) -> Tournament:
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


REFUND_FIELDS = ("pk", "player_id", "paid_bonus_cents", "paid_cash_cents", "eliminated", "disqualified",
                 "position", "position_size", "vp")


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


# -- the tick (§5.2, §0.2) --------------------------------------------------------------------


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


# -- the Celery tasks (listed in tasks.py for the worker): ids in, state re-read ----------------


@shared_task(name="apps.tournaments.tasks.start_when_full", ignore_result=True)
def start_when_full(tournament_id: int) -> str:
    return tournament_start(tournament_id=tournament_id).status


@shared_task(name="apps.tournaments.tasks.refunds_pay", ignore_result=True)
def refunds_pay(tournament_id: int) -> int:
    return tournament_refunds_pay(tournament_id=tournament_id)


def tournaments_busy(*, player_id: int) -> str | None:
    """Why the player cannot close the conto now (regulation.md §1.8's ``account_busy``)."""
    if Registration.objects.filter(player_id=player_id, active=True,
                                   tournament__status__in=[Tournament.OPEN, Tournament.RUNNING]).exists():
        return _("You are registered in a tournament that has not finished: unregister or play it first.")
    return None
