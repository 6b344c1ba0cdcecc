"""The tournaments' periodic work, run by the tick (apps/common/tick.py)."""

from apps.common.tick import tick_job

from .services import tournaments_due_work

tick_job("tournaments", tournaments_due_work)
