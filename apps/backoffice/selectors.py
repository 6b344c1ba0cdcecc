"""The back office's figures, each read from the ledger (or the match log) by one selector.

Every figure is a :class:`Figure`: labels (days, games, rules, hours) and one integer
series per currency or measure, so the page draws the chart and prints the same numbers
beside it. Money comes from the ledger's entries alone (platform.md §3.2), by account:

- bank: entries on ``house:bank`` (its share of table pots, §8.5 and regulation.md §8), by the match's game;
- fees: entries on ``house:fees`` (tournament fees, §5.4), by the tournament's game;
- overlay: what ``house:guarantee`` paid out (into tournament escrows, §5.4);
- prize pools: tournament prizes credited to players (kinds ``prize`` and ``seat_value``);
- bonus granted: new bonus credited to players (refunds and returns excluded);
- refunds by rule: ``cancel_refund`` entries, the malfunction rule read from the
  transaction's memo (``refund_rule=a2``; §6.6).

Money comes from the ledger; counts (tournaments finished and cancelled, their fill rate,
matches in play by hour) come from the tournaments' and matches' own rows, never inferred
from ledger lines (a freeroll cancelled before its start posts none).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Max, Min, Q, QuerySet, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from apps.common.roles import STAFF_GROUPS
from apps.matches.models import Match, MatchSeat
from apps.tables.models import SocketConnection, Table
from apps.tables.selectors import players_online_count
from apps.tournaments.models import Tournament, TournamentMatch
from apps.wallet.models import BONUS, CASH, CREDITS, CURRENCIES, Account, Entry
from apps.wallet.selectors import ledger_check

from .periods import ROME, Period, rome_day

BANK, FEES, GUARANTEE = "house:bank", "house:fees", "house:guarantee"
AUTHORITY_FROZEN = "house:authority_frozen"
PRIZE_KINDS = ("prize", "seat_value")
#: bonus credited back, not granted anew
NOT_GRANTED = ("unregister_refund", "cancel_refund", "stake_return", "authority_release", "authority_freeze",
               "buy_in")
REFUND_RULES = ("full", "a1", "a2", "b1", "b2", "b2_scaled")
_RULE = re.compile(r"\b(b2_scaled|full|a1|a2|b1|b2)\b")
UNKNOWN = "—"


@dataclass
class Figure:
    """One chart and its table: ``series[name][i]`` is the value for ``labels[i]``."""

    key: str
    labels: list[str]
    series: dict[str, list[int]] = field(default_factory=dict)
    #: "cents" (shown as euro), "credits" or "count" (or "percent" for fill rates)
    unit: str = "cents"
    #: a series whose unit differs from the figure's (a count beside amounts)
    units: dict[str, str] = field(default_factory=dict)
    #: the period's figure of a series that does not add up (a percentage): shown as its total
    overall: dict[str, int] = field(default_factory=dict)
    #: false when the rows' sum means nothing (peaks of each hour): the table has no total
    summable: bool = True

    def unit_of(self, name: str) -> str:
        return self.units.get(name, self.unit)

    def total(self, name: str) -> int:
        if name in self.overall:
            return self.overall[name]
        return sum(self.series.get(name, []))

    def rows(self) -> list[tuple[str, list[int]]]:
        return [(label, [values[i] for values in self.series.values()]) for i, label in enumerate(self.labels)]


def _day_labels(period: Period) -> list[str]:
    return [d.isoformat() for d in period.days()]


def _in_period(qs: QuerySet, period: Period, field_name: str = "created") -> QuerySet:
    return qs.filter(**{f"{field_name}__gte": period.start, f"{field_name}__lt": period.end})


def _by_day(rows: list[Any], period: Period, names: list[str]) -> Figure:
    """``rows`` of (day, name, amount) into a figure with one series per name."""
    labels = _day_labels(period)
    index = {label: i for i, label in enumerate(labels)}
    series = {name: [0] * len(labels) for name in names}
    for day, name, amount in rows:
        key = day.isoformat() if isinstance(day, date) else str(day)
        if key in index and name in series:
            series[name][index[key]] += int(amount or 0)
    return Figure(key="", labels=labels, series=series)


def _ref_id(reference: str, prefix: str) -> int | None:
    head, _, tail = reference.partition(":")
    return int(tail) if head == prefix and tail.isdigit() else None


def _match_games(match_ids: set[int]) -> dict[int, str]:
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "game"))


def _tournament_games(ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    return dict(Tournament.objects.filter(pk__in=ids).values_list("pk", "game"))


def _house_rows(code: str, currency: str, period: Period, *, sign: int = 1) -> list[tuple[date, str, int]]:
    """(Rome day, transaction reference, sign × amount) summed, for one house account."""
    qs = _in_period(Entry.objects.filter(account__code=code, currency=currency), period)
    qs = qs.filter(amount__gt=0) if sign > 0 else qs.filter(amount__lt=0)
    rows = (qs.annotate(day=TruncDate("created", tzinfo=ROME)).values("day", "transaction__reference")
            .annotate(total=Sum("amount")).order_by())
    return [(r["day"], r["transaction__reference"], sign * r["total"]) for r in rows]


def _by_game(rows: list[tuple[date, str, int]], prefix: str, games_of: Any) -> list[tuple[date, str, int]]:
    ids = {i for _, ref, _ in rows if (i := _ref_id(ref, prefix)) is not None}
    games = games_of(ids)
    return [(day, games.get(_ref_id(ref, prefix), UNKNOWN), amount) for day, ref, amount in rows]


def _game_figure(key: str, rows: list[tuple[date, str, int]], period: Period, unit: str) -> tuple[Figure, Figure]:
    games = sorted({g for _, g, _ in rows})
    by_day = _by_day(rows, period, games)
    by_day.key, by_day.unit = f"{key}_by_day", unit
    totals: dict[str, int] = defaultdict(int)
    for _, game, amount in rows:
        totals[game] += amount
    by_game = Figure(key=f"{key}_by_game", labels=games, series={"total": [totals[g] for g in games]}, unit=unit)
    return by_day, by_game


def bank_figures(*, period: Period, currency: str = CASH) -> tuple[Figure, Figure]:
    """The bank's share of table pots (§8.5, regulation.md §8) in ``currency``: by day (one series per game), by game."""
    rows = _by_game(_house_rows(BANK, currency, period), "match", _match_games)
    return _game_figure(f"bank_{currency}", rows, period, "cents" if currency == CASH else "credits")


