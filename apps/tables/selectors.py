"""Reads: who may see what at a table, each seat's own view, the log for recall."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, Q, QuerySet

from apps.common.errors import Conflict, Forbidden, NotFoundError
from apps.common.roles import COMPLIANCE, OPERATOR, has_role
from apps.games.engines import get_engine

from .models import Match, Seat, Table, TableInvite


@dataclass(frozen=True)
class Access:
    """How a user sees a table or match: as a seat (int) or as a spectator (None)."""

    seat: int | None
    can_chat: bool
    silent: bool = False  # staff watching for review: no chat, no controls


def _is_reviewer(user) -> bool:
    return has_role(user, OPERATOR, COMPLIANCE)


def table_access(*, table: Table, user, match: Match | None = None,
                 seats: list[Seat] | None = None) -> Access | None:
    """None when the user may not even watch (platform.md §8.2, §10.1).

    ``match`` (the match in progress) and ``seats`` may be passed when already loaded.
    """
    if user is None or not user.is_authenticated:
        return None
    match = match if match is not None else table.matches.filter(status=Match.PLAYING).first()
    if match is not None:
        ms = next((m for m in match.match_seats.all() if m.player_id == user.pk), None)
        if ms is not None:
            return Access(seat=ms.number, can_chat=True)
    seated = any(s.player_id == user.pk for s in seats) if seats is not None else \
        table.seats.filter(player=user).exists()
    if seated:
        return Access(seat=None, can_chat=True)
    if _is_reviewer(user):
        return Access(seat=None, can_chat=False, silent=True)
    from apps.common.roles import is_staff_member

    if is_staff_member(user):
        return None
    if table.private and table.leader_id != user.pk and not TableInvite.objects.filter(
            table=table, player=user).exists():
        return None
    if not table.spectators:
        return None
    return Access(seat=None, can_chat=True)


def match_access(*, match: Match, user) -> Access | None:
    if match.table_id is not None:
        return table_access(table=match.table, user=user, match=match)
    if user is None or not user.is_authenticated:
        return None
    ms = next((m for m in match.match_seats.all() if m.player_id == user.pk), None)
    if ms is not None:
        return Access(seat=ms.number, can_chat=True)
    return Access(seat=None, can_chat=False)  # tournament matches are public to watch (§5.7)


def table_match_in_play(*, table_id: int) -> Match:
    """The match being played at a table; 409 match_over when there is none."""
    match = Match.objects.filter(table_id=table_id, status=Match.PLAYING).first()
    if match is None:
        raise Conflict("No match is being played at this table now.", code="match_over")
    return match


def match_get(*, match_id: Any) -> Match:
    try:
        pk = int(match_id)
    except (TypeError, ValueError):
        raise NotFoundError("No such match.") from None
    match = Match.objects.select_related("table").prefetch_related("match_seats").filter(pk=pk).first()
    if match is None:
        raise NotFoundError("No such match.")
    return match


def match_view_get(*, match: Match, user, access: Access | None = None) -> dict[str, Any]:
    """``GET /api/matches/{id}/``: the caller's own view and legal actions, nothing more."""
    access = access or match_access(match=match, user=user)
    if access is None:
        raise Forbidden("You cannot watch this match.")
    state = get_engine(match.game).from_json(match.state)
    playing = match.status == Match.PLAYING
    seat = access.seat
    return {
        "id": match.pk,
        "game": match.game,
        "status": match.status,
        "version": match.version,
        "to_act": state.to_act if playing else [],
        "seat": seat,
        "view": state.view(seat),
        "legal_actions": state.legal_actions(seat) if (playing and seat is not None) else [],
        "result": match.result if match.status == Match.FINISHED else None,
        "turn_deadline": match.turn_deadline.isoformat() if (playing and match.turn_deadline) else None,
    }


def match_log_get(*, match: Match, user) -> dict[str, Any]:
    """The deal and every action: enough to replay the match exactly (platform.md §8.7).

    Nobody reads it while the match is in play, staff included: it holds the seed, so
    every hand and the undealt cards (§8.2, the insider cases).
    """
    if match.status == Match.PLAYING:
        raise Forbidden("The log of a match opens when the match is over, for staff too.")
    if not _is_reviewer(user) and not any(m.player_id == user.pk for m in match.match_seats.all()):
        raise Forbidden("The log is for staff, and for the match's players once it is over.")
    return match_log(match)


def match_review(*, match: Match, seat: int | None) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """What staff review of a match shows: ``(log, steps)``.

    Once the match is over: its log and the step-through replay from ``seat``'s view.
    While it is in play: no log and one step, the live ``view(None)`` any spectator sees;
    ``seat`` is ignored (platform.md §8.2: nobody sees a hidden card before the end).
    """
    if match.status == Match.PLAYING:
        state = get_engine(match.game).from_json(match.state)
        return None, [{"seq": match.version, "action": None, "seat": None, "by": None,
                       "view": state.view(None), "to_act": state.to_act, "result": None}]
    log = match_log(match)
    return log, match_replay(log=log, seat=seat)


