"""The tables' share of the tick: expired windows, sit-outs and socket leases, a next match due."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .. import poker
from ..models import Match, Table, TableMatch
from .seating import table_sit_out_expire
from .sockets import socket_connections_expire
from .table_matches import table_after_match, table_confirmations_expire, table_start_if_ready


def tables_due_work() -> int:
    """The tick's share for tables: dead connections, next matches that are due, players who
    did not confirm the next match in time, idle tables to close, and the end of a match
    whose hook was lost (its process died between the commit and the hook)."""
    done = socket_connections_expire()
    lost = TableMatch.objects.filter(ended=False).exclude(match__status=Match.PLAYING)
    for match_id in lost.values_list("match_id", flat=True):
        done += table_after_match(match_id=match_id)
    now = timezone.now()
    for table_id in Table.objects.filter(status=Table.OPEN, next_match_at__lte=now).values_list("pk", flat=True):
        if table_start_if_ready(table_id=table_id) is not None:
            done += 1
    for table_id in Table.objects.filter(status=Table.OPEN, confirm_deadline__lte=now).values_list("pk", flat=True):
        done += table_confirmations_expire(table_id=table_id)
    for seat in poker.sitting_out_expire(now=now):
        done += table_sit_out_expire(table_id=seat.table_id, seat_id=seat.pk)
    idle = now - timedelta(seconds=settings.TABLE_IDLE_CLOSE_SECONDS)
    for table in Table.objects.filter(status=Table.OPEN, empty_since__lte=idle):
        with transaction.atomic():
            locked = Table.objects.select_for_update().get(pk=table.pk)
            if locked.empty_since and locked.empty_since <= idle and not locked.seats.filter(
                    player__isnull=False).exists() and not locked.matches.filter(status=Match.PLAYING).exists():
                locked.status = Table.CLOSED
                locked.closed_at = now
                locked.save(update_fields=["status", "closed_at"])
                done += 1
    return done
