"""Throughput benchmark for the game engines (a benchmark, not a test: it never asserts).

Run from the project root::

    .venv/bin/python bench/engines.py                    # full run, about a minute and a half
    .venv/bin/python bench/engines.py --quick            # smoke run, a few seconds
    .venv/bin/python bench/engines.py --games scopa,hearts --seconds 2 --runs 7

For every registered engine and each of its ``player_counts`` it plays random complete
matches through the public protocol only (``new_game`` with a seed, then a random seat of
``to_act`` and a uniformly random ``legal_actions`` entry, until ``is_over``) and reports
matches, hands and actions per second (median of several timed runs). When ``pyspiel``
(OpenSpiel) imports, it plays its ``hearts`` and ``spades`` the same way, side by side.
See bench/README.md for what the numbers mean.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from apps.games.engines import ENGINES  # noqa: E402

# Our engine id -> OpenSpiel game name. A pyspiel game is one deal, so it is compared
# with our *hands* per second (our state is a whole match of several hands).
PYSPIEL_GAMES = {"hearts": "hearts", "spades": "spades"}

FULL_SECONDS, FULL_RUNS = 1.0, 5
QUICK_SECONDS, QUICK_RUNS = 0.1, 3


@dataclass
class Run:
    seconds: float
    matches: int
    hands: int | None  # None when result()["hands"] is not a list
    actions: int

    @property
    def matches_per_s(self) -> float:
        return self.matches / self.seconds

    @property
    def hands_per_s(self) -> float | None:
        return None if self.hands is None else self.hands / self.seconds

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds


@dataclass
class Row:
    label: str
    players: int | None
    runs: list[Run] = field(default_factory=list)

    def median(self, attr: str) -> float | None:
        values = [getattr(run, attr) for run in self.runs]
        if not values or any(v is None for v in values):
            return None
        return statistics.median(values)

    def spread(self, attr: str) -> float | None:
        """(max - min) / median of a rate over the runs, as a fraction."""
        values = [getattr(run, attr) for run in self.runs]
        mid = self.median(attr)
        if not mid or len(values) < 2:
            return None
        return (max(values) - min(values)) / mid

    def total(self, attr: str) -> int | None:
        values = [getattr(run, attr) for run in self.runs]
        return None if any(v is None for v in values) else sum(values)


# --------------------------------------------------------------------------- playouts


def play_ours(engine, players: int, seed: int, rng: random.Random) -> tuple[int | None, int]:
    """One random complete match through the public protocol; (hands, actions)."""
    state = engine.new_game(players, seed=seed)
    actions = 0
    choice = rng.choice
    while not state.is_over:
        seat = choice(state.to_act)
        state.apply(seat, choice(state.legal_actions(seat)))
        actions += 1
    hands = state.result().get("hands")
    return (len(hands) if isinstance(hands, list) else None), actions


def play_pyspiel(game, rng: random.Random) -> int:
    """One random complete pyspiel game (one deal); the number of player decisions."""
    state = game.new_initial_state()
    actions = 0
    choice, choices = rng.choice, rng.choices
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(choices(outcomes, probs)[0])
        else:
            state.apply_action(choice(state.legal_actions()))
            actions += 1
    return actions


def timed_run_ours(engine, players: int, seconds: float, seed: int) -> Run:
    rng = random.Random(seed)
    matches = actions = 0
    hands: int | None = 0
    clock = time.perf_counter
    start = clock()
    while True:
        match_hands, match_actions = play_ours(engine, players, seed * 100_003 + matches, rng)
        matches += 1
        actions += match_actions
        hands = None if hands is None or match_hands is None else hands + match_hands
        elapsed = clock() - start
        if elapsed >= seconds:
            return Run(elapsed, matches, hands, actions)


def timed_run_pyspiel(game, seconds: float, seed: int) -> Run:
    rng = random.Random(seed)
    games = actions = 0
    clock = time.perf_counter
    start = clock()
    while True:
        actions += play_pyspiel(game, rng)
        games += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return Run(elapsed, games, games, actions)


# --------------------------------------------------------------------------- printing


def fmt_rate(value: float | None) -> str:
    if value is None:
        return "n/a"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:,.1f}"


def fmt_pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"


def fmt_ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}x"


def table(headers: list[str], rows: list[list[str]], left: int = 1) -> str:
    """A plain-text table; the first ``left`` columns are left-aligned, the rest right."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])


def machine_lines() -> list[str]:
    lines = [
        f"python   {platform.python_implementation()} {platform.python_version()} ({sys.executable})",
        f"cpus     {os.cpu_count()} (os.cpu_count; the benchmark uses one)",
        f"platform {platform.platform()}",
    ]
    processor = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for text in info:
                if text.startswith("model name"):
                    processor = text.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    lines.append(f"cpu      {processor}")
    return lines


# --------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Random-playout throughput of every game engine (and OpenSpiel Hearts/Spades).",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help=f"minimum length of one timed run (default {FULL_SECONDS}, {QUICK_SECONDS} with --quick)",
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=None,
        help=f"timed runs per configuration (default {FULL_RUNS}, {QUICK_RUNS} with --quick)",
    )
    parser.add_argument("--games", default="", help="comma-separated engine ids (default: all)")
    parser.add_argument("--quick", action="store_true", help="short smoke run")
    parser.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    parser.add_argument("--no-pyspiel", action="store_true", help="skip the OpenSpiel comparison")
    args = parser.parse_args(argv)
    if args.seconds is None:
        args.seconds = QUICK_SECONDS if args.quick else FULL_SECONDS
    if args.runs is None:
        args.runs = QUICK_RUNS if args.quick else FULL_RUNS
    if args.seconds <= 0 or args.runs < 1:
        parser.error("--seconds must be > 0 and --runs >= 1")
    if args.games:
        wanted = [g.strip() for g in args.games.split(",") if g.strip()]
        unknown = [g for g in wanted if g not in ENGINES]
        if unknown:
            parser.error(f"unknown game(s): {', '.join(unknown)} (known: {', '.join(ENGINES)})")
        args.games = wanted
    else:
        args.games = list(ENGINES)
    return args


