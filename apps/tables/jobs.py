"""The tables' periodic work, run by the tick (apps/common/tick.py)."""

from apps.common.tick import tick_job

from .play import match_deadlines_fire
from .services import tables_due_work

tick_job("match_deadlines", match_deadlines_fire)
tick_job("tables", tables_due_work)
