"""What the tournament page shows a given reader (platform.md §6.6): everyone sees the
standings; a player sees their own refund breakdown; operators see the whole refund table."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from apps.common.errors import NotFoundError
from apps.games.engines import ENGINES, get_engine
from apps.matches.selectors import match_get
from apps.play.render import match_context, match_snapshot_current
from apps.play.selectors import match_reader_access
from apps.wallet.selectors import freeze_state

from . import rules, selectors
from .models import Tournament, TournamentMatch
from .services import registration_window_open


def bracket_columns(matches: list[dict[str, Any]], entrants: int) -> list[dict[str, Any]]:
    """The knockout bracket as rounds side by side: byes marked, replays under their match,
    rounds not drawn yet as empty boxes (round r of a B bracket has B / 2^r matches)."""
    rounds: dict[int, list[dict[str, Any]]] = {}
    for m in matches:
        rounds.setdefault(m["round"], []).append(m)
    total = rules.knockout_rounds(entrants) if entrants else max(rounds or [0])
    size = rules.bracket_size(entrants) if entrants else 0
    columns = []
    for r in range(1, total + 1):
        drawn = rounds.get(r, [])
        waiting = max(0, size // 2 ** r - len([m for m in drawn if not m.get("replay")])) if r > 1 else 0
        name = "final" if r == total else "semi" if r == total - 1 else "round"
        columns.append({"round": r, "name": name, "matches": drawn, "waiting": range(waiting)})
    return columns


def tournament_context(t: Tournament, user) -> dict[str, Any]:
    detail = selectors.tournament_as_dict(t)
    rows = selectors.standings(t)
    operator = selectors.is_operator(user)
    mine = selectors.my_registration(t, user)
    sizes, disqualified = {}, set()
    for pk, size, dq in t.registrations.filter(active=True).values_list("pk", "position_size", "disqualified"):
        sizes[pk] = size
        if dq:
            disqualified.add(pk)
    for r in rows:
        r["is_mine"] = mine is not None and r["_player"] == mine.player_id
        r["disqualified"] = r["_order"] in disqualified
        size = sizes.get(r["_order"], 1) if t.format == Tournament.KNOCKOUT else 1
        pos = r["position"]
        r["position_label"] = "–" if pos is None else f"{pos}–{pos + size - 1}" if size > 1 else str(pos)
    own_row = next((r for r in rows if r["is_mine"]), None)
    matches = selectors.tournament_matches(t)
    return {
        "t": t, "detail": detail, "game_name": ENGINES[t.game].name if t.game in ENGINES else t.game, "rows": rows, "operator": operator, "mine": mine, "own_row": own_row,
        "matches": matches, "my_matches": selectors.my_matches_in_play(user=user, tournament=t),
        "bracket": bracket_columns(matches, t.entrants_at_start or 0)
        if t.format == Tournament.KNOCKOUT and t.started_at else [],
        "progress": selectors.refund_progress(t) if t.status == Tournament.CANCELLED else None,
        # an authority report holds the player's money: their refund is not in their wallet
        "refund_held": own_row is not None and t.status == Tournament.CANCELLED
        and freeze_state(player_id=own_row["_player"])[1],
        "can_register": detail["registration_open"] and mine is None,
        "can_unregister": registration_window_open(t) and mine is not None,
        "prize_rows": list(enumerate(detail["payouts_cents"] or [], start=1)),
    }


def match_page_extra(tm: TournamentMatch) -> dict[str, Any]:
    """What a tournament match's page adds to the table's view: the way back to the
    tournament, offered once the match is over (no "Play again", §5.7)."""
    return {"back_url": reverse("tournaments:detail", args=[tm.tournament_id]), "tournament_match": True}


def match_page_context(*, match_id: int, user) -> dict[str, Any]:
    """A tournament match's page for one reader: the table's context of the match (their own
    seat's view, or the spectator's) with the tournament and the way back."""
    tm = selectors.tournament_match_get(match_id=match_id)
    snap = match_snapshot_current(match_id=tm.match_id)
    if snap is None:
        raise NotFoundError("No such match.")
    access = match_reader_access(match=match_get(match_id=tm.match_id), user=user)
    context = match_context(snapshot=snap, user=user, access=access)
    return {**context, **match_page_extra(tm), "t": tm.tournament, "tm": tm, "game": get_engine(snap.match.game)}
