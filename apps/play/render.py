"""A match as one reader sees it, whoever owns it (a table, a tournament): the play floor.

A match is drawn in two parts (issue 12, "rendering that scales"):

- the public part (board, seats, timer, score) comes from the spectator's view,
  ``view(None)``: the same for every connection, so it is rendered once per revision and
  language and shared by every socket of the process;
- the private part (the seat's own hand as its controls, the cancellation prompt) comes from
  ``view(seat)`` and ``legal_actions(seat)``, per connection.

What differs by game is its presenter's (``apps.play.presenters``): the score sheet, the felt,
the board's templates. The owner loads the :class:`Snapshot` (a table: ``apps.tables.render``;
a match with no table: :func:`match_snapshot_current` here) and adds its own chrome.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.common.roles import is_player
from apps.conto.sessions import reality_figures, reality_pending, session_current
from apps.games.engines import get_engine
from apps.games.engines.cards import is_card, italian_deck
from apps.matches.models import CancelProposal, Match, MatchAction, MatchSeat

from .controls import present_actions
from .jinja import fragment_exists, fragment_render
from .presenters import presenter_for
from .presenters.base import seat_name, team_name
from .selectors import Access
from .templatetags.cards import ITALIAN_FRENCH
from .words import move_words, suit_words

#: the row of the match's owner when a table owns it (its face, stake, leader, readiness,
#: show_points, next match), read by attribute; None for a match with no table (a tournament's).
#: The play floor never imports the owners: they pass their rows in.
Owner = Any
ITALIAN = frozenset(italian_deck())
#: view keys the generic board draws itself; others are listed as facts
BOARD_KEYS = {"hand", "table", "trick", "last_trick", "scores", "to_act", "dealer", "hand_counts", "stock_count",
              "trump_card", "trump_suit", "seat", "players", "winner", "phase", "captured", "hands"}
#: where each seat sits, by its distance from the viewer in playing order (the next seat
#: plays on the viewer's right: Italian games go counter-clockwise, Hearts passes right)
POSITIONS = {1: ["bottom"], 2: ["bottom", "top"], 3: ["bottom", "right", "left"],
             4: ["bottom", "right", "top", "left"], 5: ["bottom", "right", "topright", "topleft", "left"],
             6: ["bottom", "right", "topright", "top", "topleft", "left"]}
ROBOT_NAMES = ("Aldo", "Bice", "Carlo", "Dora", "Ezio")
#: how many public parts were rendered (``count``) and their contexts built (``contexts``): tests read it
PUBLIC_RENDERS = {"count": 0, "contexts": 0}


def view_facts(view: dict[str, Any], players: int) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The view keys the generic board does not draw itself, in two kinds: short texts
    (scalars, and per-seat lists such as bids or scope) and lists of card codes (drawn as
    cards). Anything else (nested structures) is left to a game's own board template."""
    texts: dict[str, str] = {}
    card_lists: dict[str, list[str]] = {}
    for key, value in view.items():
        if key in BOARD_KEYS or key.startswith("_"):
            continue
        if value is None or isinstance(value, str | int | float | bool):
            texts[key] = "—" if value is None else str(value)
        elif isinstance(value, list) and value and all(is_card(v, jokers=True) for v in value):
            card_lists[key] = value
        elif isinstance(value, list) and all(v is None or isinstance(v, str | int | bool) for v in value):
            texts[key] = " · ".join("—" if v is None else str(v) for v in value) if value else "—"
    return texts, card_lists


def face_for(table: Owner, game: str) -> str:
    """The faces the cards are drawn with: the table's choice when the game offers it (its
    registration's ``card_faces``), else the game's own deck; French faces on an Italian game
    are ``italian_french`` (each card drawn as its French counterpart)."""
    faces = get_engine(game).card_faces()
    face = table.face if table is not None and table.face in faces else faces[0]
    return ITALIAN_FRENCH if face == "french" and faces[0] == "italian" else face


def _french_deck(game: str) -> bool:
    engine = get_engine(game)
    return not set(engine.deck(engine.min_players)) <= ITALIAN


