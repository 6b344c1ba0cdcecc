"""The tournament rules as pure integer functions (platform.md §5, §6): no database, no clock.

Every amount is an integer number of cents; every division goes through ``split_cents``
(platform.md §3.7), except a2's ``floor`` which the spec keeps on purpose. Randomness comes
in as an argument (a ``random.Random``-like object), so the draws are testable and the
service passes ``secrets.SystemRandom()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from apps.wallet.splits import split_cents

KNOCKOUT, POINTS = "knockout", "points"
ENTRY_STEP = 50
ENTRY_MAX = 10_000
FEE_MAX_PERCENT = 20
PLAYERS_MIN, PLAYERS_MAX = 2, 512
WIN_VP, DRAW_VP, LOSS_VP = 2, 1, 0


class Rng(Protocol):
    def shuffle(self, x: list[Any]) -> None: ...
    def choice(self, seq: Sequence[Any]) -> Any: ...


# -- entry cost (§5.1) -------------------------------------------------------------------


def gettext_noop(message: str) -> str:
    """Marks a message for translation (makemessages finds it by this name); the services
    translate it when they refuse, so this module needs no Django."""
    return message



def entry_errors(*, buy_in_cents: object, fee_cents: object, entry_max: int = ENTRY_MAX,
                 fee_max_percent: int = FEE_MAX_PERCENT) -> dict[str, list[str]]:
    """The torneo regime (regulation.md §8): a multiple of €0.50, at most ``entry_max`` (€100),
    the fee at most ``fee_max_percent`` (20) of it. The messages carry ``%(max)s`` and
    ``%(percent)s``: the caller translates, then fills them (``entry_words``)."""
    errors: dict[str, list[str]] = {}
    if type(buy_in_cents) is not int or buy_in_cents < 0:
        errors["buy_in_cents"] = [gettext_noop("A non-negative whole number of cents.")]
    elif buy_in_cents % ENTRY_STEP:
        errors["buy_in_cents"] = [gettext_noop("The entry cost must be a multiple of €0.50 (50 cents).")]
    elif buy_in_cents > entry_max:
        errors["buy_in_cents"] = [gettext_noop("The entry cost may be at most €%(max)s (%(cents)s cents).")]
    if type(fee_cents) is not int or fee_cents < 0:
        errors["fee_cents"] = [gettext_noop("A non-negative whole number of cents.")]
    elif "buy_in_cents" not in errors:
        assert isinstance(buy_in_cents, int)
        if buy_in_cents == 0 and fee_cents:
            errors["fee_cents"] = [gettext_noop("A freeroll has no fee.")]
        elif fee_cents * 100 > buy_in_cents * fee_max_percent:
            errors["fee_cents"] = [gettext_noop("The fee may be at most %(percent)s per cent of the entry cost.")]
    return errors


def euro(cents: int, *, decimals: bool = True) -> str:
    """``1000`` → ``"10,00"`` (Italian decimal comma, no thousands separator below 1000)."""
    whole, part = divmod(cents, 100)
    text = f"{whole:,}".replace(",", ".")
    return f"{text},{part:02d}" if decimals else text


def entry_display(*, buy_in_cents: int, fee_cents: int) -> str:
    """The entry cost as the lobby shows it: ``"€10,00 (9,00+1,00)"``; no fee: ``"€10,00"``."""
    if fee_cents:
        return f"€{euro(buy_in_cents)} ({euro(buy_in_cents - fee_cents)}+{euro(fee_cents)})"
    return f"€{euro(buy_in_cents)}"


# -- prize pool (§5.4, §5.9) ----------------------------------------------------------------


@dataclass(frozen=True)
class Pool:
    contributions: int
    prize_pool: int
    overlay: int
    fees: int


def pool_compute(*, entrants: int, buy_in_cents: int, fee_cents: int, guaranteed_cents: int) -> Pool:
    contributions = entrants * (buy_in_cents - fee_cents)
    prize_pool = max(contributions, guaranteed_cents)
    return Pool(contributions, prize_pool, prize_pool - contributions, entrants * fee_cents)


def effective_percentages(payouts: Sequence[int], entrants: int) -> list[int]:
    """Fewer entrants than paid places: the missing places' percentages go to 1st place."""
    if entrants <= 0 or not payouts:
        return [100]
    eff = list(payouts[:entrants])
    eff[0] += sum(payouts[entrants:])
    return eff


