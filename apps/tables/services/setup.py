"""Creating a table and changing its settings (platform.md §8.1, §8.2): the options checked, the cash regime's stakes (regulation.md §8), the leader's changes between matches."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from apps.audit.services import audit_record
from apps.common.errors import (
    Conflict,
    Forbidden,
    ValidationFailed,
)
from apps.common.templatetags.money import format_euro
from apps.games.engines import ENGINES
from apps.matches.regimes import regime_of, session_max_paid
from apps.matches.services import (
    stake_per_seat,
)
from apps.players.selectors import player_play_check

from .. import broadcast
from ..models import CASH, CREDITS, Match, Seat, Table
from .core import (
    FACE_WORDS,
    SETTINGS_FIELDS,
    STAKE_MAX,
    _after_seat_freed,
    _balance,
    _check_funds,
    _money_checks,
    _stand_up,
    _table_locked,
)
from .table_matches import _schedule_next_match, table_start_if_ready


def _validate_settings(data: dict[str, Any], *, game: str, current: dict[str, Any] | None = None,
                       seated: int = 0) -> dict[str, Any]:
    """Validate table settings (creation or change); 400 validation_error with ``fields``."""
    engine = ENGINES.get(game)
    fields: dict[str, list[str]] = {}
    out = dict(current or {})

    def want(name: str, check: Any, message: Any, default: Any = None) -> None:
        if name in data:
            value = data[name]
            if check(value):
                out[name] = value
            else:
                fields[name] = [message]
        elif current is None:
            out[name] = default

    def is_int(v: Any) -> bool:
        return type(v) is int

    def is_bool(v: Any) -> bool:
        return type(v) is bool

    if engine is None:
        raise ValidationFailed(_("Unknown game."), fields={"game": [_("One of: %(games)s.") % {"games": ", ".join(ENGINES)}]})
    counts = engine.player_counts
    want("players", lambda v: is_int(v) and v in counts,
         _("Players for %(game)s: %(counts)s.") % {"game": engine.name, "counts": ", ".join(map(str, counts))}, engine.min_players)
    want("stake", lambda v: is_int(v) and v >= 0, _("A non-negative amount."), 0)
    want("currency", lambda v: v in (CASH, CREDITS), _("Cash or credits."), CREDITS)
    if out.get("currency") not in engine.currencies and "currency" not in fields:
        fields["currency"] = [_("%(game)s is played for credits only.") % {"game": engine.name}
                              if engine.currencies == (CREDITS,) else _("Not for this game.")]
    want("turn_seconds", lambda v: is_int(v) and 10 <= v <= 120, _("10 to 120 seconds."), 30)
    # a Solitario table is ranked unless made practice: one seat, no stake, no robots (its score
    # goes to its leaderboard)
    want("official", is_bool, _("Yes or no."), engine.leaderboard_score)
    want("private", is_bool, _("Yes or no."), False)
    want("spectators", is_bool, _("Yes or no."), True)
    faces = engine.card_faces()  # only the decks the game can be drawn with (issue 25)
    want("face", lambda v: v == "auto" or v in faces,
         _("Cards for %(game)s: %(faces)s.") % {"game": engine.name,
                                                  "faces": ", ".join(str(FACE_WORDS[f]) for f in faces)}, "auto")
    want("game_options", lambda v: isinstance(v, dict), _("The game's options."), {})
    # only a game that hides the running points (its registration says so) can show them
    want("show_points", lambda v: is_bool(v) and (not v or engine.running_points_hidden),
         _("Yes or no.") if engine.running_points_hidden else _("This game always shows the points."), False)
    if "players" not in fields and out.get("players") is not None and out["players"] < seated:
        fields["players"] = [_("%(n)s players are seated: it cannot be fewer.") % {"n": seated}]
    if "game_options" not in fields and "players" not in fields:
        options = dict(out.get("game_options") or {})
        options.pop("knockout", None)
        try:
            engine.resolve_options(out["players"], options)
        except ValueError as exc:
            # the engine's sentence is English (engines have no Django): the API, which speaks
            # English, keeps it; a page in another language says it in its own words
            fields["game_options"] = [_("Not valid for this game: %(reason)s") % {"reason": exc}
                                      if translation.get_language() == "en"
                                      else _("These options do not go together for this game.")]
        out["game_options"] = options
    if "stake" not in fields and "currency" not in fields and out.get("stake") is not None:
        ceiling = STAKE_MAX[out["currency"]]
        if out["stake"] > ceiling:
            fields["stake"] = [_("At most %(max)s.") % {"max": format_euro(ceiling) if out["currency"] == CASH
                                                        else _("%(n)s credits") % {"n": ceiling}}]
    if not fields and not out["official"] and out["stake"] != 0:
        fields["stake"] = [_("Practice tables have no stake: it must be 0 (make the table official to play for a stake).")]
    if not fields and regime_of(currency=out["currency"], official=out["official"], stake=out["stake"]):
        fields.update(_cash_regime_errors(game, out["stake"], out.get("game_options")))
    if fields:
        raise ValidationFailed(_("The table settings are not valid."), fields=fields)
    return out


def _cash_regime_errors(game: str, stake: int, options: dict[str, Any] | None) -> dict[str, list[str]]:
    """regulation.md §8's cash regime: a stake in steps of €0,50 from €0,50 to €100, and at most
    REGIME_CASH_SESSION_MAX_CENTS one player can pay into one match (Bestia's 30 units, Scala
    40's entry and every re-entry allowed)."""
    if stake % 50 or not 50 <= stake <= 10_000:
        return {"stake": [_("At a money table the stake is a multiple of €0,50 from €0,50 to €100,00.")]}
    cap = int(getattr(settings, "REGIME_CASH_SESSION_MAX_CENTS", 100_000))
    most = session_max_paid(game, stake, options)
    if most > cap:
        return {"stake": [_("A player could pay up to %(most)s into one match; the cash regime allows at most "
                            "%(cap)s.") % {"most": format_euro(most), "cap": format_euro(cap)}]}
    return {}


def table_create(*, user: Any, data: Any, ip: str | None = None) -> Table:
    if not isinstance(data, dict):
        raise ValidationFailed(_("The body must be a JSON object."), fields={"body": [_("A JSON object.")]})
    player_play_check(user=user)
    game = data.get("game")
    if not isinstance(game, str) or game not in ENGINES:
        raise ValidationFailed(_("Unknown game."), fields={"game": [_("One of: %(games)s.") % {"games": ", ".join(ENGINES)}]})
    clean = _validate_settings(data, game=game)
    _money_checks(user, game, clean["stake"], clean["currency"], clean["game_options"], clean["official"])
    _check_funds(user, game, clean["stake"], clean["currency"], clean["game_options"])
    now = timezone.now()
    with transaction.atomic():
        table = Table.objects.create(game=game, leader=user, **{k: clean[k] for k in SETTINGS_FIELDS})
        Seat.objects.bulk_create([
            Seat(table=table, number=i, player=user if i == 0 else None, since=now if i == 0 else None,
                 ip=ip if i == 0 else None, ready=i == 0)
            for i in range(clean["players"])
        ])
    table_start_if_ready(table_id=table.pk)  # a one-seat game (Solitario) is full once its creator sits
    return table


def table_settings_update(*, user: Any, table_id: Any, data: Any) -> Table:
    if not isinstance(data, dict):
        raise ValidationFailed(_("The body must be a JSON object."), fields={"body": [_("A JSON object.")]})
    unknown = sorted(set(data) - set(SETTINGS_FIELDS))
    if unknown:
        raise ValidationFailed(_("Only the table settings can change."),
                               fields={name: [_("This setting cannot be changed.")] for name in unknown})
    with transaction.atomic():
        table = _table_locked(table_id)
        if table.leader_id != user.pk:
            raise Forbidden(_("Only the table leader can change the settings."), code="not_table_leader")
        if table.matches.filter(status=Match.PLAYING).exists():
            raise Conflict(_("Settings change only before the first match or between matches."),
                           code="match_in_progress")
        seats = list(table.seats.select_for_update().order_by("number"))
        seated = sum(1 for s in seats if s.taken)
        current = {k: getattr(table, k) for k in SETTINGS_FIELDS}
        clean = _validate_settings(data, game=table.game, current=current, seated=seated)
        changes = {k: {"old": current[k], "new": clean[k]} for k in SETTINGS_FIELDS if clean[k] != current[k]}
        if not changes:
            return table
        for name in changes:
            setattr(table, name, clean[name])
        table.settings_version += 1
        table.next_match_at = timezone.now() + timedelta(seconds=settings.SETTINGS_POSTPONE_SECONDS)
        table.save()
        if "players" in changes:
            _resize(table, seats, clean["players"])
        if table.official:
            table.seats.filter(robot=True).update(robot=False, since=None)  # robots never play officially
        need = stake_per_seat(table.game, table.stake, table.game_options) if table.official else 0
        for seat in table.seats.filter(player__isnull=False).select_related("player"):
            if need and _balance(seat.player, table.currency) < need:
                broadcast.table_notice(table_id=table.pk, user_id=seat.player_id,
                                       text=_("You were stood up: the new stake needs %(need)s.") % {
                                           "need": format_euro(need) if table.currency == CASH else _("%(n)s credits") % {"n": need}})
                _stand_up(seat)
        if table.confirm_deadline is not None:
            # between matches: every player confirms the new terms, with a fresh window
            table.seats.update(ready=False)
            table.confirm_deadline = timezone.now() + timedelta(seconds=settings.NEXT_MATCH_CONFIRM_SECONDS)
            table.save(update_fields=["confirm_deadline"])
        _after_seat_freed(table)
        audit_record(actor=user, action="table_settings", target=table, after=changes, reason="leader change")
        broadcast.table_settings_changed(table_id=table.pk, changes=changes)
        _schedule_next_match(table)
    return table


def _resize(table: Table, seats: list[Seat], players: int) -> None:
    """Change the number of seats; with fewer, the seated players move to the first seats
    (the settings check has made sure they fit)."""
    if players > len(seats):
        Seat.objects.bulk_create([Seat(table=table, number=i) for i in range(len(seats), players)])
        return
    occupants = [(s.player_id, s.robot, s.since, s.ip, s.ready) for s in seats if s.taken]
    Seat.objects.filter(table=table).delete()  # no (table, player) clash while moving people
    Seat.objects.bulk_create([
        Seat(table=table, number=i,
             **dict(zip(("player_id", "robot", "since", "ip", "ready"), occupants[i], strict=True)))
        if i < len(occupants) else Seat(table=table, number=i)
        for i in range(players)
    ])
