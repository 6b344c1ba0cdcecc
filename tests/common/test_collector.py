"""Server processes freeze what they keep out of the garbage collector's full passes (issue 15:
a full pass over daphne's objects paused every socket for 90-160 ms every few seconds)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.test import override_settings

from apps.common.collector import FULL_EVERY, collector_settle, server_warm
from config import celery as celery_config

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, sys, time
import config.asgi
started = time.perf_counter()
gc.collect()
full = time.perf_counter() - started
from django.template import engines
engine = engines["django"].engine
cached = [loader for loader in engine.template_loaders if hasattr(loader, "get_template_cache")]
json.dump({"frozen": gc.get_freeze_count(), "threshold": gc.get_threshold(), "full_ms": full * 1000,
           "tracked": len(gc.get_objects()), "templates": sum(len(c.get_template_cache) for c in cached),
           "rest_framework": "rest_framework.views" in sys.modules}, sys.stdout)
"""


def probe(settle: str, var_dir: Path) -> dict:
    """daphne's import of ``config.asgi`` in a fresh process, as ``make run`` starts it."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.base", "MAZZIERE_SERVER_GC_SETTLE": settle,
           "MAZZIERE_VAR_DIR": str(var_dir)}
    env.pop("DATABASE_URL", None)
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.timeout(240)
def test_daphne_builds_what_it_keeps_and_freezes_it(tmp_path):
    settled, plain = probe("1", tmp_path), probe("0", tmp_path)
    # every view and template is built before the first request, then frozen
    assert settled["rest_framework"] and settled["templates"] >= 50
    assert plain["templates"] == 0
    assert settled["frozen"] > plain["tracked"] // 2
    assert settled["threshold"][2] == FULL_EVERY and plain["threshold"][2] == 10
    # a full pass is left with almost nothing to walk: the pause it costs falls with it
    assert settled["tracked"] < plain["tracked"] // 10
    assert settled["full_ms"] < plain["full_ms"]


@pytest.fixture
def collector_restored():
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_settle_freezes_the_live_objects_and_spaces_full_passes(collector_restored):
    frozen = collector_settle()
    assert frozen == gc.get_freeze_count() > 10_000
    assert gc.get_threshold()[2] == FULL_EVERY
    kept = [object() for _ in range(10)]  # what comes after is collected as before
    assert gc.get_freeze_count() == frozen and kept


def test_warm_builds_the_templates_and_the_catalogues(collector_restored):
    from django.template import engines

    started = time.perf_counter()
    server_warm()
    assert time.perf_counter() - started < 30
    engine = engines["django"].engine
    cached = [loader for loader in engine.template_loaders if hasattr(loader, "get_template_cache")]
    assert cached and "tables/table.html" in cached[0].get_template_cache
    fragments = engines["fragments"].env  # the Jinja2 fragments (apps/play/jinja.py), compiled too
    assert "tables/_fragments.html" in {name for _loader, name in fragments.cache.keys()}  # noqa: SIM118 (an LRUCache)


def test_the_worker_settles_at_start_when_the_setting_says_so(collector_restored):
    with override_settings(SERVER_GC_SETTLE=False):
        celery_config._collector_settled()
    assert gc.get_freeze_count() == 0
    with override_settings(SERVER_GC_SETTLE=True):
        celery_config._collector_settled()
    assert gc.get_freeze_count() > 10_000 and gc.get_threshold()[2] == FULL_EVERY
