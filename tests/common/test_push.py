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


def test_a_worker_sends_every_push_on_one_loop_and_one_redis_connection():
    """As a Celery worker does, one robot move after another (each task in a thread without
    a loop): one event loop and one Redis connection for all of them (issue 15: a move used
    to open 2.2 connections)."""
    import os

    import pytest

    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("the in-process layer opens no connection: this counts channels-redis's")
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=[url], prefix=f"push-count-{os.getpid()}")

    def task(n):
        push.group_send(layer, "push-count", {"type": "test.message", "n": n})

    for n in range(20):
        thread = threading.Thread(target=task, args=(n,))  # a new thread each time, as prefork tasks differ
        thread.start()
        thread.join()
        task(100 + n)  # and from this thread, which has no loop either
    assert list(layer._layers) == [push._process_loop()]  # one loop
    pools = [conn.connection_pool for loop_layer in layer._layers.values()
             for conn in loop_layer._connections.values()]
    opened = len(pools[0]._available_connections) + len(pools[0]._in_use_connections) if pools else 0
    assert len(pools) == 1 and opened == 1  # one connection, reused for the 40 pushes
    asyncio.run_coroutine_threadsafe(layer.close_pools(), push._process_loop()).result(5)
