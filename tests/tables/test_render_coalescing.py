"""A table socket renders as little as the pushes allow (issue 15): a push for a revision it
drew already is skipped, pushes queued behind a render leave one render of the newest, and
a move made in another process (a robot in the worker) advances the snapshot held here by
its log row alone, instead of reading the whole table back."""

from __future__ import annotations

import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from apps.games.engines import get_engine
from apps.matches.models import Match
from apps.tables import consumers, render, services
from apps.tables.models import Table

from .conftest import briscola_table
from .test_consumer import VERSION, connect, drain, hidden_leaks, replay_states, settled, state_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


def move_once(match_id: int, users: dict[int, object]) -> int:
    """The player to act plays their first legal card; the match's new version."""
    match = Match.objects.get(pk=match_id)
    state = get_engine(match.game).from_json(match.state)
    seat = state.to_act[0]
    services.table_move(table_id=match.table_link.table_id, user=users[seat],
                        action=state.legal_actions(seat)[0], version=match.version)
    return match.version + 1


@pytest.mark.skipif(connection.vendor == "sqlite", reason="SQLite's sockets share one thread: the held render would hold the moves")
async def test_pushes_queued_behind_a_render_leave_one_render_of_the_newest(monkeypatch):
    table, (alice, bruno) = await sync_to_async(briscola_table)()
    match, _ = await state_of(await sync_to_async(lambda: table.matches.get().pk)())
    comm, ok, _ = await connect(alice, table.pk)
    assert ok
    await settled(comm)
    gate, calls = threading.Event(), []
    real = consumers.render_fragments

    def held(**kwargs):  # the first render waits until every move is made: the pushes queue
        calls.append(kwargs.get("announced"))
        assert gate.wait(20)
        return real(**kwargs)

    monkeypatch.setattr(consumers, "render_fragments", held)
    users = {0: alice, 1: bruno}
    for _ in range(3):
        version = await sync_to_async(move_once)(match.pk, users)
    gate.set()
    frames = await drain(comm, timeout=1.0)
    drawn = [int(found.group(1)) for f in frames if (found := VERSION.search(f))]
    assert drawn == [version]  # one render, of the newest version
    assert len(calls) == 1 and calls[0]["revision"] < await sync_to_async(
        lambda: Table.objects.get(pk=table.pk).revision)()  # it answered the first push, drew the last
    states = await replay_states(match.pk)
    assert not hidden_leaks(frames[-1], states[version].hidden_from(0))
    await comm.disconnect()


async def test_a_push_for_a_revision_drawn_already_is_skipped(monkeypatch):
    table, (alice, bruno) = await sync_to_async(briscola_table)()
    match, _ = await state_of(await sync_to_async(lambda: table.matches.get().pk)())
    comm, _, _ = await connect(alice, table.pk)
    await settled(comm)
    revision = await sync_to_async(lambda: Table.objects.get(pk=table.pk).revision)()
    calls = []
    real = consumers.render_fragments
    monkeypatch.setattr(consumers, "render_fragments", lambda **kw: calls.append(kw) or real(**kw))
    from channels.layers import get_channel_layer

    from apps.tables.broadcast import table_group
    for stale in (revision - 1, revision):
        await get_channel_layer().group_send(table_group(table.pk), {
            "type": "table.changed", "version": match.version, "match": match.pk, "revision": stale})
    await get_channel_layer().group_send(table_group(table.pk), {  # no revision: always drawn
        "type": "table.changed", "version": match.version, "match": match.pk})
    frames = await drain(comm, timeout=1.0)
    assert len(calls) == 1 and calls[0]["announced"] is None and len(frames) == 1
    await comm.disconnect()


def moved_elsewhere(moves: int):
    """A table drawn in this process, then ``moves`` moves made "in another process": the
    snapshot held here is put back as it was. (table, users, match, held snapshot, versions)."""
    table, (alice, bruno) = briscola_table()
    users = {0: alice, 1: bruno}
    render.render_fragments(table_id=table.pk, user=alice)
    match = Match.objects.get(table_link__table_id=table.pk, status=Match.PLAYING)
    held = render._SNAPSHOTS[table.pk]
    versions = [move_once(match.pk, users) for _ in range(moves)]
    render._SNAPSHOTS[table.pk] = held  # as in daphne, when the worker made the moves
    return table, users, match, held, versions


def test_a_move_made_in_another_process_advances_the_snapshot_in_one_statement():
    with translation.override("it"):
        table, users, match, held, (version,) = moved_elsewhere(1)
        alice = users[0]
        revision = Table.objects.get(pk=table.pk).revision
        announced = {"type": "table.changed", "version": version, "match": match.pk, "revision": revision,
                     "move": True}
        with CaptureQueriesContext(connection) as first:
            drawn = {u.pk: render.render_fragments(table_id=table.pk, user=u, announced=announced) for u in users.values()}
        assert len(first.captured_queries) == 1, [q["sql"] for q in first.captured_queries]  # the log row and its match
        assert all(r == revision for _html, r in drawn.values())
        render._SNAPSHOTS.clear()  # and it is the page a fresh read draws
        for u in users.values():
            fresh, _revision = render.render_fragments(table_id=table.pk, user=u)
            from .test_render_sharing import same_page
            assert same_page(fresh) == same_page(drawn[u.pk][0])
        assert f'data-version="{version}"' in drawn[alice.pk][0]
        # a push that is not the very next revision (something else changed too) reads it whole
        render._SNAPSHOTS[table.pk] = held
        with CaptureQueriesContext(connection) as whole:
            render.render_fragments(table_id=table.pk, user=alice, announced={**announced, "revision": revision + 1})
        assert len(whole.captured_queries) > 1


def test_two_moves_made_in_another_process_before_the_first_push_is_drawn():
    """A robot that moves twice in a row: when its first push is drawn, the match read is
    already at the second move, so the second push is drawn with no statement at all."""
    from .test_render_sharing import same_page

    with translation.override("it"):
        table, users, match, _held, (first, second) = moved_elsewhere(2)
        alice, bruno = users[0], users[1]
        revision = Table.objects.get(pk=table.pk).revision
        push = {"type": "table.changed", "match": match.pk, "move": True}
        with CaptureQueriesContext(connection) as one:
            html, drawn = render.render_fragments(table_id=table.pk, user=alice,
                                                  announced={**push, "version": first, "revision": revision - 1})
        assert len(one.captured_queries) == 1 and drawn == revision - 1
        assert f'data-version="{second}"' in html  # the newest the read found
        with CaptureQueriesContext(connection) as none:
            html, drawn = render.render_fragments(table_id=table.pk, user=bruno,
                                                  announced={**push, "version": second, "revision": revision})
        assert len(none.captured_queries) == 0 and drawn == revision
        render._SNAPSHOTS.clear()
        fresh, _revision = render.render_fragments(table_id=table.pk, user=bruno)
        assert same_page(fresh) == same_page(html)
