"""A money match's ADM session (regulation.md §7.3): before its stakes move, ADM opens the
session and validates each seat's participation. A rejection or a silence starts nothing: the
accepted participations are cancelled, the players are told, and the table is back in the
between-matches window (each seated player confirms again, platform.md §8.1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_noop

from apps.adm.models import AdmMessage
from apps.adm.sending import adm_keep, adm_send_sync
from apps.adm.services import adm_cancel, adm_reference_set
from apps.common.errors import DomainError, keep_after_rollback, survivors_run
from apps.matches.models import Match, MatchSeat
from apps.matches.regimes import bank_share
from apps.wallet.models import Entry

from . import broadcast
from .models import Seat, Table


@dataclass
class AdmOpening:
    session: AdmMessage
    seats: dict[int, AdmMessage] = field(default_factory=dict)

    def messages(self) -> list[AdmMessage]:
        return [self.session, *self.seats.values()]


def adm_match_open(*, table: Table, humans: list[Seat], need: int) -> AdmOpening | None:
    """The session and every seat's participation, or None when ADM refused (handled here)."""
    opening: AdmOpening | None = None
    try:
        session = adm_send_sync(type="session_open", reference=f"match:new:table:{table.pk}", payload={
            "regime": "cash", "game": table.game, "stake_cents": table.stake,
            "bank_percent": bank_share(table.game, table.currency)})
        opening = AdmOpening(session=session)
        for seat in humans:
            opening.seats[seat.number] = adm_send_sync(
                type="participation", reference=f"match:new:table:{table.pk}:seat:{seat.number}",
                player_id=seat.player_id, payload={"session_code": session.code, "amount_cents": need})
    except DomainError as exc:
        survivors_run(exc, inside=True)  # this transaction commits: ADM's answer and any cancel are kept
        for accepted in (opening.seats.values() if opening else ()):
            adm_cancel(message=accepted, reason="match not started")
        _window_again(table)
        return None
    return opening


def _window_again(table: Table) -> None:
    table.seats.update(ready=False)
    table.next_match_at = None
    table.confirm_deadline = timezone.now() + timedelta(seconds=settings.NEXT_MATCH_CONFIRM_SECONDS)
    table.save(update_fields=["next_match_at", "confirm_deadline"])
    for player_id in table.seats.filter(player__isnull=False).values_list("player_id", flat=True):
        broadcast.table_notice(table_id=table.pk, user_id=player_id, text=gettext_noop(
            "ADM's central system did not validate the match: nothing was charged. Confirm again to play."))
    broadcast.table_changed(table_id=table.pk, match_id=None, version=0)


def adm_match_link(*, match: Match, opening: AdmOpening) -> None:
    """The started match takes its codes; the messages take its references and stakes."""
    Match.objects.filter(pk=match.pk).update(adm_session_code=opening.session.code)
    match.adm_session_code = opening.session.code
    adm_reference_set(message=opening.session, reference=f"match:{match.pk}")
    stakes = dict(Entry.objects.filter(transaction__reference=f"match:{match.pk}", transaction__kind="stake",
                                       amount__lt=0, account__player__isnull=False)
                  .values_list("account__player_id", "transaction_id"))
    for ms in MatchSeat.objects.filter(match=match, number__in=list(opening.seats)):
        message = opening.seats[ms.number]
        MatchSeat.objects.filter(pk=ms.pk).update(adm_participation_id=str(message.pk),
                                                  adm_participation_code=message.code)
        stake = stakes.get(ms.player_id)
        adm_reference_set(message=message, reference=f"match:{match.pk}:seat:{ms.number}",
                          transaction_ids=[stake] if stake else [])


def adm_match_abandoned(exc: Exception, opening: AdmOpening) -> None:
    """The start rolled back after ADM accepted (a stake could not be covered): the messages are
    kept and every participation is cancelled, once the rollback is over."""
    def keep() -> None:
        for message in opening.messages():
            adm_keep(message)
        for message in opening.seats.values():
            adm_cancel(message=message, reason="stake not covered")
    keep_after_rollback(exc, keep)
