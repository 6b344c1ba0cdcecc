"""One migrated template database per run of the suite on PostgreSQL (`make test`).

Every pytest-xdist worker and the serial part each create a test database; by migrations
that took about 12 s of CPU each, four at once on CI's two cores. The first pytest process
of a run migrates one template instead (its name carries a hash of the sources, so a changed
migration or data default makes a new one), and every test database is created as a copy of
it (``TEST["TEMPLATE"]``: PostgreSQL copies the files); Django's migrate then finds nothing
to do. On SQLite nothing changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = "MAZZIERE_TEST_TEMPLATE"


def _sources_key() -> str:
    """Migrations import app code (data defaults): every source file's content counts."""
    digest = hashlib.sha1()
    for folder in ("apps", "config"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:10]


def _connect(settings_dict: dict):
    import psycopg

    return psycopg.connect(host=settings_dict.get("HOST") or None, port=settings_dict.get("PORT") or None,
                           user=settings_dict.get("USER") or None, password=settings_dict.get("PASSWORD") or None,
                           dbname="postgres", autocommit=True)


def _url(settings_dict: dict, name: str) -> str:
    user = settings_dict.get("USER") or ""
    password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
    at = f"{user}{password}@" if user else ""
    return f"postgres://{at}{settings_dict.get('HOST') or '127.0.0.1'}:{settings_dict.get('PORT') or 5432}/{name}"


def template_ensure(settings_dict: dict) -> str:
    """The template's name, migrated if it did not exist (built under another name, then renamed:
    a run killed midway leaves no half-migrated template behind)."""
    name = f"test_{settings_dict['NAME']}_tpl_{_sources_key()}"[:63]
    with _connect(settings_dict) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            return name
        building = f"{name[:50]}_build_{os.getpid()}"
        conn.execute(f'DROP DATABASE IF EXISTS "{building}"')
        conn.execute(f'CREATE DATABASE "{building}"')
    env = {**os.environ, "DATABASE_URL": _url(settings_dict, building), "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    env.pop("PYTEST_XDIST_WORKER", None)
    run = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    with _connect(settings_dict) as conn:
        if run.returncode != 0:
            conn.execute(f'DROP DATABASE IF EXISTS "{building}"')
            raise RuntimeError(f"migrating the test template failed:\n{run.stderr[-3000:]}")
        try:
            conn.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
        except Exception:  # another process published it first: use theirs
            conn.execute(f'DROP DATABASE IF EXISTS "{building}"')
    return name


def template_use(settings_module) -> None:
    """Create this process's test databases from the run's template (PostgreSQL only); the
    workers pytest-xdist starts later inherit its name through the environment."""
    settings_dict = settings_module.DATABASES["default"]
    if not settings_dict["ENGINE"].endswith("postgresql"):
        return
    name = os.environ.get(ENV)
    if not name:
        name = os.environ[ENV] = template_ensure(settings_dict)
    settings_dict.setdefault("TEST", {})["TEMPLATE"] = name
