"""Refusals answer with the right status and log one line: an unknown match is 404
whatever the body; a 403 writes no traceback to the log."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

from ..conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("body", [{}, {"action": {"type": "play", "card": "Ad"}}, [], "x",
                                  {"action": {"type": "play"}, "version": 0}])
def test_a_move_on_an_unknown_match_is_404(api, player, body):
    answer = api(player).post("/api/matches/999999/actions/", body, format="json")
    assert answer.status_code == 404, answer.content
    assert answer.json() == {"detail": "No such match.", "code": "not_found"}


@pytest.mark.parametrize("url", ["/api/matches/999999/cancel-vote/", "/api/tables/999999/robot/",
                                 "/api/tables/999999/invite/", "/api/tables/999999/sit/"])
def test_other_writes_on_unknown_ids_are_404(api, player, url):
    answer = api(player).post(url, {}, format="json")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found", (url, answer.content)


def _tracebacks(caplog) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.exc_info or r.exc_text]


def test_a_403_logs_one_line_without_a_traceback(caplog, api):
    """A finance user opening the match replay (PermissionDenied in a view), a player on
    a staff page and API endpoint: each refusal is one warning line, no stack."""
    finance, operator, player = make_user(group="finance"), make_user(group="operator"), make_user(nickname="Ref_1")
    web, other = Client(), Client()
    web.force_login(finance)
    other.force_login(operator)
    with caplog.at_level(logging.WARNING):
        assert web.get("/admin/matches/match/1/replay/").status_code == 403
        assert other.get("/admin/wallet/adjustment/").status_code == 403
        assert api(player).get("/api/players/").status_code == 403
        assert api(finance).get("/api/matches/1/log/").status_code in (403, 404)
    forbidden = [r for r in caplog.records if r.name == "django.request" and getattr(r, "status_code", 0) == 403]
    assert len(forbidden) >= 3, [r.getMessage() for r in caplog.records]
    assert not _tracebacks(caplog), _tracebacks(caplog)
    assert all(r.levelno == logging.WARNING for r in forbidden)


def test_a_refused_admin_lookup_logs_one_line(caplog):
    """A forbidden changelist filter is a 400 and a security record, still without a stack."""
    web = Client()
    web.force_login(make_user(group="operator"))
    with caplog.at_level(logging.WARNING):
        assert web.get("/admin/matches/match/?seed__startswith=1").status_code == 400
    assert any(r.name.startswith("django.security") for r in caplog.records)
    assert not _tracebacks(caplog), _tracebacks(caplog)


def test_a_500_still_logs_its_traceback(caplog, settings):
    from apps.common.logging import ClientErrorWithoutTraceback

    try:
        raise RuntimeError("boom")
    except RuntimeError:
        import sys

        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "boom", (), sys.exc_info())
    record.status_code = 500
    assert ClientErrorWithoutTraceback().filter(record) and record.exc_info is not None
