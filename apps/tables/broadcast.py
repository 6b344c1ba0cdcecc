"""Pushes to the channel layer, always after commit (Zulip's rule) and never failing a request.

Shared messages carry no card: only "table changed, version n" (or a chat line id, or a
settings notice). Each connection then renders its own seat's view (platform.md §10.3).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import connection, transaction

from apps.common.push import push_after_commit, push_now

from .models import Table, TableMatch

log = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    return f"table_{table_id}"


def user_group(user_id: int) -> str:
    return f"user_{user_id}"


send_after_commit = push_after_commit


def _advance(where: str, param: int, what: str) -> tuple[int, int] | None:
    """``UPDATE ... SET revision = revision + 1 WHERE <where> RETURNING id, revision``, after
    commit (no lock is held across the change): (the table's id, its new revision), or None
    when it failed or matched no single table. Like a broadcast, it never fails the caller."""
    sql = (f'UPDATE {connection.ops.quote_name(Table._meta.db_table)} SET "revision" = "revision" + 1 '
           f'WHERE {where} RETURNING "id", "revision"')
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, [param])
            rows = cursor.fetchall()
    except Exception:
        log.exception("revision of %s not advanced", what)
        return None
    return (rows[0][0], rows[0][1]) if len(rows) == 1 else None


def _touch(table_id: int) -> int | None:
    """Advance the table's revision: the new one, or None."""
    advanced = _advance('"id" = %s', table_id, f"table {table_id}")
    return advanced[1] if advanced else None


def table_touched(*, table_id: int) -> None:
    """A change the page shows that needs no push of its own (e.g. a connection)."""
    transaction.on_commit(lambda: _touch(table_id))


def table_changed(*, table_id: int, match_id: int | None, version: int) -> None:
    """A change of the table itself (seats, settings, confirmations); a match's own changes
    are pushed by the matches app to the table's group (the match's ``group``)."""
    def after_commit() -> None:
        message = {"type": "table.changed", "version": version, "match": match_id}
        revision = _touch(table_id)
        if revision is not None:
            message["revision"] = revision  # sockets that drew it already skip the push
        push_now(table_group(table_id), message)

    transaction.on_commit(after_commit)


def table_revision_advance(*, match_id: int) -> tuple[int, int] | None:
    """Now (called after the match's commit): the revision of the table the match is played
    at grows by one, in one statement; (the table's id, its new revision), or None when no
    table holds the match. Never fails the caller."""
    link = connection.ops.quote_name(TableMatch._meta.db_table)
    return _advance(f'"id" IN (SELECT "table_id" FROM {link} WHERE "match_id" = %s)', match_id,
                    f"the table of match {match_id}")


def table_settings_changed(*, table_id: int, changes: dict[str, Any]) -> None:
    table_touched(table_id=table_id)
    send_after_commit(table_group(table_id), {"type": "table.settings", "changes": changes})


def table_notice(*, table_id: int, user_id: int | None, text: str, params: dict[str, Any] | None = None) -> None:
    """A notice to one user's sockets at a table (e.g. stood up for lack of funds).

    ``text`` is an English msgid (marked with ``gettext_noop``) and ``params`` its plain values:
    each socket translates it into its own page's language, since the sender (the tick, a
    worker, another player's request) does not know it."""
    group = user_group(user_id) if user_id else table_group(table_id)
    send_after_commit(group, {"type": "table.notice", "table": table_id, "text": text, "params": params or {}})


def chat_message(*, table_id: int, message_id: int) -> None:
    send_after_commit(table_group(table_id), {"type": "chat.message", "id": message_id})


def chat_switched(*, table_id: int) -> None:
    """The operator switched the table's chat: every socket redraws its reader's chat box."""
    send_after_commit(table_group(table_id), {"type": "chat.switched"})


def user_sockets_close(*, user_id: int, code: int = 4403) -> None:
    send_after_commit(user_group(user_id), {"type": "socket.close", "code": code})
