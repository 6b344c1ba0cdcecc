"""Reads: who may see what at a table, each seat's own view of its match, the lobby's tables."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from apps.common.errors import Conflict, NotFoundError
from apps.common.roles import COMPLIANCE, OPERATOR, STAFF_GROUPS, has_role, is_staff_member
from apps.matches.regimes import bank_share, regime_of
from apps.play.selectors import NOT_OWNED, Access
from apps.players.selectors import chat_hidden_of

from .models import Match, Seat, SocketConnection, Table, TableInvite, TableMatch
from .poker import HAND_AFTER_HAND


def _is_reviewer(user: Any) -> bool:
    return has_role(user, OPERATOR, COMPLIANCE)


def table_access(*, table: Table, user: Any, match: Match | None = None,
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
    if is_staff_member(user):
        return None
    if table.private and table.leader_id != user.pk and not TableInvite.objects.filter(
            table=table, player=user).exists():
        return None
    if not table.spectators:
        return None
    return Access(seat=None, can_chat=True)


def table_chat_state(*, table: Table, user: Any) -> str:
    """The chat box this user gets at this table: "off" (the operator switched the table's
    chat off), "hidden" (the player hid it for themselves) or "on"."""
    if not table.chat_enabled:
        return "off"
    return "hidden" if chat_hidden_of(user) else "on"


def table_chat_check(*, table: Table, user: Any) -> None:
    """409 ``chat_disabled`` when this user may not write at this table now (seed 000: the
    chat is recorded "se la stessa è abilitata")."""
    state = table_chat_state(table=table, user=user)
    if state == "off":
        raise Conflict(_("The chat is switched off at this table."), code="chat_disabled")
    if state == "hidden":
        raise Conflict(_("You have hidden the chat: show it again to write."), code="chat_disabled")


def match_table(match: Match) -> Table | None:
    """The table a match was played at (None: a tournament's match)."""
    return Table.objects.filter(match_links__match_id=match.pk).first()


def match_access_at_table(*, match: Match, user: Any) -> Access | None | object:
    """How ``user`` reads a match played at a table (the table's rules: private tables,
    spectators, staff review); ``NOT_OWNED`` for a match with no table. Registered with the
    play floor in ``TablesConfig.ready``."""
    table = match_table(match)
    if table is None:
        return NOT_OWNED
    return table_access(table=table, user=user, match=match)


def table_match_in_play(*, table_id: int) -> Match:
    """The match being played at a table; 409 match_over when there is none."""
    match = Match.objects.filter(table_link__table_id=table_id, status=Match.PLAYING).first()
    if match is None:
        raise Conflict(_("No match is being played at this table now."), code="match_over")
    return match


def _with_display(tables: QuerySet) -> QuerySet:
    """Everything ``table_as_dict`` reads, in a fixed number of queries for any number of tables."""
    return tables.select_related("leader__profile").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player__profile").order_by("number")),
        Prefetch("match_links", queryset=TableMatch.objects.filter(match__status=Match.PLAYING).select_related(
            "match").prefetch_related("match__match_seats"), to_attr="playing_links"),
        "connections",
    )


def table_list(*, game: str | None = None, user: Any = None) -> QuerySet:
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
        raise NotFoundError(_("No such table.")) from None
    table = _with_display(Table.objects.filter(pk=pk)).first()
    if table is None:
        raise NotFoundError(_("No such table."))
    return table


def table_as_dict(table: Table) -> dict[str, Any]:
    """The table as the API shows it. Reads fresh rows unless the table came from
    ``table_list``/``table_get``, which load them all at once."""
    if not hasattr(table, "playing_links"):
        table = table_get(table_id=table.pk)
    links = getattr(table, "playing_links")  # noqa: B009  (prefetched by table_get and table_list)
    match = links[0].match if links else None
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
        if table.game in HAND_AFTER_HAND:  # platform.md §8.5: who is not dealt the next hands
            seats[-1]["sitting_out"] = bool(seat.sitting_out)
    leader_profile = getattr(table.leader, "profile", None) if table.leader_id else None
    return {
        "id": table.pk, "game": table.game, "players": table.players, "stake": table.stake,
        "currency": table.currency, "turn_seconds": table.turn_seconds, "official": table.official,
        "private": table.private, "spectators": table.spectators, "game_options": table.game_options,
        "face": table.face, "show_points": table.show_points, "leader": leader_profile.nickname if leader_profile else None,
        "seats": seats, "match": match.pk if match else None, "status": table.status,
        "next_match_at": table.next_match_at.isoformat() if table.next_match_at else None,
        # regulation.md §8, §7.4: the regime, the bank's share (credits: the game's own); the
        # ADM session code joins with the ADM sessions of money matches
        "regime": regime_of(currency=table.currency, official=table.official, stake=table.stake),
        "bank_percent": bank_share(table.game, table.currency) if table.official and table.stake else 0,
        "adm_session_code": (match.adm_session_code or None) if match else None,
    }


