"""A table's page: its snapshot (read once per revision and shared by every socket of the
table in this process), its fragments and its chat box. How a match is drawn for a reader
is the play floor's (``apps.play.render``); this module loads what a table adds to it.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import replace
from typing import Any

from django.db.models import Prefetch
from django.template.loader import render_to_string

from apps.chat.selectors import table_chat_recent
from apps.games.engines import get_engine
from apps.matches.models import CancelProposal, Match, MatchAction, MatchSeat
from apps.matches.selectors import match_last_move_read
from apps.play.jinja import fragment_render
from apps.play.render import RealityWatch, Snapshot, public_part, reality_part, table_context
from apps.play.selectors import Access
from apps.rankings.models import XpAward

from .models import Seat, SocketConnection, Table
from .selectors import table_access, table_chat_state


def snapshot_load(*, table_id: int, table: Table | None = None) -> Snapshot | None:
    """Read a table as its page shows it, labelled with the revision read first (so the
    rows are at least that recent); ``table``: its row, when just read."""
    table = table or Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    seats = list(Seat.objects.filter(table_id=table_id).select_related("player__profile").order_by("number"))
    match = (Match.objects.filter(table_link__table_id=table_id).order_by("-id").select_related("table_link")
             .prefetch_related(Prefetch("match_seats", queryset=MatchSeat.objects.order_by("number"))).first())
    connected = set(SocketConnection.objects.filter(table_id=table_id).values_list("user_id", flat=True))
    state = get_engine(match.game).from_json(match.state) if match else None
    last_action = proposal = None
    xp: dict[int, int] = {}
    if match is not None:
        last_action = MatchAction.objects.filter(match=match).order_by("-seq").first() if match.version else None
        proposal = CancelProposal.objects.filter(match=match).order_by("-id").first()
        if match.status == Match.FINISHED and match.official:
            xp = dict(XpAward.objects.filter(match=match).values_list("player_id", "xp"))
    return Snapshot(table=table, seats=seats, match=match, connected=connected, revision=table.revision,
                    state=state, last_action=last_action, proposal=proposal, xp=xp)


_SNAPSHOTS: dict[int, Snapshot] = {}
_SNAPSHOTS_LOCK = threading.Lock()


def snapshot_current(*, table_id: int) -> Snapshot | None:
    """The snapshot at the table's current revision: reused when this process already read
    it (two players at a table render after the same push), otherwise read now."""
    table = Table.objects.filter(pk=table_id).first()  # the whole row: a new revision needs it
    if table is None:
        return None
    with _SNAPSHOTS_LOCK:
        cached = _SNAPSHOTS.get(table_id)
    if cached is not None and cached.revision == table.revision and cached.table.created == table.created:
        return cached
    snap = snapshot_load(table_id=table_id, table=table)
    if snap is not None:
        with _SNAPSHOTS_LOCK:
            if len(_SNAPSHOTS) > 5000:
                _SNAPSHOTS.clear()
            current = _SNAPSHOTS.get(table_id)
            if current is None or current.revision <= snap.revision:
                _SNAPSHOTS[table_id] = snap
    return snap


def snapshot_moved(*, table_id: int, revision: int, match: Match, state: Any, action: MatchAction) -> bool:
    """A move took the table to ``revision`` (after its commit): when this process holds the
    snapshot of the revision just before it, of the same match at an older version, the new
    one is that snapshot with the moved match, its state and its log row; no statement (issue
    15). A move changes nothing else a table page shows (``match_changed``'s ``move``); any
    other change bumped the revision too, and the numbers do not follow on. The match may be
    newer than the move (read after later moves committed: a robot's loop), never older: a
    move's hooks may run after later moves' (robots played eagerly in its on_commit), and
    must not bring back an older version."""
    with _SNAPSHOTS_LOCK:
        cached = _SNAPSHOTS.get(table_id)
        if (cached is None or cached.revision != revision - 1 or cached.match is None
                or cached.match.pk != match.pk or cached.match.version >= match.version
                or match.status != Match.PLAYING):
            return False
        moved = copy.copy(cached.match)  # the seats prefetched with it stay shared
        for name in ("version", "state", "turn_deadline", "status"):
            setattr(moved, name, getattr(match, name))
        _SNAPSHOTS[table_id] = replace(cached, match=moved, state=state, last_action=action, revision=revision,
                                       public={}, lock=threading.Lock())
    return True


def _snapshot_relabelled(*, table_id: int, revision: int, version: int) -> Snapshot | None:
    """The snapshot held here, of the revision just before ``revision``, already holds the move
    that made it (its match was read at ``version`` or later): the same snapshot is that
    revision's too (its public HTML included: the same rows draw the same page)."""
    with _SNAPSHOTS_LOCK:
        cached = _SNAPSHOTS.get(table_id)
        if cached is None or cached.revision != revision - 1 or cached.match is None \
                or cached.match.version < version:
            return None
        _SNAPSHOTS[table_id] = cached = replace(cached, revision=revision)
    return cached


def snapshot_announced(*, table_id: int, revision: int, match_id: int | None = None, version: int | None = None,
                       move: bool = False) -> Snapshot | None:
    """The snapshot a push announced ("table changed, revision r"), read as little as it can:

    - the one this process holds when it is at ``revision`` or newer: no statement (the move
      was made here, or another socket of the table read it first);
    - a move made in another process (a robot in the worker: ``move``, the match's
      ``version``) one revision after the one held here: that snapshot with the match as it
      is now and its latest log row, read in one statement; none when the match held here
      was read after that move already (a robot that moved twice in a row);
    - anything else: read whole (``snapshot_current``).
    """
    with _SNAPSHOTS_LOCK:
        cached = _SNAPSHOTS.get(table_id)
    if cached is not None and cached.revision >= revision:
        return cached
    if (move and cached is not None and cached.revision == revision - 1 and cached.match is not None
            and cached.match.pk == match_id and type(version) is int):
        if cached.match.version >= version:
            relabelled = _snapshot_relabelled(table_id=table_id, revision=revision, version=version)
            if relabelled is not None:
                return relabelled
        else:
            row = match_last_move_read(match_id=match_id)
            if row is not None and row.match.version >= version and row.match.status == Match.PLAYING:
                moved = row.match
                state = get_engine(moved.game).from_json(moved.state)
                snapshot_moved(table_id=table_id, revision=revision, match=moved, state=state, action=row)
        with _SNAPSHOTS_LOCK:
            advanced = _SNAPSHOTS.get(table_id)
        if advanced is not None and advanced.revision >= revision:
            return advanced  # advanced here, or by another socket of the table meanwhile
    return snapshot_current(table_id=table_id)


def render_fragments(*, table_id: int, user, announced: dict[str, Any] | None = None,
                     reality: RealityWatch | None = None) -> tuple[str, int | None]:
    """Every out-of-band fragment of the table for this user's connection, and the table
    revision it shows (for sockets that must notice changes themselves): the public part
    shared by every connection, then this seat's own. ``announced``: the push this render
    answers, when it names the revision (``snapshot_announced``); else the table is read now."""
    revision = (announced or {}).get("revision")
    if type(revision) is int:
        snap = snapshot_announced(table_id=table_id, revision=revision, match_id=announced.get("match"),
                                  version=announced.get("version"), move=announced.get("move") is True)
    else:
        snap = snapshot_current(table_id=table_id)
    if snap is None:
        return "", None
    match = snap.match
    playing = match if match and match.status == Match.PLAYING else None
    access = table_access(table=snap.table, user=user, match=playing, seats=snap.seats)
    context = table_context(table=snap.table, match=match, user=user, access=access, snapshot=snap)
    _context, public_html = public_part(snap)
    extra = reality_part(context=context, user=user, reality=reality)
    if public_html:
        return public_html + fragment_render("tables/_private.html", context) + extra, snap.revision
    return fragment_render("tables/_fragments.html", context) + extra, snap.revision


def chat_box_context(*, table: Table, user, access: Access | None) -> dict[str, Any]:
    """The table's chat box for one reader: its lines only when the chat is on for them."""
    state = table_chat_state(table=table, user=user)
    return {"table": table, "access": access, "chat_state": state,
            "chat": table_chat_recent(table_id=table.pk) if state == "on" else []}


def render_chat_box(*, table_id: int, user) -> str:
    """The chat box swapped in when the operator switches the chat on or off."""
    table = Table.objects.get(pk=table_id)
    context = chat_box_context(table=table, user=user, access=table_access(table=table, user=user))
    return render_to_string("tables/_chat_box.html", {**context, "oob": True})


