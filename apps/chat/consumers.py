"""The lobby room /ws/lobby/ (platform.md §7.1, §10): a live chat besides the tables'.

Lines are stored before delivery by ``chat_post`` (the same service as the table chat);
the group message carries only the line's id and each connection renders it. A player kept
out of the lobby (lobby ban, suspension, authority report) is refused (4403) and an open
socket is closed at once when the sanction is issued (apps/chat/receivers.py)."""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from apps.common.errors import DomainError
from apps.common.input import BadInput, json_loads_checked, text_problem
from apps.common.net import client_ip
from apps.common.roles import is_staff_member
from apps.common.sockets import GuardedWebsocketConsumer
from apps.compliance.selectors import sanction_check_lobby

from .selectors import chat_message_get
from .services import chat_post, chat_report

CLOSE_LOGIN, CLOSE_FORBIDDEN, CLOSE_ABUSE = 4401, 4403, 4429
LOBBY_GROUP = "chat_lobby"
STATUS_TARGET = "lobby-chat-status"
log = logging.getLogger(__name__)


def lobby_user_group(user_id: int) -> str:
    return f"chat_user_{user_id}"


def _frame(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
    if text_data is None:
        try:
            text_data = (bytes_data or b"").decode("utf-8")
        except UnicodeDecodeError:
            raise DomainError(_("The frame is not valid UTF-8."), code="bad_frame") from None
    problem = text_problem(text_data)
    if problem:
        raise DomainError(_("The frame is not accepted: %(problem)s") % {"problem": problem}, code="bad_frame")
    try:
        frame = json_loads_checked(text_data, depth=settings.WS_MAX_FRAME_DEPTH)
    except (BadInput, json.JSONDecodeError) as exc:
        raise DomainError(_("The frame is not accepted: %(problem)s") % {"problem": exc}, code="bad_frame") from None
    if not isinstance(frame, dict):
        raise DomainError(_("A frame is a JSON object."), code="bad_frame")
    frame.pop("HEADERS", None)
    return frame


def _report_id(value: Any) -> int:
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 19:
        value = int(value.strip())
    if type(value) is not int:
        raise DomainError(_("Which message? Give its id."), code="bad_frame")
    return value


class LobbyChatConsumer(GuardedWebsocketConsumer):
    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.frames: deque[float] = deque()
        self.abuse = 0
        self.joined = False
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_LOGIN)
            return
        if not await self._admitted():
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.joined = True
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.channel_layer.group_add(lobby_user_group(self.user.pk), self.channel_name)

    @database_sync_to_async
    def _admitted(self) -> bool:
        if is_staff_member(self.user):
            return True  # staff read the room; chat_post refuses their lines
        try:
            sanction_check_lobby(player=self.user)
        except DomainError:
            return False
        return True

    async def disconnect(self, code: int) -> None:
        if getattr(self, "joined", False):
            await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
            await self.channel_layer.group_discard(lobby_user_group(self.user.pk), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        now = time.monotonic()
        self.frames.append(now)
        while self.frames and now - self.frames[0] > 1.0:
            self.frames.popleft()
        size = len(bytes_data or b"") if text_data is None else len(text_data.encode("utf-8", "surrogatepass"))
        try:
            if size > settings.WS_MAX_FRAME_BYTES or len(self.frames) > settings.WS_MAX_FRAMES_PER_SECOND:
                self.abuse += 1
                if self.abuse >= settings.WS_ABUSE_LIMIT:
                    await self.close(code=CLOSE_ABUSE)
                    return
                raise DomainError(_("Too many or too large frames: slow down."), code="rate_limited")
            frame = _frame(text_data, bytes_data)
            if "chat" in frame:
                if not isinstance(frame["chat"], str):
                    raise DomainError(_("A chat line is text."), code="bad_frame")
                await self._post(frame["chat"])
                await self._status("", "")
            elif "report" in frame:
                await self._report(_report_id(frame["report"]), frame.get("reason") or "other")
                await self._status("", _("Report sent: compliance will look at it. Thank you."))
            else:
                raise DomainError(_("Unknown frame: send chat or report."), code="bad_frame")
        except DomainError as exc:
            await self._status(exc.code, exc.detail)
        except Exception:
            log.exception("lobby chat: a frame from user %s failed", self.user.pk)
            await self._status("bad_frame", "This frame could not be handled.")

    async def frame_error(self, code: str, detail: str) -> None:
        await self._status(code, detail)

    async def _status(self, code: str, text: str) -> None:
        await self.send(text_data=render_to_string("chat/_status.html",
                                                   {"target": STATUS_TARGET, "code": code, "text": text}))

    def _ip(self) -> str | None:
        client = self.scope.get("client") or [None]
        headers = dict(self.scope.get("headers") or [])
        return client_ip(client[0], headers.get(b"x-forwarded-for", b"").decode() or None)

    @database_sync_to_async
    def _post(self, text: str) -> None:
        chat_post(user=self.user, text=text, ip=self._ip())

    @database_sync_to_async
    def _report(self, message_id: int, reason: Any) -> None:
        chat_report(user=self.user, message_id=message_id, reason=reason)

    # -- group messages --------------------------------------------------------------------------

    async def chat_message(self, event: dict[str, Any]) -> None:
        html = await self._line(event["id"])
        if html:
            await self.send(text_data=html)

    @database_sync_to_async
    def _line(self, message_id: int) -> str:
        message = chat_message_get(message_id=message_id)
        if message is None or message.hidden:
            return ""
        return render_to_string("chat/_line_oob.html", {"message": message, "container": "lobby-chat-lines"})

    async def chat_hidden(self, event: dict[str, Any]) -> None:
        await self.send(text_data=render_to_string("chat/_hidden_oob.html", {"message_id": event["id"]}))

    async def socket_close(self, event: dict[str, Any]) -> None:
        await self.close(code=event.get("code", CLOSE_FORBIDDEN))
