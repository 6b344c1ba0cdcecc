"""The staff groups and their permissions come back after every flush, made once a flush (not once
per app: run for each of 32 apps' post_migrate, the hook was most of a transactional test's
teardown)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db.models.signals import post_migrate

from apps.common.groups import GROUP_PERMISSIONS

pytestmark = pytest.mark.django_db(transaction=True)


def _granted() -> dict[str, set[str]]:
    return {group.name: {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()}
            for group in Group.objects.prefetch_related("permissions__content_type")}


def test_a_flush_gives_every_group_back_its_permissions_in_one_pass():
    runs = []

    def count(sender, **kwargs):
        runs.append(sender.label)

    post_migrate.connect(count, dispatch_uid="test_staff_groups_count")
    calls = []
    from apps.common import groups

    real = groups.ensure_staff_groups
    groups.ensure_staff_groups = lambda *a: calls.append(1) or real(*a)
    try:
        call_command("flush", "--noinput", verbosity=0)
    finally:
        groups.ensure_staff_groups = real
        post_migrate.disconnect(dispatch_uid="test_staff_groups_count")
    assert len(runs) > 20  # the signal still goes to every app
    assert calls == [1]
    assert _granted() == {name: set(codes) for name, codes in GROUP_PERMISSIONS.items()}
