"""The wallet's periodic work, run by the tick (apps/common/tick.py)."""

from apps.common.tick import tick_job

from .services import credits_recharges_credit_due

tick_job("credits_recharges", credits_recharges_credit_due)
