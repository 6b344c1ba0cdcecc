"""Tables and seats (platform.md §8.1-§8.3): create, sit, leave, robots, invitations, settings;
one module a concern (setup, seating, table_matches, sockets, tick over core), this package
their public surface.

The table row is locked (``select_for_update``) whenever seats change, so two players
racing for the last seat get exactly one winner, and a match starts exactly once. Every
path that also touches the table's match locks the table first, then the match (the one
lock order, written down in ``apps/matches/services/``); the match's own paths never
lock the table, and what they tell the table (a match ended, a seat was abandoned) comes
after their commit through the matches app's signals (``receivers.py``).

A match starts only when every seat is taken and every seated human asked for it: sitting
down asks for one, the end of a match clears every request, and "Gioca ancora"
(``table_ready``) asks again. The end reaches the table after the match's commit (the
matches app's ``match_finished``); until the table has handled it (``TableMatch.ended``)
no next match starts on a request made before it. Whoever has not asked 60 seconds after the end is stood up,
charged nothing (platform.md §8.1).
"""

from .core import (
    FACE_WORDS,
    NEXT_MATCH_TASK,
    SETTINGS_FIELDS,
    STAKE_MAX,
)
from .seating import (
    table_invite,
    table_leave,
    table_play_now,
    table_robot_add,
    table_sit,
    table_sit_out,
    table_sit_out_expire,
    table_watch,
    tables_busy,
    tables_conto_left_open,
)
from .setup import (
    table_create,
    table_settings_update,
)
from .sockets import (
    seat_connection_changed,
    socket_connected,
    socket_connections_expire,
    socket_disconnected,
    socket_process,
    socket_renew,
    socket_server_started,
)
from .table_matches import (
    table_after_match,
    table_confirmations_expire,
    table_match_changed,
    table_move,
    table_next_match_due,
    table_ready,
    table_seat_abandoned,
    table_start_if_ready,
)
from .tick import (
    tables_due_work,
)

__all__ = [
    "FACE_WORDS",
    "NEXT_MATCH_TASK",
    "SETTINGS_FIELDS",
    "STAKE_MAX",
    "seat_connection_changed",
    "socket_connected",
    "socket_connections_expire",
    "socket_disconnected",
    "socket_process",
    "socket_renew",
    "socket_server_started",
    "table_after_match",
    "table_confirmations_expire",
    "table_create",
    "table_invite",
    "table_leave",
    "table_match_changed",
    "table_move",
    "table_next_match_due",
    "table_play_now",
    "table_ready",
    "table_robot_add",
    "table_seat_abandoned",
    "table_settings_update",
    "table_sit",
    "table_sit_out",
    "table_sit_out_expire",
    "table_start_if_ready",
    "table_watch",
    "tables_busy",
    "tables_conto_left_open",
    "tables_due_work",
]
