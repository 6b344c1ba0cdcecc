"""The operator's input for a tournament, checked (platform.md §5.1): what the API and the
admin form send is turned into the values ``tournament_create``/``tournament_update`` take,
or refused field by field (400 ``validation_error``); the services keep their invariants."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from apps.common.errors import ValidationFailed
from apps.games.engines import ENGINES, get_engine

from . import rules
from .models import Tournament

CREATE_FIELDS = ("name", "game", "kind", "format", "buy_in_cents", "fee_cents", "guaranteed_cents", "prize",
                 "satellite_target", "min_players", "max_players", "starts_at", "payouts", "game_options",
                 "rounds", "turn_seconds", "chat_enabled")


def _is_int(v: Any) -> bool:
    return type(v) is int


def tournament_validate(data: Any, *, current: Tournament | None = None) -> dict[str, Any]:
    """The creation rules of platform.md §5.1; 400 validation_error with ``fields`` (each
    group of fields is one check below). ``current``: the tournament being edited."""
    if not isinstance(data, dict):
        raise ValidationFailed(_("The body must be a JSON object."), fields={"body": [_("A JSON object.")]})
    base: dict[str, Any] = {}
    if current is not None:
        base = {f: getattr(current, f) for f in CREATE_FIELDS if f != "satellite_target"}
        base["satellite_target"] = current.satellite_target_id
        base["starts_at"] = current.starts_at
    fields: dict[str, list[str]] = {name: [_("Unknown field.")] for name in sorted(set(data) - set(CREATE_FIELDS))}
    d: dict[str, Any] = {**{"fee_cents": 0, "guaranteed_cents": 0, "prize": Tournament.CASH, "satellite_target": None,
            "starts_at": None, "game_options": {}, "rounds": None, "turn_seconds": 30, "payouts": None,
            "chat_enabled": True},
         **base, **{k: v for k, v in data.items() if k in CREATE_FIELDS}}
    engine = _check_identity(d, fields)
    _check_money(d, fields)
    lo, hi = _check_players(d, fields)
    starts_at = _check_start(d, data, current, fields)
    payouts = _check_payouts(d, hi, fields)
    options = _check_play(d, engine, fields)
    target = _check_satellite(d, lo, current, fields)
    if fields:
        first = next(iter(fields))
        raise ValidationFailed(_("The tournament is not valid (%(field)s: %(error)s)")
                               % {"field": first, "error": fields[first][0]}, fields=fields)
    d["starts_at"] = starts_at
    d["payouts"] = payouts
    d["game_options"] = options
    d["satellite_target"] = target
    d["name"] = d["name"].strip()
    return d


def _check_identity(d: dict[str, Any], fields: dict[str, list[str]]) -> Any:
    """The name, the game (playable heads-up), the kind and the format; the game's engine."""
    name = d.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 100 or len(name) > 100:
        fields["name"] = [_("1 to 100 characters.")]
    engine = None
    if d.get("game") not in ENGINES:
        fields["game"] = [_("A registered game: %(games)s.") % {"games": ", ".join(ENGINES)}]
    else:
        engine = get_engine(d["game"])
        if 2 not in engine.player_counts:
            fields["game"] = [_("This game cannot be played heads-up (one player a side).")]
    if d.get("kind") not in (Tournament.SIT_AND_GO, Tournament.SCHEDULED):
        fields["kind"] = [_("sit_and_go or scheduled.")]
    if d.get("format") not in (Tournament.KNOCKOUT, Tournament.POINTS):
        fields["format"] = [_("knockout or points.")]
    return engine


def _check_money(d: dict[str, Any], fields: dict[str, list[str]]) -> None:
    """The entry cost and fee (the torneo regime, regulation.md §8, its settings read now), the
    guarantee and the kind of prize."""
    entry_max = int(getattr(settings, "REGIME_TORNEO_ENTRY_MAX_CENTS", rules.ENTRY_MAX))
    fee_max = 100 - int(getattr(settings, "REGIME_TORNEO_MIN_POOL_PERCENT", 100 - rules.FEE_MAX_PERCENT))
    words = {"max": rules.euro(entry_max, decimals=entry_max % 100 != 0), "cents": entry_max, "percent": fee_max}
    fields.update({k: [_(m) % words if "%(" in m else _(m) for m in v] for k, v in rules.entry_errors(
        buy_in_cents=d.get("buy_in_cents"), fee_cents=d.get("fee_cents"), entry_max=entry_max,
        fee_max_percent=fee_max).items()})
    guaranteed = d.get("guaranteed_cents")
    if not _is_int(guaranteed) or guaranteed < 0 or guaranteed > 100_000_000:
        fields["guaranteed_cents"] = [_("A whole number of cents, 0 or more.")]
    elif d.get("buy_in_cents") == 0 and guaranteed == 0:
        fields["guaranteed_cents"] = [_("A freeroll needs a guaranteed prize pool above 0.")]
    prize = d.get("prize")
    if prize not in (Tournament.CASH, Tournament.BONUS, Tournament.SATELLITE):
        fields["prize"] = [_("cash, bonus or satellite.")]
    elif prize == Tournament.BONUS and d.get("buy_in_cents") != 0:
        fields["prize"] = [_("Bonus prizes only for a freeroll (entry cost 0).")]