def payouts_compute(prize_pool: int, payouts: Sequence[int], entrants: int) -> list[int]:
    """``payouts_cents``: the pool split by the effective percentages, 1st first on ties."""
    eff = effective_percentages(payouts, entrants)
    return split_cents(prize_pool, eff, order=list(range(len(eff))))


def satellite_prizes(prize_pool: int, target_buy_in: int) -> tuple[int, int, list[int]]:
    """(seats S, leftover L, prize list ``[T]*S + [L]``) for a satellite (§5.9)."""
    if target_buy_in <= 0:
        return 0, prize_pool, [prize_pool] if prize_pool else []
    seats, leftover = divmod(prize_pool, target_buy_in)
    return seats, leftover, [target_buy_in] * seats + ([leftover] if leftover else [])


def range_prize_total(prizes: Sequence[int], first: int, size: int) -> int:
    """Sum of the prizes of positions ``first … first+size-1`` (0 beyond the list)."""
    return sum(prizes[p - 1] for p in range(first, first + size) if 0 < p <= len(prizes))


def tied_group_prizes(prizes: Sequence[int], first: int, members: Sequence[Any]) -> dict[Any, int]:
    """A tied group's prize at the end: the positions' sum split equally, registration order."""
    total = range_prize_total(prizes, first, len(members))
    shares = split_cents(total, [1] * len(members)) if members else []
    return dict(zip(members, shares, strict=True))


# -- knockout (§5.5) ------------------------------------------------------------------------


def bracket_size(entrants: int) -> int:
    size = 1
    while size < entrants:
        size *= 2
    return size


def knockout_rounds(entrants: int) -> int:
    return max(1, bracket_size(entrants).bit_length() - 1)


def knockout_draw(players: Sequence[Any], rng: Rng) -> tuple[list[Any], list[tuple[Any, Any]]]:
    """Round one: ``B - N`` byes to players drawn at random, the rest paired at random."""
    pool = list(players)
    rng.shuffle(pool)
    byes_count = bracket_size(len(pool)) - len(pool)
    byes, rest = pool[:byes_count], pool[byes_count:]
    return byes, [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]


def random_pairs(players: Sequence[Any], rng: Rng) -> list[tuple[Any, Any]]:
    """A later knockout round: the players of the round paired at random again."""
    pool = list(players)
    rng.shuffle(pool)
    return [(pool[i], pool[i + 1]) for i in range(0, len(pool) - 1, 2)]


def knockout_losers_first_position(*, matches_in_round: int, advancing: int) -> int:
    """The losers of a round with ``k`` matches and ``S`` players going on share S+1 … S+k;
    this is S+1, the position shown for each of them."""
    return advancing + 1


# -- points (§5.6) --------------------------------------------------------------------------


def points_rounds(entrants: int, rounds: int | None = None) -> int:
    return rounds if rounds else knockout_rounds(entrants)


@dataclass
class PointsRecord:
    """One player's record in a points tournament (registration order is ``order``)."""

    order: int
    vp: int = 0
    opponents: list[Any] = field(default_factory=list)
    game_diff: int = 0
    byes: int = 0
    disqualified: bool = False


def points_ranking(records: dict[Any, PointsRecord]) -> list[Any]:
    """VP, then Buchholz (opponents' current VP), then game-point difference, then earlier
    registration; disqualified players below everyone else."""
    def key(player: Any) -> tuple[int, int, int, int, int]:
        rec = records[player]
        buchholz = sum(records[o].vp for o in rec.opponents if o in records)
        return (1 if rec.disqualified else 0, -rec.vp, -buchholz, -rec.game_diff, rec.order)

    return sorted(records, key=key)


