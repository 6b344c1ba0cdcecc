"""The one way a table starts its next match (a game at a full table, or a poker hand):
called under the table's row lock by ``services._maybe_start`` and ``poker.hand_deal``."""

from __future__ import annotations

from typing import Any

from apps.matches.services import match_create

from . import broadcast
from .models import Match, Seat, Table, TableMatch


def table_match_begin(*, table: Table, seats: list[Seat], options: dict[str, Any], currency: str,
                      stakes: dict[int, int] | None, forfeit_on_absence: bool = True,
                      also_save: tuple[str, ...] = ()) -> Match:
    """Deal a match to ``seats`` (``stakes``: seat index -> amount into its escrow, or None),
    link it to the table and close the pause and the confirmation window. ``StakesShort``
    (someone cannot cover their stake) rolls back the caller's transaction. ``also_save``:
    table fields the caller set for this match (poker's ``hand_seats``)."""
    match = match_create(
        game=table.game, players=len(seats), options=options, official=table.official, stake=table.stake,
        currency=currency, turn_seconds=table.turn_seconds, forfeit_on_absence=forfeit_on_absence,
        seats=[{"player": s.player, "robot": s.robot, "ip": s.ip} for s in seats], stakes=stakes,
        group=broadcast.table_group(table.pk))
    TableMatch.objects.create(table=table, match=match)
    table.next_match_at = None
    table.confirm_deadline = None
    table.save(update_fields=[*also_save, "next_match_at", "confirm_deadline"])
    return match
