"""What Celery itself costs a task in the worker (a benchmark, not a test: it never asserts).

A robot move is one Celery task (``apps.matches.tasks.robot_turns``); ``bench/moves.py`` counts
the worker's whole CPU in a move's. This measures the part that is Celery's alone: a worker
started as ``manage.py serve`` starts it (prefork, two children) runs a task that does nothing
(Celery's own ``celery.accumulate``), published one at a time at the pace robot moves come
(``--rate`` a second), and its CPU (the process and its children, ``/proc``) over the window,
less what it burns idle, is divided by the tasks. The same for the other pools (``solo``,
``threads``) for comparison; the configurations alternate, their order flipping each run::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mazziere_bench REDIS_URL=redis://127.0.0.1:6379/5 \\
        .venv/bin/python bench/celery_task.py --tasks 400 --rate 40 --runs 3

The Redis database of REDIS_URL is emptied first: give it one of its own.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("bench_moves", ROOT / "bench" / "moves.py")
moves = importlib.util.module_from_spec(_spec)
sys.modules["bench_moves"] = moves
_spec.loader.exec_module(moves)

CONFIGS = {
    "prefork, 2 children (manage.py serve)": ["--concurrency", "2"],
    "solo": ["--pool", "solo"],
    "threads, 2": ["--pool", "threads", "--concurrency", "2"],
}
REFERENCE = next(iter(CONFIGS))


def trial(app, options: list[str], tasks: int, rate: float, redis_db: str) -> float:
    """CPU ms a task of one worker run with ``options``, its idle CPU taken off."""
    subprocess.run(["redis-cli", "-u", redis_db, "flushdb"], capture_output=True, check=False)
    worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "WARNING",
                               *options], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(6)  # started, children forked, connected
        for _ in range(20):  # warm: the task's tracer built, the connections made
            app.send_task("celery.accumulate", args=(1,))
        time.sleep(2)
        c0, t0 = moves.cpu_seconds(worker.pid), time.monotonic()
        time.sleep(4)
        idle = (moves.cpu_seconds(worker.pid) - c0) / (time.monotonic() - t0)
        c0, t0 = moves.cpu_seconds(worker.pid), time.monotonic()
        for _ in range(tasks):
            app.send_task("celery.accumulate", args=(1,))
            time.sleep(1 / rate)
        time.sleep(1.0)  # the last ones run
        used, elapsed = moves.cpu_seconds(worker.pid) - c0, time.monotonic() - t0
    finally:
        worker.terminate()
        worker.wait()
    return (used - idle * elapsed) / tasks * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=400)
    parser.add_argument("--rate", type=float, default=40.0, help="tasks published a second, one at a time")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if args.runs < 3:
        parser.error("--runs: at least 3 (the output is a median and a range)")
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        parser.error("set DATABASE_URL and REDIS_URL (a Redis database of its own: it is emptied)")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from config.celery import app

    print(f"bench/celery_task.py: {args.tasks} no-op tasks a trial, {args.rate:g} a second; {args.runs} runs; "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    per: dict[str, list[float]] = {name: [] for name in CONFIGS}
    for run in range(args.runs):
        order = list(CONFIGS) if run % 2 == 0 else list(reversed(CONFIGS))
        for name in order:
            per[name].append(trial(app, CONFIGS[name], args.tasks, args.rate, os.environ["REDIS_URL"]))
            print(f"  run {run + 1}: {name:40} {per[name][-1]:.2f} ms a task; load {os.getloadavg()[0]:.2f}",
                  flush=True)
    print("\nworker CPU a task, median [min-max] of the runs; ratio to the reference run by run")
    for name, values in per.items():
        ratios = [v / r for v, r in zip(values, per[REFERENCE], strict=True)]
        print(f"  {name:40} {statistics.median(values):.2f} ms [{min(values):.2f}-{max(values):.2f}]"
              f"   {statistics.median(ratios):.2f}x [{min(ratios):.2f}x-{max(ratios):.2f}x]")


if __name__ == "__main__":
    main()
