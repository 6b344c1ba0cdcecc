"""Poker all'italiana at a table (platform.md §8.5, seed 001): every hand is a match.

- A hand is dealt, with no confirmation, to every seated player who is not sitting out,
  5 seconds after the last one; it needs two such players (and one human).
- Each player's stack is carried from hand to hand: at an official (credits) table it is
  the player's credits, put in the hand's escrow when it is dealt and paid back as the
  engine's result says (zero-sum, the uncovered bet already returned; no bank); at a
  practice table it is the seat's chips.
- Sitting needs credits ≥ the ante (the table's stake); a player who cannot cover it when
  a hand is dealt sits out. A player sits out by choice (``sit-out``), when their last
  socket closes, or when short of credits; sitting out for 5 minutes stands them up.
- Players sit down and stand up only between hands: leaving during one's own hand forfeits
  it at once (folded out of turn, the uncovered bet back; seed 001) and frees the seat when
  the hand ends; a dropped socket is folded when the hand next needs that player.

Called under the table's row lock by ``services`` (which owns seating and schedules the
next hand); a hand starts through ``dealing.table_match_begin``, as every table match does;
nothing here commits on its own.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from apps.common.errors import Conflict, ValidationFailed
from apps.games.engines import ENGINES
from apps.wallet.selectors import wallet_get

from . import broadcast
from .dealing import table_match_begin
from .models import CREDITS, Match, Seat, SocketConnection, Table

#: the games whose tables deal hand after hand with the chips carried over (their
#: registration's ``continuous_hands``: poker, platform.md §8.5)
HAND_AFTER_HAND = tuple(g for g, engine in ENGINES.items() if engine.continuous_hands)
CHOICE, AWAY, FUNDS, LEAVING = "choice", "away", "funds", "leaving"
#: table options the platform sets itself for each hand
PLATFORM_OPTIONS = ("stacks", "stack", "hands", "mode", "dealer", "ante_doubling")


def is_poker(table: Table) -> bool:
    """A table that deals hand after hand (its game declares ``continuous_hands``)."""
    return table.game in HAND_AFTER_HAND


def money_table(table: Table) -> bool:
    """Credits move only at official tables with an ante (practice tables play for chips)."""
    return bool(table.official and table.stake)


def hand_options(table: Table, *, stacks: list[int], dealer: int | None) -> dict[str, Any]:
    """The options of one hand: the table's, then the ante (= the stake), one hand, the stacks."""
    options = {k: v for k, v in (table.game_options or {}).items() if k not in PLATFORM_OPTIONS}
    if money_table(table):
        options["ante"] = table.stake
        options.setdefault("min_bet", table.stake)
        options.setdefault("max_bet", table.stake * 10)
    return {**options, "mode": "hands", "hands": 1, "stacks": stacks, "dealer": dealer}


def practice_stack(table: Table) -> int:
    value = (table.game_options or {}).get("stack")
    return value if type(value) is int and value > 0 else 1000


def sit_out(seat: Seat, reason: str) -> None:
    if seat.sitting_out == reason:
        return
    seat.sitting_out = reason
    seat.sitting_out_since = timezone.now() if reason else None
    seat.save(update_fields=["sitting_out", "sitting_out_since"])


def _balance(user) -> int:
    return wallet_get(player=user)["credits"]


def hand_deal(table: Table) -> Match | None:
    """Deal the next hand (the caller holds the table's lock and has checked that no match
    runs and no pause is pending). If someone's credits moved since they were read,
    ``StakesShort`` rolls the hand back and the caller sits them out."""
    money = money_table(table)
    seats = list(table.seats.select_for_update(of=("self",)).select_related("player").order_by("number"))
    dealt: list[Seat] = []
    stacks: list[int] = []
    for seat in seats:
        if seat.robot:
            if not money:  # robots play only at practice tables
                dealt.append(seat)
            continue
        if not seat.player_id or seat.sitting_out:
            continue
        if money:
            credits = _balance(seat.player)
            if credits < table.stake:
                sit_out(seat, FUNDS)
                broadcast.table_notice(table_id=table.pk, user_id=seat.player_id,
                                       text=gettext_noop("You sit out: the ante is %(stake)s credits and you have %(credits)s."),
                                       params={"stake": table.stake, "credits": credits})
                continue
            stacks.append(credits)
        dealt.append(seat)
    if not money:
        stacks = [s.chips if s.chips else practice_stack(table) for s in dealt]
    if len(dealt) < 2 or not any(s.player_id for s in dealt):
        return None
    numbers = [s.number for s in dealt]
    dealer = None
    if table.poker_dealer is not None:  # the deal passes to the next seat dealt in
        after = [i for i, n in enumerate(numbers) if n > table.poker_dealer]
        dealer = after[0] if after else 0
    # each stack goes into the hand's escrow (official tables); a player whose socket drops
    # is folded when the hand next needs them (seed 001, §8.5), and a hand whose players
    # are all gone waits for them instead of being played by autopilots (forfeit_on_absence)
    table.hand_seats = numbers
    return table_match_begin(table=table, seats=dealt, options=hand_options(table, stacks=stacks, dealer=dealer),
                             currency=CREDITS if money else table.currency,
                             stakes=dict(enumerate(stacks)) if money else None, also_save=("hand_seats",))


