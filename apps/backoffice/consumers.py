"""The dashboard's staff socket ``/ws/backoffice/online/`` (docs/decisions.md): it keeps the
"online now" box and the busiest-hour figure current while players come and go.

The players' lobby socket (/ws/lobby/) stays the players' own. This one works the same way,
through a channel-layer group: after commit, a change of who is connected, of an open table
or of a match in play sends ``online.changed`` to :data:`ONLINE_GROUP` (apps/backoffice/
receivers.py) carrying nothing but the fact; each staff connection re-reads the figures and
sends them as HTMX out-of-band swaps. Only operators and finance are admitted (4401 without a
login, 4403 without the role). A burst of changes is folded into one push per
``BACKOFFICE_ONLINE_COALESCE_SECONDS``. Without Redis (the in-memory layer reaches no other
process: a worker's or the tick's changes) the socket also re-reads every
``BACKOFFICE_ONLINE_POLL_SECONDS`` and pushes what changed, as the tables poll then.
"""

from __future__ import annotations

import asyncio
import logging
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from apps.common.errors import DomainError
from apps.common.otp import CLOSE_OTP_REQUIRED, socket_otp_missing
from apps.common.roles import FINANCE, OPERATOR, has_role
from apps.common.sockets import GuardedWebsocketConsumer

from . import selectors
from .blocks import live_block
from .periods import Period, period_parse

CLOSE_LOGIN, CLOSE_FORBIDDEN = 4401, 4403
ONLINE_GROUP = "backoffice_online"
log = logging.getLogger(__name__)


def socket_period(query_string: bytes) -> Period:
    """The dashboard's period from the socket's query string (the page's own); 7 days if bad."""
    params = {k: v[0] for k, v in parse_qs(query_string.decode("latin-1")).items()}
    try:
        return period_parse(name=params.get("period", "7d"), first=params.get("first"), last=params.get("last"))
    except DomainError:
        return period_parse(name="7d")


def socket_language(headers: list[tuple[bytes, bytes]]) -> str:
    """The page's language, as LocaleMiddleware chose it: the language cookie, then the
    browser's Accept-Language, then the site's default."""
    named = dict(headers)
    candidates = []
    try:
        cookie = SimpleCookie(named.get(b"cookie", b"").decode("latin-1")).get(settings.LANGUAGE_COOKIE_NAME)
    except CookieError:
        cookie = None
    if cookie is not None:
        candidates.append(cookie.value)
    candidates += [code for code, _ in parse_accept_lang_header(named.get(b"accept-language", b"").decode("latin-1"))
                   if code != "*"]
    for code in candidates:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def live_html(*, period: Period, language: str, unless: object = None) -> tuple[object, str | None]:
    """The live part of the dashboard as out-of-band swaps (the online box, the by-hour
    figure), with the figures it shows; no HTML when those are ``unless`` (nothing changed:
    the chart's SVG differs on every render, the numbers do not)."""
    online, hours = selectors.online_now(), selectors.activity_by_hour(period=period)
    state = (online, hours.labels, hours.series)
    if state == unless:
        return state, None
    with translation.override(language):
        return state, render_to_string("backoffice/_live.html", {"online": online, "b": live_block(hours), "oob": True})


class OnlineConsumer(GuardedWebsocketConsumer):
    async def connect(self) -> None:
        self.joined = False
        self.later: asyncio.Task | None = None
        self.poller: asyncio.Task | None = None
        self.last_state: object = None
        user = self.scope.get("user")
        await self.accept()
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_LOGIN)
            return
        if not await database_sync_to_async(has_role)(user, OPERATOR, FINANCE):
            await self.close(code=CLOSE_FORBIDDEN)
            return
        if await database_sync_to_async(socket_otp_missing)(user, self.scope.get("session")):
            await self.close(code=CLOSE_OTP_REQUIRED)
            return
        self.period = socket_period(self.scope.get("query_string", b""))
        self.language = socket_language(self.scope.get("headers") or [])
        self.joined = True
        await self.channel_layer.group_add(ONLINE_GROUP, self.channel_name)
        await self._push()  # what changed between the page's render and the socket's opening
        if settings.BACKOFFICE_ONLINE_POLL_SECONDS > 0:
            self.poller = asyncio.ensure_future(self._poll())

    async def disconnect(self, code: int) -> None:
        for task in (self.later, self.poller):
            if task is not None:
                task.cancel()
        if getattr(self, "joined", False):
            await self.channel_layer.group_discard(ONLINE_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The socket only listens: frames from the page are ignored."""

    async def online_changed(self, event: dict) -> None:
        if self.later is None or self.later.done():
            self.later = asyncio.ensure_future(self._push_later())

    async def _push_later(self) -> None:
        await asyncio.sleep(settings.BACKOFFICE_ONLINE_COALESCE_SECONDS)
        self.later = None  # a change from here on schedules the next push; this one reads after it
        await self._push()

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(settings.BACKOFFICE_ONLINE_POLL_SECONDS)
            await self._push(only_changed=True)

    async def _push(self, *, only_changed: bool = False) -> None:
        try:
            state, html = await database_sync_to_async(live_html)(
                period=self.period, language=self.language, unless=self.last_state if only_changed else None)
        except Exception:  # a failed read leaves the figures as they were; the next change retries
            log.exception("back office: the online figures could not be read")
            return
        self.last_state = state
        if html is not None:
            await self.send(text_data=html)
