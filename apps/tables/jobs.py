"""The tables' periodic work, run by the tick (apps/common/tick.py)."""

from apps.common.tick import tick_job

from .services import tables_due_work

tick_job("tables", tables_due_work)