def short_sit_out(*, table_id: int, players: list[int]) -> None:
    for seat in Seat.objects.select_for_update().filter(table_id=table_id, player_id__in=players):
        sit_out(seat, FUNDS)
        broadcast.table_notice(table_id=table_id, user_id=seat.player_id,
                               text=gettext_noop("You sit out: you cannot cover the ante."))


def after_hand(table: Table, match: Match) -> list[Seat]:
    """The hand is over (finished or cancelled): carry practice stacks, remember the
    dealer, free the seats of players who left during it, and deal again in 5 seconds.
    Returns the seats to stand up (the caller frees them)."""
    numbers = list(table.hand_seats or [])
    seats = {s.number: s for s in table.seats.select_for_update()}
    result = match.result or {}
    if len(numbers) == match.players:
        hands = result.get("hands") or []
        if hands and hands[0].get("dealer") is not None:
            table.poker_dealer = numbers[hands[0]["dealer"]]
        elif match.options.get("dealer") is not None:
            table.poker_dealer = numbers[match.options["dealer"]]
        if not money_table(table) and result.get("stacks"):
            for index, chips in enumerate(result["stacks"]):
                seat = seats.get(numbers[index])
                if seat is not None and seat.taken:
                    seat.chips = chips or None  # a busted practice stack starts again
                    seat.save(update_fields=["chips"])
    for ms in match.match_seats.all():
        seat = seats.get(numbers[ms.number]) if ms.number < len(numbers) else None
        if ms.robot_playing and seat is not None and seat.player_id == ms.player_id and not seat.sitting_out:
            sit_out(seat, AWAY)  # the autopilot played for them: not dealt again until they are back
    table.hand_seats = []
    table.confirm_deadline = None
    table.next_match_at = timezone.now() + timedelta(seconds=settings.POKER_NEXT_HAND_SECONDS)
    table.save(update_fields=["poker_dealer", "hand_seats", "confirm_deadline", "next_match_at"])
    return [s for s in seats.values() if s.player_id and s.sitting_out == LEAVING]


def seat_sit_out(*, table: Table, seat: Seat, out: Any) -> None:
    """The sit-out toggle (no confirmation): out of the next hands, or back in."""
    if type(out) is not bool:
        raise ValidationFailed(_("Say true to sit out, false to play the next hands."), fields={"out": [_("true or false")]})
    if not is_poker(table):
        raise ValidationFailed(_("Only poker tables let players sit out."), fields={"out": [_("Not at this table.")]})
    if seat.sitting_out == LEAVING:
        raise Conflict(_("You are leaving this table at the end of the hand."), code="match_in_progress")
    sit_out(seat, CHOICE if out else "")


def sitting_out_expire(*, now=None) -> list[Seat]:
    """Seats sitting out for 5 minutes (not leaving with a hand): to stand up."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.POKER_SIT_OUT_STAND_UP_SECONDS)
    return list(Seat.objects.filter(table__game__in=HAND_AFTER_HAND, table__status=Table.OPEN, player__isnull=False,
                                    sitting_out_since__lte=cutoff).exclude(sitting_out__in=["", LEAVING]))


def connection_changed(*, table: Table, user) -> None:
    """The last socket closed: the player sits out from the next hand ("away"); a socket
    that opens again brings an away player back in (a page reload changes nothing)."""
    seat = table.seats.filter(player=user).first()
    if seat is None:
        return
    connected = SocketConnection.objects.filter(table_id=table.pk, user=user).exists()
    if not connected and not seat.sitting_out:
        sit_out(seat, AWAY)
    elif connected and seat.sitting_out == AWAY:
        sit_out(seat, "")
