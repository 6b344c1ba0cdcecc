"""The table socket /ws/tables/{id}/ (platform.md §10).

Behind AllowedHostsOriginValidator(AuthMiddlewareStack(...)). Shared group messages say
only "table changed, version n"; each connection renders its own seat's view. A move
goes through exactly the service the REST API uses. Errors go only to the sender. The
protocol is the play floor's match socket (``apps.play.consumers``); a table adds its socket
rows and their lease, its chat, its settings' notices and its chat switch.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from apps.chat.services import chat_post
from apps.common.errors import DomainError
from apps.common.roles import is_staff_member
from apps.compliance.selectors import sanction_check_lobby
from apps.matches.services import match_cancel_vote
from apps.play.consumers import CLOSE_FORBIDDEN, CLOSE_UNKNOWN, MatchSocket, database_sync_to_async
from apps.play.render import render_notice

from . import broadcast
from .forms import settings_change_words
from .models import Match, Table
from .render import render_chat_box, render_fragments
from .selectors import table_access, table_chat_check, table_match_in_play, table_revision
from .services import socket_connected, socket_disconnected, socket_renew, table_move


class TableConsumer(MatchSocket):
    """A table's page socket: the match socket with the table's rows, chat and notices."""

    def _identify(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.dom_id = f"table-{self.table_id}"
        self.log_name = f"table {self.table_id}"

    def _groups(self) -> tuple[str, ...]:
        return broadcast.table_group(self.table_id), broadcast.user_group(self.user.pk)

    @database_sync_to_async
    def _admit(self) -> int | None:
        table = Table.objects.filter(pk=self.table_id, status=Table.OPEN).first()
        if table is None:
            return CLOSE_UNKNOWN
        self.staff = is_staff_member(self.user)
        if not self.staff:
            try:
                sanction_check_lobby(player=self.user)
            except DomainError:
                return CLOSE_FORBIDDEN
        self.access = table_access(table=table, user=self.user)
        return None if self.access is not None else CLOSE_FORBIDDEN

    @database_sync_to_async
    def _joined(self) -> None:
        socket_connected(table_id=self.table_id, user=self.user, channel_name=self.channel_name)

    @database_sync_to_async
    def _renew(self) -> None:
        socket_renew(table_id=self.table_id, user=self.user, channel_name=self.channel_name)

    @database_sync_to_async
    def _disconnected(self) -> None:
        socket_disconnected(table_id=self.table_id, user=self.user, channel_name=self.channel_name)

    @database_sync_to_async
    def _revision(self) -> int | None:
        return table_revision(table_id=self.table_id)

    @database_sync_to_async
    def _fragments(self, announced: dict[str, Any] | None = None) -> tuple[str, int | None]:
        return render_fragments(table_id=self.table_id, user=self.user, announced=announced, reality=self.reality)

    @database_sync_to_async
    def _act(self, action: dict[str, Any], version: int, seat: int | None) -> None:
        table_move(table_id=self.table_id, user=self.user, action=action, version=version, seat=seat)

    @database_sync_to_async
    def _chat(self, text: Any) -> None:
        table = Table.objects.get(pk=self.table_id)
        access = table_access(table=table, user=self.user)
        if access is None or not access.can_chat:
            raise DomainError(_("You cannot chat at this table."), code="permission_denied", status=403)
        table_chat_check(table=table, user=self.user)
        match = table.matches.filter(status=Match.PLAYING).first()
        chat_post(user=self.user, text=text, table=table, match=match, ip=self._ip())

    @database_sync_to_async
    def _cancel_vote(self, accept: Any) -> None:
        match_cancel_vote(match_id=table_match_in_play(table_id=self.table_id).pk, user=self.user, accept=accept)

    # -- the table's own group messages ------------------------------------------------------

    async def table_settings(self, event: dict[str, Any]) -> None:
        changed = await self._settings_words(event.get("changes") or {})
        await self._notice("⚠ " + _("Settings changed: %(changes)s") % {"changes": changed})
        await self._render()

    @database_sync_to_async
    def _settings_words(self, changes: dict[str, Any]) -> str:
        """The change in the page's words: the shared message carries only the changes, the
        table says which game's options and which currency its stake is in."""
        table = Table.objects.only("game", "currency").get(pk=self.table_id)
        return settings_change_words(game=table.game, currency=table.currency, changes=changes)

    async def table_notice(self, event: dict[str, Any]) -> None:
        if event.get("table") in (None, self.table_id):
            text = _(event["text"])  # in this socket's language (apps/common/socket_language.py)
            if event.get("params"):
                text = text % event["params"]
            await self.send(text_data=render_notice(table_id=self.table_id, text=text))

    async def chat_switched(self, event: dict[str, Any]) -> None:
        """The operator switched the table's chat on or off: redraw this user's chat box."""
        await self.send(text_data=await self._chat_box())

    @database_sync_to_async
    def _chat_box(self) -> str:
        return render_chat_box(table_id=self.table_id, user=self.user)
