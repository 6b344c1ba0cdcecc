"""Every push of the project: after commit (Zulip's rule), never failing the write that
caused it, on one event loop per process (issue 15).

``push_after_commit(group, message)`` is what every app calls; ``push_now`` is for code that
already runs after the commit (an ``on_commit`` callback that first computes the message).

``async_to_sync(layer.group_send)`` in a thread with no event loop (a Celery worker, a
management command) makes a new loop for every call, and channels-redis keeps its
connections per loop: every robot move opened new Redis connections. Here such threads
hand the send to one loop that lives in a daemon thread for the life of the process, so
the worker keeps one loop and one connection pool for all its pushes. A thread that a
server's event loop started (daphne's consumers, through ``SyncToAsync``) goes on using
that loop, as ``async_to_sync`` does.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Iterable
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

#: how long a push may take before the caller stops waiting for it (the send goes on)
PUSH_TIMEOUT = 5.0

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None


def _server_loop() -> bool:
    """Whether this thread runs for a server's event loop (a ``SyncToAsync`` thread)."""
    return (getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not None
            and getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid())


def _process_loop() -> asyncio.AbstractEventLoop:
    """The process's push loop, started on first use (again after a fork: prefork workers)."""
    global _loop, _loop_pid
    with _lock:
        if _loop is None or _loop_pid != os.getpid() or _loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="mazziere-push-loop", daemon=True).start()
            _loop, _loop_pid = loop, os.getpid()
        return _loop


def group_send(layer: Any, group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` on ``layer`` and wait for it (at most ``PUSH_TIMEOUT``)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:  # called inside a running loop: never block it
        raise RuntimeError("group_send is for synchronous code; await layer.group_send instead")
    if _server_loop():
        async_to_sync(layer.group_send)(group, message)
        return
    future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _process_loop())
    future.result(timeout=PUSH_TIMEOUT)


def push_now(group: str, message: dict[str, Any]) -> None:
    """Send now (the caller runs after the commit); a failed push is logged, never raised:
    a push never fails the request (platform.md §0.8)."""
    try:
        layer = get_channel_layer()
        if layer is not None:
            group_send(layer, group, message)
    except Exception:
        log.exception("push to %s failed", group)


def push_after_commit(groups: str | Iterable[str], message: dict[str, Any]) -> None:
    """Send ``message`` to ``groups`` once the current transaction commits (at once outside
    one); a transaction that rolls back sends nothing."""
    targets = [groups] if isinstance(groups, str) else list(groups)

    def send() -> None:
        for group in targets:
            push_now(group, message)

    transaction.on_commit(send)
