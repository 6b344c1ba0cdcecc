"""Tables and seats (platform.md §8.1-§8.3): create, sit, leave, robots, invitations, settings.

The table row is locked (``select_for_update``) whenever seats change, so two players
racing for the last seat get exactly one winner, and a match starts exactly once. Every
path that also touches the table's match locks the table first, then the match (the one
lock order, written down in ``apps/matches/services.py``); the match's own paths never
lock the table, and what they tell the table (a match ended, a seat was abandoned) comes
after their commit through the matches app's signals (``receivers.py``).

A match starts only when every seat is taken and every seated human asked for it: sitting
down asks for one, the end of a match clears every request, and "Gioca ancora"
(``table_ready``) asks again. The end reaches the table after the match's commit (the
matches app's ``match_finished``); until the table has handled it (``TableMatch.ended``)
no next match starts on a request made before it. Whoever has not asked 60 seconds after the end is stood up,
charged nothing (platform.md §8.1).
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from typing import Any

from celery import signature
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from apps.audit.services import audit_record
from apps.common.errors import (
    Conflict,
    DomainError,
    Forbidden,
    InsufficientFunds,
    NicknameRequired,
    NotFoundError,
    StaffCannotPlay,
    ValidationFailed,
    survivors_run,
)
from apps.common.roles import is_staff_member
from apps.common.templatetags.money import format_euro
from apps.compliance.selectors import sanction_check_lobby
from apps.conto.gates import (
    MONEY_TABLE,
    money_play_gate,
    money_play_refusal,
    money_play_spend,
    play_time_gate,
)
from apps.games.engines import ENGINES
from apps.matches.regimes import regime_of, session_max_paid
from apps.matches.services import (
    StakesShort,
    match_abandon,
    match_action_apply,
    match_seat_presence,
    stake_per_seat,
)
from apps.players.models import Profile
from apps.players.selectors import nickname_of
from apps.wallet.selectors import wallet_get

from . import broadcast, poker
from .adm_open import adm_match_abandoned, adm_match_link, adm_match_open
from .dealing import table_match_begin
from .models import CASH, CREDITS, Match, Seat, SocketConnection, Table, TableInvite, TableMatch
from .render import snapshot_moved
from .selectors import table_access, table_ids_to_join, table_seated_waiting

#: the tables' Celery task (``tasks.py``), enqueued by name: the task calls these services
NEXT_MATCH_TASK = "apps.tables.tasks.next_match"

#: a table's stake per match and seat (platform.md §12): €100 is the Italian skill-game ceiling
STAKE_MAX = {CASH: 10_000, CREDITS: 1_000_000}
#: the card faces as the create-table form names them
FACE_WORDS = {"italian": gettext_lazy("Italian"), "french": gettext_lazy("French")}
SETTINGS_FIELDS = ("turn_seconds", "official", "stake", "currency", "private", "spectators", "game_options",
                   "players", "face", "show_points")


def _player_checks(user) -> None:
    """nickname_required, staff_cannot_play, sanctioned: the order of platform.md §8.1."""
    if not nickname_of(user):
        if is_staff_member(user):
            raise StaffCannotPlay()
        raise NicknameRequired()
    if is_staff_member(user):
        raise StaffCannotPlay()
    sanction_check_lobby(player=user)


def _balance(user, currency: str) -> int:
    wallet = wallet_get(player=user)
    return wallet["cash_cents"] if currency == CASH else wallet["credits"]


def _money_table(table: Table | None) -> bool:
    """A money table (regulation.md, conventions): cash, with a stake taken."""
    return table is not None and table.currency == CASH and table.official and table.stake > 0


def _table_pk(table_id: Any) -> int:
    try:
        return int(table_id)
    except (TypeError, ValueError):
        return 0


def _money_checks(user, game: str, stake: int, currency: str, options: dict[str, Any] | None, official: bool) -> None:
    """A new table (regulation.md §4.4): money tables the conto's gate; every table the time
    limit and the reality check; money tables the spend limit for one match's stake."""
    money = currency == CASH and official and stake
    if money:
        money_play_gate(user=user, what=MONEY_TABLE)
    play_time_gate(user=user)
    if money:
        money_play_spend(user=user, amount=stake_per_seat(game, stake, options))


