"""Start the README's run command (`manage.py serve`) on the embedded defaults for a test.

SQLite, the in-process channel layer and the filesystem Celery broker, all in a scratch
``MAZZIERE_VAR_DIR``: daphne, a real Celery worker and beat, as `make run` starts them.
Used by tests/test_run_command.py and the browser tests.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def embedded_env(var_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.base", MAZZIERE_VAR_DIR=str(var_dir),
               CELERY_TASK_ALWAYS_EAGER="0", PYTHONUNBUFFERED="1",
               MAZZIERE_STAFF_OTP_REQUIRED="0")  # staff log in without 2FA unless a test passes "1"
    env.update(extra)
    return env


def manage(env, *args, timeout=300) -> str:
    run = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=timeout)
    assert run.returncode == 0, run.stderr
    return run.stdout


def wait_for(url: str, seconds: float = 60) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.status
        except Exception:
            time.sleep(0.5)
    raise AssertionError(f"{url} did not answer within {seconds}s")


#: how long a migrated demo world may be reused: its tournaments are scheduled relative to now
SEED_MAX_AGE = 45 * 60


def _seed_key() -> str:
    """What the demo world depends on: every source file's path, size and mtime (migrations,
    models, the seed command), so an edit makes a new one."""
    digest = hashlib.sha1()
    for folder in ("apps", "config"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            stat = path.stat()
            digest.update(f"{path.relative_to(ROOT)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def _seeded_database(env: dict[str, str], var_dir: Path) -> None:
    """Migrate and load the demo world once for every test process of a run: later servers,
    in this process or another (the xdist workers, the serial and browser parts of `make
    test`), start from a copy of it. Seeding is most of a server's start (about a minute);
    a lock makes a second process wait for the first instead of seeding too."""
    template = Path(tempfile.gettempdir()) / f"mazziere-seeded-{_seed_key()}.sqlite3"
    with open(template.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        fresh = template.exists() and time.time() - template.stat().st_mtime < SEED_MAX_AGE
        if not fresh:
            manage(env, "migrate", "--noinput", timeout=300)
            manage(env, "seed_demo", timeout=300)
            partial = template.with_suffix(f".{os.getpid()}.part")
            shutil.copyfile(var_dir / "db.sqlite3", partial)
            os.replace(partial, template)
            return
    shutil.copyfile(template, var_dir / "db.sqlite3")


@contextlib.contextmanager
def serving(var_dir: Path, *, reuse_seed: bool = False,
            **extra_env: str) -> Iterator[tuple[str, dict[str, str], subprocess.Popen]]:
    """Migrate, load the demo world and serve on a free port; yields (base URL, env, process).
    With ``reuse_seed`` the migrated demo world of an earlier server of this run is copied
    instead (the same rows, seconds instead of a minute).

    The server's output goes to ``var_dir/serve.log``; on exit the whole process group gets
    Ctrl-C (SIGINT), then SIGKILL if it has not stopped within 20 seconds.
    """
    env = embedded_env(var_dir, **extra_env)
    if reuse_seed:
        _seeded_database(env, var_dir)
    else:
        manage(env, "migrate", "--noinput")
        manage(env, "seed_demo")
    port = free_port()
    log = open(var_dir / "serve.log", "w")  # noqa: SIM115 (closed in the finally below)
    proc = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield f"http://127.0.0.1:{port}", env, proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        log.close()


def recharge_fall_due(env: dict[str, str]) -> None:
    """A credit recharge of the demo player anna that fell due an hour ago, written into the served
    product's database: the worker credits it at beat's next tick (a sign the worker works)."""
    manage(env, "shell", "-c", (
        "from datetime import timedelta; from django.utils import timezone;"
        "from django.contrib.auth import get_user_model; from apps.wallet.models import CreditRecharge;"
        "u = get_user_model().objects.get(username='anna'); now = timezone.now();"
        "CreditRecharge.objects.create(player=u, requested_at=now - timedelta(hours=3),"
        " available_at=now - timedelta(hours=1))"))
