"""Test settings: eager Celery (everything a request triggers has finished when it
answers), fast password hashing; PostgreSQL and Redis when DATABASE_URL/REDIS_URL are set."""

import os
import uuid

os.environ.setdefault("MAZZIERE_CHANNEL_PREFIX", f"mazziere-test-{uuid.uuid4().hex[:8]}")
#: pytest-xdist's workers inherit the controller's prefix, but each has its own test database
#: (test_<name>_gw0, ...) whose ids overlap: each worker gets its own channel groups, cache
#: keys (throttles) and broker keys in the shared Redis. A process a worker starts (daphne)
#: inherits both variables and keeps the worker's prefix.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker and not os.environ["MAZZIERE_CHANNEL_PREFIX"].endswith(f"-{_worker}"):
    os.environ["MAZZIERE_CHANNEL_PREFIX"] += f"-{_worker}"

from .base import *  # noqa: E402,F401,F403
from .base import CELERY_BROKER_TRANSPORT_OPTIONS, CHANNEL_LAYERS, REDIS_URL, REST_FRAMEWORK  # noqa: E402

CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
if "CONFIG" in CHANNEL_LAYERS["default"]:
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = os.environ["MAZZIERE_CHANNEL_PREFIX"]
if REDIS_URL:  # eager in tests, but a task sent for real must not reach another run's worker
    CELERY_BROKER_TRANSPORT_OPTIONS = {**CELERY_BROKER_TRANSPORT_OPTIONS,
                                       "global_keyprefix": os.environ["MAZZIERE_CHANNEL_PREFIX"] + ":"}

ROBOT_MOVE_DELAY = 0.0
#: a test process imports config.asgi: its collector stays as Python sets it (the served
#: processes the browser tests start do settle: they run with the base settings' default)
SERVER_GC_SETTLE = os.environ.get("MAZZIERE_SERVER_GC_SETTLE", "0") == "1"
TABLE_POLL_SECONDS = 0.0  # tests run tasks eagerly in the same process: pushes always arrive

#: the suite drives matches at full speed from few addresses: the real throttles stay on with
#: rates it never reaches (tests/common/test_login_limits.py sets the real ones and hits them)
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"user": "1000000/min", "anon": "1000000/min"}}

#: a test database need not survive a crash of the machine: its commits do not wait for the
#: disk (PostgreSQL's synchronous_commit, per session; the suite's thousands of commits and
#: flushes spent their time waiting on fsync)
if DATABASES["default"]["ENGINE"].endswith("postgresql"):  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"  # noqa: F405

#: regulation.md §0.6: tests not about two-factor authentication force_login staff
STAFF_OTP_REQUIRED = False

#: regulation.md §1.3: each test process keeps identity documents in its own scratch folder
import tempfile  # noqa: E402

KYC_DOCUMENTS_DIR = tempfile.mkdtemp(prefix="mazziere-kyc-")