def table_readiness(*, table_id: int) -> dict[str, Any]:
    """Who asked for the next match and who is still awaited (``POST .../ready/``)."""
    seats = Seat.objects.filter(table_id=table_id, player__isnull=False).select_related("player__profile")
    names = [(getattr(s.player, "profile", None), s.ready) for s in seats.order_by("number")]
    match = Match.objects.filter(table_link__table_id=table_id, status=Match.PLAYING).values_list(
        "pk", flat=True).first()
    return {"ready": [p.nickname for p, ready in names if p and ready],
            "waiting": [p.nickname for p, ready in names if p and not ready],
            "match": match}


def table_revision(*, table_id: int) -> int | None:
    """The table's revision: it grows after every committed change a table page shows.

    Sockets that cannot rely on pushes from other processes (the embedded layer) compare
    it with the revision they last rendered.
    """
    return Table.objects.filter(pk=table_id).values_list("revision", flat=True).first()


# -- the lobby a player lands on (issue 25) ----------------------------------------------------


def _waiting(tables: QuerySet) -> QuerySet:
    """Open public tables with a free seat that a player could sit at now: no match in play
    (a poker table deals the newcomer in at the next hand, so its hand in play does not count);
    first those where someone has the table open (a seated player who closed the page is not
    waiting), then the closest to starting (fewest free seats), then the oldest."""
    playing = TableMatch.objects.filter(table=OuterRef("pk"), match__status=Match.PLAYING)
    return (tables.filter(status=Table.OPEN, private=False)
            .annotate(free=Count("seats", filter=Q(seats__player__isnull=True, seats__robot=False)),
                      humans=Count("seats", filter=Q(seats__player__isnull=False)),
                      present=Exists(SocketConnection.objects.filter(table=OuterRef("pk"))))
            .filter(free__gt=0)
            .filter(Q(game__in=HAND_AFTER_HAND) | ~Exists(playing))
            .order_by("-present", "free", "id"))


def tables_waiting(*, limit: int = 12) -> list[dict[str, Any]]:
    """Tables waiting for players (someone is seated, a seat is free), as the lobby lists them:
    two queries whatever their number."""
    tables = _waiting(Table.objects.all()).filter(humans__gt=0)[:limit]
    tables = tables.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player__profile").order_by("number")))
    rows = []
    for t in tables:
        names = [getattr(getattr(s.player, "profile", None), "nickname", None) or "" for s in t.seats.all()
                 if s.player_id]
        rows.append({"id": t.pk, "game": t.game, "players": t.players, "free": t.free, "names": names,
                     "player_ids": [s.player_id for s in t.seats.all() if s.player_id],
                     "robots": sum(1 for s in t.seats.all() if s.robot),
                     "stake": t.stake, "currency": t.currency, "official": t.official})
    return rows


def table_ids_to_join(*, game: str, official: bool, user: Any) -> list[int]:
    """"Gioca subito": the open public tables of ``game`` a player joins with one click, with
    the settings a new table gets (no stake; practice or official as the game's default), the
    closest to starting first; never one where ``user`` is seated already."""
    tables = _waiting(Table.objects.filter(game=game, stake=0, official=official))
    return list(tables.exclude(seats__player=user).values_list("pk", flat=True)[:5])


def table_seated_waiting(*, game: str, user: Any) -> int | None:
    """The open table of ``game`` where ``user`` already has a seat (Gioca subito goes back to it)."""
    return (Table.objects.filter(status=Table.OPEN, game=game, seats__player=user)
            .order_by("-id").values_list("pk", flat=True).first())


def players_online_count() -> int:
    """Players (not staff) with a table socket open: the back office's "online now" figure."""
    return (SocketConnection.objects.exclude(user__is_superuser=True)
            .exclude(user__groups__name__in=STAFF_GROUPS).values("user").distinct().count())
