"""HTML fragments for the table page, rendered per connection from that seat's own view.

One generic renderer serves every engine: the board shows the keys views share (hand,
table, trick, scores...), and legal actions become clickable controls. A game may add
``templates/tables/games/<game>/board.html`` where its view needs more.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch
from django.template.loader import TemplateDoesNotExist, get_template, render_to_string
from django.utils import timezone

from apps.common.roles import is_player
from apps.games.engines import get_engine
from apps.games.engines.cards import is_card, italian_deck
from apps.matches.models import Match, MatchSeat

from .models import Seat, SocketConnection, Table
from .selectors import Access, table_access

ITALIAN = frozenset(italian_deck())
ACTION_LABELS = {
    "knock": "Busso (gioco)", "pass": "Passo", "keep": "Tengo le carte", "buio": "Al buio",
    "accuso": "Accuso", "bid": "Dichiaro", "draw": "Pesco", "discard": "Scarto",
    # poker all'italiana (check is Busso before the draw, Parola after it) and solitario
    "check": "Busso / Parola", "fold": "Lascio", "call": "Vedo", "bet": "Punto", "raise": "Rilancio",
    "recycle": "Rigiro il mazzo", "end": "Termino la partita",
}
CARD_KEYS = ("card",)
#: view keys the generic board draws itself; others are listed as facts
BOARD_KEYS = {"hand", "table", "trick", "last_trick", "scores", "to_act", "dealer", "hand_counts", "stock_count",
              "trump_card", "trump_suit", "seat", "players", "winner", "phase", "captured", "hands"}


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


def face_for(table: Table | None, game: str) -> str:
    if table is not None and table.face in ("italian", "french"):
        return table.face
    engine = get_engine(game)
    return "italian" if set(engine.deck(engine.min_players)) <= ITALIAN else "french"


def action_label(action: dict[str, Any]) -> str:
    kind = action.get("type")
    if kind == "play":
        capture = action.get("capture")
        if capture:
            return f"{action.get('card')} prende {' + '.join(capture)}"
        if capture == []:
            return f"{action.get('card')} (cala)"
        return str(action.get("card"))
    if kind == "bid":
        return "Nil (0)" if action.get("bid") == 0 else f"Dichiaro {action.get('bid')}"
    if kind in ("bet", "raise") and isinstance(action.get("amount"), int):
        return f"{ACTION_LABELS[kind]} {action['amount']}"
    if kind == "move" and set(action) == {"type", "card", "to"}:
        to = action["to"]
        return f"{action['card']} → {'base' if to == 'f' else 'colonna ' + str(to)[1:]}"
    if kind == "accuso":
        return f"Accuso {action.get('accuso')}"
    label = ACTION_LABELS.get(kind, str(kind))
    extras = [f"{k}: {v}" for k, v in action.items() if k != "type"]
    return label + (f" ({', '.join(extras)})" if extras else "")


def present_actions(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Group legal actions into controls: per-card choices, multi-card picks, plain buttons."""
    by_card: OrderedDict[str, list[dict[str, Any]]] = OrderedDict()
    picks: dict[str, dict[str, Any]] = {}
    plain = []
    for action in legal:
        encoded = json.dumps(action, separators=(",", ":"))
        if isinstance(action.get("card"), str):
            by_card.setdefault(action["card"], []).append({"json": encoded, "label": action_label(action)})
        elif isinstance(action.get("cards"), list):
            pick = picks.setdefault(action.get("type"), {"type": action.get("type"), "count": len(action["cards"]),
                                                         "cards": set(), "min": len(action["cards"]), "max": 0})
            pick["cards"].update(action["cards"])
            pick["min"] = min(pick["min"], len(action["cards"]))
            pick["max"] = max(pick["max"], len(action["cards"]))
        else:
            plain.append({"json": encoded, "label": action_label(action)})
    for pick in picks.values():
        pick["cards"] = sorted(pick["cards"])
        pick["template"] = json.dumps({"type": pick["type"]})
    return {"by_card": by_card, "picks": list(picks.values()), "plain": plain,
            "single": {c: opts[0] for c, opts in by_card.items() if len(opts) == 1},
            "multi": {c: opts for c, opts in by_card.items() if len(opts) > 1}}