@dataclass
class Snapshot:
    """Everything a match's page shows, loaded in a fixed number of queries and shared by its
    fragments, and by every socket of the same process that renders the same revision.

    ``table`` is the owner's row when a table owns the match (None: a tournament's), ``seats``
    the owner's seat rows (a table's; empty when the match's own seats say all)."""

    table: Owner
    seats: list[Any]
    match: Match | None
    connected: set[int]
    revision: int = -1
    state: Any = None  # the engine state of ``match`` (read-only: views and legal actions)
    last_action: MatchAction | None = None
    proposal: CancelProposal | None = None  # the open (or just decided) cancellation vote
    xp: dict[int, int] = field(default_factory=dict)  # player id -> XP this match gave
    public: dict[str, tuple[dict[str, Any], str]] = field(default_factory=dict)  # language -> (context, html)
    lock: threading.Lock = field(default_factory=threading.Lock)


# -- names ----------------------------------------------------------------------------------


def seat_names(match: Match | None, seat_rows: list[Any]) -> dict[int, dict[str, Any]]:
    """Who sits where, in words: the nickname, or "Robot" only for a robot."""
    out: dict[int, dict[str, Any]] = {}
    match_seats = {ms.number: ms for ms in match.match_seats.all()} if match else {}
    table_seats = {s.number: s for s in seat_rows}
    for number in sorted(set(match_seats) | set(table_seats)):
        ms, ts = match_seats.get(number), table_seats.get(number)
        nickname = ms.nickname if ms and ms.nickname else None
        if nickname is None and ts is not None and ts.player_id:
            nickname = getattr(getattr(ts.player, "profile", None), "nickname", None)
        robot = bool((ms and ms.robot) or (ts and ts.robot and not ms))
        player_id = (ms.player_id if ms and ms.player_id else None) or (ts.player_id if ts else None)
        out[number] = {"name": nickname or (_("Robot") if robot else ""), "robot": robot, "player_id": player_id,
                       "ms": ms, "ts": ts}
    robots = [n for n, e in out.items() if e["robot"] and e["name"] == _("Robot")]
    if len(robots) > 1:  # three "Robot"s cannot be told apart: each gets a first name, the same for everyone
        for i, n in enumerate(robots):
            out[n]["name"] = f"{_('Robot')} {ROBOT_NAMES[i % len(ROBOT_NAMES)]}"
    return out




# -- the public part ----------------------------------------------------------------------------


def _last_move(snap: Snapshot, names, french: bool) -> str:
    act = snap.last_action
    if act is None or act.seat is None:
        return ""
    return move_words(name=seat_name(names, act.seat), action=act.action, events=act.events, french=french)


def _scores(game: str, view: dict[str, Any], names, teams: list[list[int]], players: int,
            staked: bool = True, show_points: bool = False) -> dict[str, Any]:
    """The score as the game counts it (its presenter's sheet) and per-seat facts."""
    per_seat: dict[int, list[tuple[str, Any]]] = {s: [] for s in range(players)}
    sheet = presenter_for(game).scores(view, names, teams, players, per_seat=per_seat, staked=staked,
                                       show_points=show_points)
    return {**sheet, "per_seat": per_seat}


def _money(match: Match, names) -> dict[str, Any]:
    """The money of a finished or cancelled match as settlement moved it (``Match.settlement``,
    the same figures as the ledger's entries), never computed again here: the pot, the bank,
    the prize (what the seats that won received) and what every seat was paid out."""
    record = match.settlement or {}
    seats = record.get("seats") or []
    paid_out = [{"name": r.get("nickname") or seat_name(names, r["seat"]), "received": r["received"],
                 "net": r["received"] - r["paid"]} for r in seats if r["received"]]
    pot, bank = record.get("pot", 0), record.get("bank", 0)
    return {"pot": pot, "bank": bank, "money_kind": record.get("kind", ""),
            # the share the settlement applied (the regime's, regulation.md §8), as it moved
            "bank_percent": record.get("bank_percent", round(bank * 100 / pot) if pot else 0),
            "prize": sum(r["received"] for r in record.get("payouts") or []), "paid_out": paid_out,
            "currency": record.get("currency", match.currency)}