def fees_figures(*, period: Period) -> tuple[Figure, Figure]:
    """Tournament fees kept by the operator (§5.4): what reached ``house:fees``, net of nothing
    (fees are never refunded after the start; before it they never left the escrow)."""
    rows = _by_game(_house_rows(FEES, CASH, period), "tournament", _tournament_games)
    return _game_figure("fees", rows, period, "cents")


def _player_entries(period: Period) -> QuerySet:
    """Entries that reach a player: their own accounts, or their share of the authority-frozen one."""
    return _in_period(Entry.objects.filter(Q(account__player__isnull=False)
                                           | Q(account__code=AUTHORITY_FROZEN, player__isnull=False)), period)


def _currency_rows(qs: QuerySet) -> list[tuple[date, str, int]]:
    rows = (qs.annotate(day=TruncDate("created", tzinfo=ROME)).values("day", "currency")
            .annotate(total=Sum("amount")).order_by())
    return [(r["day"], r["currency"], r["total"]) for r in rows]


def prize_pools_by_day(*, period: Period) -> Figure:
    """Tournament prizes credited to players, by day, in cash and bonus."""
    qs = _player_entries(period).filter(kind__in=PRIZE_KINDS, amount__gt=0,
                                        transaction__reference__startswith="tournament:")
    figure = _by_day(_currency_rows(qs), period, [CASH, BONUS])
    figure.key = "prize_pools_by_day"
    return figure


def overlay_by_day(*, period: Period) -> Figure:
    """What the guarantee paid into tournament escrows (overlay, and freeroll pools), by day."""
    qs = _in_period(Entry.objects.filter(account__code=GUARANTEE, amount__lt=0,
                                         transaction__reference__startswith="tournament:"), period)
    rows = [(day, currency, -amount) for day, currency, amount in _currency_rows(qs)]
    figure = _by_day(rows, period, [CASH, BONUS])
    figure.key = "overlay_by_day"
    return figure