def _seats(table: Table | None, match: Match | None, view: dict[str, Any], seat_rows: list[Seat],
           connected: set[int]) -> list[dict[str, Any]]:
    seats = []
    # a match that is over (finished or cancelled) waits for nobody
    to_act = set(view.get("to_act") or []) if match is not None and match.status == Match.PLAYING else set()
    match_seats = {ms.number: ms for ms in match.match_seats.all()} if match else {}
    table_seats = {s.number: s for s in seat_rows}
    count = match.players if match else (table.players if table else 0)
    hand_counts = view.get("hand_counts") or []
    for number in range(count):
        ms = match_seats.get(number)
        ts = table_seats.get(number)
        player_id = (ms.player_id if ms and ms.player_id else None) or (ts.player_id if ts else None)
        nickname = ms.nickname if ms and ms.nickname else None
        if nickname is None and ts is not None and ts.player_id:
            nickname = getattr(getattr(ts.player, "profile", None), "nickname", None)
        robot = bool((ms and ms.robot) or (ts and ts.robot and not ms))
        seats.append({
            "number": number,
            "nickname": nickname,
            "robot": robot,
            "robot_playing": bool(ms and ms.robot_playing and not ms.robot),
            "abandoned": bool(ms and ms.abandoned),
            "connected": bool(player_id and player_id in connected),
            "leader": bool(table and player_id and table.leader_id == player_id),
            "to_act": number in to_act,
            "hand_count": hand_counts[number] if number < len(hand_counts) else None,
            "dealer": view.get("dealer") == number,
        })
    return seats


@dataclass
class Snapshot:
    """Everything a table page shows, loaded in five queries and shared by its fragments,
    and by every socket of the same process that renders the same table revision."""

    table: Table
    seats: list[Seat]
    match: Match | None
    connected: set[int]
    revision: int = -1
    state: Any = None  # the engine state of ``match`` (read-only: views and legal actions)