def points_pairing(ranking: Sequence[Any], records: dict[Any, PointsRecord], *, first_round: bool,
                   rng: Rng) -> tuple[Any | None, list[tuple[Any, Any]]]:
    """One points round: (bye, pairs). Round one random; later rounds pair the highest unpaired
    with the highest they have not met (else the highest: a rematch). The bye goes to the
    lowest-ranked player without one (random in round one)."""
    players = [p for p in ranking if not records[p].disqualified]
    bye = None
    if first_round:
        players = list(players)
        rng.shuffle(players)
        if len(players) % 2:
            bye = players.pop()
        return bye, [(players[i], players[i + 1]) for i in range(0, len(players), 2)]
    if len(players) % 2:
        fewest = min(records[p].byes for p in players)
        bye = next(p for p in reversed(players) if records[p].byes == fewest)
        players = [p for p in players if p != bye]
    pairs: list[tuple[Any, Any]] = []
    unpaired = list(players)
    while unpaired:
        top = unpaired.pop(0)
        met = set(records[top].opponents)
        other = next((p for p in unpaired if p not in met), unpaired[0])
        unpaired.remove(other)
        pairs.append((top, other))
    return bye, pairs


def match_vp(winner_side: int | None) -> tuple[int, int]:
    """Victory points for (seat-side 0, seat-side 1): win 2, draw 1, loss 0."""
    if winner_side is None:
        return DRAW_VP, DRAW_VP
    return (WIN_VP, LOSS_VP) if winner_side == 0 else (LOSS_VP, WIN_VP)


# -- cancellation after the start (§6) ------------------------------------------------------


@dataclass(frozen=True)
class Eliminated:
    """An eliminated player: the tied group of positions ``first … first+size-1``."""

    player: Any
    first: int
    size: int


@dataclass(frozen=True)
class Remaining:
    """A player still in play, with the VP at the cancellation (points format)."""

    player: Any
    vp: int = 0


@dataclass(frozen=True)
class Refund:
    rule: str
    cents: int
    parts: dict[str, int]


def cancellation_refunds(pool: int, buy_in: int, payouts_cents: Sequence[int], format: str,
                         eliminated: Sequence[Eliminated], remaining: Sequence[Remaining]) -> dict[Any, Refund]:
    """The whole refund table of a tournament cancelled after its start (platform.md §6.3–6.4).

    ``remaining`` is in registration order (the tie order of every split). a1/a2 for the
    eliminated, then b1 (knockout) or b2 (points) over the residual pool. Sums to ``pool``
    except for the a2 floors' leftover cents, which stay in the residual pool.
    """
    table: dict[Any, Refund] = {}
    a2_total = 0
    for e in eliminated:
        group_total = range_prize_total(payouts_cents, e.first, e.size)
        if group_total:
            cents = group_total // e.size
            table[e.player] = Refund("a2", cents, {"a2": cents})
            a2_total += cents
        else:
            table[e.player] = Refund("a1", 0, {})
    residual = pool - a2_total
    count = len(remaining)
    if not count:
        return table
    if format == KNOCKOUT:
        for r, cents in zip(remaining, split_cents(residual, [1] * count), strict=True):
            table[r.player] = Refund("b1", cents, {"b1": cents})
        return table
    foreseen = payouts_cents[count - 1] if count <= len(payouts_cents) else 0
    base = max(buy_in, foreseen)
    if count * base > residual:
        for r, cents in zip(remaining, split_cents(residual, [1] * count), strict=True):
            table[r.player] = Refund("b2_scaled", cents, {"b2.1": cents, "b2.2": 0})
        return table
    extra = split_cents(residual - count * base, [r.vp for r in remaining])
    for r, more in zip(remaining, extra, strict=True):
        table[r.player] = Refund("b2", base + more, {"b2.1": base, "b2.2": more})
    return table


def refund_currencies(refund: int, *, paid_bonus: int, paid_cash: int) -> tuple[int, int, int]:
    """(to bonus, to cash, in the prize currency) of a refund (§3.4): bonus first, up to what
    was paid in bonus, then cash up to what was paid in cash, the rest in the prize currency."""
    to_bonus = min(refund, paid_bonus)
    to_cash = min(refund - to_bonus, paid_cash)
    return to_bonus, to_cash, refund - to_bonus - to_cash


def buy_in_sources(buy_in: int, *, bonus_balance: int, cash_balance: int) -> tuple[int, int] | None:
    """(bonus, cash) paying a buy-in, bonus first; None when the two together are short."""
    if bonus_balance + cash_balance < buy_in:
        return None
    from_bonus = min(buy_in, max(bonus_balance, 0))
    return from_bonus, buy_in - from_bonus
