"""What a table's renders share in a process (issue 15): the public part once per revision
for every socket, for every game; the snapshot left by a move made here (no statement but
the revision's read), read once per revision otherwise; a seat's private part counted in
work, not timed (docs/decisions.md): no statement, no public render, no card drawn twice."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from apps.games.engines import ENGINES, get_engine
from apps.matches.models import Match
from apps.matches.services import match_robot_move
from apps.play import render as play_render
from apps.play.presenters import presenter_for
from apps.play.templatetags import cards
from apps.tables import render, services

from ..conftest import make_user
from .conftest import briscola_table

pytestmark = pytest.mark.django_db(transaction=True)
TIMER = re.compile(r'<span class="left">\d+</span>|data-countdown="[^"]*"|"seconds_left": \d+')


def same_page(html: str) -> str:
    """A render without its seconds left (two renders may fall either side of a second)."""
    return TIMER.sub("", html)


def playing(table_id: int) -> Match:
    return Match.objects.filter(table_link__table_id=table_id, status=Match.PLAYING).get()


def test_a_move_made_here_leaves_the_next_snapshot_for_every_socket():
    table, (alice, bruno) = briscola_table()
    with translation.override("it"):
        render.render_fragments(table_id=table.pk, user=alice)  # this process holds the revision
        match = playing(table.pk)
        state = get_engine("briscola").from_json(match.state)
        seat = state.to_act[0]
        mover = alice if seat == 0 else bruno
        services.table_move(table_id=table.pk, user=mover, action=state.legal_actions(seat)[0],
                            version=match.version)
        before = play_render.PUBLIC_RENDERS["contexts"]
        with CaptureQueriesContext(connection) as captured:
            drawn = {u.pk: render.render_fragments(table_id=table.pk, user=u) for u in (alice, bruno)}
        assert len(captured.captured_queries) == 2, [q["sql"] for q in captured.captured_queries]  # the revisions
        assert play_render.PUBLIC_RENDERS["contexts"] == before + 1  # once for both sockets
        # and it is the page a fresh read draws
        render._SNAPSHOTS.clear()
        for u in (alice, bruno):
            fresh, revision = render.render_fragments(table_id=table.pk, user=u)
            assert revision == drawn[u.pk][1]
            assert same_page(fresh) == same_page(drawn[u.pk][0])
    assert f'data-version="{match.version + 1}"' in drawn[alice.pk][0]


def test_a_move_made_elsewhere_is_read_once_per_revision():
    table, users = briscola_table()
    with translation.override("it"):
        render.render_fragments(table_id=table.pk, user=users[0])
        match = playing(table.pk)
        state = get_engine("briscola").from_json(match.state)
        seat = state.to_act[0]
        services.table_move(table_id=table.pk, user=users[seat], action=state.legal_actions(seat)[0],
                            version=match.version)
        render._SNAPSHOTS.clear()  # as in a process that did not make the move
        with CaptureQueriesContext(connection) as first:
            render.render_fragments(table_id=table.pk, user=users[0])
        with CaptureQueriesContext(connection) as second:
            render.render_fragments(table_id=table.pk, user=users[1])
    # the table row (its revision), seats, match and its seats, connections, last move, vote
    assert len(first.captured_queries) <= 7 and len(second.captured_queries) == 1


def test_moves_with_robots_in_their_hooks_never_bring_back_an_older_version():
    """Robots played eagerly in a human move's on_commit finish before its own hooks run:
    the human move's late hook must not leave its (older) version as the snapshot."""
    human = make_user(nickname="Solo_R")
    table = services.table_create(user=human, data={"game": "briscola", "players": 2, "official": False})
    services.table_robot_add(user=human, table_id=table.pk, seat=1)
    with translation.override("it"):
        for _ in range(6):
            render.render_fragments(table_id=table.pk, user=human)
            match = playing(table.pk)
            state = get_engine("briscola").from_json(match.state)
            if state.to_act[0] == 1:
                assert match_robot_move(match_id=match.pk)
            else:
                services.table_move(table_id=table.pk, user=human, action=state.legal_actions(0)[0],
                                    version=match.version)
            match.refresh_from_db()
            with CaptureQueriesContext(connection) as captured:
                html, _ = render.render_fragments(table_id=table.pk, user=human)
            assert len(captured.captured_queries) <= 7
            assert f'data-version="{match.version}"' in html


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_public_part_is_built_once_per_revision_in_every_game(game):
    engine = get_engine(game)
    players = 4 if game in ("scopone", "hearts", "spades") else engine.min_players
    humans = [make_user(nickname=f"P{n}_{game[:9]}") for n in range(min(2, players))]
    data = {"game": game, "players": players, "official": False}
    if game == "poker_italiana":
        data["currency"] = "credits"
    table = services.table_create(user=humans[0], data=data)
    if players > 1:
        services.table_sit(user=humans[1], table_id=table.pk, seat=1)
    for seat in range(len(humans), players):
        services.table_robot_add(user=humans[0], table_id=table.pk, seat=seat)
    watcher = make_user(nickname=f"W_{game[:9]}")
    before = dict(play_render.PUBLIC_RENDERS)
    with translation.override("it"):
        pages = [render.render_fragments(table_id=table.pk, user=u)[0] for u in (*humans, watcher)]
    assert play_render.PUBLIC_RENDERS["contexts"] == before["contexts"] + 1
    assert play_render.PUBLIC_RENDERS["count"] == before["count"] + (1 if presenter_for(game).public_board else 0)
    assert all(f"table-{table.pk}-actions" in page for page in pages)


def test_a_seats_private_part_reads_nothing_and_draws_no_card_twice(monkeypatch):
    table, (alice, bruno) = briscola_table()
    drawn = []
    real = cards._card_svg
    monkeypatch.setattr(cards, "_card_svg", lambda *a: drawn.append(a) or real(*a))
    cards._DRAWN.clear()
    with translation.override("it"):
        render.render_fragments(table_id=table.pk, user=alice)
        render.render_fragments(table_id=table.pk, user=bruno)
        first = len(drawn)
        before = play_render.PUBLIC_RENDERS["count"]
        with CaptureQueriesContext(connection) as captured:
            for _ in range(20):
                render.render_fragments(table_id=table.pk, user=alice)
                render.render_fragments(table_id=table.pk, user=bruno)
    assert first and len(drawn) == first  # every card of both hands drawn once in the process
    assert play_render.PUBLIC_RENDERS["count"] == before
    assert len(captured.captured_queries) == 40  # one a render: the table's revision