def bonus_granted_by_day(*, period: Period) -> Figure:
    """New bonus credited to players (adjustments, bonus prizes); refunds and returns excluded."""
    qs = _player_entries(period).filter(currency=BONUS, amount__gt=0).exclude(kind__in=NOT_GRANTED)
    figure = _by_day(_currency_rows(qs), period, [BONUS])
    figure.key = "bonus_granted_by_day"
    return figure


def refund_rule_of(memo: str) -> str:
    """The malfunction rule a ``cancel_refund`` transaction names in its memo (``refund_rule=b1``)."""
    found = _RULE.search(memo or "")
    return found.group(1) if found else UNKNOWN


def refunds_by_rule(*, period: Period) -> Figure:
    """Tournament cancellation refunds paid to players, by rule (§6): amount per currency and
    the number of registrations refunded (``players``)."""
    qs = _player_entries(period).filter(kind="cancel_refund", amount__gt=0)
    rows = qs.values("transaction__memo", "currency").annotate(total=Sum("amount"),
                                                               players=Count("transaction", distinct=True))
    amounts: dict[tuple[str, str], int] = defaultdict(int)
    players: dict[str, int] = defaultdict(int)
    for r in rows.order_by():
        rule = refund_rule_of(r["transaction__memo"])
        amounts[(rule, r["currency"])] += r["total"]
        players[rule] += r["players"]
    seen = {rule for rule, _ in amounts}
    labels = [rule for rule in (*REFUND_RULES, UNKNOWN) if rule in seen]
    series = {c: [amounts[(rule, c)] for rule in labels] for c in (CASH, BONUS)}
    series["refunded"] = [players[rule] for rule in labels]
    return Figure(key="refunds_by_rule", labels=labels, series=series, units={"refunded": "count"})


def tournaments_by_day(*, period: Period) -> Figure:
    """Tournaments finished and cancelled, by the Rome day of that event, from the tournaments'
    own states (a freeroll cancelled before its start moves no money but is cancelled all the
    same); and the average fill rate in percent of those that finished that day."""
    finished = dict(_in_period(Tournament.objects.filter(status=Tournament.FINISHED), period, "finished_at")
                    .values_list("pk", "finished_at"))
    cancelled = _in_period(Tournament.objects.filter(status=Tournament.CANCELLED), period, "cancelled_at") \
        .values_list("cancelled_at", flat=True)
    rows = [(rome_day(at), "run", 1) for at in finished.values()] + [(rome_day(at), "cancelled", 1) for at in cancelled]
    figure = _by_day(rows, period, ["run", "cancelled"])
    figure.key, figure.unit = "tournaments_by_day", "count"
    fill = tournament_fill_rates(ids=set(finished))
    figure.series["fill_percent"] = [0] * len(figure.labels)
    figure.units["fill_percent"] = "percent"
    by_day: dict[str, list[int]] = defaultdict(list)
    for tid, rate in fill.items():
        by_day[rome_day(finished[tid]).isoformat()].append(rate)
    for i, label in enumerate(figure.labels):
        if by_day.get(label):
            figure.series["fill_percent"][i] = sum(by_day[label]) // len(by_day[label])
    figure.overall["fill_percent"] = sum(fill.values()) // len(fill) if fill else 0
    return figure


