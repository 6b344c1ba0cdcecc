"""What one move costs the server, part by part, in one process (a benchmark, not a test).

``bench/moves.py`` measures moves through real daphne and Celery processes; its figure is the
sum of everything. This one plays the same moves with the same services in one process, so
each part's CPU can be read apart, and can be profiled::

    createdb -h 127.0.0.1 -U postgres mazziere_bench
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mazziere_bench REDIS_URL=redis://127.0.0.1:6379/5 \\
        .venv/bin/python bench/move_cost.py --tables 20 --moves 400 --runs 3 [--profile]

Per move, as the servers do it (4-player Spades, humans in seats 0 and 2, robots in 1 and 3):

- ``human move``: ``table_move`` as the socket calls it (lock, apply, 5 statements, commit; its
  hooks: the table's revision, the push to the table's group on Redis, the robot's task
  published to the broker), inside a database hop as the socket's (``close_old_connections``
  before and after: the pool's connection is borrowed and given back);
- ``robot move``: ``match_robot_move`` as the worker's task calls it, in the same hop;
- ``render, after a human move``: each human's socket renders the table for the push
  (``render_fragments`` with the announced revision): the snapshot the move left in the cache;
- ``render, after a robot move``: the same, with the snapshot held before the robot's move (the
  robot moved in the worker, another process): one statement reads the moved match.

CPU is ``time.process_time`` of this process (every thread: the push loop's too) plus the
PostgreSQL backend's CPU (``/proc/<pid>/stat``), per move. The moves are not sent over a
socket: what the servers pay on top (websocket frames, Twisted, the channel layer's receive,
thread hops, Celery's own work) is ``bench/moves.py``'s figure minus this one.

``--templates`` times the fragments' templates alone, interleaved: the Jinja2 ones the site
draws (``jinja2/tables/``) against the Django templates they were before issue 30, read from git
(``--templates-against``, default the last revision that had them; it also says whether both
still draw the same).
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import importlib.util
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

_spec = importlib.util.spec_from_file_location("bench_moves", ROOT / "bench" / "moves.py")
moves = importlib.util.module_from_spec(_spec)
sys.modules["bench_moves"] = moves
_spec.loader.exec_module(moves)

PARTS = ("human move", "robot move", "render, after a human move", "render, after a robot move")


def _backend_cpu() -> float:
    """CPU seconds of every PostgreSQL process of this machine (the pool lends a different
    backend from one hop to the next; nothing else should be using PostgreSQL meanwhile)."""
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            raw = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        name, rest = raw.split(" (", 1)[1].rsplit(")", 1)
        if name.startswith("postgres"):
            fields = rest.split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def play(world: list[dict], moves_wanted: int, rng: random.Random, cpu: dict[str, list[float]],
         profile: cProfile.Profile | None = None) -> int:
    """Play ``moves_wanted`` moves round the tables, timing each part into ``cpu``."""
    from django.contrib.auth import get_user_model
    from django.db import close_old_connections

    from apps.games.engines import get_engine
    from apps.matches import services as matches
    from apps.matches.models import Match
    from apps.tables import render
    from apps.tables.models import Table
    from apps.tables.services import table_move

    users = {u.pk: u for u in get_user_model().objects.filter(username__startswith="bench-")}
    played = 0
    while played < moves_wanted:
        for w in world:
            table_id = w["table"]
            close_old_connections()
            match = Match.objects.filter(table_link__table_id=table_id, status=Match.PLAYING).first()
            if match is None:
                moves.redeal(table_id)
                continue
            state = get_engine(match.game).from_json(match.state)
            seat = state.to_act[0]
            humans = [users[ms.player_id] for ms in match.match_seats.all() if not ms.robot]
            close_old_connections()
            robot = seat in (1, 3)
            held = render._SNAPSHOTS.get(table_id)

            def hop(part: str, call, **kwargs) -> None:
                """``call(**kwargs)`` in a database hop as the servers make it, its CPU (and PostgreSQL's)
                to ``part``."""
                b0 = _backend_cpu()
                t0 = time.process_time()
                if profile:
                    profile.enable()
                close_old_connections()
                call(**kwargs)
                close_old_connections()
                if profile:
                    profile.disable()
                cpu[part].append(time.process_time() - t0)
                cpu[part + " (postgres)"].append(_backend_cpu() - b0)

            if robot:
                hop("robot move", matches.match_robot_move, match_id=match.pk)
            else:
                action = moves.choose(state.legal_actions(seat), "", rng)
                mover = users[match.match_seats.get(number=seat).player_id]
                hop("human move", table_move, table_id=table_id, user=mover, action=action, version=match.version)
            table = Table.objects.filter(pk=table_id).values("revision").first()
            match.refresh_from_db(fields=["version"])
            close_old_connections()
            if robot and held is not None:
                render._SNAPSHOTS[table_id] = held  # daphne held the snapshot before the worker's move
            announced = {"type": "table.changed", "revision": table["revision"], "match": match.pk,
                         "version": match.version, "move": True}
            part = "render, after a robot move" if robot else "render, after a human move"
            for user in humans:
                hop(part, render.render_fragments, table_id=table_id, user=user, announced=announced)
            played += 1
    return played


def _normal(html_text: str) -> str:
    """Markup compared across engines: entities decoded (Django writes ``&#x27;``, Jinja2 ``&#39;``;
    Django escapes a translated string, Jinja2's i18n marks it safe) and blank runs folded."""
    import html
    import re

    return re.sub(r"\s+", " ", html.unescape(html_text)).strip()


#: the last revision whose match fragments were Django templates (issue 30 made them Jinja2)
DJANGO_FRAGMENTS = "828d67e"


def django_templates_of(rev: str) -> Path:
    """Revision ``rev``'s ``templates/`` folder, written by ``git archive`` to a temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="bench-templates-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "templates"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder / "templates"


def templates(world: list[dict], runs: int, slices: int, rev: str) -> None:
    """The table fragments' templates alone, Jinja2 (``jinja2/tables/``, what the site draws) against
    the Django templates they were at ``rev`` (before issue 30), from the same ready contexts: the
    public part (``tables/_public.html``, once a move) and a seat's private part
    (``tables/_private.html``, once a socket), interleaved slice by slice."""
    from django.template.backends.django import DjangoTemplates

    from apps.play.jinja import fragment_render
    from apps.play.render import public_context, table_context
    from apps.tables import render
    from apps.tables.selectors import table_access

    django_engine = DjangoTemplates({"NAME": "bench-django", "DIRS": [django_templates_of(rev)],
                                     "APP_DIRS": True, "OPTIONS": {}})
    public, private = [], []
    for w in world:
        snap = render.snapshot_current(table_id=w["table"])
        if snap is None or snap.match is None:
            continue
        public.append({**public_context(snap), "oob": True})
        for seat in snap.seats:
            if seat.player_id:
                access = table_access(table=snap.table, user=seat.player, match=snap.match, seats=snap.seats)
                private.append(table_context(table=snap.table, match=snap.match, user=seat.player, access=access,
                                             snapshot=snap))
    sides = {
        "django": lambda name, ctx: django_engine.get_template(name).render(ctx),
        "jinja2": fragment_render,
    }
    differ = 0
    for name, contexts in (("tables/_public.html", public), ("tables/_private.html", private)):
        for ctx in contexts:
            a, b = _normal(sides["django"](name, ctx)), _normal(sides["jinja2"](name, ctx))
            if a != b:
                differ += 1
                if differ == 1:
                    at = next(i for i, (x, y) in enumerate(zip(a + " ", b + " ", strict=False)) if x != y)
                    print(f"  {name} differs at {at}:\n    django {a[max(0, at - 80):at + 80]!r}\n"
                          f"    jinja2 {b[max(0, at - 80):at + 80]!r}")
    print(f"  {len(public)} public and {len(private)} private contexts; outputs that differ: {differ}")
    for name, contexts in (("tables/_public.html", public), ("tables/_private.html", private)):
        results: dict[str, list[float]] = {"django": [], "jinja2": []}
        ratios = []
        for _ in range(runs):
            spent = {"django": 0.0, "jinja2": 0.0}
            count = {"django": 0, "jinja2": 0}
            order = ["django", "jinja2"]
            for _slice in range(slices):
                for side in order:
                    t = time.process_time()
                    for ctx in contexts:
                        sides[side](name, ctx)
                    spent[side] += time.process_time() - t
                    count[side] += len(contexts)
                order.reverse()
            per = {side: spent[side] / count[side] * 1000 for side in spent}
            for side in per:
                results[side].append(per[side])
            ratios.append(per["jinja2"] / per["django"])
        print(f"  {name:22} django {_mr(results['django'])} ms, jinja2 {_mr(results['jinja2'])} ms, "
              f"jinja2/django {statistics.median(ratios):.2f}x [{min(ratios):.2f}x-{max(ratios):.2f}x]")


def _mr(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} [{min(values):.3f}-{max(values):.3f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=400, help="moves a run (human and robot)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="cProfile the parts; print the top functions")
    parser.add_argument("--templates", action="store_true",
                        help="also time the fragments' templates: Jinja2 against the Django templates they were")
    parser.add_argument("--templates-against", default=DJANGO_FRAGMENTS, metavar="REV",
                        help=f"the git revision whose Django fragments --templates draws (default {DJANGO_FRAGMENTS})")
    args = parser.parse_args()
    if args.runs < 3:
        parser.error("--runs: at least 3")
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        parser.error("set DATABASE_URL (a database made for the bench) and REDIS_URL (a Redis database of its own)")
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.base", "MAZZIERE_ROBOT_MOVE_DELAY": "0",
                       "MAZZIERE_CHANNEL_PREFIX": f"bench-cost-{os.getpid()}", "DJANGO_DEBUG": "0",
                       "DJANGO_LOG_LEVEL": "ERROR", "CELERY_TASK_ALWAYS_EAGER": "0"})
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.utils import translation

    from apps.common.collector import collector_settle

    call_command("migrate", verbosity=0)
    translation.activate("it")
    rng = random.Random(1)
    print(f"bench/move_cost.py: {args.tables} tables of spades, {args.moves} moves a run, {args.runs} runs; "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    world = moves.make_world(args.tables, "spades", f"c{os.getpid()}")
    play(world, 2 * args.tables, rng, collections.defaultdict(list))  # warm: templates, caches, the pool
    if settings.SERVER_GC_SETTLE:
        collector_settle()  # as daphne and the worker do once warm (apps/common/collector.py)
    if args.templates:
        print("\ntemplates, CPU ms a render, median [min-max] of the runs (interleaved slices):")
        templates(world, args.runs, 20, args.templates_against)
        print()
    profile = cProfile.Profile(time.process_time) if args.profile else None
    runs: list[dict[str, list[float]]] = []
    for r in range(args.runs):
        cpu: dict[str, list[float]] = collections.defaultdict(list)
        play(world, args.moves, rng, cpu, profile)
        runs.append(cpu)
        per = {k: statistics.mean(v) * 1000 for k, v in cpu.items()}
        per_move = _per_move(cpu)
        print(f"run {r + 1}: " + ", ".join(f"{k} {per.get(k, 0):.2f} ms" for k in PARTS)
              + f"; a move with its 2 renders {per_move:.2f} ms; load {os.getloadavg()[0]:.2f}", flush=True)
    print("\nCPU per part, ms (this process; PostgreSQL's processes beside), median [min-max] of the runs' means")
    for k in PARTS:
        values = [statistics.mean(c[k]) * 1000 for c in runs if c.get(k)]
        pg = [statistics.mean(c[k + " (postgres)"]) * 1000 for c in runs if c.get(k)]
        if values:
            print(f"  {k:28} {statistics.median(values):6.2f} [{min(values):.2f}-{max(values):.2f}]"
                  f"   postgres {statistics.median(pg):5.2f} [{min(pg):.2f}-{max(pg):.2f}]")
    values = [_per_move(c) for c in runs]
    print(f"  {'a move and its 2 renders':28} {statistics.median(values):6.2f} [{min(values):.2f}-{max(values):.2f}]"
          "  (the mean over human and robot moves as played)")
    if profile is not None:
        print("\ncProfile of the parts (cumulative, top 45):")
        pstats.Stats(profile).strip_dirs().sort_stats("cumulative").print_stats(45)
        print("cProfile of the parts (own time, top 30):")
        pstats.Stats(profile).strip_dirs().sort_stats("tottime").print_stats(30)


def _per_move(cpu: dict[str, list[float]]) -> float:
    """Mean CPU ms of a move with its renders: every part's total over the moves played."""
    count = len(cpu["human move"]) + len(cpu["robot move"])  # every part, PostgreSQL's CPU included
    return sum(sum(v) for v in cpu.values()) / max(1, count) * 1000


if __name__ == "__main__":
    main()
