"""Reads of matches: one match, a seat's view of it, its log and its replay, a player's
finished matches. Who may watch a match is its owner's business (a table's settings):
callers pass the seat to show."""

from __future__ import annotations

import functools
from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from apps.common import rows
from apps.common.errors import Forbidden, NotFoundError
from apps.common.roles import COMPLIANCE, OPERATOR, has_role
from apps.games.engines import get_engine

from .models import Match, MatchAction


def _is_reviewer(user: Any) -> bool:
    return has_role(user, OPERATOR, COMPLIANCE)


@functools.lru_cache(maxsize=4)
def _last_move_sql(vendor: str) -> str:
    action_table = connection.ops.quote_name(MatchAction._meta.db_table)
    match_table = connection.ops.quote_name(Match._meta.db_table)
    return (f"SELECT {rows.columns(MatchAction, 'a')}, {rows.columns(Match, 'm')} FROM {match_table} m "
            f'JOIN {action_table} a ON a."match_id" = m."id" AND a."seq" = m."version" WHERE m."id" = %s')


def match_last_move_read(*, match_id: int) -> MatchAction | None:
    """A match as it is now with the log row of its latest move, in one statement of plain
    SQL built once (``apps.common.rows``: the ORM's compiling cost more than the read): how a
    process follows moves another process made (issue 15). None before the first move."""
    with connection.cursor() as cursor:
        cursor.execute(_last_move_sql(connection.vendor), [match_id])
        found = cursor.fetchone()
    if found is None:
        return None
    action = rows.instance(MatchAction, found)
    action.match = rows.instance(Match, found, rows.width(MatchAction))
    return action


def match_get(*, match_id: Any) -> Match:
    try:
        pk = int(match_id)
    except (TypeError, ValueError):
        raise NotFoundError(_("No such match.")) from None
    match = Match.objects.prefetch_related("match_seats").filter(pk=pk).first()
    if match is None:
        raise NotFoundError(_("No such match."))
    return match


def match_view(*, match: Match, seat: int | None, controls: bool = True) -> dict[str, Any]:
    """``GET /api/matches/{id}/``: ``seat``'s own view and legal actions, nothing more
    (``seat`` None: what a spectator sees). ``controls`` False shows no legal actions."""
    state = get_engine(match.game).from_json(match.state)
    playing = match.status == Match.PLAYING
    return {
        "id": match.pk,
        "game": match.game,
        "status": match.status,
        "version": match.version,
        "to_act": state.to_act if playing else [],
        "seat": seat,
        "view": state.view(seat),
        "legal_actions": state.legal_actions(seat) if (playing and seat is not None and controls) else [],
        "result": match.result if match.status == Match.FINISHED else None,
        "turn_deadline": match.turn_deadline.isoformat() if (playing and match.turn_deadline) else None,
        "adm_session_code": match.adm_session_code or None,  # regulation.md §7.4
    }


def match_log_get(*, match: Match, user: Any) -> dict[str, Any]:
    """The deal and every action: enough to replay the match exactly (platform.md §8.7).

    Nobody reads it while the match is in play, staff included: it holds the seed, so
    every hand and the undealt cards (§8.2, the insider cases).
    """
    if match.status == Match.PLAYING:
        raise Forbidden(_("The log of a match opens when the match is over, for staff too."))
    if not _is_reviewer(user) and not any(m.player_id == user.pk for m in match.match_seats.all()):
        raise Forbidden(_("The log is for staff, and for the match's players once it is over."))
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


def player_finished_matches(*, user: Any) -> QuerySet:
    return (Match.objects.filter(match_seats__player=user).exclude(status=Match.PLAYING)
            .order_by("-finished_at").distinct())
