"""The counters every app moves, for /metrics (apps/ops): moves, their latency from the click
to the push, open sockets (every socket of the site, counted in apps/common/sockets.py), ledger transactions. Process-wide (prometheus-client); with
several processes, ``PROMETHEUS_MULTIPROC_DIR`` lets /metrics add them up (docs/deploy.md)."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

MOVES = Counter("mazziere_moves", "Moves applied to matches (players, robots, timeouts).", ["by"])
MOVE_LATENCY = Histogram(
    "mazziere_move_latency_seconds", "From a player's move frame to its push sent (commit included).",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0))
OPEN_SOCKETS = Gauge("mazziere_open_sockets", "Websockets open (accepted, not yet disconnected), by socket.",
                     ["socket"], multiprocess_mode="livesum")
LEDGER_TRANSACTIONS = Counter("mazziere_ledger_transactions", "Ledger transactions written.")
