"""The end of a match: the winner and the settlement paid as the ledger moves it (§8.5), the figures the match keeps; friendly cancellation (§8.4) and an owner's cancellation."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.adm.services import adm_enqueue
from apps.common.errors import Conflict, DomainError, Forbidden, NotFoundError
from apps.games.engines import GameState, get_engine
from apps.rankings.services import rankings_award_match
from apps.wallet.services import escrow_settle

from ..models import CancelProposal, Match, MatchSeat
from ..regimes import bank_share
from ..settlement import (
    Settlement,
    fees_settlement,
    net_settlement,
    pot_settlement,
    refund_settlement,
    units_settlement,
)
from .core import _changed, _ended, _lock_match


def _side_scores_rank(match: Match, result: dict[str, Any]) -> list[int]:
    """Team indices from best to worst by the engine's scores."""
    scores = result.get("scores") or []
    lower = get_engine(match.game).lower_score_wins
    return sorted(range(len(scores)), key=lambda t: (scores[t] if lower else -scores[t], t))


def _finish(match: Match, state: GameState, *, forced_winner: int | None = None) -> None:
    result = state.result()
    seats = list(match.match_seats.all())
    abandoned = {ms.number for ms in seats if ms.abandoned}
    winner = result.get("winner") if forced_winner is None else forced_winner
    if abandoned and winner is not None and any(s in abandoned for s in state.teams[winner]):
        clean = [t for t in _side_scores_rank(match, result) if not set(state.teams[t]) & abandoned]
        winner = clean[0] if clean else None
    result = {**result, "winner": winner}
    if abandoned:
        result["abandoned"] = sorted(abandoned)
    match.result = result
    match.status = Match.FINISHED
    match.finished_at = timezone.now()
    match.turn_deadline = None
    _settle(match, seats, state.teams, winner, result)
    rankings_award_match(match=match, teams=state.teams, winner=winner, seats=seats)
    _ended(match)


def _settle(match: Match, seats: list[MatchSeat], teams: list[list[int]], winner: int | None,
            result: dict[str, Any]) -> None:
    paid = {ms.number: ms.stake_paid for ms in seats if ms.player_id and ms.stake_paid}
    if match.settled:
        return
    match.settled = True
    if not paid:
        return
    abandoned = [ms.number for ms in seats if ms.abandoned]
    rule = get_engine(match.game).settlement  # declared by the game (platform.md §8.5)
    if rule == "units":
        balances = dict(enumerate(result.get("scores") or []))
        outcome = units_settlement(paid, balances, match.stake, abandoned=abandoned)
    elif rule == "nets":  # exactly the engine's nets, no bank (platform.md §8.5)
        outcome = net_settlement(paid, dict(enumerate(result.get("scores") or [])))
    elif rule == "fees":  # Scala 40: every entry and re-entry to the winner, no bank
        outcome = fees_settlement(paid, None if winner is None else teams[winner])
    else:
        outcome = pot_settlement(paid, None if winner is None else teams[winner],
                                 bank_percent=bank_share(match.game, match.currency))
    _pay(match, seats, outcome, paid)


def _pay(match: Match, seats: list[MatchSeat], outcome: Settlement, paid: dict[int, int]) -> None:
    """Move the settlement's amounts out of the match escrow (by player, through the wallet),
    and keep on the match what moved (``Match.settlement``: the end-of-match card reads it)."""
    by_seat = {ms.number: ms.player_id for ms in seats}
    match.settlement = outcome.record(paid=paid, nicknames={ms.number: ms.nickname for ms in seats},
                                      currency=match.currency)
    escrow_settle(match_id=match.pk, currency=match.currency,
                  payouts={by_seat[s]: amount for s, amount in outcome.payouts.items()},
                  paid={by_seat[s]: amount for s, amount in paid.items()}, bank=outcome.bank)
    _adm_settled(match, seats, outcome, paid)


def _adm_settled(match: Match, seats: list[MatchSeat], outcome: Settlement, paid: dict[int, int]) -> None:
    """regulation.md §7.1 for a money match ADM opened: each stake given back cancels its
    participation; the winners and the session's end are queued."""
    if not match.adm_session_code:
        return
    for ms in seats:
        received = outcome.payouts.get(ms.number, 0)
        if ms.adm_participation_id and 0 < received <= paid.get(ms.number, 0):
            adm_enqueue(type="participation_cancel", reference=f"match:{match.pk}:seat:{ms.number}",
                        player_id=ms.player_id, payload={"participation": ms.adm_participation_id,
                                                         "returned_cents": received})
    adm_enqueue(type="winners", reference=f"match:{match.pk}", payload={
        "session_code": match.adm_session_code, "bank_cents": outcome.bank,
        "winners": [{"player": ms.player_id, "received_cents": outcome.payouts.get(ms.number, 0)} for ms in seats
                    if outcome.payouts.get(ms.number, 0) > paid.get(ms.number, 0)]})
    adm_enqueue(type="session_end", reference=f"match:{match.pk}", payload={"session_code": match.adm_session_code})