def match_log(match: Match) -> dict[str, Any]:
    return {
        "match": match.pk,
        "game": match.game,
        "players": match.players,
        "options": match.options,
        "seed": int(match.seed),
        "deck": match.deck,
        "seats": [m.nickname or ("Robot" if m.robot else None) for m in match.match_seats.all()],
        "actions": [
            {"seq": a.seq, "seat": a.seat, "action": a.action, "by": a.by, "at": a.at.isoformat(),
             "version": a.version}
            for a in match.actions.order_by("seq")
        ],
        "result": match.result,
        "status": match.status,
        "started_at": match.started_at.isoformat(),
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
    }


def match_replay(*, log: dict[str, Any], seat: int | None, upto: int | None = None) -> list[dict[str, Any]]:
    """Replay a log from the deal: the view of ``seat`` (None: spectator) after each step.

    Used by the admin step-through viewer and by a player's replay of their own match;
    a player's replay passes their own seat, so it shows only what they saw.
    """
    engine = get_engine(log["game"])
    state = engine.new_game(log["players"], options=log["options"], seed=log["seed"], deck=log["deck"])
    steps = [{"seq": 0, "action": None, "seat": None, "by": None, "view": state.view(seat),
              "to_act": state.to_act}]
    for entry in log["actions"]:
        if upto is not None and entry["seq"] > upto:
            break
        state.apply(entry["seat"], entry["action"])
        steps.append({"seq": entry["seq"], "action": entry["action"], "seat": entry["seat"], "by": entry["by"],
                      "view": state.view(seat), "to_act": state.to_act})
    steps[-1]["result"] = state.result() if state.is_over else None
    return steps


def _with_display(tables: QuerySet) -> QuerySet:
    """Everything ``table_as_dict`` reads, in a fixed number of queries for any number of tables."""
    return tables.select_related("leader__profile").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player__profile").order_by("number")),
        Prefetch("matches", queryset=Match.objects.filter(status=Match.PLAYING).prefetch_related("match_seats"),
                 to_attr="playing"),
        "connections",
    )


def table_list(*, game: str | None = None, user=None) -> QuerySet:
    tables = Table.objects.filter(status=Table.OPEN)
    if game:
        tables = tables.filter(game=game)
    if user is not None and not _is_reviewer(user):
        if user.is_authenticated:
            invited = TableInvite.objects.filter(player=user).values("table_id")
            tables = tables.filter(Q(private=False) | Q(pk__in=invited) | Q(leader=user)
                                   | Q(pk__in=Seat.objects.filter(player=user).values("table_id")))
        else:
            tables = tables.filter(private=False)
    return _with_display(tables.order_by("game", "-id"))


def table_get(*, table_id: Any) -> Table:
    try:
        pk = int(table_id)
    except (TypeError, ValueError):
        raise NotFoundError("No such table.") from None
    table = _with_display(Table.objects.filter(pk=pk)).first()
    if table is None:
        raise NotFoundError("No such table.")
    return table


def table_as_dict(table: Table) -> dict[str, Any]:
    """The table as the API shows it. Reads fresh rows unless the table came from
    ``table_list``/``table_get``, which load them all at once."""
    if not hasattr(table, "playing"):
        table = table_get(table_id=table.pk)
    match = table.playing[0] if table.playing else None
    connected = {c.user_id for c in table.connections.all()}
    robot_playing = {m.number for m in match.match_seats.all() if m.robot_playing} if match else set()
    seats = []
    for seat in table.seats.all():
        profile = getattr(seat.player, "profile", None) if seat.player_id else None
        seats.append({
            "seat": seat.number,
            "nickname": profile.nickname if profile else None,
            "robot": seat.robot or (seat.number in robot_playing),
            "connected": bool(seat.player_id and seat.player_id in connected),
        })
        if table.game == "poker_italiana":  # platform.md §8.5: who is not dealt the next hands
            seats[-1]["sitting_out"] = bool(seat.sitting_out)
    leader_profile = getattr(table.leader, "profile", None) if table.leader_id else None
    return {
        "id": table.pk, "game": table.game, "players": table.players, "stake": table.stake,
        "currency": table.currency, "turn_seconds": table.turn_seconds, "official": table.official,
        "private": table.private, "spectators": table.spectators, "game_options": table.game_options,
        "face": table.face, "leader": leader_profile.nickname if leader_profile else None,
        "seats": seats, "match": match.pk if match else None, "status": table.status,
        "next_match_at": table.next_match_at.isoformat() if table.next_match_at else None,
    }


def table_readiness(*, table_id: int) -> dict[str, Any]:
    """Who asked for the next match and who is still awaited (``POST .../ready/``)."""
    seats = Seat.objects.filter(table_id=table_id, player__isnull=False).select_related("player__profile")
    names = [(getattr(s.player, "profile", None), s.ready) for s in seats.order_by("number")]
    match = Match.objects.filter(table_id=table_id, status=Match.PLAYING).values_list("pk", flat=True).first()
    return {"ready": [p.nickname for p, ready in names if p and ready],
            "waiting": [p.nickname for p, ready in names if p and not ready],
            "match": match}


def player_finished_matches(*, user) -> QuerySet:
    return (Match.objects.filter(match_seats__player=user).exclude(status=Match.PLAYING)
            .order_by("-finished_at").distinct())


def table_revision(*, table_id: int) -> int | None:
    """The table's revision: it grows after every committed change a table page shows.

    Sockets that cannot rely on pushes from other processes (the embedded layer) compare
    it with the revision they last rendered.
    """
    return Table.objects.filter(pk=table_id).values_list("revision", flat=True).first()