def _result(snap: Snapshot, names, teams: list[list[int]]) -> dict[str, Any] | None:
    """The end of a match in words: who won, the scores, the prize, the bank's share, the XP."""
    match = snap.match
    if match is None or match.status != Match.FINISHED or not match.result:
        return None
    result = match.result
    winner = result.get("winner")
    winners = teams[winner] if isinstance(winner, int) and 0 <= winner < len(teams) else []
    money = _money(match, names)
    scores = result.get("scores") or []
    score_rows = []
    if len(scores) == len(teams):
        score_rows = [{"name": team_name(names, t), "score": scores[i]} for i, t in enumerate(teams)]
    elif len(scores) == match.players:
        score_rows = [{"name": seat_name(names, s), "score": scores[s]} for s in range(match.players)]
    xp = [{"name": seat_name(names, ms.number), "xp": snap.xp[ms.player_id]}
          for ms in match.match_seats.all() if ms.player_id in snap.xp]
    return {"winner_names": [seat_name(names, s) for s in winners], "winner_seats": winners, "draw": winner is None,
            "scores": score_rows, **money, "cash": match.currency == "cash", "xp": [x for x in xp if x["xp"]], "official": match.official,
            # a game played alone (Solitario) is solved or not, never won against anyone
            "solo": match.players == 1, "solved": bool(result.get("won")) or bool(snap.state is not None and
                                                                            getattr(snap.state, "won", False)),
            "solo_score": scores[0] if match.players == 1 and scores else None}


