"""Celery tasks for tournaments: they take ids, are queued on commit, re-read the state,
and may run twice or concurrently (the services lock the tournament row and post money
with deterministic idempotency keys). Defined beside the services that queue them."""

from .services import refunds_pay, start_when_full

__all__ = ["refunds_pay", "start_when_full"]
