"""After commit, tell the dashboard's staff sockets that who is online may have changed
(connected in BackofficeConfig.ready). The message carries no figure: each socket re-reads.
A push never fails the write that caused it."""

from __future__ import annotations

import logging

from channels.layers import get_channel_layer
from django.db import transaction

from apps.common import push

from .consumers import ONLINE_GROUP

log = logging.getLogger(__name__)


def _send() -> None:
    try:
        layer = get_channel_layer()
        if layer is not None:
            push.group_send(layer, ONLINE_GROUP, {"type": "online.changed"})  # one loop a process
    except Exception:
        log.exception("push to %s failed", ONLINE_GROUP)


def online_changed(sender, update_fields=None, **kwargs) -> None:
    """A connection row came or went, or a table's or a match's status may have changed
    (a save that names its fields and leaves out ``status`` changed neither)."""
    if update_fields is not None and "status" not in update_fields:
        return
    transaction.on_commit(_send)
