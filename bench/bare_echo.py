"""The floor for bench/moves.py: a bare Channels consumer that only group_sends.

Run by bench/moves.py as ``python -m daphne bench.bare_echo:application`` (from the project
root). It is its own ASGI application with its own minimal Django settings: no database,
no session, no template, only the channel layer that config/settings/base.py would pick
(channels-redis on REDIS_URL with the MAZZIERE_CHANNEL_PREFIX prefix, else the in-process
layer).

A socket at ``/ws/bare/<group>/`` joins group ``bare_<group>``. A frame ``{"v": n}``
becomes one ``group_send`` of ``{"v": n + 1}``, and every member of the group sends that
to its client: the same fan-out as a move (one group message, one frame per connection at
the table), without the move, the database or the render.
"""

from __future__ import annotations

import json
import os

import django
from django.conf import settings

if not settings.configured:
    redis_url = os.environ.get("REDIS_URL", "")
    if redis_url:
        layer = {"BACKEND": "channels_redis.core.RedisChannelLayer",
                 "CONFIG": {"hosts": [redis_url], "prefix": os.environ.get("MAZZIERE_CHANNEL_PREFIX", "bare")}}
    else:
        layer = {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    settings.configure(INSTALLED_APPS=["channels"], CHANNEL_LAYERS={"default": layer}, USE_TZ=True,
                       ALLOWED_HOSTS=["*"], SECRET_KEY="bench-bare-echo")
    django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class BareEcho(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = f"bare_{self.scope['url_route']['kwargs']['group']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = json.loads(text_data or "{}")
        await self.channel_layer.group_send(self.group, {"type": "bare.echo", "v": int(frame.get("v", 0)) + 1})

    async def bare_echo(self, event: dict) -> None:
        await self.send(text_data=json.dumps({"v": event["v"]}))


application = ProtocolTypeRouter({
    "websocket": URLRouter([path("ws/bare/<int:group>/", BareEcho.as_asgi())]),
})
