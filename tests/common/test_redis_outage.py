"""Redis unreachable (issue 25): every API call answered 500 ``server_error`` with a traceback.

The cache (the API's throttles), the channel layer and the Celery broker are pointed at a
closed port: the API answers 503 ``service_unavailable`` in the contract's format, a page
answers a 503 page that says so, and the outage is logged once, not once per request.
"""

from __future__ import annotations

import logging
import socket

import pytest
from channels.layers import channel_layers
from django.test import Client

from apps.common.outage import outage_reset
from config.celery import app as celery_app

from ..conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens there once closed


@pytest.fixture
def redis_down(settings, monkeypatch):
    down = f"redis://127.0.0.1:{closed_port()}/0"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": down}}
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": [down]}}}
    monkeypatch.setattr(channel_layers, "backends", {})
    # the broker too: tasks are really sent (not run eagerly) to a Redis that is not there
    kept = {key: celery_app.conf[key] for key in ("broker_url", "task_always_eager")}
    celery_app.conf.update(broker_url=down, task_always_eager=False)
    monkeypatch.setattr(celery_app, "_pool", None)
    monkeypatch.setattr(celery_app.amqp, "_producer_pool", None)
    outage_reset()
    try:
        yield down
    finally:
        celery_app.conf.update(kept)
        channel_layers.backends.clear()
        outage_reset()


def client_for(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def test_api_answers_503_service_unavailable_and_logs_the_outage_once(redis_down, caplog):
    player = make_user(nickname="Outage_1")
    client = client_for(player)
    caplog.set_level(logging.INFO)
    answers = [client.get("/api/me/"), client.get("/api/tables/"),
               client.post("/api/tables/", {"game": "briscola"}, content_type="application/json"),
               Client(raise_request_exception=False).get("/api/tournaments/")]
    for answer in answers:
        assert answer.status_code == 503, answer.content
        assert answer.json() == {"detail": "The service is temporarily unavailable: try again in a minute.",
                                 "code": "service_unavailable"}
        assert answer["Retry-After"] == "30"
    outage = [r for r in caplog.records if r.name == "mazziere.outage"]
    assert len(outage) == 1 and outage[0].exc_info  # once, with the cause the first time
    assert not [r for r in caplog.records if r.name == "django.request" and r.levelno >= logging.ERROR
                and getattr(r, "status_code", None) != 503]  # no 500 "Internal Server Error"
    logged = [r for r in caplog.records if r.name == "django.request"]
    assert not [r for r in logged if logging.getLogger("django.request").filter(r)]  # the 503 lines are dropped


def test_a_page_whose_task_cannot_be_queued_answers_a_503_page(redis_down, settings, caplog):
    settings.EXPORT_SYNC_ROWS = -1  # every export goes to the worker: its task must be queued
    finance = make_user(group="finance")
    caplog.set_level(logging.INFO)
    answer = client_for(finance).post("/backoffice/exports/", {"kind": "players", "format": "csv"},
                                      HTTP_ACCEPT_LANGUAGE="it")
    assert answer.status_code == 503
    html = answer.content.decode()
    assert "Il servizio è momentaneamente non disponibile" in html and "Traceback" not in html
    assert answer["Retry-After"] == "30"
    assert len([r for r in caplog.records if r.name == "mazziere.outage"]) == 1