def _grace(ms: Any) -> dict[str, Any]:
    """A disconnected player's grace period (platform.md §8.3) as the seat shows it: the
    deadline for the page's countdown and the time left when rendered ("2:45")."""
    deadline = getattr(ms, "grace_deadline", None)
    if deadline is None or not ms.robot_playing or ms.abandoned or ms.robot:
        return {"grace_until": "", "grace_left": ""}
    left = max(0, int((deadline - timezone.now()).total_seconds()))
    return {"grace_until": deadline.isoformat(),
            "grace_left": format_html('<span class="left">{}:{}</span>', left // 60, f"{left % 60:02d}")}


def board_context(*, game: str, view: dict[str, Any], names: dict[int, dict[str, Any]], teams: list[list[int]],
                  players: int, playing: bool, connected: set[int] = frozenset(), leader_id: int | None = None,
                  staked: bool = True, show_points: bool = False) -> dict[str, Any]:
    """The felt of one view: seats with names, backs and stats, the cards in the middle, the
    score as the game counts it. The live table passes ``view(None)``, a replay the player's own."""
    team_of = {s: i for i, t in enumerate(teams) for s in t}
    paired = any(len(t) > 1 for t in teams)
    to_act = set(view.get("to_act") or []) if playing else set()
    hand_counts = list(view.get("hand_counts") or [])
    presenter = presenter_for(game)
    hand_counts = presenter.hand_counts(view, hand_counts, players)  # poker: a folded hand is out
    trick = {t["seat"]: t["card"] for t in (view.get("trick") or []) if isinstance(t, dict)}
    last_trick = view.get("last_trick") if isinstance(view.get("last_trick"), dict) else None
    scores = (_scores(game, view, names, teams, players, staked, show_points)
              if presenter.public_board and view else None)
    seats = []
    for number in range(players):
        entry = names.get(number, {})
        ms = entry.get("ms")
        player_id = entry.get("player_id")
        seats.append({
            "number": number, "name": entry.get("name") or "", "robot": entry.get("robot", False),
            "free": not entry.get("name"),
            "robot_playing": bool(ms and ms.robot_playing and not ms.robot),
            **_grace(ms),
            "abandoned": bool(ms and ms.abandoned),
            "connected": bool(player_id and player_id in connected),
            "leader": bool(player_id and leader_id == player_id),
            "to_act": number in to_act,
            "hand_count": hand_counts[number] if number < len(hand_counts) else None,
            "dealer": view.get("dealer") == number and get_engine(game).max_players > 1,  # no dealer alone
            "team": team_of.get(number, 0) if paired else None,
            "played": trick.get(number),
            "took_last": bool(last_trick and last_trick.get("winner") == number),
            "stats": (scores or {}).get("per_seat", {}).get(number, []),
            "out": presenter.seat_out(view, number),
        })
    french = _french_deck(game)
    center_template, hand_template = presenter.templates(game)
    return {
        "seats": seats, "teams": teams, "paired": paired, "scores": scores, "players": players,
        "fishing": presenter.felt, "felt": list(view.get("table") or []) if presenter.felt else None,
        "trick_game": not presenter.felt,
        "last_trick": last_trick and {"cards": last_trick.get("cards") or [],
                                      "winner": seat_name(names, last_trick.get("winner"))},
        "trump_card": view.get("trump_card"),
        "trump_suit_words": suit_words(view["trump_suit"], french) if view.get("trump_suit") else "",
        "stock_count": view.get("stock_count"),
        "turn_names": [s["name"] for s in seats if s["to_act"]],
        "center_template": center_template, "hand_template": hand_template,
        "pview": view, "game_id": game, "team_names": [team_name(names, t) for t in teams],
        "burraco_variant": "", "poker_phase": "", **presenter.board_extras(view),
    }


def dom_id_of(table: Owner, match: Match | None) -> str:
    """The prefix of a page's fragment ids: ``table-{id}`` at a table, ``match-{id}`` for a
    match with no table (a tournament's)."""
    return f"table-{table.pk}" if table is not None else f"match-{match.pk if match else 'm'}"


def public_context(snap: Snapshot) -> dict[str, Any]:
    """What every connection of the table sees alike, from the spectator's view (a match
    with no table: ``snap.table`` is None)."""
    table, match, state = snap.table, snap.match, snap.state
    game = match.game if match else table.game
    engine = get_engine(game)
    french = _french_deck(game)
    names = seat_names(match, snap.seats)
    view = state.view(None) if match is not None else {}
    players = match.players if match else table.players
    teams = [list(t) for t in state.teams] if state is not None else [[s] for s in range(players)]
    playing = match is not None and match.status == Match.PLAYING
    board = board_context(game=game, view=view, names=names, teams=teams, players=players, playing=playing,
                          connected=snap.connected, leader_id=table.leader_id if table else None,
                          staked=bool(match.stake if match is not None else table.stake),
                          show_points=bool(table and table.show_points))
    if match is None:
        board["scores"] = None
        for seat in board["seats"]:
            seat["dealer"] = False
    deadline = match.turn_deadline if playing else None
    proposal = snap.proposal
    cancel = None
    if playing and proposal is not None and not proposal.closed and proposal.deadline > timezone.now():
        votes = proposal.votes or {}
        cancel = {"open": True, "deadline": proposal.deadline.isoformat(),
                  "seconds_left": max(0, int((proposal.deadline - timezone.now()).total_seconds())),
                  "yes": [seat_name(names, int(s)) for s, v in votes.items() if v],
                  "waiting": [seat_name(names, ms.number) for ms in match.match_seats.all()
                              if ms.player_id and not ms.abandoned and str(ms.number) not in votes]}
    elif proposal is not None and proposal.closed and not proposal.cancelled and playing and \
            proposal.deadline > timezone.now() - timedelta(seconds=30):
        refused = [seat_name(names, int(s)) for s, v in (proposal.votes or {}).items() if v is False]
        cancel = {"refused": refused}
    return {
        **board,
        "table": table, "match": match, "game": engine, "game_id": game, "version": match.version if match else 0,
        "dom_id": dom_id_of(table, match), "face": face_for(table, game), "french": french,
        "public_board": presenter_for(game).public_board, "pview": view,
        "last_move": _last_move(snap, names, french) if match is not None else "",
        "scopa": bool(snap.last_action and any(e.get("scopa") for e in snap.last_action.events or ()
                                               if isinstance(e, dict))),
        "deadline": deadline.isoformat() if deadline else "",
        "seconds_left": max(0, int((deadline - timezone.now()).total_seconds())) if deadline else None,
        "result": _result(snap, names, teams), "cancelled": bool(match and match.status == Match.CANCELLED),
        "cancel": cancel, "waiting_for_players": match is None,
    }


def public_part(snap: Snapshot) -> tuple[dict[str, Any], str]:
    """The public context and its HTML, built once per revision and language in this process."""
    lang = translation.get_language() or "it"
    with snap.lock:
        cached = snap.public.get(lang)
        if cached is None:
            PUBLIC_RENDERS["contexts"] += 1
            context = public_context(snap)
            html = ""
            if context["public_board"]:
                PUBLIC_RENDERS["count"] += 1
                html = fragment_render("tables/_public.html", {**context, "oob": True})
            cached = snap.public[lang] = (context, html)
    return cached


# -- the private part ------------------------------------------------------------------------------


def orientation(players: int, me: int | None) -> dict[int, str]:
    """Seat number -> where it is drawn for this viewer (the viewer at the bottom)."""
    spots = POSITIONS.get(players) or POSITIONS[6]
    base = me or 0
    return {s: spots[(s - base) % players] if (s - base) % players < len(spots) else "top" for s in range(players)}


def _owner_chrome(*, table: Owner, match: Match | None, user: Any, seat_rows: list[Any], engine: Any) -> dict[str, Any]:
    """What a table adds around its match for this reader: the window to confirm the next match
    and who asked for it, their own seat, the leader's controls, the free seats."""
    user_id = getattr(user, "pk", None)
    seated = bool(user_id and any(s.player_id == user_id for s in seat_rows))
    # a table that deals hand after hand (poker) asks no confirmation (platform.md §8.5)
    between = bool(table and (match is None or match.status != Match.PLAYING)) and not engine.continuous_hands
    mine = next((s for s in seat_rows if user_id and s.player_id == user_id), None)
    confirm = table.confirm_deadline if (table and between) else None
    # a match just over whose end the table has not handled yet (its hook runs after the
    # commit): the seats' ready flags still say "asked for the match just played" (sitting down
    # asks for it), so nobody has asked for the next one yet; asking now opens the window first
    stale_ready = bool(between and match is not None and match.status != Match.PLAYING
                       and not getattr(getattr(match, "table_link", None), "ended", True))

    def name(s: Any) -> str:
        return getattr(getattr(s.player, "profile", None), "nickname", None) or "?"

    return {
        "between": between and match is not None, "my_ready": bool(mine and mine.ready and not stale_ready),
        "ready_names": [name(s) for s in seat_rows if s.player_id and s.ready and not stale_ready],
        "waiting_names": [name(s) for s in seat_rows if s.player_id and (stale_ready or not s.ready)],
        "confirm_deadline": confirm.isoformat() if confirm else "",
        "confirm_seconds_left": max(0, int((confirm - timezone.now()).total_seconds())) if confirm else None,
        "my_seat": mine, "sitting_out_names": [name(s) for s in seat_rows if s.player_id and s.sitting_out],
        "seated": seated, "is_leader": bool(table and user_id == table.leader_id),
        "can_sit": bool(table and is_player(user) and not seated),
        "free_seats": [s.number for s in seat_rows if not s.taken],
        "next_match_at": table.next_match_at if table else None,
    }


def table_context(*, table: Owner, match: Match | None, user, access: Access | None,
                  snapshot: Snapshot | None = None) -> dict[str, Any]:
    """The page of a match for one reader: the public part, the seat's own view and moves,
    and the owner's chrome when a table owns it (readiness, the next match, the leader)."""
    public, _html = public_part(snapshot) if snapshot is not None else ({}, "")
    seat_rows = snapshot.seats if snapshot else []
    game = match.game if match else table.game
    engine = get_engine(game)
    french = _french_deck(game)
    version = match.version if match else 0
    view: dict[str, Any] = {}
    legal: list[dict[str, Any]] = []
    seat = access.seat if access else None
    if match is not None:
        state = snapshot.state if snapshot is not None and snapshot.match is match else engine.from_json(match.state)
        if seat is None and match.status != Match.PLAYING and getattr(user, "pk", None) is not None:
            # a finished match's players still see it from their own seat, not as spectators
            seat = next((ms.number for ms in match.match_seats.all() if ms.player_id == user.pk), None)
        view = state.view(seat)
        if match.status == Match.PLAYING and seat is not None and not access.silent:
            legal = state.legal_actions(seat)
    facts, card_facts = view_facts(view, match.players if match else 0)
    board_template = f"tables/games/{game}/board.html"
    if not fragment_exists(board_template):
        board_template = "tables/_board_generic.html"
    chrome = _owner_chrome(table=table, match=match, user=user, seat_rows=seat_rows, engine=engine)
    user_id = getattr(user, "pk", None)
    names = seat_names(match, seat_rows)

    controls = present_actions(legal, french)
    hand = list(view.get("hand") or [])
    playable = set(controls["by_card"])
    players = match.players if match else (table.players if table else 0)
    result = public.get("result")
    outcome = None
    if result and seat is not None and match is not None:
        if result["solo"]:
            outcome = "solved" if result["solved"] else "ended"
        else:
            outcome = "draw" if result["draw"] else ("won" if seat in result["winner_seats"] else "lost")
    cancel = public.get("cancel")
    my_vote = None
    if cancel and cancel.get("open") and seat is not None and snapshot is not None and snapshot.proposal:
        my_vote = (snapshot.proposal.votes or {}).get(str(seat))
    voter = bool(match and seat is not None and any(
        ms.number == seat and ms.player_id == user_id and not ms.abandoned for ms in match.match_seats.all()))
    pass_to = presenter_for(game).pass_to(view, seat, names) if seat is not None else None
    return {
        **public,
        **chrome,
        "table": table, "match": match, "game": engine, "version": version, "view": view,
        "seat": seat, "access": access, "face": face_for(table, game),
        "controls": controls, "has_actions": bool(legal), "legal": legal, "hand": hand, "playable": playable,
        "facts": facts, "card_facts": card_facts, "board_template": board_template,
        "dom_id": dom_id_of(table, match),
        "user": user,
        "winners": (result or {}).get("winner_names", []),
        "orientation": orientation(players, seat), "outcome": outcome, "my_vote": my_vote, "voter": voter,
        "my_team": next((i for i, t in enumerate(public.get("teams") or []) if seat in t), None),
        "pass_to": pass_to, "passed": view.get("passed"), "received": view.get("received"),
        "hand_phase": view.get("phase"),
        "seats": public.get("seats") or [],
    }


@dataclass
class RealityWatch:
    """A socket's reality check (regulation.md §4.2): due from ``due_at`` (None: not known to
    be due); drawn with the seat's own part only when the seat is not to act, never during
    its turn. ``shown`` says a render drew it."""

    due_at: Any = None
    shown: bool = False


def reality_part(*, context: dict[str, Any], user, reality: RealityWatch | None) -> str:
    """The reality check box for this connection, or "" (not due, or the seat is to act)."""
    if reality is None or reality.due_at is None or timezone.now() < reality.due_at or context.get("has_actions"):
        return ""
    session = session_current(user_id=user.pk)
    if session is None or not reality_pending(session):
        reality.due_at = None  # answered meanwhile: the heartbeat reads the next one
        return ""
    reality.shown = True
    return render_to_string("conto/_reality_check.html", {"rc": reality_figures(session=session), "oob": True})


_MATCH_SNAPSHOTS: dict[int, Snapshot] = {}
_MATCH_SNAPSHOTS_LOCK = threading.Lock()


def match_snapshot_current(*, match_id: int) -> Snapshot | None:
    """A match with no table (a tournament's) as its page shows it, at its current version:
    reused when this process already read that version (both players render after the
    same push), otherwise read now. "Connected" is a seat the robot is not playing: such a
    match keeps no socket rows."""
    version = Match.objects.filter(pk=match_id).values_list("version", "status").first()
    if version is None:
        return None
    with _MATCH_SNAPSHOTS_LOCK:
        cached = _MATCH_SNAPSHOTS.get(match_id)
    if cached is not None and (cached.match.version, cached.match.status) == version:
        return cached
    match = (Match.objects.filter(pk=match_id)
             .prefetch_related(Prefetch("match_seats", queryset=MatchSeat.objects.order_by("number"))).first())
    if match is None:
        return None
    last_action = MatchAction.objects.filter(match=match).order_by("-seq").first() if match.version else None
    snap = Snapshot(table=None, seats=[], match=match, revision=match.version,
                    connected={ms.player_id for ms in match.match_seats.all()
                               if ms.player_id and not ms.robot_playing},
                    state=get_engine(match.game).from_json(match.state), last_action=last_action)
    with _MATCH_SNAPSHOTS_LOCK:
        if len(_MATCH_SNAPSHOTS) > 5000:
            _MATCH_SNAPSHOTS.clear()
        current = _MATCH_SNAPSHOTS.get(match_id)
        if current is None or current.match.version <= match.version:
            _MATCH_SNAPSHOTS[match_id] = snap
    return snap


def match_fragments(*, match_id: int, user, access: Access | None,
                    extra: dict[str, Any] | None = None, reality: RealityWatch | None = None) -> tuple[str, int | None]:
    """Every fragment of a match with no table for one connection (a tournament's match
    page): the public part shared by every connection of the process, then the seat's own,
    exactly as at a table. ``access``: the caller's (a seat, or a spectator's None); ``extra``:
    what the owner's page adds to the private part (a way back); the match's version it
    shows, or None when there is no such match."""
    snap = match_snapshot_current(match_id=match_id)
    if snap is None:
        return "", None
    context = {**match_context(snapshot=snap, user=user, access=access), **(extra or {})}
    _context, public_html = public_part(snap)
    box = reality_part(context=context, user=user, reality=reality)
    if public_html:
        return public_html + fragment_render("tables/_private.html", context) + box, snap.match.version
    return fragment_render("tables/_fragments.html", context) + box, snap.match.version


def match_context(*, snapshot: Snapshot, user, access: Access | None) -> dict[str, Any]:
    """The page context of a match with no table, for one reader."""
    return table_context(table=None, match=snapshot.match, user=user, access=access, snapshot=snapshot)


def render_chat_line(*, message) -> str:
    return render_to_string("tables/_chat_line.html", {"message": message, "oob": True})


#: what a player reads for a refused frame (the engines' own sentences are for developers)
ERROR_WORDS = {
    "illegal_action": gettext_lazy("That move is not allowed now: choose one of the cards or buttons offered."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    "match_over": gettext_lazy("This match is over."),
    "rate_limited": gettext_lazy("Too many messages: slow down."),
}


def render_error(*, table_id: int | None, code: str, detail: str, dom_id: str = "") -> str:
    """The error fragment for the sender only; ``dom_id``: the page's prefix when not a table's."""
    text = ERROR_WORDS.get(code)
    return render_to_string("tables/_error.html", {"dom_id": dom_id or f"table-{table_id}", "code": code,
                                                   "detail": str(text) if text else detail})


def render_notice(*, table_id: int | None, text: str, dom_id: str = "") -> str:
    return render_to_string("tables/_notice.html", {"dom_id": dom_id or f"table-{table_id}", "text": text})


def _teams_of(game: str, players: int) -> list[list[int]]:
    """The sides of a match when its view does not list them: partners sit opposite at four
    in the team games, everyone plays alone otherwise."""
    if players == 4 and presenter_for(game).partners_at_four:
        return [[0, 2], [1, 3]]
    return [[s] for s in range(players)]
