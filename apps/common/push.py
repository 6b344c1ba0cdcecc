"""``group_send`` from synchronous code, on one event loop per process (issue 15).

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
import os
import threading
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync

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