def load_pyspiel():
    try:
        import pyspiel
    except Exception as exc:  # ImportError, or a broken binary wheel
        return None, f"{type(exc).__name__}: {exc}"
    try:
        from importlib.metadata import version

        return pyspiel, f"open_spiel {version('open_spiel')}"
    except Exception:
        return pyspiel, "open_spiel (version unknown)"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()

    print("Mazziere engine benchmark (random playouts; figures only, nothing is asserted)")
    for text in machine_lines():
        print(text)
    pyspiel, pyspiel_note = (None, "--no-pyspiel given") if args.no_pyspiel else load_pyspiel()
    if pyspiel is not None:
        print(f"pyspiel  {pyspiel_note}")
    elif args.no_pyspiel:
        print("pyspiel  skipped (--no-pyspiel)")
    else:
        print(f"pyspiel  not available ({pyspiel_note}); continuing without the comparison")
    print(
        f"mode     {'quick' if args.quick else 'full'}: {args.runs} timed run(s) of >= {args.seconds:g} s"
        " per configuration, median reported, engine default options"
    )
    print()

    ours: list[Row] = []
    for game_id in args.games:
        engine = ENGINES[game_id]
        for players in engine.player_counts:
            row = Row(game_id, players)
            play_ours(engine, players, seed=args.seed, rng=random.Random(args.seed))  # warm-up
            for run in range(args.runs):
                row.runs.append(timed_run_ours(engine, players, args.seconds, args.seed + run))
            ours.append(row)
            print(
                f"  {game_id:<17} {players}p  {fmt_rate(row.median('matches_per_s')):>9} matches/s"
                f"  {fmt_rate(row.median('hands_per_s')):>9} hands/s"
                f"  {fmt_rate(row.median('actions_per_s')):>9} actions/s",
                flush=True,
            )

    theirs: dict[str, Row] = {}
    compared = [g for g in args.games if g in PYSPIEL_GAMES]
    if pyspiel is None:
        print(f"\npyspiel comparison skipped: {pyspiel_note}")
    elif compared:
        print()
        for game_id in compared:
            name = PYSPIEL_GAMES[game_id]
            try:
                game = pyspiel.load_game(name)
            except Exception as exc:
                print(f"  pyspiel {name}: cannot load ({type(exc).__name__}: {exc})")
                continue
            row = Row(f"pyspiel {name}", game.num_players())
            play_pyspiel(game, random.Random(args.seed))  # warm-up
            for run in range(args.runs):
                row.runs.append(timed_run_pyspiel(game, args.seconds, args.seed + run))
            theirs[game_id] = row
            print(
                f"  pyspiel {name:<9} {row.players}p  {fmt_rate(row.median('matches_per_s')):>9} games/s"
                f"  {fmt_rate(row.median('actions_per_s')):>9} actions/s",
                flush=True,
            )

    # ---- final tables
    print("\nOur engines (median of runs; a match is a whole partita, a hand one deal)\n")
    rows = []
    for row in ours:
        matches, hands, actions = row.total("matches"), row.total("hands"), row.total("actions")
        rows.append(
            [
                row.label,
                str(row.players),
                str(len(row.runs)),
                f"{matches:,}",
                fmt_rate(row.median("matches_per_s")),
                fmt_rate(row.median("hands_per_s")),
                fmt_rate(row.median("actions_per_s")),
                "n/a" if hands is None else f"{hands / matches:.2f}",
                "n/a" if not hands else f"{actions / hands:.1f}",
                fmt_pct(row.spread("actions_per_s")),
            ]
        )
    print(
        table(
            [
                "game",
                "players",
                "runs",
                "matches",
                "matches/s",
                "hands/s",
                "actions/s",
                "hands/match",
                "actions/hand",
                "spread",
            ],
            rows,
            left=1,
        )
    )

    if theirs:
        print(
            "\nOpenSpiel side by side (one pyspiel game = one deal, so ratio = our hands/s ÷ pyspiel games/s)\n"
        )
        rows = []
        by_label = {(r.label, r.players): r for r in ours}
        for game_id, their in theirs.items():
            mine = by_label.get((game_id, their.players))
            if mine is None:
                continue
            hands_s, games_s = mine.median("hands_per_s"), their.median("matches_per_s")
            our_act, their_act = mine.median("actions_per_s"), their.median("actions_per_s")
            rows.append(
                [
                    game_id,
                    str(len(mine.runs)),
                    fmt_rate(games_s),
                    fmt_rate(hands_s),
                    fmt_ratio(None if hands_s is None or not games_s else hands_s / games_s),
                    fmt_rate(mine.median("matches_per_s")),
                    fmt_rate(their_act),
                    fmt_rate(our_act),
                    fmt_ratio(our_act / their_act if their_act else None),
                ]
            )
        print(
            table(
                [
                    "game",
                    "runs",
                    "pyspiel games/s",
                    "our hands/s",
                    "ratio",
                    "our matches/s",
                    "pyspiel act/s",
                    "our act/s",
                    "act ratio",
                ],
                rows,
                left=1,
            )
        )

    print(
        f"\nspread = (max - min) / median of actions/s over the runs; total wall time "
        f"{time.perf_counter() - started:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
