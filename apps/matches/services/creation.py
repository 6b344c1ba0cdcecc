"""Dealing a new match: its seats, the stakes taken into escrow, ADM's participations, the first robots and timer."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from apps.games.engines import get_engine
from apps.games.engines.cards import new_seed
from apps.players.selectors import nickname_of
from apps.wallet.services import stakes_collect

from ..models import Match, MatchSeat
from .acting import _after_state_change
from .core import StakesShort, _changed, match_group


def match_create(*, game: str, players: int, options: dict[str, Any], seats: list[dict[str, Any]],
                 official: bool = False, stake: int = 0, currency: str = "credits", turn_seconds: int = 30,
                 stakes: dict[int, int] | None = None, cancellable: bool = True, forfeit_on_absence: bool = True,
                 awards_xp: bool = True, group: str = "", deck: list[str] | None = None, seed: int | None = None,
                 seat_wait_seconds: int = 0) -> Match:
    """Deal a new match. ``seats``: per seat ``{"player": user or None, "robot": bool, "ip"}``.

    ``cancellable``, ``forfeit_on_absence`` and ``awards_xp`` are the owner's rules for it
    (a table: all three; a tournament: none, platform.md §5.7). ``stakes`` (seat number ->
    amount, human seats) are taken into the match's escrow now,
    through the wallet; if any player cannot cover theirs, ``StakesShort`` is raised and the
    caller's transaction must roll back. ``group`` is the channel-layer group told of every
    change (default ``match_<id>``). The seed is drawn from ``secrets`` and kept server-side,
    so the log alone replays it. ``seat_wait_seconds``: the human players are not seated yet
    (a tournament's match starts on its own); each one's turn clock waits until they sit
    (``match_seat_arrived``) or that long. Call inside a transaction.
    """
    engine = get_engine(game)
    complete = engine.resolve_options(players, options)
    seed = new_seed() if seed is None else seed
    state = engine.new_game(players, options=complete, seed=seed, deck=deck)
    now = timezone.now()
    awaited_until = now + timedelta(seconds=seat_wait_seconds) if seat_wait_seconds > 0 else None
    match = Match.objects.create(
        game=game, players=players, options=complete, seed=str(seed), deck=deck,
        state=state.to_json(), version=0, official=official, stake=stake, currency=currency,
        turn_seconds=turn_seconds, started_at=now, cancellable=cancellable,
        forfeit_on_absence=forfeit_on_absence, awards_xp=awards_xp, group=group,
    )
    if not group:
        match.group = match_group(match.pk)
    ips = [s.get("ip") for s in seats if s.get("player") is not None and s.get("ip")]
    match.flagged_same_ip = len(ips) != len(set(ips))
    stakes = {seat: amount for seat, amount in (stakes or {}).items() if amount}
    MatchSeat.objects.bulk_create([
        MatchSeat(match=match, number=i, player=s.get("player"), robot=bool(s.get("robot")),
                  nickname=(nickname_of(s["player"]) or "") if s.get("player") is not None else "",
                  ip=s.get("ip"), stake_paid=stakes.get(i, 0),
                  awaited_until=awaited_until if s.get("player") is not None and not s.get("robot") else None)
        for i, s in enumerate(seats)
    ])
    if stakes:
        short = stakes_collect(match_id=match.pk, currency=currency,
                               stakes={seats[seat]["player"].pk: amount for seat, amount in stakes.items()})
        if short:
            raise StakesShort(short)
    _after_state_change(match, state, by=None)
    match.save()
    _changed(match)
    return match
