"""The counters every app moves, for /metrics (apps/ops): moves, their latency from the click
to the push, open sockets (every socket of the site, counted in apps/common/sockets.py), ledger transactions. Process-wide (prometheus-client); with
several processes, ``PROMETHEUS_MULTIPROC_DIR`` lets /metrics add them up (docs/deploy.md)."""

from __future__ import annotations

from pathlib import Path

from prometheus_client import Counter, Gauge, Histogram, multiprocess

MOVES = Counter("mazziere_moves", "Moves applied to matches (players, robots, timeouts).", ["by"])
MOVE_LATENCY = Histogram(
    "mazziere_move_latency_seconds", "From a player's move frame to its push sent (commit included).",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0))
OPEN_SOCKETS = Gauge("mazziere_open_sockets", "Websockets open (accepted, not yet disconnected), by socket.",
                     ["socket"], multiprocess_mode="livesum")
LEDGER_TRANSACTIONS = Counter("mazziere_ledger_transactions", "Ledger transactions written.")


def multiprocess_dir_prepare(path: Path) -> Path:
    """``path`` as an empty directory for prometheus-client's multiprocess mode: ``serve`` gives
    it to every process it starts (``PROMETHEUS_MULTIPROC_DIR``), so /metrics, answered by
    daphne, adds up the worker's counters too (robot moves, the ledger transactions of tasks).
    The last run's files are removed: a run starts its counters from zero."""
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink(missing_ok=True)
    return path


def multiprocess_process_dead(pid: int, path: Path) -> None:
    """A process that died no longer counts in the live gauges (its open sockets closed with
    it); its counters stay in the sums."""
    multiprocess.mark_process_dead(pid, str(path))
