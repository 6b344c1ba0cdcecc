"""Run everything the product needs: daphne (HTTP + websockets), a Celery worker and beat.

Ctrl-C (or SIGTERM) stops all three. If one of them dies later (a crash, the OOM killer, a
``kill -9``), the others keep serving and it is started again after a pause that doubles with
each quick failure (1 s up to 30 s; back to 1 s once it has run a minute), and the restart is
logged. There is never more than one beat: it is started again only once the old one (and
its process group) is gone. A process that fails by itself at its very first start (a port
taken, a broken setting) stops everything: restarting would only repeat the error.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import timezone

from apps.common.cluster import haproxy_config_write
from apps.common.metrics import multiprocess_dir_prepare, multiprocess_process_dead

#: the first pause before a restart, its ceiling, and how long a process must run for the
#: pause to start again from the first (seconds)
RESTART_FIRST_DELAY = 1.0
RESTART_MAX_DELAY = 30.0
RESTART_STABLE_AFTER = 60.0
#: a process that exits by itself with an error at its first start, before daphne ever listened or
#: within this many seconds for the others, is a set-up error (a port taken, a broken setting)
FIRST_START_GRACE = 60.0


@dataclass
class Supervised:
    """One child of serve: its command, its live process and its restart state."""

    name: str
    command: list[str]
    env: dict[str, str]
    proc: subprocess.Popen | None = None
    started_at: float = 0.0
    starts: int = 0
    delay: float = RESTART_FIRST_DELAY
    restart_at: float | None = None
    #: (host, port) daphne listens on: it has started once it accepts a connection there
    address: tuple[str, int] | None = None
    ready: bool = False

    def start(self) -> None:
        # its own session: a Ctrl-C in the terminal reaches serve only, and its group can be
        # killed whole (a Celery worker's pool children with it)
        self.proc = subprocess.Popen(self.command, env=self.env, start_new_session=True)
        self.started_at = time.monotonic()
        self.starts += 1
        self.restart_at = None

    def check_ready(self) -> None:
        """Whether its first start succeeded: daphne listens, the others ran FIRST_START_GRACE."""
        if self.ready:
            return
        if self.address is None:
            self.ready = time.monotonic() - self.started_at >= FIRST_START_GRACE
            return
        with contextlib.suppress(OSError), socket.create_connection(self.address, timeout=0.2):
            self.ready = True

    def kill_group(self, sig: int) -> None:
        """Signal the process's whole group: the children of a dead main process too (a worker's
        pool), so a restarted one never runs beside orphans of the old."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, sig)


