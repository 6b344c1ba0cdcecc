"""Run everything the product needs: daphne (HTTP + websockets), a Celery worker and beat.

Ctrl-C (or SIGTERM) stops all three; if one of them dies, the others are stopped too.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Serve the site with daphne, a Celery worker and the beat scheduler."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", default="8000")
        parser.add_argument("--no-celery", action="store_true", help="only the ASGI server")

    def handle(self, *args, host, port, no_celery, **options):
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE",
                                                                        "config.settings.base")}
        # daphne's name: one restarted on the same address removes its earlier process's rows
        env.setdefault("MAZZIERE_SERVER_NAME", f"{socket.gethostname()}:{port}")
        python = sys.executable
        sqlite = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
        commands = {"daphne": [python, "-m", "daphne", "-b", host, "-p", str(port), "config.asgi:application"]}
        if not no_celery:
            worker = [python, "-m", "celery", "-A", "config", "worker", "--loglevel", "WARNING"]
            # SQLite takes one writer at a time: a single worker process avoids lock waits
            worker += ["--pool", "solo"] if sqlite else ["--concurrency", "2"]
            commands["celery-worker"] = worker
            commands["celery-beat"] = [python, "-m", "celery", "-A", "config", "beat", "--loglevel", "WARNING",
                                       "--schedule", str(settings.CELERY_BEAT_SCHEDULE_FILENAME)]
        procs: dict[str, subprocess.Popen] = {}
        stopping = False

        def stop(*_):
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        for name, cmd in commands.items():
            procs[name] = subprocess.Popen(cmd, env=env, start_new_session=True)
            self.stdout.write(f"started {name} (pid {procs[name].pid})")
        self.stdout.write(f"Mazziere is at http://{host}:{port}/ — Ctrl-C stops everything")
        status = 0
        try:
            while not stopping:
                for name, proc in procs.items():
                    if proc.poll() is not None:
                        self.stderr.write(f"{name} exited with {proc.returncode}: stopping the others")
                        status = proc.returncode or 1
                        stopping = True
                time.sleep(0.5)
        finally:
            for proc in procs.values():
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGTERM)
            deadline = time.monotonic() + 10
            for proc in procs.values():
                try:
                    proc.wait(timeout=max(0.1, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
            self.stdout.write("stopped")
        if status:
            sys.exit(status)
