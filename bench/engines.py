"""Throughput benchmark for the game engines, OpenSpiel side by side (a benchmark, not a test).

Run from the project root::

    .venv/bin/python bench/engines.py                    # full run, about two minutes
    .venv/bin/python bench/engines.py --quick            # smoke run, a few seconds
    .venv/bin/python bench/engines.py --games scopa,hearts --seconds 2 --runs 7
    .venv/bin/python bench/engines.py --against HEAD~3   # ours against an older revision's engines

For every registered engine (``ENGINES``, so a game added to the registry is measured with
no change here) and each of its ``player_counts`` it plays random complete matches through
the public protocol only, and reports hands (deals) and actions per CPU second: the median
and the range of ``--runs`` runs. Where OpenSpiel plays the same game (``PYSPIEL_GAMES``)
and ``pyspiel`` imports, its game is played in the same process, interleaved with ours in
short slices, and compared per deal and per action run by run. With ``--against REV`` the
engines of that git revision are played interleaved too (an A/B in one process), so a
speed-up is measured against the code it replaces under the same machine load.

Honest by construction:

- rates are on CPU time (``time.process_time``), so another process on a shared machine
  slows the wall clock but not the figures; the wall/CPU share is printed to show it;
- ours and pyspiel alternate in slices of ``--slice`` CPU seconds (the order flips every
  slice), so both sides see the same machine; each run's ratio is taken from the slices of
  that run, and the median and range of the ratios are printed;
- a pyspiel game is one deal, so it is compared with one of our hands; its chance nodes
  are sampled with ``random.choice(state.legal_actions())`` when their outcomes are
  uniform, which is checked first on untimed games (``state.chance_outcomes()``: every
  probability 1/n, the same actions as ``legal_actions()``); if any is not uniform the
  game is sampled with the probabilities (``random.choices``) and the output says so.

See bench/README.md for what the numbers mean.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from apps.games.engines import ENGINES  # noqa: E402

#: our engine id -> (OpenSpiel game name, its parameters). Only games whose rules match
#: ours (same deal, same phases) belong here; a new engine is benchmarked without an entry,
#: and is compared with OpenSpiel only once one is added (and ``pyspiel`` knows the name).
#: OpenSpiel has no Scopa, Briscola, Tresette, Burraco, Scala 40 or Italian poker/solitaire.
PYSPIEL_GAMES: dict[str, tuple[str, dict[str, object]]] = {
    "hearts": ("hearts", {}),
    "spades": ("spades", {}),
}

FULL_SECONDS, FULL_RUNS, FULL_SLICE = 1.0, 5, 0.1
QUICK_SECONDS, QUICK_RUNS, QUICK_SLICE = 0.2, 3, 0.05
MIN_RUNS = 3
#: untimed pyspiel games whose every chance node is checked for uniform outcomes
UNIFORM_CHECK_GAMES = 20


# --------------------------------------------------------------------------- measurements


@dataclass
class Tally:
    """What one side played in one run: CPU and wall seconds, matches, deals, actions."""

    cpu: float = 0.0
    wall: float = 0.0
    matches: int = 0
    deals: int | None = 0  # None when an engine's result()["hands"] is not a list
    actions: int = 0

    def rate(self, what: str) -> float | None:
        count = getattr(self, what)
        return None if count is None or self.cpu <= 0 else count / self.cpu


@dataclass
class Side:
    """One thing to time: ``play(n)`` plays a unit (a match, a pyspiel game) -> (deals, actions)."""

    label: str
    play: Callable[[int], tuple[int | None, int]]
    runs: list[Tally] = field(default_factory=list)
    served: int = 0  # units played so far (the seed of the next one)

    def slice(self, tally: Tally, budget: float) -> None:
        """Play whole units until ``budget`` CPU seconds are spent (the last one finishes)."""
        cpu_clock, wall_clock = time.process_time, time.perf_counter
        spent = 0.0
        wall_start = wall_clock()
        while spent < budget:
            start = cpu_clock()
            deals, actions = self.play(self.served)
            spent += cpu_clock() - start
            self.served += 1
            tally.matches += 1
            tally.actions += actions
            tally.deals = None if tally.deals is None or deals is None else tally.deals + deals
        tally.cpu += spent
        tally.wall += wall_clock() - wall_start

    def values(self, what: str) -> list[float] | None:
        values = [run.rate(what) for run in self.runs]
        return None if not values or any(v is None for v in values) else values  # type: ignore[return-value]

    def total(self, what: str) -> int | None:
        values = [getattr(run, what) for run in self.runs]
        return None if any(v is None for v in values) else sum(values)


def ours_side(engine, players: int, seed: int) -> Side:
    """Random complete matches of our engine through the public protocol only."""
    rng = random.Random(seed)
    choice = rng.choice

    def play(n: int) -> tuple[int | None, int]:
        state = engine.new_game(players, seed=seed * 1_000_003 + n)
        actions = 0
        while not state.is_over:
            seats = state.to_act
            seat = seats[0] if len(seats) == 1 else choice(seats)
            state.apply(seat, choice(state.legal_actions(seat)))
            actions += 1
        hands = state.result().get("hands")  # inside the timing: a whole match, read once
        return (len(hands) if isinstance(hands, list) else None), actions

    return Side(f"{engine.id} {players}p", play)


def check_uniform(game, rng: random.Random, games: int) -> tuple[bool, int, str]:
    """Play ``games`` untimed games checking every chance node: (uniform, nodes seen, note)."""
    nodes = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions = [a for a, _ in outcomes]
                n = len(outcomes)
                if actions != list(state.legal_actions()):
                    return False, nodes, "chance_outcomes() and legal_actions() differ"
                if any(abs(p - 1.0 / n) > 1e-9 for _, p in outcomes):
                    return False, nodes, f"a chance node has non-uniform probabilities {outcomes[:4]}..."
                nodes += 1
                state.apply_action(rng.choice(actions))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return True, nodes, f"uniform at all {nodes:,} chance nodes of {games} untimed games"


def pyspiel_side(game, label: str, seed: int, uniform: bool) -> Side:
    """Random complete pyspiel games (one deal each); actions are player decisions only."""
    rng = random.Random(seed)
    choice, choices = rng.choice, rng.choices

    def play(n: int) -> tuple[int, int]:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                if uniform:
                    state.apply_action(choice(state.legal_actions()))
                else:
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(choices(outcomes, probs)[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
        return 1, decisions

    return Side(label, play)


# --------------------------------------------------------------------------- printing


def fmt_rate(value: float | None) -> str:
    if value is None:
        return "n/a"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:,.1f}"


def fmt_ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}x"


def med_range(values: list[float] | None, fmt: Callable[[float | None], str] = fmt_rate) -> str:
    """``median [min-max]`` of the runs."""
    if not values:
        return "n/a"
    return f"{fmt(statistics.median(values))} [{fmt(min(values))}-{fmt(max(values))}]"


def table(headers: list[str], rows: list[list[str]], left: int = 1) -> str:
    """A plain-text table; the first ``left`` columns are left-aligned, the rest right."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])