def _money_seats_refused(table: Table, humans: list[Seat], need: int) -> bool:
    """A money match's start (regulation.md §4.4): a seat whose conto may not play now, or whose
    spend limit the stake would pass, is stood up like one who cannot cover it; the match waits."""
    refused = [(seat, code) for seat in humans
               if (code := money_play_refusal(user=seat.player, what=MONEY_TABLE, amount=need))]
    for seat, code in refused:
        text = (gettext_noop("You were stood up: this stake would pass your spending limit.")
                if code == "spend_limit_exceeded" else
                gettext_noop("You were stood up: your gaming account cannot play for money now."))
        broadcast.table_notice(table_id=table.pk, user_id=seat.player_id, text=text)
        _stand_up(Seat.objects.select_for_update().get(pk=seat.pk))
    if refused:
        _after_seat_freed(table)
        broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
    return bool(refused)


def _check_funds(user, game: str, stake: int, currency: str, options: dict[str, Any] | None = None) -> None:
    need = stake_per_seat(game, stake, options)
    if not need:
        return
    balance = _balance(user, currency)
    if balance < need:
        if currency == CASH:
            raise InsufficientFunds(_("Sitting here needs %(need)s in cash (bonus does not count): your balance is "
                                      "%(balance)s.") % {"need": format_euro(need), "balance": format_euro(balance)})
        raise InsufficientFunds(_("Sitting here needs %(need)s credits: your balance is %(balance)s.")
                                % {"need": need, "balance": balance})


def _validate_settings(data: dict[str, Any], *, game: str, current: dict[str, Any] | None = None,
                       seated: int = 0) -> dict[str, Any]:
    """Validate table settings (creation or change); 400 validation_error with ``fields``."""
    engine = ENGINES.get(game)
    fields: dict[str, list[str]] = {}
    out = dict(current or {})

    def want(name, check, message, default=None):
        if name in data:
            value = data[name]
            if check(value):
                out[name] = value
            else:
                fields[name] = [message]
        elif current is None:
            out[name] = default

    def is_int(v):
        return type(v) is int

    def is_bool(v):
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


def _table_locked(table_id: Any) -> Table:
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None or table.status != Table.OPEN:
        raise NotFoundError(_("No such table."))
    return table


def _can_enter(table: Table, user) -> bool:
    return (not table.private or table.leader_id == user.pk
            or TableInvite.objects.filter(table=table, player=user).exists())


def table_create(*, user, data: Any, ip: str | None = None) -> Table:
    if not isinstance(data, dict):
        raise ValidationFailed(_("The body must be a JSON object."), fields={"body": [_("A JSON object.")]})
    _player_checks(user)
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


def table_sit(*, user, table_id: Any, seat: Any = None, ip: str | None = None) -> Table:
    _player_checks(user)
    money = _money_table(Table.objects.filter(pk=_table_pk(table_id)).first())
    if money:
        money_play_gate(user=user, what=MONEY_TABLE)  # regulation.md §4.4, before the table's own checks
    play_time_gate(user=user)
    with transaction.atomic():
        table = _table_locked(table_id)
        _close_ended_matches(table)
        if not _can_enter(table, user):
            raise Forbidden(_("This table is private: only invited players can sit."), code="private_table")
        seats = list(table.seats.select_for_update().order_by("number"))
        if any(s.player_id == user.pk for s in seats):
            raise Conflict(_("You are already seated at this table."), code="already_seated")
        free = [s for s in seats if not s.taken]
        if seat is not None:
            if type(seat) is not int or not 0 <= seat < table.players:
                raise ValidationFailed(_("No such seat."), fields={"seat": [_("0 to %(last)s.") % {"last": table.players - 1}]})
            if not free:
                raise Conflict(_("The table is full."), code="table_full")
            chosen = next((s for s in seats if s.number == seat), None)
            if chosen is None or chosen.taken:
                raise Conflict(_("That seat is taken."), code="seat_taken")
        else:
            if not free:
                raise Conflict(_("The table is full."), code="table_full")
            chosen = free[0]
        if _money_table(table):
            money_play_spend(user=user, amount=stake_per_seat(table.game, table.stake, table.game_options))
        _check_funds(user, table.game, table.stake, table.currency, table.game_options)
        chosen.player = user
        chosen.since = timezone.now()
        chosen.ip = ip
        chosen.ready = True  # sitting down asks for the next match
        chosen.sitting_out, chosen.sitting_out_since, chosen.chips = "", None, None
        chosen.save(update_fields=["player", "since", "ip", "ready", "sitting_out", "sitting_out_since", "chips"])
        if table.empty_since is not None:
            table.empty_since = None
            table.save(update_fields=["empty_since"])
        broadcast.table_changed(table_id=table.pk, match_id=None, version=_current_version(table))
    table_start_if_ready(table_id=table.pk)
    return table


