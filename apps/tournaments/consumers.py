"""The tournament page's socket (/ws/tournaments/{id}/): it carries only "changed, version n".

The page then fetches its own fragment over HTTP, rendered for its reader (a player's own
refund, an operator's whole table), so nothing private ever travels in a shared message."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from .broadcast import tournament_group
from .models import Tournament


class TournamentConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        version = await database_sync_to_async(self._version)()
        if version is None:
            await self.close(code=4404)
            return
        self.group = tournament_group(self.tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=json.dumps({"version": version}))

    def _version(self) -> int | None:
        return Tournament.objects.filter(pk=self.tournament_id).values_list("version", flat=True).first()

    async def disconnect(self, code: int) -> None:
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the page sends nothing; frames are ignored

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"version": event.get("version")}))