def _voters(match: Match) -> list[MatchSeat]:
    """Every human seat votes, a player in the grace period too (their vote waits for their
    return): only the leader's robots and abandoned seats do not (platform.md §8.4)."""
    return [ms for ms in match.match_seats.all() if ms.player_id and not ms.abandoned]


def _proposal_dict(match: Match, proposal: CancelProposal | None) -> dict[str, Any]:
    humans = _voters(match)
    votes = (proposal.votes if proposal else {}) or {}
    return {"proposal": {
        "votes": {ms.nickname: votes[str(ms.number)] for ms in humans if str(ms.number) in votes},
        "waiting": [ms.nickname for ms in humans if str(ms.number) not in votes],
        "cancelled": bool(proposal and proposal.cancelled),
    }}


def match_cancel_vote(*, match_id: int, user: Any, accept: Any) -> dict[str, Any]:
    if type(accept) is not bool:
        raise DomainError(_("Say yes or no: 'accept' must be true or false."), code="validation_error",
                          fields={"accept": [_("true or false")]})
    with transaction.atomic():
        match = _lock_match(match_id)
        if match is None:
            raise NotFoundError(_("No such match."))
        if not match.cancellable:
            raise Conflict(_("Tournament matches cannot be cancelled by the players."),
                           code="not_allowed_in_tournament")
        if match.status != Match.PLAYING:
            raise Conflict(_("This match is over."), code="match_over")
        ms = match.match_seats.filter(player=user).first()
        if ms is None or ms.abandoned:
            raise Forbidden(_("Only the human players seated in this match vote."))
        now = timezone.now()
        proposal = match.cancel_proposals.filter(closed=False).first()
        if proposal is not None and proposal.deadline <= now:
            proposal.closed = True
            proposal.save(update_fields=["closed"])
            proposal = None
        if proposal is None:
            proposal = CancelProposal.objects.create(
                match=match, opened_at=now, deadline=now + timedelta(seconds=settings.CANCEL_VOTE_SECONDS))
        proposal.votes = {**proposal.votes, str(ms.number): accept}
        voters = _voters(match)
        if not accept:
            proposal.closed = True
        elif all(proposal.votes.get(str(m.number)) is True for m in voters):
            proposal.closed = True
            proposal.cancelled = True
            _cancel(match)
        proposal.save()
        _changed(match)
        return _proposal_dict(match, proposal)


def _cancel(match: Match) -> None:
    seats = list(match.match_seats.all())
    match.status = Match.CANCELLED
    match.finished_at = timezone.now()
    match.turn_deadline = None
    match.result = None
    paid = {ms.number: ms.stake_paid for ms in seats if ms.player_id and ms.stake_paid}
    if paid and not match.settled:
        match.settled = True
        # a poker player who left keeps his stack: leaving a hand is folding it, never a penalty
        forfeiting = [] if get_engine(match.game).forfeits_hand else [ms.number for ms in seats if ms.abandoned]
        outcome = refund_settlement(paid, forfeiting=forfeiting)
        _pay(match, seats, outcome, paid)
    match.save()
    _ended(match)


def match_cancel_by_owner(*, match: Match) -> bool:
    """Cancel a match in play on its owner's decision (an operator closing its table), on the
    friendly-cancellation path: every stake back, no bank, §8.4's abandonment exception kept.
    The caller holds the match's lock (after its own row: the one lock order). False if the
    match was not in play."""
    if match.status != Match.PLAYING:
        return False
    _cancel(match)
    _changed(match)
    return True


def match_cancel_votes_expire() -> int:
    closed = 0
    for proposal in CancelProposal.objects.filter(closed=False, deadline__lte=timezone.now()):
        proposal.closed = True
        proposal.save(update_fields=["closed"])
        closed += 1
    return closed


def matches_cancel(*, match_ids: list[int]) -> int:
    """Their owner stops these matches (not the players' friendly cancellation): each one
    still playing becomes ``cancelled`` (any stake goes back as in §8.4), takes no more moves
    (409 ``match_over``) and says so once through ``match_finished``. Safe to call twice."""
    done = 0
    for match_id in sorted(match_ids):
        with transaction.atomic():
            match = _lock_match(match_id, status=Match.PLAYING)
            if match is None:
                continue
            _cancel(match)
            _changed(match)
            done += 1
    return done
