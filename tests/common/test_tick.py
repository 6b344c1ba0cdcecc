"""The tick asks every app for its due work through one registry (apps/common/tick.py)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from apps.common import tick
from apps.common.tasks import tick as tick_task

pytestmark = pytest.mark.django_db


def test_each_app_registers_its_jobs_in_app_order():
    assert list(tick.tick_jobs()) == ["adm_send_due", "credits_recharges", "sanctions_expired", "limit_raises_record",
                                      "self_exclusions_record", "game_sessions_timeouts", "match_deadlines", "tables", "tournaments",
                                      "worker_heartbeat"]


def test_a_registered_job_runs_at_every_tick_from_the_command_and_beat(monkeypatch, capsys):
    monkeypatch.setattr(tick, "_JOBS", dict(tick.tick_jobs()))
    calls: list[str] = []
    tick.tick_job("probe", lambda: calls.append("probe") or 2)
    call_command("tournaments_tick")
    assert "probe: 2" in capsys.readouterr().out
    assert tick_task.delay().get() == {"adm_send_due": 0, "credits_recharges": 0, "sanctions_expired": 0, "limit_raises_record": 0,
                                       "self_exclusions_record": 0, "game_sessions_timeouts": 0, "match_deadlines": 0, "tables": 0,
                                       "tournaments": 0, "worker_heartbeat": 0, "probe": 2}
    assert calls == ["probe", "probe"]