def _current_version(table: Table) -> int:
    match = table.matches.filter(status=Match.PLAYING).first()
    return match.version if match else 0


def table_robot_add(*, user, table_id: Any, seat: Any) -> Table:
    with transaction.atomic():
        table = _table_locked(table_id)
        if table.leader_id != user.pk:
            raise Forbidden(_("Only the table leader can add robots."), code="not_table_leader")
        if table.official:
            raise Conflict(_("Robots play only at practice tables: they never play for money or XP."),
                           code="robots_practice_only")
        if type(seat) is not int or not 0 <= seat < table.players:
            raise ValidationFailed(_("No such seat."), fields={"seat": [_("0 to %(last)s.") % {"last": table.players - 1}]})
        chosen = table.seats.select_for_update().get(number=seat)
        if chosen.taken:
            raise Conflict(_("That seat is taken."), code="seat_taken")
        chosen.robot = True
        chosen.since = timezone.now()
        chosen.save(update_fields=["robot", "since"])
        broadcast.table_changed(table_id=table.pk, match_id=None, version=_current_version(table))
    table_start_if_ready(table_id=table.pk)
    return table


def table_invite(*, user, table_id: Any, nickname: Any) -> TableInvite:
    with transaction.atomic():
        table = _table_locked(table_id)
        if table.leader_id != user.pk:
            raise Forbidden(_("Only the table leader can invite."), code="not_table_leader")
        if not isinstance(nickname, str):
            raise ValidationFailed(_("Whom to invite?"), fields={"nickname": [_("A nickname.")]})
        profile = Profile.objects.filter(nickname__iexact=nickname).select_related("user").first()
        if profile is None:
            raise ValidationFailed(_("No player has that nickname."), fields={"nickname": [_("Unknown nickname.")]})
        invite, _created = TableInvite.objects.get_or_create(table=table, player=profile.user)
        broadcast.table_notice(table_id=table.pk, user_id=profile.user_id,
                               text=gettext_noop("%(nickname)s invited you to table %(table)s."),
                               params={"nickname": nickname_of(user), "table": table.pk})
    return invite


def table_leave(*, user, table_id: Any) -> Table:
    with transaction.atomic():
        table = _table_locked(table_id)
        seat = table.seats.select_for_update().filter(player=user).first()
        if seat is None:
            raise Conflict(_("You are not seated at this table."), code="not_seated")
        match = table.matches.select_for_update().filter(status=Match.PLAYING).first()
        if poker.is_poker(table) and match is not None and match.match_seats.filter(player=user).exists():
            # leaving forfeits the hand at once (folded out of turn, seed 001); players stand
            # up only between hands: the seat is freed when the hand ends (platform.md §8.5)
            poker.sit_out(seat, poker.LEAVING)
            match_abandon(match=match, seat=match.match_seats.get(player=user).number)
            broadcast.table_changed(table_id=table.pk, match_id=match.pk, version=match.version)
            return table
        if match is not None and match.match_seats.filter(player=user).exists():
            # leaving during a match is an abandonment: the robot takes the seat (§8.6)
            match_abandon(match=match, seat=match.match_seats.get(player=user).number)
        _stand_up(seat)
        _after_seat_freed(table)
        broadcast.table_changed(table_id=table.pk, match_id=None, version=_current_version(table))
    return table


def _stand_up(seat: Seat) -> None:
    seat.player, seat.since, seat.ip, seat.ready = None, None, None, False
    seat.sitting_out, seat.sitting_out_since, seat.chips = "", None, None
    seat.save(update_fields=["player", "since", "ip", "ready", "sitting_out", "sitting_out_since", "chips"])


