"""The life of a match: start, apply an action, robots, timers, abandonment, cancellation, end;
one module a concern (creation, acting, presence, ending over core), this package their
public surface.

One function applies every action, whoever sends it (REST, websocket, robot, timer):
``match_action_apply``. It locks the match row, checks version, seat, turn and the
engine, saves the state and the log in one transaction, and after commit tells the
match's group only "changed, version n". Engines are pure; money moves through the wallet.

A match knows neither tables nor tournaments. Whoever makes one passes its rules
(``cancellable``, ``forfeit_on_absence``) and the group to tell; when it ends or is
cancelled, ``apps.matches.signals.match_finished`` says so once, after commit
(docs/layers.md), and its owner (a table: the next match; a tournament: the bracket) acts.

Lock order (one for every path, so PostgreSQL never deadlocks): an owner's row first (a
table's, when a table path reaches its match), **then the match row**, then its seats and
proposals, and last the wallet accounts (which ``ledger_post`` locks in id order). The
paths here start from the match and lock only the match and what lies below it: they never
reach up for an owner's row, so they cannot deadlock with a table path holding its table.
"""

from .acting import (
    match_action_apply,
    match_robot_move,
    match_robot_turns,
    match_turn_timeout,
    match_turn_timer,
    schedule_robots,
)
from .core import (
    FORFEIT,
    MOVE_FIELDS,
    ROBOT_TURNS_TASK,
    TIMER_LOST_AFTER,
    TURN_TIMEOUT_TASK,
    TURN_TIMER_TASK,
    IllegalMove,
    StakesShort,
    match_group,
    stake_per_seat,
)
from .creation import (
    match_create,
)
from .ending import (
    match_cancel_by_owner,
    match_cancel_vote,
    match_cancel_votes_expire,
    matches_cancel,
)
from .presence import (
    match_abandon,
    match_deadlines_fire,
    match_forfeit_player,
    match_grace_expired,
    match_seat_arrived,
    match_seat_presence,
)

__all__ = [
    "FORFEIT",
    "IllegalMove",
    "MOVE_FIELDS",
    "ROBOT_TURNS_TASK",
    "StakesShort",
    "TIMER_LOST_AFTER",
    "TURN_TIMEOUT_TASK",
    "TURN_TIMER_TASK",
    "match_abandon",
    "match_action_apply",
    "match_cancel_by_owner",
    "match_cancel_vote",
    "match_cancel_votes_expire",
    "match_create",
    "match_deadlines_fire",
    "match_forfeit_player",
    "match_grace_expired",
    "match_group",
    "match_robot_move",
    "match_robot_turns",
    "match_seat_arrived",
    "match_seat_presence",
    "match_turn_timeout",
    "match_turn_timer",
    "matches_cancel",
    "schedule_robots",
    "stake_per_seat",
]