def load_line() -> str:
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "n/a"
    return f"{one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min)"


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
        description="Random-playout throughput of every game engine, on CPU time, OpenSpiel interleaved.",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help=f"CPU seconds of each side in one run (default {FULL_SECONDS}, {QUICK_SECONDS} with --quick)",
    )
    parser.add_argument(
        "--slice",
        type=float,
        default=None,
        help=f"CPU seconds of one slice; sides alternate slice by slice (default {FULL_SLICE},"
        f" {QUICK_SLICE} with --quick)",
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=None,
        help=f"runs per configuration, at least {MIN_RUNS} (default {FULL_RUNS}, {QUICK_RUNS} with --quick)",
    )
    parser.add_argument("--games", default="", help="comma-separated engine ids (default: all registered)")
    parser.add_argument("--quick", action="store_true", help="short smoke run")
    parser.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    parser.add_argument("--no-pyspiel", action="store_true", help="skip the OpenSpiel comparison")
    parser.add_argument(
        "--against",
        metavar="REV",
        default=None,
        help="also play the engines of this git revision, interleaved (e.g. HEAD~3, main)",
    )
    args = parser.parse_args(argv)
    if args.seconds is None:
        args.seconds = QUICK_SECONDS if args.quick else FULL_SECONDS
    if args.slice is None:
        args.slice = min(args.seconds, QUICK_SLICE if args.quick else FULL_SLICE)
    if args.runs is None:
        args.runs = QUICK_RUNS if args.quick else FULL_RUNS
    if args.seconds <= 0 or args.slice <= 0 or args.slice > args.seconds:
        parser.error("--seconds and --slice must be > 0, with --slice <= --seconds")
    if args.runs < MIN_RUNS:
        parser.error(f"--runs must be at least {MIN_RUNS}: the output is a median and a range")
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


