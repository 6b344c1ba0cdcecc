"""Compliance's periodic work, run by the tick (apps/common/tick.py)."""

from apps.common.tick import tick_job

from .services import sanctions_mark_expired

tick_job("sanctions_expired", sanctions_mark_expired)
