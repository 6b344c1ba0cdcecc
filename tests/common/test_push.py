"""Pushes from synchronous code share one event loop per process (issue 15): a Celery worker
no longer makes a new loop, and new Redis connections, for every robot move."""

from __future__ import annotations

import asyncio
import threading

from channels.layers import get_channel_layer

from apps.common import push


def test_pushes_from_threads_without_a_loop_share_one_loop_and_arrive():
    layer = get_channel_layer()  # the configured layer: channels-redis with REDIS_URL
    loop = push._process_loop()
    channel = asyncio.run_coroutine_threadsafe(layer.new_channel(), loop).result(5)
    asyncio.run_coroutine_threadsafe(layer.group_add("push-test", channel), loop).result(5)
    loops = []

    def worker(n):
        push.group_send(layer, "push-test", {"type": "test.message", "n": n})
        loops.append(push._loop)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    got = sorted(asyncio.run_coroutine_threadsafe(layer.receive(channel), loop).result(5)["n"] for _ in range(3))
    assert got == [0, 1, 2]
    assert loops == [loop] * 3 and loop.is_running()
    asyncio.run_coroutine_threadsafe(layer.group_discard("push-test", channel), loop).result(5)