def load_baseline(rev: str) -> tuple[dict, str, Path]:
    """The engine registry of git revision ``rev``, imported under another package name.

    ``git archive`` writes that revision's ``apps/games/engines`` to a temporary folder; the
    engines import each other relatively and nothing else, so the package loads as
    ``bench_baseline_engines`` beside ours. Returns (registry, short commit, folder).
    """
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", rev], check=True, capture_output=True, text=True
    ).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="bench-baseline-"))
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "apps/games/engines"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    (folder / "apps" / "games" / "engines").rename(folder / "bench_baseline_engines")
    sys.path.insert(0, str(folder))
    module = importlib.import_module("bench_baseline_engines")
    return module.ENGINES, commit, folder


@dataclass
class Config:
    """One engine at one player count, and the pyspiel game it is compared with, if any."""

    game_id: str
    players: int
    ours: Side
    theirs: Side | None = None
    sampling: str = ""
    baseline: Side | None = None


def build_configs(args: argparse.Namespace, pyspiel, baseline: dict | None) -> list[Config]:
    configs: list[Config] = []
    for game_id in args.games:
        engine = ENGINES[game_id]
        for players in engine.player_counts:
            config = Config(game_id, players, ours_side(engine, players, args.seed))
            config.ours.play(0)  # warm-up, untimed
            config.ours.served = 1
            old = (baseline or {}).get(game_id)
            if old is not None and players in old.player_counts:
                # the same seeds as ours: the same deals wherever the old shuffle was the same
                config.baseline = ours_side(old, players, args.seed)
                config.baseline.play(0)
                config.baseline.served = 1
            match = PYSPIEL_GAMES.get(game_id)
            if pyspiel is not None and match is not None:
                name, params = match
                try:
                    game = pyspiel.load_game(name, params) if params else pyspiel.load_game(name)
                except Exception as exc:
                    print(f"  pyspiel {name}: cannot load ({type(exc).__name__}: {exc}); no comparison")
                else:
                    if game.num_players() != players:
                        print(f"  pyspiel {name}: {game.num_players()} players, not {players}; no comparison")
                    else:
                        uniform, _, note = check_uniform(game, random.Random(args.seed), UNIFORM_CHECK_GAMES)
                        config.sampling = (
                            "uniform: random.choice(legal_actions())" if uniform
                            else "weighted: random.choices(chance_outcomes())"
                        )
                        print(f"  pyspiel {name:<8} chance nodes {note} -> {config.sampling}")
                        config.theirs = pyspiel_side(game, f"pyspiel {name}", args.seed, uniform)
                        config.theirs.play(0)  # warm-up, untimed
                        config.theirs.served = 1
            configs.append(config)
    return configs


def run_config(config: Config, seconds: float, slice_s: float) -> None:
    """One run: ours (and pyspiel) for ``seconds`` of CPU each, alternating in slices."""
    sides = [(config.ours, Tally())]
    if config.theirs is not None:
        sides.append((config.theirs, Tally()))
    if config.baseline is not None:
        sides.append((config.baseline, Tally()))
    slices = max(1, round(seconds / slice_s))
    for k in range(slices):
        # every side once per round, the order reversed every other round
        for side, tally in sides if k % 2 == 0 else reversed(sides):
            side.slice(tally, slice_s)
    for side, tally in sides:
        side.runs.append(tally)


