"""The conto's tick jobs (platform.md §0.2, regulation.md §11.1): record what already took
effect on read, and tell ADM."""

from apps.common.tick import tick_job

from .exclusions import exclusions_record_due
from .limits import limits_record_due
from .sessions import sessions_timeouts_record

tick_job("limit_raises_record", lambda: limits_record_due())
tick_job("self_exclusions_record", lambda: exclusions_record_due())
tick_job("game_sessions_timeouts", lambda: sessions_timeouts_record())