def _after_seat_freed(table: Table) -> None:
    humans = list(table.seats.filter(player__isnull=False).order_by("since", "number"))
    changed = []
    if table.leader_id not in {s.player_id for s in humans}:
        table.leader_id = humans[0].player_id if humans else table.leader_id
        changed.append("leader")
    if not humans and table.empty_since is None:
        table.empty_since = timezone.now()
        changed.append("empty_since")
    if changed:
        table.save(update_fields=changed)


def table_settings_update(*, user, table_id: Any, data: Any) -> Table:
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


# -- matches at a table -------------------------------------------------------------------


def _maybe_start(table: Table) -> Match | None:
    """Start a match when every seat is taken, every seated human asked for it, at least
    one human is seated (robots never play on alone), no match runs or awaits the table's
    handling of its end, and no pause is pending."""
    _close_ended_matches(table)
    if table.match_links.filter(ended=False).exists():
        return None
    if table.next_match_at is not None and table.next_match_at > timezone.now():
        _schedule_next_match(table)
        return None
    if poker.is_poker(table):  # a hand for everyone not sitting out, no confirmation (§8.5)
        return poker.hand_deal(table)
    seats = list(table.seats.order_by("number"))
    if len(seats) != table.players or not all(s.taken for s in seats):
        if table.next_match_at is not None:  # the pause is over: the next full table starts at once
            table.next_match_at = None
            table.save(update_fields=["next_match_at"])
        return None
    humans = [s for s in seats if s.player_id]
    if not humans or not all(s.ready for s in humans):
        return None
    need = stake_per_seat(table.game, table.stake, table.game_options) if table.official else 0
    if need and table.currency == CASH and _money_seats_refused(table, humans, need):
        return None
    opening = None
    if need and table.currency == CASH:  # regulation.md §7.3: ADM validates the match before any stake
        opening = adm_match_open(table=table, humans=humans, need=need)
        if opening is None:
            return None
    # StakesShort (someone cannot cover the stake) rolls back the new match and every stake
    # taken for it: table_start_if_ready stands them up (ADM is told the participations are off)
    try:
        match = table_match_begin(table=table, seats=seats, options=table.game_options, currency=table.currency,
                                  stakes={s.number: need for s in seats if s.player_id} if need else None)
    except StakesShort as exc:
        if opening is not None:
            adm_match_abandoned(exc, opening)
        raise
    if opening is not None:
        adm_match_link(match=match, opening=opening)
    return match


def table_start_if_ready(*, table_id: int) -> Match | None:
    """Start the next match if it is due; players who cannot cover the stake are stood up."""
    for _attempt in range(3):
        try:
            with transaction.atomic():
                table = Table.objects.select_for_update().filter(pk=table_id, status=Table.OPEN).first()
                if table is None:
                    return None
                return _maybe_start(table)
        except StakesShort as stood:
            survivors_run(stood)  # ADM's answers to a start that rolled back
            with transaction.atomic():
                table = Table.objects.select_for_update().get(pk=table_id)  # the table first, then seats
                if poker.is_poker(table):  # credits moved since they were read: they sit out
                    poker.short_sit_out(table_id=table_id, players=stood.players)
                    broadcast.table_changed(table_id=table_id, match_id=None, version=0)
                    continue
                for seat in Seat.objects.select_for_update().filter(table_id=table_id, player_id__in=stood.players):
                    broadcast.table_notice(table_id=table_id, user_id=seat.player_id,
                                           text=gettext_noop("You were stood up: you cannot cover the stake."))
                    _stand_up(seat)
                _after_seat_freed(table)
                broadcast.table_changed(table_id=table_id, match_id=None, version=0)
    return None