def snapshot_load(*, table_id: int) -> Snapshot | None:
    """Read a table as its page shows it, labelled with the revision read first (so the
    rows are at least that recent)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    seats = list(Seat.objects.filter(table_id=table_id).select_related("player__profile").order_by("number"))
    match = (Match.objects.filter(table_link__table_id=table_id).order_by("-id")
             .prefetch_related(Prefetch("match_seats", queryset=MatchSeat.objects.order_by("number"))).first())
    connected = set(SocketConnection.objects.filter(table_id=table_id).values_list("user_id", flat=True))
    state = get_engine(match.game).from_json(match.state) if match else None
    return Snapshot(table=table, seats=seats, match=match, connected=connected, revision=table.revision,
                    state=state)


_SNAPSHOTS: dict[int, Snapshot] = {}
_SNAPSHOTS_LOCK = threading.Lock()


def snapshot_current(*, table_id: int) -> Snapshot | None:
    """The snapshot at the table's current revision: reused when this process already read
    it (two players at a table render after the same push), otherwise read now."""
    row = Table.objects.filter(pk=table_id).values_list("revision", "created").first()
    if row is None:
        return None
    revision, created = row
    with _SNAPSHOTS_LOCK:
        cached = _SNAPSHOTS.get(table_id)
    if cached is not None and cached.revision == revision and cached.table.created == created:
        return cached
    snap = snapshot_load(table_id=table_id)
    if snap is not None:
        with _SNAPSHOTS_LOCK:
            if len(_SNAPSHOTS) > 5000:
                _SNAPSHOTS.clear()
            current = _SNAPSHOTS.get(table_id)
            if current is None or current.revision <= snap.revision:
                _SNAPSHOTS[table_id] = snap
    return snap


def table_context(*, table: Table | None, match: Match | None, user, access: Access | None,
                  snapshot: Snapshot | None = None) -> dict[str, Any]:
    if snapshot is None and table is not None:
        snapshot = snapshot_load(table_id=table.pk)
    seat_rows = snapshot.seats if snapshot else []
    connected = snapshot.connected if snapshot else set()
    game = match.game if match else table.game
    engine = get_engine(game)
    version = match.version if match else 0
    view: dict[str, Any] = {}
    legal: list[dict[str, Any]] = []
    winners: list[str] = []
    seat = access.seat if access else None
    if match is not None:
        state = snapshot.state if snapshot is not None and snapshot.match is match else engine.from_json(match.state)
        if match.result and match.result.get("winner") is not None:
            names = {ms.number: ms.nickname or "Robot" for ms in match.match_seats.all()}
            winners = [names.get(s, str(s)) for s in state.teams[match.result["winner"]]]
        if seat is None and match.status != Match.PLAYING and getattr(user, "pk", None) is not None:
            # a finished match's players still see it from their own seat, not as spectators
            seat = next((ms.number for ms in match.match_seats.all() if ms.player_id == user.pk), None)
        view = state.view(seat)
        if match.status == Match.PLAYING and seat is not None and not access.silent:
            legal = state.legal_actions(seat)
    facts, card_facts = view_facts(view, match.players if match else 0)
    board_template = f"tables/games/{game}/board.html"
    try:
        get_template(board_template)
    except TemplateDoesNotExist:
        board_template = "tables/_board_generic.html"
    deadline = match.turn_deadline if (match and match.status == Match.PLAYING) else None
    user_id = getattr(user, "pk", None)
    seated = bool(user_id and any(s.player_id == user_id for s in seat_rows))
    between = bool(table and (match is None or match.status != Match.PLAYING))
    mine = next((s for s in seat_rows if user_id and s.player_id == user_id), None)
    confirm = table.confirm_deadline if (table and between) else None

    def name(s: Seat) -> str:
        return getattr(getattr(s.player, "profile", None), "nickname", None) or "?"

    return {
        "between": between and match is not None, "my_ready": bool(mine and mine.ready),
        "ready_names": [name(s) for s in seat_rows if s.player_id and s.ready],
        "waiting_names": [name(s) for s in seat_rows if s.player_id and not s.ready],
        "confirm_deadline": confirm.isoformat() if confirm else "",
        "confirm_seconds_left": max(0, int((confirm - timezone.now()).total_seconds())) if confirm else None,
        "seated": seated, "is_leader": bool(table and user_id == table.leader_id),
        "can_sit": bool(table and is_player(user) and not seated),
        "free_seats": [s.number for s in seat_rows if not s.taken],
        "table": table, "match": match, "game": engine, "version": version, "view": view,
        "seat": seat, "access": access, "face": face_for(table, game),
        "controls": present_actions(legal), "has_actions": bool(legal),
        "seats": _seats(table, match, view, seat_rows, connected),
        "facts": facts, "card_facts": card_facts, "board_template": board_template, "dom_id": f"table-{table.pk if table else 'm'}",
        "deadline": deadline.isoformat() if deadline else "",
        "seconds_left": max(0, int((deadline - timezone.now()).total_seconds())) if deadline else None,
        "result": match.result if match and match.status == Match.FINISHED else None,
        "user": user, "next_match_at": table.next_match_at if table else None, "winners": winners,
    }


def render_fragments(*, table_id: int, user) -> tuple[str, int | None]:
    """Every out-of-band fragment of the table for this user's connection, and the table
    revision it shows (for sockets that must notice changes themselves)."""
    snap = snapshot_current(table_id=table_id)
    if snap is None:
        return "", None
    match = snap.match
    playing = match if match and match.status == Match.PLAYING else None
    access = table_access(table=snap.table, user=user, match=playing, seats=snap.seats)
    context = table_context(table=snap.table, match=match, user=user, access=access, snapshot=snap)
    return render_to_string("tables/_fragments.html", context), snap.revision


def render_chat_line(*, message) -> str:
    return render_to_string("tables/_chat_line.html", {"message": message, "oob": True})


def render_error(*, table_id: int, code: str, detail: str) -> str:
    return render_to_string("tables/_error.html", {"table_id": table_id, "code": code, "detail": detail})


def render_notice(*, table_id: int, text: str) -> str:
    return render_to_string("tables/_notice.html", {"table_id": table_id, "text": text})