def _check_players(d: dict[str, Any], fields: dict[str, list[str]]) -> tuple[Any, Any]:
    """The least and most entrants (a Sit and Go starts when full; a knockout one by powers of two)."""
    lo, hi = d.get("min_players"), d.get("max_players")
    if d.get("kind") == Tournament.SIT_AND_GO and lo is None:
        lo = d["min_players"] = hi
    if not _is_int(hi) or not rules.PLAYERS_MIN <= hi <= rules.PLAYERS_MAX:
        fields["max_players"] = [_("A whole number from 2 to 512.")]
    if not _is_int(lo) or not rules.PLAYERS_MIN <= lo <= rules.PLAYERS_MAX:
        fields["min_players"] = [_("A whole number from 2 to 512.")]
    elif "max_players" not in fields and lo > hi:
        fields["min_players"] = [_("At most max_players.")]
    if d.get("kind") == Tournament.SIT_AND_GO and "max_players" not in fields:
        if _is_int(lo) and lo != hi:
            fields["min_players"] = [_("A Sit and Go starts when full: min_players equals max_players.")]
        if d.get("format") == Tournament.KNOCKOUT and hi & (hi - 1):
            fields["max_players"] = [_("A knockout Sit and Go needs a power of two (2, 4, 8, 16, ...).")]
    return lo, hi


def _check_start(d: dict[str, Any], data: dict[str, Any], current: Tournament | None,
                 fields: dict[str, list[str]]) -> datetime | None:
    """A scheduled tournament's start, in the future; a Sit and Go has none."""
    starts_at = d.get("starts_at")
    if isinstance(starts_at, str):
        parsed = parse_datetime(starts_at) if "\x00" not in starts_at else None
        if parsed is None or parsed.tzinfo is None:
            fields["starts_at"] = [_("An ISO 8601 date and time with its time zone.")]
        starts_at = parsed
    if d.get("kind") == Tournament.SCHEDULED:
        if not isinstance(starts_at, datetime):
            fields.setdefault("starts_at", [_("Required for a scheduled tournament.")])
        elif starts_at <= timezone.now() and (current is None or "starts_at" in data):
            fields["starts_at"] = [_("It must be in the future.")]
    elif d.get("kind") == Tournament.SIT_AND_GO:
        if starts_at is not None:
            fields["starts_at"] = [_("A Sit and Go has no start time: it starts when full.")]
        starts_at = None
    return starts_at


def _check_payouts(d: dict[str, Any], hi: Any, fields: dict[str, list[str]]) -> Any:
    """The prize split: whole percentages, non-increasing, summing to 100 (a satellite: [100])."""
    payouts = d.get("payouts")
    if payouts is None and d.get("prize") == Tournament.SATELLITE:
        payouts = [100]
    if (not isinstance(payouts, list) or not payouts or not all(_is_int(p) and 1 <= p <= 100 for p in payouts)
            or sum(payouts) != 100 or any(a < b for a, b in zip(payouts, payouts[1:], strict=False))):
        fields["payouts"] = [_("Whole percentages from 1 to 100, non-increasing, summing to 100.")]
    elif _is_int(hi) and len(payouts) > hi:
        fields["payouts"] = [_("At most max_players places.")]
    return payouts


def _check_play(d: dict[str, Any], engine: Any, fields: dict[str, list[str]]) -> Any:
    """How the matches are played: rounds (points format), seconds a turn, the chat, the game's
    options (checked by its engine); the options to keep."""
    rounds = d.get("rounds")
    if rounds is not None:
        if d.get("format") != Tournament.POINTS:
            fields["rounds"] = [_("Only for the points format.")]
        elif not _is_int(rounds) or not 1 <= rounds <= 15:
            fields["rounds"] = [_("From 1 to 15.")]
    turn = d.get("turn_seconds")
    if not _is_int(turn) or not 10 <= turn <= 120:
        fields["turn_seconds"] = [_("From 10 to 120 seconds.")]
    if type(d.get("chat_enabled")) is not bool:
        fields["chat_enabled"] = [_("true or false")]
    options = d.get("game_options")
    if engine is not None and "game" not in fields:
        if not isinstance(options, dict):
            fields["game_options"] = [_("A JSON object of the game's options.")]
        else:
            options = {k: v for k, v in options.items() if k != "knockout"}
            try:
                engine.resolve_options(2, options)
            except ValueError as exc:
                fields["game_options"] = [str(exc)]
    return options


def _check_satellite(d: dict[str, Any], lo: Any, current: Tournament | None,
                     fields: dict[str, list[str]]) -> Tournament | None:
    """A satellite's target: an open tournament with an entry cost whose seat the least pool covers."""
    target = None
    target_id = d.get("satellite_target")
    if d.get("prize") == Tournament.SATELLITE:
        if not _is_int(target_id):
            fields["satellite_target"] = [_("The id of the tournament whose seats this satellite awards.")]
        else:
            target = Tournament.objects.filter(pk=target_id).first()
            if (target is None or target.status != Tournament.OPEN or target.buy_in_cents <= 0
                    or target.prize == Tournament.BONUS or (current is not None and target.pk == current.pk)):
                fields["satellite_target"] = [_("An open tournament with an entry cost, paying cash or seats.")]
            elif not fields.keys() & {"buy_in_cents", "fee_cents", "min_players", "guaranteed_cents"}:
                least = max(lo * (d["buy_in_cents"] - d["fee_cents"]), d.get("guaranteed_cents"))
                if least < target.buy_in_cents:
                    fields["satellite_target"] = [
                        _("With min_players entrants the pool must cover at least one seat of the target.")]
    elif target_id is not None:
        fields["satellite_target"] = [_("Only for prize 'satellite'.")]
    return target