def _port_taken(host: str, port: int) -> str:
    """Why daphne could not listen on the address ("" if it can): told before anything starts."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as daphne binds
        try:
            probe.bind((host, port))
        except OSError as exc:
            return exc.strerror or str(exc)
    return ""


class Command(BaseCommand):
    help = "Serve the site with daphne, a Celery worker and the beat scheduler (restarting any that dies)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", default="8000")
        parser.add_argument("--no-celery", action="store_true", help="only the ASGI server")
        parser.add_argument("--daphne", type=int, default=1,
                            help="daphne processes; 2 or more run behind Debian's HAProxy on --port (docs/deploy.md)")
        parser.add_argument("--workers", type=int, default=1, help="Celery worker processes (one beat whatever)")

    def log(self, message: str, *, error: bool = False) -> None:
        line = f"[serve {timezone.localtime():%Y-%m-%d %H:%M:%S}] {message}"
        (self.stderr if error else self.stdout).write(line)

    def _cluster_refusal(self, daphne: int) -> str:
        """Why several daphne cannot run here ("" if they can)."""
        if daphne < 2:
            return ""
        if not shutil.which("haproxy"):
            return "several daphne run behind HAProxy: apt-get install haproxy (Debian's package)"
        if not getattr(settings, "REDIS_URL", "") or settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
            return ("several daphne share PostgreSQL and Redis: set DATABASE_URL and REDIS_URL "
                    "(the embedded defaults keep pushes inside one process)")
        return ""

    def handle(self, *args, host, port, no_celery, daphne=1, workers=1, **options):
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE",
                                                                        "config.settings.base")}
        # daphne's name: one restarted on the same address removes its earlier process's rows
        env.setdefault("MAZZIERE_SERVER_NAME", f"{socket.gethostname()}:{port}")
        python = sys.executable
        sqlite = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
        biggest = str(settings.WS_SERVER_MAX_MESSAGE_BYTES)  # a larger frame: 1009 (apps/common/sockets.py)
        refusal = self._cluster_refusal(daphne)
        if refusal:
            self.log(f"--daphne {daphne}: {refusal}", error=True)
            sys.exit(1)

        def daphne_command(bind_host: str, bind_port: int) -> list[str]:
            return [python, "-m", "daphne", "-b", bind_host, "-p", str(bind_port), "--websocket-max-message-size",
                    biggest, "--websocket-max-frame-size", biggest, "config.asgi:application"]

        commands: dict[str, list[str]] = {}
        envs: dict[str, dict[str, str]] = {}
        addresses: dict[str, tuple[str, int]] = {}
        if daphne < 2:
            commands["daphne"] = daphne_command(host, int(port))
            addresses["daphne"] = (host, int(port))
        else:  # HAProxy on the address, the daphne processes on the next ports of 127.0.0.1
            backends = [int(port) + i for i in range(1, daphne + 1)]
            config = haproxy_config_write(Path(settings.VAR_DIR) / "haproxy.cfg", host=host, port=int(port),
                                          backends=backends)
            commands["haproxy"] = [shutil.which("haproxy") or "haproxy", "-db", "-f", str(config)]
            addresses["haproxy"] = (host, int(port))
            for i, backend in enumerate(backends, start=1):
                name = f"daphne-{i}"
                commands[name] = daphne_command("127.0.0.1", backend)
                addresses[name] = ("127.0.0.1", backend)
                # its own name (its socket rows), and the balancer's forwarded address trusted
                envs[name] = {**env, "MAZZIERE_SERVER_NAME": f"{socket.gethostname()}:{backend}",
                              "MAZZIERE_TRUSTED_PROXIES": ",".join(
                                  p for p in [env.get("MAZZIERE_TRUSTED_PROXIES", ""), "127.0.0.1"] if p)}
        if not no_celery:
            worker = [python, "-m", "celery", "-A", "config", "worker", "--loglevel", "WARNING"]
            # SQLite takes one writer at a time: a single worker process avoids lock waits
            worker += ["--pool", "solo"] if sqlite else ["--concurrency", "2"]
            for i in range(1, max(1, workers) + 1):
                name = "celery-worker" if workers <= 1 else f"celery-worker-{i}"
                commands[name] = [*worker, "--hostname", f"{name}@%h"] if workers > 1 else worker
            commands["celery-beat"] = [python, "-m", "celery", "-A", "config", "beat", "--loglevel", "WARNING",
                                       "--schedule", str(settings.CELERY_BEAT_SCHEDULE_FILENAME)]
        for bind_host, bind_port in addresses.values():
            taken = _port_taken(bind_host, bind_port)
            if taken:
                self.log(f"http://{bind_host}:{bind_port}/ cannot be served ({taken}): is another program using "
                         f"port {bind_port}? Choose another port: make run PORT=8010 (or manage.py serve --port "
                         f"8010)", error=True)
                sys.exit(1)
        # every child counts into one directory: /metrics adds them up (docs/deploy.md)
        metrics_dir = multiprocess_dir_prepare(Path(os.environ.get("PROMETHEUS_MULTIPROC_DIR")
                                                    or settings.VAR_DIR / "prometheus" / str(port)))
        for child_env in [env, *envs.values()]:
            child_env["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)
        children = [Supervised(name, cmd, envs.get(name, env), address=addresses.get(name))
                    for name, cmd in commands.items()]
        stopping = False

        def stop(*_):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        for child in children:
            child.start()
            self.log(f"started {child.name} (pid {child.proc.pid})")
        self.log(f"Mazziere is at http://{host}:{port}/ — Ctrl-C stops everything")
        status = 0
        try:
            while not stopping:
                now = time.monotonic()
                for child in children:
                    if child.restart_at is not None:
                        if now >= child.restart_at:
                            child.start()
                            self.log(f"restarted {child.name} (pid {child.proc.pid}, start {child.starts})",
                                     error=True)
                        continue
                    code = child.proc.poll()
                    if code is None:
                        child.check_ready()
                        continue
                    child.kill_group(signal.SIGKILL)  # whatever the dead process left running
                    multiprocess_process_dead(child.proc.pid, metrics_dir)
                    ran = now - child.started_at
                    if not child.ready and code > 0:  # failed by itself (not killed) before it ever served
                        self.log(f"{child.name} exited with {code} at its start: stopping the others", error=True)
                        status = code or 1
                        stopping = True
                        break
                    child.delay = RESTART_FIRST_DELAY if ran >= RESTART_STABLE_AFTER else child.delay
                    child.restart_at = now + child.delay
                    self.log(f"{child.name} (pid {child.proc.pid}) exited with {code} after {ran:.0f} s: "
                             f"restarting it in {child.delay:g} s", error=True)
                    child.delay = min(child.delay * 2, RESTART_MAX_DELAY)
                time.sleep(0.2)
        finally:
            live = [c for c in children if c.proc is not None and c.proc.poll() is None]
            for child in live:
                child.kill_group(signal.SIGTERM)
            deadline = time.monotonic() + 10
            for child in live:
                try:
                    child.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    child.kill_group(signal.SIGKILL)
            self.log("stopped")
        if status:
            sys.exit(status)
