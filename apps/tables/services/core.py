"""What every table write shares: the table's row lock (always first: docs/layers.md), the player's and the money's checks, a seat stood up."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from apps.common.errors import (
    DomainError,
    InsufficientFunds,
    NotFoundError,
)
from apps.common.templatetags.money import format_euro
from apps.compliance.selectors import sanction_check_lobby
from apps.conto.gates import (
    MONEY_TABLE,
    money_play_gate,
    money_play_refusal,
    money_play_spend,
    play_time_gate,
)
from apps.matches.services import (
    stake_per_seat,
)
from apps.wallet.selectors import wallet_get

from .. import broadcast
from ..models import CASH, CREDITS, Match, Seat, Table, TableInvite

#: the tables' Celery task (``tasks.py``), enqueued by name: the task calls these services
NEXT_MATCH_TASK = "apps.tables.tasks.next_match"


#: a table's stake per match and seat (platform.md §12): €100 is the Italian skill-game ceiling
STAKE_MAX = {CASH: 10_000, CREDITS: 1_000_000}


#: the card faces as the create-table form names them
FACE_WORDS = {"italian": gettext_lazy("Italian"), "french": gettext_lazy("French")}


SETTINGS_FIELDS = ("turn_seconds", "official", "stake", "currency", "private", "spectators", "game_options",
                   "players", "face", "show_points")


def _balance(user: Any, currency: str) -> int:
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


def _money_checks(user: Any, game: str, stake: int, currency: str, options: dict[str, Any] | None, official: bool) -> None:
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


def _check_funds(user: Any, game: str, stake: int, currency: str, options: dict[str, Any] | None = None) -> None:
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


def _table_locked(table_id: Any) -> Table:
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None or table.status != Table.OPEN:
        raise NotFoundError(_("No such table."))
    return table


def _can_enter(table: Table, user: Any) -> bool:
    return (not table.private or table.leader_id == user.pk
            or TableInvite.objects.filter(table=table, player=user).exists())


def _current_version(table: Table) -> int:
    match = table.matches.filter(status=Match.PLAYING).first()
    return match.version if match else 0


def _kept_out(user: Any) -> bool:
    """A sanction keeps the player out of the lobby (their seat goes, not just their hand)."""
    try:
        sanction_check_lobby(player=user)
    except DomainError:
        return True
    return False


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