def tournament_fill_rates(*, ids: set[int]) -> dict[int, int]:
    """Entrants over ``max_players``, percent, from the tournament's own rows: the entrants it
    started with, else its active registrations (a satellite seat and a freeroll entry count
    as any other entrant: no ledger line says who played)."""
    if not ids:
        return {}
    rows = (Tournament.objects.filter(pk__in=ids)
            .annotate(registered=Count("registrations", filter=Q(registrations__active=True)))
            .values_list("pk", "max_players", "entrants_at_start", "registered"))
    return {pk: min(100, (entrants if entrants is not None else registered) * 100 // size)
            for pk, size, entrants, registered in rows if size}


def online_now() -> dict[str, int]:
    """Open tables, tables with a socket open, players with a socket open, matches in play."""
    players = players_online_count()  # the same figure the players' lobby shows
    return {
        "tables_open": Table.objects.filter(status=Table.OPEN).count(),
        "tables_connected": SocketConnection.objects.values("table").distinct().count(),
        "players_online": players,
        "matches_playing": Match.objects.filter(status=Match.PLAYING).count(),
    }


def activity_by_hour(*, period: Period, now: datetime | None = None) -> Figure:
    """For each hour of the day (Rome), the busiest such hour of the period: tables with a match
    in play, tournament matches in play, and distinct human players in all of those matches
    (from the matches' own rows, so the past is known without sampling)."""
    now = now or timezone.now()
    in_period = (Match.objects.filter(started_at__lt=period.end)
                 .filter(Q(finished_at__isnull=True) | Q(finished_at__gte=period.start)))
    spans = {pk: (("table", table_id), start, end or now) for pk, table_id, start, end in
             in_period.filter(table_link__isnull=False)
             .values_list("pk", "table_link__table", "started_at", "finished_at")}
    tournament_matches = TournamentMatch.objects.filter(match_id__isnull=False).values("match_id")
    spans.update({pk: (("match", pk), start, end or now) for pk, start, end in
                  in_period.filter(pk__in=tournament_matches).values_list("pk", "started_at", "finished_at")})
    seats: dict[int, set[int]] = defaultdict(set)
    for match_id, player_id in MatchSeat.objects.filter(match_id__in=list(spans), player__isnull=False) \
            .values_list("match_id", "player_id"):
        seats[match_id].add(player_id)
    busy: dict[datetime, set[tuple[str, int]]] = defaultdict(set)
    players: dict[datetime, set[int]] = defaultdict(set)
    for match_id, (what, start, end) in spans.items():
        hour = max(start, period.start).astimezone(ROME).replace(minute=0, second=0, microsecond=0)
        stop = min(end, period.end)
        while hour < stop:
            busy[hour].add(what)
            players[hour].update(seats[match_id])
            hour = (hour + timedelta(hours=1)).astimezone(ROME)
    peaks = {"tables": [0] * 24, "tournament_matches": [0] * 24, "players": [0] * 24}
    for hour, ids in busy.items():
        tables = sum(1 for kind, _ in ids if kind == "table")
        h = hour.hour
        peaks["tables"][h] = max(peaks["tables"][h], tables)
        peaks["tournament_matches"][h] = max(peaks["tournament_matches"][h], len(ids) - tables)
        peaks["players"][h] = max(peaks["players"][h], len(players[hour]))
    return Figure(key="activity_by_hour", labels=[f"{h:02d}" for h in range(24)], series=peaks, unit="count",
                  summable=False)


def _players() -> QuerySet:
    return (get_user_model().objects.filter(is_superuser=False)
            .exclude(groups__name__in=STAFF_GROUPS))


def newcomers_by_day(*, period: Period) -> Figure:
    """New players (accounts created) and first stakes (a player's first ever table stake), by day."""
    joined = (_in_period(_players(), period, "date_joined").annotate(day=TruncDate("date_joined", tzinfo=ROME))
              .values("day").annotate(n=Count("pk")).order_by())
    rows = [(r["day"], "new_players", r["n"]) for r in joined]
    firsts = (Entry.objects.filter(kind="stake", account__player__isnull=False).values("account__player")
              .annotate(first=Min("created")).filter(first__gte=period.start, first__lt=period.end).order_by())
    rows += [(rome_day(r["first"]), "first_stakes", 1) for r in firsts]
    figure = _by_day(rows, period, ["new_players", "first_stakes"])
    figure.key, figure.unit = "newcomers_by_day", "count"
    return figure


def dashboard(*, period: Period) -> list[Figure]:
    """Every figure of the dashboard, in the page's order."""
    bank_cash, bank_cash_games = bank_figures(period=period, currency=CASH)
    bank_credits, bank_credits_games = bank_figures(period=period, currency=CREDITS)
    fees, fees_games = fees_figures(period=period)
    return [fees, fees_games, bank_cash, bank_cash_games, bank_credits, bank_credits_games,
            prize_pools_by_day(period=period), overlay_by_day(period=period), bonus_granted_by_day(period=period),
            refunds_by_rule(period=period), tournaments_by_day(period=period), activity_by_hour(period=period),
            newcomers_by_day(period=period)]


# -- finance ------------------------------------------------------------------------------


def reconciliation(*, day: date) -> dict:
    """The ledger as of the end of ``day`` (Rome), per currency: players, each house account and
    the escrows, which sum to zero (§3.2); the day's totals by transaction kind (each balances)
    and the players' side by entry kind (which adds up to the same players' side); check_ledger."""
    end = Period(day, day).end
    start = Period(day, day).start
    balances = (Entry.objects.filter(created__lt=end).values("account__code", "account__player", "currency")
                .annotate(total=Sum("amount")).order_by())
    per: dict[str, dict] = {c: {"players": 0, "escrows": 0, "house": defaultdict(int), "total": 0}
                            for c in CURRENCIES}
    for row in balances:
        block = per[row["currency"]]
        code = row["account__code"]
        if row["account__player"] is not None:
            block["players"] += row["total"]
        elif code.startswith("escrow:"):
            block["escrows"] += row["total"]
        else:
            block["house"][code] += row["total"]
        block["total"] += row["total"]
    currencies = []
    for currency in CURRENCIES:
        block = per[currency]
        currencies.append({"currency": currency, "players": block["players"], "escrows": block["escrows"],
                           "house": sorted(block["house"].items()), "total": block["total"],
                           "balanced": block["total"] == 0})
    day_entries = Entry.objects.filter(created__gte=start, created__lt=end)
    # by transaction kind: each transaction balances, so each row's credits and debits cancel out
    transactions = (day_entries.values("transaction__kind", "currency")
                    .annotate(credited=Sum("amount", filter=Q(amount__gt=0)),
                              debited=Sum("amount", filter=Q(amount__lt=0)),
                              players=Sum("amount", filter=Q(account__player__isnull=False)),
                              transactions=Count("transaction", distinct=True))
                    .order_by("transaction__kind", "currency"))
    # by entry kind, the players' side only (what each line is to the player: a settlement's
    # stake_return and winnings): its net adds up to the players' side of the table above
    entry_kinds = (day_entries.filter(account__player__isnull=False).values("kind", "currency")
                   .annotate(credited=Sum("amount", filter=Q(amount__gt=0)),
                             debited=Sum("amount", filter=Q(amount__lt=0)), net=Sum("amount"), entries=Count("pk"))
                   .order_by("kind", "currency"))
    problem = ledger_check()
    rows = [{**k, "kind": k.pop("transaction__kind"), "credited": k["credited"] or 0, "debited": k["debited"] or 0,
             "players": k["players"] or 0} for k in transactions]
    for row in rows:
        row["balance"] = row["credited"] + row["debited"]
    players = [{**k, "credited": k["credited"] or 0, "debited": k["debited"] or 0} for k in entry_kinds]
    totals = {c: {"players": sum(r["players"] for r in rows if r["currency"] == c),
                  "entries_net": sum(r["net"] for r in players if r["currency"] == c)} for c in CURRENCIES}
    return {"day": day, "currencies": currencies, "kinds": rows, "entry_kinds": players,
            "kind_totals": [{"currency": c, **totals[c], "balanced": totals[c]["players"] == totals[c]["entries_net"]}
                            for c in CURRENCIES if any(r["currency"] == c for r in rows)],
            "check": problem or "ledger OK", "check_ok": problem is None,
            "cached_total": dict(Account.objects.values_list("currency").annotate(s=Sum("balance")).order_by())}


def ledger_entries(*, player_id: int | None = None, kind: str = "", currency: str = "",
                   first: date | None = None, last: date | None = None) -> QuerySet:
    """Ledger entries with the filters of the finance pages and exports, newest first."""
    qs = Entry.objects.select_related("transaction", "account", "player__profile").order_by("-id")
    if player_id is not None:
        qs = qs.filter(Q(account__player_id=player_id) | Q(player_id=player_id))
    if kind:
        qs = qs.filter(kind=kind)
    if currency:
        qs = qs.filter(currency=currency)
    if first is not None:
        qs = qs.filter(created__gte=Period(first, first).start)
    if last is not None:
        qs = qs.filter(created__lt=Period(last, last).end)
    return qs


REFUND_KINDS = ("cancel_refund", "unregister_refund")


def refund_splits(*, entries: Any) -> dict[tuple[int, int], dict[str, int]]:
    """``{(transaction id, player id): {"bonus": b, "cash": c}}`` for the refund entries among
    ``entries``: what each refund line gave the player back in each currency (§3.4: bonus first,
    then cash), their authority-frozen share included, since a line shows one currency only."""
    keys = {(e.transaction_id, e.player_id) for e in entries if e.kind in REFUND_KINDS and e.player_id}
    if not keys:
        return {}
    rows = (Entry.objects.filter(Q(account__player__isnull=False) | Q(account__code=AUTHORITY_FROZEN),
                                 transaction_id__in={t for t, _ in keys}, player__isnull=False,
                                 kind__in=REFUND_KINDS, amount__gt=0)
            .values("transaction_id", "player_id", "currency").annotate(total=Sum("amount")).order_by())
    splits = {key: {BONUS: 0, CASH: 0} for key in keys}
    for row in rows:
        key = (row["transaction_id"], row["player_id"])
        if key in splits and row["currency"] in (BONUS, CASH):
            splits[key][row["currency"]] += row["total"]
    return splits


def player_names(*, ids: set[int]) -> dict[int, str]:
    """``{player id: nickname}`` (the username when there is none yet), for pages that would
    otherwise name a player ``player:51``."""
    users = get_user_model().objects.filter(pk__in=ids).select_related("profile")
    return {u.pk: (getattr(getattr(u, "profile", None), "nickname", "") or u.get_username()) for u in users}


def tournament_results(*, tournament_id: int | None) -> list[dict]:
    """One tournament's money per player, from the ledger alone (``tournament:{id}`` entries on
    player accounts and their authority-frozen shares): what each paid, got back and won, and
    the refund rule of a cancellation; players in registration order (first buy-in)."""
    if tournament_id is None:
        return []
    entries = (Entry.objects.filter(Q(account__player__isnull=False) | Q(account__code=AUTHORITY_FROZEN,
                                                                        player__isnull=False),
                                    transaction__reference=f"tournament:{tournament_id}")
               .select_related("transaction", "account").order_by("id"))
    rows: dict[int, dict] = {}
    for e in entries:
        pid = e.account.player_id or e.player_id
        row = rows.setdefault(pid, {"player": pid, "paid_cash": 0, "paid_bonus": 0, "unregister_refund": 0,
                                    "prize_cash": 0, "prize_bonus": 0, "cancel_refund": 0, "refund_rule": "",
                                    "net": 0})
        kind = e.kind or e.transaction.kind
        if kind == "buy_in":
            row["paid_cash" if e.currency == CASH else "paid_bonus"] -= e.amount
        elif kind == "unregister_refund":
            row["unregister_refund"] += e.amount
        elif kind in PRIZE_KINDS:
            row["prize_cash" if e.currency == CASH else "prize_bonus"] += e.amount
        elif kind == "cancel_refund":
            row["cancel_refund"] += e.amount
            row["refund_rule"] = refund_rule_of(e.transaction.memo)
        if kind != "authority_freeze":
            row["net"] += e.amount
    users = get_user_model().objects.filter(pk__in=list(rows)).select_related("profile").in_bulk()
    for pid, row in rows.items():
        user = users.get(pid)
        profile = getattr(user, "profile", None) if user else None
        row["username"] = user.get_username() if user else ""
        row["nickname"] = profile.nickname if profile and profile.nickname else ""
    return list(rows.values())


def entry_kinds() -> list[str]:
    return list(Entry.objects.order_by().values_list("kind", flat=True).distinct())


def last_activity() -> datetime | None:
    return Entry.objects.aggregate(last=Max("created"))["last"]
