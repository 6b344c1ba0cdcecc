"""Registration (platform.md §5.3) and its pause; a sanction that keeps a player out (§7.4, §5.7)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.adm.sending import adm_send_sync
from apps.adm.services import adm_reference_set
from apps.audit.services import audit_record
from apps.common.errors import (
    Conflict,
    InsufficientFunds,
    NotFoundError,
    ValidationFailed,
)
from apps.conto.gates import TOURNAMENT, money_play_gate, money_play_spend, play_time_gate
from apps.players.selectors import nickname_of, player_play_check
from apps.wallet.models import BONUS, CASH, Account
from apps.wallet.services import (
    Leg,
    account_get,
    ledger_post,
    player_code,
)

from .. import broadcast, play, rules
from ..models import Registration, Tournament, TournamentMatch
from .core import _adm_participation_cancel, _locked, _touch
from .lifecycle import _record_result, _round_check, start_when_full


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


def tournament_registrations_pause(*, actor: User, tournament_id: Any, reason: Any, ip: str | None = None) -> Tournament:
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


def tournament_registrations_resume(*, actor: User, tournament_id: Any, reason: Any, ip: str | None = None) -> Tournament:
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


def tournament_register(*, user: Any, tournament_id: Any, ip: str | None = None) -> Registration:
    """Take the buy-in (bonus first) into the escrow; a full Sit&Go starts on commit. ``ip``:
    the request's address, kept on the registration for compliance's signals (§7.5)."""
    player_play_check(user=user)
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


def tournament_unregister(*, user: Any, tournament_id: Any) -> tuple[int, int]:
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


def tournaments_busy(*, player_id: int) -> str | None:
    """Why the player cannot close the conto now (regulation.md §1.8's ``account_busy``)."""
    if Registration.objects.filter(player_id=player_id, active=True,
                                   tournament__status__in=[Tournament.OPEN, Tournament.RUNNING]).exists():
        return _("You are registered in a tournament that has not finished: unregister or play it first.")
    return None