def table_after_match(*, match_id: int) -> bool:
    """A match at this table ended (``match_finished``, after its commit): its end is
    handled (``_close_ended_matches``). Does nothing for a match of no table or one already
    handled: safe to run twice (the tick runs it for an end whose hook was lost)."""
    table_id = TableMatch.objects.filter(match_id=match_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        return table is not None and _close_ended_matches(table)


def _close_ended_matches(table: Table) -> bool:
    """Between matches (platform.md §8.1): once a match has ended, nobody has asked for the
    next one yet, and the window to ask closes 60 seconds from now. Call holding the table's
    lock; every path that may start or ask for a match calls it first, so a request made
    before the end never starts the next match, even before the hook has run."""
    ended = list(TableMatch.objects.filter(table=table, ended=False).exclude(match__status=Match.PLAYING)
                 .select_related("match"))
    if not TableMatch.objects.filter(pk__in=[link.pk for link in ended]).update(ended=True):
        return False
    if poker.is_poker(table):  # the next hand in 5 seconds, with no confirmation (§8.5)
        for link in ended:
            for seat in poker.after_hand(table, link.match):
                _stand_up(seat)
        _after_seat_freed(table)
        _schedule_next_match(table)
        broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
        return True
    table.seats.update(ready=False)
    table.next_match_at = None
    table.confirm_deadline = timezone.now() + timedelta(seconds=settings.NEXT_MATCH_CONFIRM_SECONDS)
    table.save(update_fields=["next_match_at", "confirm_deadline"])
    broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
    return True


def table_seat_abandoned(*, match_id: int, player_id: int) -> bool:
    """A player's seat in this table's match was forfeited (``match_seat_abandoned``):
    they are stood up at the table too, unless they already left."""
    table_id = TableMatch.objects.filter(match_id=match_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return False
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            return False
        seat = table.seats.select_for_update().filter(player_id=player_id).first()
        if seat is None:
            return False
        if poker.is_poker(table) and seat.sitting_out != poker.LEAVING and not _kept_out(seat.player):
            # a dropped (or idle) player's hand is forfeited, not their seat: they sit out,
            # and are stood up after 5 minutes (§8.5)
            poker.sit_out(seat, poker.AWAY)
            broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
            return True
        if poker.is_poker(table) and Match.objects.filter(pk=match_id, status=Match.PLAYING).exists():
            poker.sit_out(seat, poker.LEAVING)  # freed when the hand ends, not during it
            broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
            return True
        _stand_up(seat)
        _after_seat_freed(table)
        broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
    return True


def _kept_out(user) -> bool:
    """A sanction keeps the player out of the lobby (their seat goes, not just their hand)."""
    try:
        sanction_check_lobby(player=user)
    except DomainError:
        return True
    return False


def table_move(*, table_id: int, user, action: Any, version: Any, seat: int | None = None) -> Match:
    """A player's move at a table (the socket's move frame): the match in play is found by
    the locking read itself (issue 15: a move costs no separate read of the table's match)."""
    return match_action_apply(match_id=None, where={"table_link__table_id": table_id}, action=action,
                              version=version, user=user, seat=seat)


def table_match_changed(*, match_id: int, version: int, move: dict[str, Any] | None = None) -> bool:
    """A match at this table changed (``match_changed``, after commit): the table's revision
    grows and its sockets are told ("table changed, revision r", no card), so every socket
    re-renders it. One statement; never fails the caller. A move made in this process also
    leaves the new revision's snapshot in the process's cache, so the sockets here draw it
    without reading the table back (``render.snapshot_moved``). False when no table holds the
    match (or the revision could not be advanced): matches then pushes to the match's group."""
    advanced = broadcast.table_revision_advance(match_id=match_id)
    if advanced is None:
        return False
    table_id, revision = advanced
    message: dict[str, Any] = {"type": "table.changed", "version": version, "match": match_id}
    if move is not None:
        message["move"] = True  # only the match row and its log row changed
        snapshot_moved(table_id=table_id, revision=revision, **move)
    message["revision"] = revision  # sockets that drew it already skip the push
    broadcast.push_now(broadcast.table_group(table_id), message)
    return True


def table_ready(*, user, table_id: Any) -> Match | None:
    """The player asks for the next match ("Gioca ancora"). The request that completes the
    set starts it at once (stakes taken then); asking twice changes nothing."""
    _player_checks(user)
    with transaction.atomic():
        table = _table_locked(table_id)
        _close_ended_matches(table)
        seat = table.seats.select_for_update().filter(player=user).first()
        if seat is None:
            raise Conflict(_("You are not seated at this table."), code="not_seated")
        if table.matches.filter(status=Match.PLAYING).exists():
            raise Conflict(_("A match is being played: confirm the next one when it is over."),
                           code="match_in_progress")
        if seat.ready:
            return None
        if _money_table(table):
            money_play_gate(user=user, what=MONEY_TABLE)
        play_time_gate(user=user)
        if _money_table(table):
            money_play_spend(user=user, amount=stake_per_seat(table.game, table.stake, table.game_options))
        seat.ready = True
        seat.save(update_fields=["ready"])
        broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
    return table_start_if_ready(table_id=table.pk)


def table_confirmations_expire(*, table_id: int) -> int:
    """The window after a match closed: stand up every seated human who did not ask for
    the next match (nothing is charged to them). Returns how many were stood up."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id, status=Table.OPEN).first()
        if (table is None or table.confirm_deadline is None or table.confirm_deadline > timezone.now()
                or table.matches.filter(status=Match.PLAYING).exists()):
            return 0
        late = list(table.seats.select_for_update().filter(player__isnull=False, ready=False))
        for seat in late:
            broadcast.table_notice(table_id=table.pk, user_id=seat.player_id, text=gettext_noop(
                "You were stood up: you did not confirm the next match within %(seconds)s seconds. Nothing was charged."),
                params={"seconds": settings.NEXT_MATCH_CONFIRM_SECONDS})
            _stand_up(seat)
        table.confirm_deadline = None
        table.save(update_fields=["confirm_deadline"])
        _after_seat_freed(table)
        broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
    return len(late)


def table_sit_out(*, user, table_id: Any, out: Any) -> dict[str, Any]:
    """Poker's sit-out toggle (platform.md §8.5): out of the next hands, or back in; no
    confirmation. Coming back in may let a hand be dealt at once."""
    with transaction.atomic():
        table = _table_locked(table_id)
        seat = table.seats.select_for_update().filter(player=user).first()
        if seat is None:
            raise Conflict(_("You are not seated at this table."), code="not_seated")
        poker.seat_sit_out(table=table, seat=seat, out=out)
        broadcast.table_changed(table_id=table.pk, match_id=None, version=_current_version(table))
    if out is False:
        table_start_if_ready(table_id=table.pk)
    return {"out": bool(out), "sitting_out": [
        nickname_of(s.player) for s in Seat.objects.filter(table_id=table.pk, player__isnull=False)
        .exclude(sitting_out="").select_related("player__profile").order_by("number")]}


def table_sit_out_expire(*, table_id: int, seat_id: int) -> int:
    """A player sitting out for 5 minutes is stood up (between hands, charged nothing)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        seat = Seat.objects.select_for_update().filter(pk=seat_id).first()
        cutoff = timezone.now() - timedelta(seconds=settings.POKER_SIT_OUT_STAND_UP_SECONDS)
        if (table is None or seat is None or not seat.player_id or seat.sitting_out in ("", poker.LEAVING)
                or seat.sitting_out_since is None or seat.sitting_out_since > cutoff):
            return 0
        broadcast.table_notice(table_id=table.pk, user_id=seat.player_id,
                               text=gettext_noop("You were stood up: you sat out for 5 minutes."))
        _stand_up(seat)
        _after_seat_freed(table)
        broadcast.table_changed(table_id=table.pk, match_id=None, version=_current_version(table))
    return 1


def _schedule_next_match(table: Table) -> None:
    if table.next_match_at is None:
        return
    delay = max(0.0, (table.next_match_at - timezone.now()).total_seconds())
    table_id = table.pk
    transaction.on_commit(lambda: signature(NEXT_MATCH_TASK, args=(table_id,)).apply_async(countdown=delay + 0.05))


def table_next_match_due(*, table_id: int) -> bool:
    """The next-match task: start it if its pause is over (an eager countdown runs at once
    and must do nothing; the tick or a later task starts it then)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or (table.next_match_at is not None and table.next_match_at > timezone.now()):
        return False
    return table_start_if_ready(table_id=table_id) is not None


def tables_due_work() -> int:
    """The tick's share for tables: dead connections, next matches that are due, players who
    did not confirm the next match in time, idle tables to close, and the end of a match
    whose hook was lost (its process died between the commit and the hook)."""
    done = socket_connections_expire()
    lost = TableMatch.objects.filter(ended=False).exclude(match__status=Match.PLAYING)
    for match_id in lost.values_list("match_id", flat=True):
        done += table_after_match(match_id=match_id)
    now = timezone.now()
    for table_id in Table.objects.filter(status=Table.OPEN, next_match_at__lte=now).values_list("pk", flat=True):
        if table_start_if_ready(table_id=table_id) is not None:
            done += 1
    for table_id in Table.objects.filter(status=Table.OPEN, confirm_deadline__lte=now).values_list("pk", flat=True):
        done += table_confirmations_expire(table_id=table_id)
    for seat in poker.sitting_out_expire(now=now):
        done += table_sit_out_expire(table_id=seat.table_id, seat_id=seat.pk)
    idle = now - timedelta(seconds=settings.TABLE_IDLE_CLOSE_SECONDS)
    for table in Table.objects.filter(status=Table.OPEN, empty_since__lte=idle):
        with transaction.atomic():
            locked = Table.objects.select_for_update().get(pk=table.pk)
            if locked.empty_since and locked.empty_since <= idle and not locked.seats.filter(
                    player__isnull=False).exists() and not locked.matches.filter(status=Match.PLAYING).exists():
                locked.status = Table.CLOSED
                locked.closed_at = now
                locked.save(update_fields=["status", "closed_at"])
                done += 1
    return done


# -- sockets -----------------------------------------------------------------------------------


_PROCESS: tuple[int, str] = (0, "")


def socket_process() -> str:
    """This process's identity on its connection rows: the pid and a random boot token
    (a pid is reused after a restart; the token is not)."""
    global _PROCESS
    if _PROCESS[0] != os.getpid():
        _PROCESS = (os.getpid(), f"{os.getpid()}-{secrets.token_hex(6)}")
    return _PROCESS[1]


def seat_connection_changed(*, table_id: int, user) -> None:
    """Recompute whether a seated player is connected and tell the table's match
    (the robot plays for one who is not). Locks the table, then the match."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            return
        match = table.matches.select_for_update().filter(status=Match.PLAYING).first()  # table, then match
        if match is None:
            return
        connected = SocketConnection.objects.filter(table_id=table_id, user=user).exists()
        match_seat_presence(match=match, player_id=user.pk, connected=connected)


def socket_connected(*, table_id: int, user, channel_name: str) -> None:
    SocketConnection.objects.update_or_create(
        channel_name=channel_name,
        defaults={"renewed": timezone.now()},
        create_defaults={"table_id": table_id, "user": user, "renewed": timezone.now(),
                         "server": settings.SERVER_NAME, "process": socket_process()})
    broadcast.table_touched(table_id=table_id)
    seat_connection_changed(table_id=table_id, user=user)
    _poker_connection(table_id=table_id, user=user)


def _poker_connection(*, table_id: int, user) -> None:
    """Poker: a player whose last socket closed sits out; one whose socket opens comes back in."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id, game__in=poker.HAND_AFTER_HAND).first()
        if table is not None:
            poker.connection_changed(table=table, user=user)


def socket_renew(*, table_id: int, user, channel_name: str) -> None:
    """The socket's heartbeat renews its lease. A row the tick removed meanwhile (this
    process stalled past the lease) is written again: the player takes the seat back."""
    if not SocketConnection.objects.filter(channel_name=channel_name).update(renewed=timezone.now()):
        socket_connected(table_id=table_id, user=user, channel_name=channel_name)


def _connections_remove(rows) -> int:
    """Remove dead connection rows; every seat that lost its last one is disconnected (robot, grace)."""
    lost: set[tuple[int, int]] = set()
    for pk, table_id, user_id in rows.values_list("pk", "table_id", "user_id"):
        # the condition again in the delete: a row renewed since the read stays
        if rows.filter(pk=pk).delete()[0]:
            lost.add((table_id, user_id))
    users = get_user_model().objects.in_bulk({user_id for _, user_id in lost})
    by_table: dict[int, list[int]] = {}
    for table_id, user_id in sorted(lost):
        by_table.setdefault(table_id, []).append(user_id)
    for table_id, user_ids in by_table.items():
        # one transaction a table: players lost together (a server killed or restarted) are
        # gone at once, so their match waits for them instead of robots playing it alone
        with transaction.atomic():
            broadcast.table_touched(table_id=table_id)
            for user_id in user_ids:
                seat_connection_changed(table_id=table_id, user=users[user_id])
        for user_id in user_ids:
            _poker_connection(table_id=table_id, user=users[user_id])
    return len(lost)


def socket_connections_expire() -> int:
    """The tick's share (platform.md §10.1): rows whose lease ran out belong to dead sockets."""
    cutoff = timezone.now() - timedelta(seconds=settings.WS_LEASE_SECONDS)
    return _connections_remove(SocketConnection.objects.filter(renewed__lt=cutoff))


def socket_server_started(*, server: str) -> int:
    """A server that starts removes the rows its earlier processes of the same name left behind."""
    if not server:
        return 0
    return _connections_remove(SocketConnection.objects.filter(server=server).exclude(process=socket_process()))


def socket_disconnected(*, table_id: int, user, channel_name: str) -> None:
    SocketConnection.objects.filter(channel_name=channel_name).delete()
    broadcast.table_touched(table_id=table_id)
    seat_connection_changed(table_id=table_id, user=user)
    _poker_connection(table_id=table_id, user=user)


def table_watch(*, user, table_id: Any) -> Table:
    """A player asks to watch: allowed when the table lets spectators in (and invites them)."""
    table = Table.objects.filter(pk=table_id, status=Table.OPEN).first()
    if table is None:
        raise NotFoundError(_("No such table."))
    if not is_staff_member(user):
        _player_checks(user)
    access = table_access(table=table, user=user)
    if access is None:
        raise Forbidden(_("Spectators are not allowed at this table."),
                        code="private_table" if table.private else "permission_denied")
    return table



#: a refusal that only means "this table, not another": Gioca subito tries the next one
_TAKEN_MEANWHILE = ("table_full", "seat_taken", "already_seated")


def table_play_now(*, user, game: Any, ip: str | None = None) -> Table:
    """"Gioca subito": seat ``user`` at the first open public table of ``game`` with a new
    table's settings (no stake, practice or official as the game's default), or open such a
    table. A player already seated at a table of that game goes back to it. Refusals are the
    ones of sitting (platform.md §8.1), in the same order."""
    if not isinstance(game, str) or game not in ENGINES:
        raise ValidationFailed(_("Unknown game."), fields={"game": [_("One of: %(games)s.") % {"games": ", ".join(ENGINES)}]})
    _player_checks(user)
    seated = table_seated_waiting(game=game, user=user)
    if seated is not None:
        return Table.objects.get(pk=seated)
    defaults = _validate_settings({}, game=game)
    for table_id in table_ids_to_join(game=game, official=defaults["official"], user=user):
        try:
            return table_sit(user=user, table_id=table_id, ip=ip)
        except (Conflict, NotFoundError) as exc:  # filled, started or closed since it was read
            if isinstance(exc, Conflict) and exc.code not in _TAKEN_MEANWHILE:
                raise
    return table_create(user=user, data={"game": game}, ip=ip)


# -- the conto (regulation.md §1.4, §1.8) --------------------------------------------------------


def tables_conto_left_open(*, player_id: int) -> int:
    """The player's conto left ``aperto``: stood up from money tables between matches, charging
    nothing; a match in play finishes (its next start refuses the seat). Returns the seats freed."""
    freed = 0
    table_ids = list(Seat.objects.filter(player_id=player_id).values_list("table_id", flat=True).order_by("table_id"))
    for table_id in table_ids:
        with transaction.atomic():
            table = Table.objects.select_for_update().filter(pk=table_id).first()
            if table is None or not _money_table(table) or table.matches.filter(status=Match.PLAYING).exists():
                continue
            seat = table.seats.select_for_update().filter(player_id=player_id).first()
            if seat is None:
                continue
            broadcast.table_notice(table_id=table.pk, user_id=player_id,
                                   text=gettext_noop("You were stood up: your gaming account cannot play for money now."))
            _stand_up(seat)
            _after_seat_freed(table)
            broadcast.table_changed(table_id=table.pk, match_id=None, version=0)
            freed += 1
    return freed


def tables_busy(*, player_id: int) -> str | None:
    """Why the player cannot close the conto now (§1.8's ``account_busy``), or None."""
    if Seat.objects.filter(player_id=player_id).exists():
        return _("Leave your table first: you cannot close the account while seated.")
    return None
