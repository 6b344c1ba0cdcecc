"""The matches' periodic work, run by the tick (apps/common/tick.py): deadlines that passed."""

from apps.common.tick import tick_job

from .services import match_deadlines_fire

tick_job("match_deadlines", match_deadlines_fire)
