"""After commit, tell the dashboard's staff sockets that who is online may have changed
(connected in BackofficeConfig.ready). The message carries no figure: each socket re-reads.
A push never fails the write that caused it."""

from __future__ import annotations

from apps.common.push import push_after_commit

from .consumers import ONLINE_GROUP


def online_changed(sender, update_fields=None, **kwargs) -> None:
    """A connection row came or went, or a table's or a match's status may have changed
    (a save that names its fields and leaves out ``status`` changed neither)."""
    if update_fields is not None and "status" not in update_fields:
        return
    push_after_commit(ONLINE_GROUP, {"type": "online.changed"})
