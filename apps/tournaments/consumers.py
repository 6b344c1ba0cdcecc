"""The tournament page's socket (/ws/tournaments/{id}/): it carries only "changed, version n".

The page then fetches its own fragment over HTTP, rendered for its reader (a player's own
refund, an operator's whole table), so nothing private ever travels in a shared message.
A player kept out of the lobby (lobby ban, suspension, authority report) is refused (4403),
and an open socket is closed at once when such a sanction is issued (receivers.py)."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from apps.common.errors import Sanctioned
from apps.compliance.selectors import sanction_check_lobby

from .broadcast import tournament_group, tournament_user_group
from .models import Tournament

CLOSE_FORBIDDEN = 4403


class TournamentConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.user = self.scope.get("user")
        version = await database_sync_to_async(self._version)()
        if version is None:
            await self.close(code=4404)
            return
        if not await database_sync_to_async(self._admitted)():
            await self.accept()
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = tournament_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        if self.user is not None and self.user.is_authenticated:
            self.user_group = tournament_user_group(self.user.pk)
            await self.channel_layer.group_add(self.user_group, self.channel_name)
        await self.accept()
        await self.send(text_data=json.dumps({"version": version}))

    def _admitted(self) -> bool:
        """Anyone may watch a tournament page, except a player kept out of the lobby."""
        if self.user is None or not self.user.is_authenticated:
            return True
        try:
            sanction_check_lobby(player=self.user)
        except Sanctioned:
            return False
        return True

    def _version(self) -> int | None:
        return Tournament.objects.filter(pk=self.tournament_id).values_list("version", flat=True).first()

    async def disconnect(self, code: int) -> None:
        for group in (getattr(self, "group", None), getattr(self, "user_group", None)):
            if group:
                await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the page sends nothing; frames are ignored

    async def socket_close(self, event: dict[str, Any]) -> None:
        await self.close(code=int(event.get("code") or CLOSE_FORBIDDEN))

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"version": event.get("version")}))
