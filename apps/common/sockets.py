"""What every socket of the site shares: a frame far too large is answered, then closed.

Frames above ``WS_MAX_FRAME_BYTES`` (8 KB) get an error and the socket stays (platform.md
§10.1, each consumer's own rule); no page ever sends one above ``WS_CLOSE_FRAME_BYTES``:
such a frame gets ``bad_frame`` and the socket is closed with 1009 (RFC 6455: message too
big), instead of the server dropping the connection with no close code (issue 25). daphne
hands an application's close code to autobahn, which takes only 1000 and 3000-4999 from
it: ``daphne_close_codes`` lets 1009 through, and makes a frame above daphne's own ceiling
(``serve`` sets it to ``WS_SERVER_MAX_MESSAGE_BYTES``) close with 1009 too, not a drop.
"""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from django.conf import settings
from django.utils.translation import gettext as _

from .metrics import OPEN_SOCKETS

CLOSE_TOO_BIG = 1009


def frame_size(message: dict[str, Any]) -> int:
    if message.get("bytes") is not None:
        return len(message["bytes"])
    text = message.get("text") or ""
    if len(text) > settings.WS_CLOSE_FRAME_BYTES:  # at least a byte a character: no need to encode it
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


class GuardedWebsocketConsumer(AsyncWebsocketConsumer):
    """The site's socket base: a frame above ``WS_CLOSE_FRAME_BYTES`` never reaches ``receive``;
    every socket is counted in /metrics' ``mazziere_open_sockets`` from its accept to its disconnect."""

    #: the ``socket`` label of its count (the class's name unless a subclass names it)
    metrics_name = ""

    async def accept(self, subprotocol: str | None = None, headers: Any = None) -> None:
        await super().accept(subprotocol, headers)
        if not self.__dict__.get("_counted"):
            self._counted = True
            OPEN_SOCKETS.labels(socket=self.metrics_name or type(self).__name__).inc()

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        try:
            await super().websocket_disconnect(message)
        finally:  # it always ends in StopConsumer
            if self.__dict__.pop("_counted", False):
                OPEN_SOCKETS.labels(socket=self.metrics_name or type(self).__name__).dec()

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        if frame_size(message) > settings.WS_CLOSE_FRAME_BYTES:
            await self.frame_error("bad_frame", _("Frames are at most %(n)s bytes.") % {"n": settings.WS_MAX_FRAME_BYTES})
            await self.close(code=CLOSE_TOO_BIG)
            return
        await super().websocket_receive(message)

    async def frame_error(self, code: str, detail: str) -> None:
        """Tell the client its frame was refused, in the contract's ``{"detail", "code"}`` (a socket
        whose page shows errors renders them its own way instead)."""
        await self.send(text_data=json.dumps({"detail": str(detail), "code": code}))


_protocol_close = WebSocketProtocol.serverClose
_factory_init = WebSocketFactory.__init__


def _server_close(self, code=None):
    if code == CLOSE_TOO_BIG:  # autobahn's sendClose refuses it from an application; the frame is valid
        self.sendCloseFrame(code=code, isReply=False)
        return
    _protocol_close(self, code)


def _factory_init_closing(self, *args, **kwargs):
    _factory_init(self, *args, **kwargs)
    self.setProtocolOptions(failByDrop=False)  # a frame above the ceiling: close 1009, not a dropped TCP


def daphne_close_codes() -> None:
    """Called once by config/asgi.py (daphne imports it before it builds its factory)."""
    WebSocketProtocol.serverClose = _server_close
    WebSocketFactory.__init__ = _factory_init_closing
