"""The tick sends each due ADM message (regulation.md §7.3, §11.1)."""

from apps.common.tick import tick_job

from .sending import adm_send_due

tick_job("adm_send_due", lambda: adm_send_due())