def ratios(mine: Side, theirs: Side, ours_what: str, theirs_what: str) -> list[float] | None:
    """Run-by-run ratios (ours / pyspiel): each from the same run's interleaved slices."""
    a, b = mine.values(ours_what), theirs.values(theirs_what)
    if a is None or b is None:
        return None
    return [x / y for x, y in zip(a, b, strict=True) if y]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    cpu_started = time.process_time()

    print("Mazziere engine benchmark (random playouts on CPU time; figures only, nothing is asserted)")
    for text in machine_lines():
        print(text)
    print(f"load     {load_line()} at the start")
    pyspiel, pyspiel_note = (None, "--no-pyspiel given") if args.no_pyspiel else load_pyspiel()
    if pyspiel is not None:
        print(f"pyspiel  {pyspiel_note}")
    elif args.no_pyspiel:
        print("pyspiel  skipped (--no-pyspiel)")
    else:
        print(
            f"pyspiel  not available ({pyspiel_note}); our engines only. OpenSpiel is optional, not a"
            " dependency of the project (the bench extra): .venv/bin/python -m pip install 'open_spiel>=2.0,<3'"
        )
    print(
        f"mode     {'quick' if args.quick else 'full'}: {args.runs} runs; each run gives every side"
        f" >= {args.seconds:g} CPU s in slices of {args.slice:g} s, pyspiel interleaved; engine default options"
    )
    print()

    baseline, folder = None, None
    if args.against:
        try:
            baseline, commit, folder = load_baseline(args.against)
        except Exception as exc:  # not a git checkout, unknown revision, a broken old package
            print(f"baseline {args.against}: cannot load ({type(exc).__name__}: {exc}); no A/B")
        else:
            print(f"baseline {args.against} = {commit}: its engines play interleaved with ours")
    try:
        configs = build_configs(args, pyspiel, baseline)
        for run in range(args.runs):
            for config in configs:
                run_config(config, args.seconds, args.slice)
            print(f"  run {run + 1}/{args.runs} done, load {load_line()}", flush=True)
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    # ---- our engines
    print("\nOur engines: median [min-max] of the runs, per CPU second (a match is a whole partita, a hand one deal)\n")
    rows = []
    for config in configs:
        side = config.ours
        matches, hands, actions = side.total("matches"), side.total("deals"), side.total("actions")
        cpu = sum(r.cpu for r in side.runs)
        wall = sum(r.wall for r in side.runs)
        rows.append(
            [
                config.game_id,
                str(config.players),
                f"{matches:,}",
                med_range(side.values("deals")),
                med_range(side.values("actions")),
                fmt_rate(statistics.median(side.values("matches") or [0])),
                "n/a" if hands is None else f"{hands / matches:.2f}",
                "n/a" if not hands else f"{actions / hands:.1f}",
                f"{100 * cpu / wall:.0f}%" if wall else "n/a",
            ]
        )
    print(
        table(
            ["game", "players", "matches", "hands/s", "actions/s", "matches/s", "hands/match",
             "actions/hand", "cpu/wall"],
            rows,
        )
    )

    # ---- OpenSpiel side by side
    compared = [c for c in configs if c.theirs is not None]
    if compared:
        print(
            "\nOpenSpiel side by side, interleaved: one pyspiel game = one deal = one of our hands."
            "\nratio = ours / pyspiel, run by run (median [min-max]); pyspiel actions are player decisions\n"
        )
        rows = []
        for config in compared:
            mine, theirs = config.ours, config.theirs
            assert theirs is not None
            our_hands, their_deals = mine.total("deals"), theirs.total("matches")
            rows.append(
                [
                    config.game_id,
                    med_range(theirs.values("matches")),
                    med_range(mine.values("deals")),
                    med_range(ratios(mine, theirs, "deals", "matches"), fmt_ratio),
                    med_range(theirs.values("actions")),
                    med_range(mine.values("actions")),
                    med_range(ratios(mine, theirs, "actions", "actions"), fmt_ratio),
                    "n/a" if not our_hands else f"{mine.total('actions') / our_hands:.1f}",
                    f"{theirs.total('actions') / their_deals:.1f}",
                ]
            )
        print(
            table(
                ["game", "pyspiel deals/s", "our hands/s", "per-deal ratio", "pyspiel act/s", "our act/s",
                 "per-action ratio", "our act/deal", "pyspiel act/deal"],
                rows,
            )
        )
        for config in compared:
            print(f"  {config.game_id}: pyspiel chance nodes sampled {config.sampling}")
    elif pyspiel is None:
        print(f"\nOpenSpiel comparison skipped: {pyspiel_note}")
    else:
        print("\nNo selected game has an OpenSpiel counterpart (PYSPIEL_GAMES): no comparison")

    # ---- against an older revision
    against = [c for c in configs if c.baseline is not None]
    if against:
        print(
            f"\nAgainst {args.against}, interleaved: ratio = now / then, run by run (median [min-max])\n"
        )
        rows = []
        for config in against:
            old = config.baseline
            assert old is not None
            rows.append(
                [
                    config.game_id,
                    str(config.players),
                    med_range(old.values("actions")),
                    med_range(config.ours.values("actions")),
                    med_range(ratios(config.ours, old, "actions", "actions"), fmt_ratio),
                    med_range(ratios(config.ours, old, "deals", "deals"), fmt_ratio),
                ]
            )
        print(table(["game", "players", "then act/s", "now act/s", "actions/s ratio", "hands/s ratio"], rows))

    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    print(
        f"\ncpu/wall = CPU seconds / wall seconds of the timed slices: under ~95% something else"
        f" shared this core.\nload {load_line()} at the end; total {wall:.1f} s wall, {cpu:.1f} s CPU"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
