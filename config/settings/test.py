"""Test settings: eager Celery (everything a request triggers has finished when it
answers), fast password hashing; PostgreSQL and Redis when DATABASE_URL/REDIS_URL are set."""

import os
import uuid

os.environ.setdefault("MAZZIERE_CHANNEL_PREFIX", f"mazziere-test-{uuid.uuid4().hex[:8]}")

from .base import *  # noqa: E402,F401,F403
from .base import CHANNEL_LAYERS  # noqa: E402

CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
if "CONFIG" in CHANNEL_LAYERS["default"]:
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = os.environ["MAZZIERE_CHANNEL_PREFIX"]

ROBOT_MOVE_DELAY = 0.0
TABLE_POLL_SECONDS = 0.0  # tests run tasks eagerly in the same process: pushes always arrive
