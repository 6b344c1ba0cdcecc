"""The tick beats the worker's heart: a tick that stops running (no worker, no beat) leaves the
heartbeat stale, and /health/ says the worker is down."""

from apps.common.tick import tick_job

from .services import heartbeat_beat

tick_job("worker_heartbeat", heartbeat_beat)
