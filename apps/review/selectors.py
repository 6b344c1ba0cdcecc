"""Reads of the review area: what a match looked like when a line was written (public facts
only), and the collusion signals (platform.md §7.5). Never a hidden card: the state is
replayed as a spectator sees it (``view(None)``) and only a few public facts are kept."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.utils import timezone

from apps.chat.models import ChatMessage
from apps.compliance.models import ACCOUNT_SUSPENSION, AUTHORITY_REPORT
from apps.compliance.selectors import LOBBY_BLOCKING, sanction_active_kinds
from apps.matches.models import Match, MatchSeat
from apps.matches.selectors import match_log, match_replay
from apps.tournaments.models import Registration, Tournament, TournamentMatch
from apps.wallet.models import BONUS, CASH, CREDITS
from apps.wallet.selectors import stake_flows, wallet_balances_many

#: the public facts kept from a spectator's view: the hand and the phase, never cards
HAND_KEYS = ("hand_number", "hand_no", "turn_no")
SCORE_KEYS = ("scores", "totals", "balances", "chips")


def _numbers(value: Any) -> Any:
    """Scores as a list or dict of plain numbers, or None (anything else is not shown)."""
    if isinstance(value, list) and all(type(v) in (int, float) for v in value):
        return value
    if isinstance(value, dict) and all(type(v) in (int, float) for v in value.values()):
        return list(value.values())
    return None


def match_moment(*, match: Match, at: datetime) -> dict[str, Any]:
    """Which hand, whose turn and the score when ``at`` happened in ``match`` (public facts)."""
    seats = list(match.match_seats.order_by("number"))
    names = [ms.nickname or ("Robot" if ms.robot else f"#{ms.number}") for ms in seats]
    log = match_log(match)
    upto = 0
    last = None
    for action in log["actions"]:
        if datetime.fromisoformat(action["at"]) <= at:
            upto = action["seq"]
            last = action
        else:
            break
    facts: dict[str, Any] = {"match": match, "names": names, "step": upto, "status": match.status,
                             "started": match.started_at <= at, "hand": None, "phase": None, "to_act": [],
                             "scores": None, "last_by": None, "over_then": bool(match.finished_at
                                                                                and match.finished_at <= at)}
    if match.started_at > at:
        return facts
    try:
        view = match_replay(log=log, seat=None, upto=upto)[-1]
    except Exception:  # an old log the engine cannot replay: show what the rows say
        return facts
    public = view["view"]
    facts["hand"] = next((public[k] for k in HAND_KEYS if isinstance(public.get(k), int)), None)
    facts["phase"] = public.get("phase") if isinstance(public.get("phase"), str) else None
    facts["to_act"] = [names[s] for s in view.get("to_act") or [] if 0 <= s < len(names)]
    facts["scores"] = next((v for v in (_numbers(public.get(k)) for k in SCORE_KEYS) if v), None)
    if facts["scores"] and len(facts["scores"]) == len(names):
        facts["scores"] = list(zip(names, facts["scores"], strict=True))
    elif facts["scores"]:
        facts["scores"] = [(f"{i + 1}", v) for i, v in enumerate(facts["scores"])]
    if last is not None:
        facts["last_by"] = names[last["seat"]] if 0 <= last["seat"] < len(names) else None
    return facts


# -- collusion signals (platform.md §7.5) -----------------------------------------------------


@dataclass
class SharedIp:
    ip: str
    players: list[str]
    matches: list[int] = field(default_factory=list)
    tables: list[int] = field(default_factory=list)


@dataclass
class SharedIpTournament:
    """Two or more players who registered for one tournament from one address."""

    ip: str
    tournament_id: int
    tournament: str
    players: list[str]
    player_ids: list[int]
    #: the tournament's matches any of them played, newest first
    matches: list[int] = field(default_factory=list)
    #: two of them met in a match (their seats: the same address at one table)
    met: list[int] = field(default_factory=list)

    @property
    def members(self) -> list[tuple[int, str]]:
        return list(zip(self.player_ids, self.players, strict=True))


@dataclass
class Pair:
    players: tuple[str, str]
    player_ids: tuple[int, int]
    together: int
    totals: tuple[int, int]
    lift: float
    #: the pair's matches together as a share of the busier-with-others one's matches (100: always together)
    share: int
    matches: list[int]


@dataclass
class Flow:
    payer: str
    payee: str
    payer_id: int
    payee_id: int
    currency: str
    amount: int
    back: int
    matches: list[int]


def _nickname_map(player_ids: Iterable[int]) -> dict[int, str]:
    rows = MatchSeat.objects.filter(player_id__in=player_ids).exclude(nickname="") \
        .values_list("player_id", "nickname").order_by("player_id", "-id")
    names: dict[int, str] = {}
    for pid, nick in rows:
        names.setdefault(pid, nick)
    return names


def shared_ip_signals(*, since: datetime | None = None, limit: int = 100) -> list[SharedIp]:
    """Two or more players on one address in the same table match (a tournament's matches too:
    their seats carry the registration's address); tournaments: ``shared_ip_tournaments``."""
    since = since or timezone.now() - timedelta(days=90)
    seats = MatchSeat.objects.filter(player__isnull=False, ip__isnull=False, match__started_at__gte=since)
    shared = {(r["match_id"], r["ip"]) for r in seats.values("match_id", "ip")
              .annotate(n=Count("player_id", distinct=True)).filter(n__gte=2).order_by()}
    by_ip: dict[str, SharedIp] = {}
    members: dict[str, set[str]] = defaultdict(set)
    rows = seats.filter(match_id__in={m for m, _ in shared}).values_list("match_id", "ip", "nickname",
                                                                          "match__table_link__table_id")
    for match_id, ip, nickname, table_id in rows:
        if (match_id, ip) not in shared:
            continue
        item = by_ip.setdefault(ip, SharedIp(ip=ip, players=[]))
        members[ip].add(nickname)
        if match_id not in item.matches:
            item.matches.append(match_id)
        if table_id and table_id not in item.tables:
            item.tables.append(table_id)
    for ip, item in by_ip.items():
        item.players = sorted(members[ip])
        item.matches.sort(reverse=True)
    return sorted(by_ip.values(), key=lambda s: -len(s.matches))[:limit]


def shared_ip_tournaments(*, since: datetime | None = None, limit: int = 100) -> list[SharedIpTournament]:
    """Two or more players who registered for the same tournament from one address (the
    registration's IP, unregistered ones included: the address is the signal), with the
    tournament's matches they played, in four queries whatever the number of rows."""
    since = since or timezone.now() - timedelta(days=90)
    regs = Registration.objects.filter(ip__isnull=False, created__gte=since)
    shared = list(regs.values("tournament_id", "ip").annotate(n=Count("player_id", distinct=True))
                  .filter(n__gte=2).order_by("-tournament_id", "ip")[:limit])
    if not shared:
        return []
    wanted = {(r["tournament_id"], r["ip"]) for r in shared}
    rows: dict[tuple[int, str], SharedIpTournament] = {}
    reg_of: dict[int, tuple[int, str]] = {}
    for reg_id, tid, ip, pid, nickname, name in regs.filter(tournament_id__in={t for t, _ in wanted}) \
            .values_list("pk", "tournament_id", "ip", "player_id", "nickname", "tournament__name").order_by("pk"):
        if (tid, ip) not in wanted:
            continue
        item = rows.setdefault((tid, ip), SharedIpTournament(ip=ip, tournament_id=tid, tournament=name,
                                                             players=[], player_ids=[]))
        if pid not in item.player_ids:
            item.player_ids.append(pid)
            item.players.append(nickname)
        reg_of[reg_id] = (tid, ip)
    for match_id, first, second in TournamentMatch.objects.filter(
            Q(first_id__in=reg_of) | Q(second_id__in=reg_of), match_id__isnull=False) \
            .values_list("match_id", "first_id", "second_id"):
        keys = [reg_of[r] for r in (first, second) if r in reg_of]
        for key in set(keys):
            rows[key].matches.append(match_id)
        if len(keys) == 2 and keys[0] == keys[1]:
            rows[keys[0]].met.append(match_id)
    for item in rows.values():
        item.matches.sort(reverse=True)
        item.met.sort(reverse=True)
    return sorted(rows.values(), key=lambda s: (-len(s.met), -len(s.players), -s.tournament_id))


def frequent_pairs(*, since: datetime | None = None, min_together: int = 3, limit: int = 100) -> list[Pair]:
    """Pairs of humans who sat in the same matches unusually often: ``share`` of their matches
    spent together, and ``lift = together × matches / (matches of a × matches of b)`` (1 is
    chance), over the matches with at least two humans."""
    since = since or timezone.now() - timedelta(days=90)
    by_match: dict[int, list[int]] = defaultdict(list)
    for match_id, player_id in MatchSeat.objects.filter(player__isnull=False, match__started_at__gte=since) \
            .values_list("match_id", "player_id"):
        by_match[match_id].append(player_id)
    by_match = {m: sorted(set(p)) for m, p in by_match.items() if len(set(p)) >= 2}
    total = len(by_match)
    played: dict[int, int] = defaultdict(int)
    together: dict[tuple[int, int], list[int]] = defaultdict(list)
    for match_id, players in by_match.items():
        for pid in players:
            played[pid] += 1
        for a, b in combinations(players, 2):
            together[(a, b)].append(match_id)
    names = _nickname_map(played)
    rows = []
    for (a, b), matches in together.items():
        if len(matches) < min_together:
            continue
        lift = len(matches) * total / (played[a] * played[b])
        rows.append(Pair(players=(names.get(a, f"#{a}"), names.get(b, f"#{b}")), player_ids=(a, b),
                         together=len(matches), totals=(played[a], played[b]), lift=round(lift, 2),
                         share=round(100 * len(matches) / max(played[a], played[b])),
                         matches=sorted(matches, reverse=True)))
    return sorted(rows, key=lambda p: (-p.share, -p.lift, -p.together))[:limit]


def chip_flows(*, since: datetime | None = None, min_matches: int = 2, limit: int = 100) -> list[Flow]:
    """Money or credits moving from one player to another across stake matches: in each match a
    winner's gain comes from the losers in proportion to their losses, summed per pair.
    ``back`` is what flowed the other way; a one-way flow repeated is the signal."""
    since = since or timezone.now() - timedelta(days=90)
    flows = stake_flows(since=since)
    names = _nickname_map({p for key in flows for p in key[:2]})
    out = []
    for (loser, winner, currency), (amount, matches) in flows.items():
        if len(matches) < min_matches:
            continue
        back = flows.get((winner, loser, currency), (0, []))[0]
        out.append(Flow(payer=names.get(loser, f"#{loser}"), payee=names.get(winner, f"#{winner}"),
                        payer_id=loser, payee_id=winner, currency=currency, amount=amount, back=back,
                        matches=sorted(matches, reverse=True)))
    return sorted(out, key=lambda f: -(f.amount - f.back))[:limit]


@dataclass
class SanctionConsequences:
    """What issuing a sanction will do, read before the confirmation (platform.md §7.4)."""

    kind: str
    duration: str
    player: Any
    nickname: str
    #: the player's balances now (cents; credits in credits)
    cash_cents: int = 0
    bonus_cents: int = 0
    credits: int = 0
    #: frozen in the wallet (account suspension) or moved to house:authority_frozen (report)
    freezes: bool = False
    moves_to_authority: bool = False
    #: registrations in tournaments not yet started, refunded in full: (tournament, bonus, cash)
    refunds: list[tuple[Any, int, int]] = field(default_factory=list)
    #: running tournaments the player is disqualified from
    disqualified: list[Any] = field(default_factory=list)
    #: table matches in play the player forfeits
    matches: list[int] = field(default_factory=list)
    #: an active sanction of the same kind: the issue will be refused (409 already_sanctioned)
    already: bool = False
    messages: list[Any] = field(default_factory=list)

    @property
    def keeps_out_of_lobby(self) -> bool:
        return self.kind in LOBBY_BLOCKING

    @property
    def frozen_total_cents(self) -> int:
        return self.cash_cents + self.bonus_cents

    @property
    def authority_total_cents(self) -> int:
        """What the authority's frozen account holds for the player once the refunds land."""
        return self.frozen_total_cents + self.refund_bonus_cents + self.refund_cash_cents

    @property
    def refund_bonus_cents(self) -> int:
        return sum(bonus for _t, bonus, _c in self.refunds)

    @property
    def refund_cash_cents(self) -> int:
        return sum(cash for _t, _b, cash in self.refunds)


def sanction_consequences(*, player_id: int, kind: str, duration: str,
                          message_ids: list[int] | None = None) -> SanctionConsequences:
    """What the sanction would do now, for the confirmation step: nothing is written. A lobby
    ban and above refunds the registrations in tournaments not yet started and disqualifies from
    running ones (§5.7) and forfeits table matches in play (§8.6); an account suspension
    freezes the balances in the wallet; an authority report moves cash and bonus to
    ``house:authority_frozen`` (credits stay)."""
    player = get_user_model().objects.select_related("profile").get(pk=player_id)
    profile = getattr(player, "profile", None)
    result = SanctionConsequences(kind=kind, duration=duration, player=player,
                                  nickname=(profile.nickname if profile and profile.nickname else player.username))
    balances = wallet_balances_many(player_ids=[player.pk])[player.pk]
    result.cash_cents, result.bonus_cents, result.credits = balances[CASH], balances[BONUS], balances[CREDITS]
    result.freezes = kind in (ACCOUNT_SUSPENSION, AUTHORITY_REPORT)
    result.moves_to_authority = kind == AUTHORITY_REPORT
    result.already = kind in sanction_active_kinds(player_id=player.pk)
    if kind in LOBBY_BLOCKING:
        for reg in (Registration.objects.filter(player=player, active=True, tournament__status__in=[
                Tournament.OPEN, Tournament.RUNNING]).select_related("tournament").order_by("tournament_id")):
            if reg.tournament.status == Tournament.OPEN:
                result.refunds.append((reg.tournament, reg.paid_bonus_cents, reg.paid_cash_cents))
            elif not reg.disqualified:
                result.disqualified.append(reg.tournament)
        result.matches = list(MatchSeat.objects.filter(player=player, match__status=Match.PLAYING,
                                                       match__table_link__isnull=False)
                              .order_by("match_id").values_list("match_id", flat=True).distinct())
    if message_ids:
        result.messages = list(ChatMessage.objects.filter(pk__in=message_ids, sender=player).order_by("created", "id"))
    return result
