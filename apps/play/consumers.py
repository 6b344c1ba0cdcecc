"""The match socket's protocol (platform.md §10), whoever owns the match.

A table's socket (``apps.tables.consumers``) and a tournament match's
(``apps.tournaments.consumers``) are both :class:`MatchSocket`: the frames a client may send
(a move, a chat line, a cancellation vote, a report, a sync), their checks (size, rate, bad
frames: §10.1, §12), the lease heartbeat and the player's session (time limit, reality check),
the coalesced "changed, version n" pushes drawn with the owner's fragments. An owner says who
is admitted, which groups the socket hears, how a move, a chat line or a vote is made and how
its page is drawn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections import deque
from typing import Any

from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import close_old_connections, connections
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from apps.chat.selectors import chat_message_get
from apps.chat.services import chat_report
from apps.common.errors import DomainError, survivors_run
from apps.common.input import BadInput, json_loads_checked, text_problem
from apps.common.metrics import MOVE_LATENCY
from apps.common.net import client_ip
from apps.common.sockets import GuardedWebsocketConsumer
from apps.conto.sessions import session_touch, socket_watch

from .render import RealityWatch, render_chat_line, render_error, render_notice

CLOSE_LOGIN, CLOSE_FORBIDDEN, CLOSE_UNKNOWN, CLOSE_ABUSE = 4401, 4403, 4404, 4429
#: a player's frames keep the game session alive, written at most once a minute (regulation.md §4.1)
TOUCH_SECONDS = 60.0
log = logging.getLogger(__name__)


class _SocketDatabaseSyncToAsync(DatabaseSyncToAsync):
    """Channels' database hop without ``CONN_HEALTH_CHECKS``' ``SELECT 1`` on every hop
    (issue 15: three a move). Connections are still closed when obsolete, and one that
    failed is checked and replaced when the hop ends (``close_old_connections``)."""

    def thread_handler(self, loop, *args, **kwargs):
        close_old_connections()
        for connection in connections.all(initialized_only=True):
            connection.health_check_done = True
        try:
            return super(DatabaseSyncToAsync, self).thread_handler(loop, *args, **kwargs)
        finally:
            close_old_connections()


def database_sync_to_async(func):
    """Database work in asgiref's thread pool, not its single shared thread: one socket's
    calls still run one at a time (a consumer handles one message at a time, renders hold
    a lock), but many sockets' renders and moves overlap instead of queueing.

    SQLite takes one writer at a time (and its in-memory test database refuses concurrent
    threads outright), so there the shared thread stays.
    """
    sqlite = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
    return _SocketDatabaseSyncToAsync(func, thread_sensitive=sqlite)


#: a number sent as a string (htmx forms): ASCII digits that fit a bigint
_DIGITS = re.compile(r"[0-9]{1,18}")


def _bad(detail: str) -> DomainError:
    return DomainError(detail, code="bad_frame")


def _parse_json(text: str) -> Any:
    """Parse JSON a client sent, refusing (``bad_frame``) what would crash or poison the work
    after it: the same checks as a request body (platform.md §12), in the socket's words."""
    try:
        return json_loads_checked(text, depth=settings.WS_MAX_FRAME_DEPTH)
    except BadInput as exc:
        raise _bad(_("The frame is not accepted: %(problem)s") % {"problem": exc.message}) from None


def _parse_frame(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
    if text_data is None:
        try:
            text_data = (bytes_data or b"").decode("utf-8")
        except UnicodeDecodeError:
            raise _bad(_("The frame is not valid UTF-8.")) from None
    problem = text_problem(text_data)  # a lone surrogate or NUL in the text itself
    if problem:
        raise _bad(_("The frame is not accepted: %(problem)s") % {"problem": problem})
    frame = _parse_json(text_data)
    if not isinstance(frame, dict):
        raise _bad(_("A frame is a JSON object."))
    frame.pop("HEADERS", None)
    return frame


def _parse_action(frame: dict[str, Any]) -> tuple[dict[str, Any], int]:
    action = frame.get("action")
    if isinstance(action, str):
        action = _parse_json(action)
    if not isinstance(action, dict):
        raise _bad(_('A move is a JSON object such as {"type": "play", ...}.'))
    if "cards" in frame and "cards" not in action:
        cards = frame["cards"]
        action = {**action, "cards": cards if isinstance(cards, list) else [cards]}
    version = frame.get("version")
    if isinstance(version, str) and _DIGITS.fullmatch(version.strip()):
        version = int(version)
    if type(version) is not int:
        raise _bad(_("A move carries the integer version of the match it was made on."))
    return action, version


def _parse_seat(frame: dict[str, Any]) -> int | None:
    """The optional seat a move names; the service refuses any seat but the player's own."""
    seat = frame.get("seat")
    if seat is None:
        return None
    if isinstance(seat, str) and _DIGITS.fullmatch(seat.strip()):
        seat = int(seat)
    if type(seat) is not int or not 0 <= seat < 16:
        raise _bad(_("A move's seat is the number of a seat at this table."))
    return seat


def _parse_vote(vote: Any) -> bool:
    vote = {"true": True, "false": False}.get(vote, vote) if isinstance(vote, str) else vote
    if type(vote) is not bool:
        raise _bad(_("A cancellation vote is true or false."))
    return vote


def _parse_report(report: Any) -> int:
    if isinstance(report, str) and _DIGITS.fullmatch(report.strip()):
        report = int(report)
    if type(report) is not int:
        raise _bad(_("Which message? Give its id."))
    return report


class MatchSocket(GuardedWebsocketConsumer):
    """A socket on one match's page. Subclasses set ``dom_id`` and ``log_name`` in
    ``_identify`` and answer the hooks below; ``self.access`` is set by ``_admit``."""

    dom_id = ""
    log_name = "match"

    # -- what an owner answers -----------------------------------------------------------

    def _identify(self) -> None:
        """Read the ids from the URL; set ``dom_id`` and ``log_name``."""
        raise NotImplementedError

    async def _admit(self) -> int | None:
        """None to admit the user (``self.access`` and ``self.staff`` set), else a close code."""
        raise NotImplementedError

    def _groups(self) -> tuple[str, ...]:
        """The channel groups this socket hears."""
        raise NotImplementedError

    async def _joined(self) -> None:
        """Record the admitted connection (a table's socket row; a seat taken back)."""

    async def _disconnected(self) -> None:
        """Forget the connection."""

    async def _renew(self) -> None:
        """Renew the connection's lease (an owner with socket rows)."""

    async def _revision(self) -> int | None:
        """The revision the page is at now (a socket with no cross-process layer polls it)."""
        raise NotImplementedError

    async def _fragments(self, announced: dict[str, Any] | None = None) -> tuple[str, int | None]:
        """This connection's fragments and the revision they show."""
        raise NotImplementedError

    async def _act(self, action: dict[str, Any], version: int, seat: int | None) -> None:
        raise NotImplementedError

    async def _chat(self, text: Any) -> None:
        raise DomainError(_("There is no chat here."), code="permission_denied", status=403)

    async def _cancel_vote(self, accept: Any) -> None:
        raise NotImplementedError

    # -- the protocol ----------------------------------------------------------------------

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self._identify()
        if not await self._open():
            return
        for group in self._groups():
            await self.channel_layer.group_add(group, self.channel_name)
        await self._joined()
        self.heartbeat = asyncio.create_task(self._renew_lease(settings.WS_LEASE_RENEW_SECONDS))
        await self._play_safe(draw=False)
        await self._render()
        if settings.TABLE_POLL_SECONDS > 0:
            self.poller = asyncio.create_task(self._poll(settings.TABLE_POLL_SECONDS))

    async def _leave(self) -> None:
        self.leaving = True
        async with self.lease_lock:  # a renewal in flight would write the row again
            if self.heartbeat is not None:
                self.heartbeat.cancel()
        for group in self._groups():
            await self.channel_layer.group_discard(group, self.channel_name)
        await self._disconnected()

    async def _error(self, code: str, detail: str) -> None:
        await self.send(text_data=render_error(table_id=None, code=code, detail=str(detail), dom_id=self.dom_id))

    async def _notice(self, text: str) -> None:
        await self.send(text_data=render_notice(table_id=None, text=text, dom_id=self.dom_id))

    async def table_settings(self, event: dict[str, Any]) -> None:
        await self._render()

    async def table_notice(self, event: dict[str, Any]) -> None:
        return

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its ``aclose_old_connections`` before every message: that
        is a hop to asgiref's one shared thread to tidy that thread's connections, while this
        socket's database work runs through ``database_sync_to_async``, whose every hop tidies
        its own thread's before and after (issue 15: a second thread hop, queued behind every
        other socket's, for each push a socket drew)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def __call__(self, scope, receive, send) -> None:
        """The helper tasks live exactly as long as the consumer. A consumer that dies of an
        error never gets ``disconnect``: its row goes here, not a lease later (a process
        that is killed runs nothing at all: the tick's lease expiry covers that)."""
        try:
            await super().__call__(scope, receive, send)
        except asyncio.CancelledError:
            raise
        except Exception:
            if getattr(self, "joined", False) and not getattr(self, "leaving", True):
                with contextlib.suppress(Exception):
                    await self._leave()
            raise
        finally:
            for task in (getattr(self, "heartbeat", None), getattr(self, "poller", None),
                         getattr(self, "drawing", None)):
                if task is not None:
                    task.cancel()

    async def _renew_lease(self, every: float) -> None:
        """Renew this connection's row (platform.md §10.1): a row that stops being renewed
        belongs to a dead process, and the tick removes it."""
        while not self.leaving:
            await asyncio.sleep(every)
            async with self.lease_lock:
                if self.leaving:
                    return
                try:
                    await self._renew()
                except Exception:  # the next beat retries; the lease outlasts two missed beats
                    log.warning("%s: lease of %s not renewed", self.log_name, self.channel_name,
                                exc_info=True)
            try:
                await self._play_safe()
            except Exception:  # the next beat looks again
                log.warning("%s: session of %s not read", self.log_name, self.user.pk, exc_info=True)

    async def _play_safe(self, *, draw: bool = True) -> None:
        """The player's session as the heartbeat sees it (regulation.md §2.5, §4.2): one notice
        when the daily time limit is within its warning, and a reality check that fell due drawn
        at once when the seat is not to act (else the render after the seat's move draws it)."""
        if self.staff:
            return
        look = await self._session_look()
        if look["reality_due_at"] != self.reality.due_at:
            self.reality = RealityWatch(due_at=look["reality_due_at"])
        if look["time_warning"] and not self.time_warned:
            self.time_warned = True
            left = look["time_remaining"] or 0
            await self._notice("⏱ " + ngettext(
                "Your daily time limit ends in %(n)s minute: the match in play finishes, no new match starts.",
                "Your daily time limit ends in %(n)s minutes: the match in play finishes, no new match starts.",
                left) % {"n": left})
        due = self.reality.due_at
        if draw and due is not None and timezone.now() >= due and not self.reality.shown:
            await self._render()

    @database_sync_to_async
    def _session_look(self) -> dict[str, Any]:
        return socket_watch(user_id=self.user.pk)

    @database_sync_to_async
    def _touch(self) -> None:
        session_touch(user=self.user, ip=self._ip(), device=(self.scope.get("cookies") or {}).get("mz_device", ""),
                      user_agent=dict(self.scope.get("headers") or []).get(b"user-agent", b"").decode("latin-1"))

    async def _poll(self, every: float) -> None:
        """Without a cross-process layer, notice changes made by other processes (the worker)."""
        while True:
            await asyncio.sleep(every)
            try:
                if await self._revision() != self.revision:
                    await self._render()
            except Exception:  # a failed look must not kill the socket; the next one retries
                continue

    async def _open(self) -> bool:
        """The connection's own state, then accept it and close it at once (4401 without a
        login, else ``_admit``'s code) unless it is admitted."""
        self.frames: deque[float] = deque()
        self.abuse = 0
        self.joined = False
        self.revision: int | None = None
        self.poller: asyncio.Task | None = None
        self.heartbeat: asyncio.Task | None = None
        self.leaving = False
        self.lease_lock = asyncio.Lock()
        self.render_lock = asyncio.Lock()
        self.pending: dict[str, Any] | None = None  # the newest push not drawn yet ({}: read the table)
        self.drawing: asyncio.Task | None = None
        self.staff = True  # until admitted: a player's session is watched only once admitted
        self.reality = RealityWatch()
        self.time_warned = False
        self.touched = time.monotonic()  # the page that opened the socket touched the session
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_LOGIN)
            return False
        verdict = await self._admit()
        if verdict is not None:
            await self.close(code=verdict)
            return False
        self.joined = True
        return True

    async def disconnect(self, code: int) -> None:
        poller = getattr(self, "poller", None)
        if poller is not None:
            poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await poller
        if not getattr(self, "joined", False) or self.leaving:
            return
        await self._leave()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """One client frame. No frame crashes the socket (platform.md §10.1): whatever is
        malformed gets ``bad_frame`` and changes nothing."""
        now = time.monotonic()
        self.frames.append(now)
        while self.frames and now - self.frames[0] > 1.0:
            self.frames.popleft()
        size = len(bytes_data or b"") if text_data is None else len(text_data.encode("utf-8", "surrogatepass"))
        if size > settings.WS_MAX_FRAME_BYTES:
            await self._abuse("bad_frame", _("Frames are at most %(n)s bytes.") % {"n": settings.WS_MAX_FRAME_BYTES})
            return
        if len(self.frames) > settings.WS_MAX_FRAMES_PER_SECOND:
            await self._abuse("rate_limited", _("Too many frames: slow down."))
            return
        if not self.staff and now - self.touched >= TOUCH_SECONDS:
            self.touched = now
            with contextlib.suppress(Exception):  # the session is kept; a missed touch is retried
                await self._touch()
        try:
            frame = _parse_frame(text_data, bytes_data)
            if "action" in frame:
                action, version = _parse_action(frame)
                started = time.monotonic()
                await self._act(action, version, _parse_seat(frame))
                MOVE_LATENCY.observe(time.monotonic() - started)  # the click to its push (sent on commit)
            elif "chat" in frame:
                if not isinstance(frame["chat"], str):
                    raise _bad(_("A chat line is text."))
                await self._chat(frame["chat"])
            elif "cancel_vote" in frame:
                await self._cancel_vote(_parse_vote(frame["cancel_vote"]))
            elif "report" in frame:
                await self._report(_parse_report(frame["report"]), frame.get("reason") or "other")
                await self._notice(_("Report sent: compliance will look at it. Thank you."))
            elif "sync" in frame:
                await self._render()
            else:
                raise _bad(_("Unknown frame: send an action, chat, cancel_vote, report or sync."))
        except DomainError as exc:
            await self._survivors(exc)  # what a refused move records (ADM's answer to a re-entry)
            if exc.code == "stale_version":  # another move came first: show the table as it is now
                await self._render()
            else:
                await self._error(exc.code, exc.detail)
        except Exception:  # a fault of ours must not take the socket down with it
            log.exception("%s: a frame from user %s failed", self.log_name, self.user.pk)
            await self._error("bad_frame", _("This frame could not be handled."))

    @database_sync_to_async
    def _survivors(self, exc: DomainError) -> None:
        survivors_run(exc)

    async def _abuse(self, code: str, detail: str) -> None:
        self.abuse += 1
        await self._error(code, detail)
        if self.abuse >= settings.WS_ABUSE_LIMIT:
            await self.close(code=CLOSE_ABUSE)

    async def frame_error(self, code: str, detail: str) -> None:
        await self._error(code, detail)

    @database_sync_to_async
    def _report(self, message_id: Any, reason: Any) -> None:
        chat_report(user=self.user, message_id=message_id, reason=reason)

    def _ip(self) -> str | None:
        client = self.scope.get("client") or [None]
        headers = dict(self.scope.get("headers") or [])
        forwarded = headers.get(b"x-forwarded-for", b"").decode() or None
        return client_ip(client[0], forwarded)

    async def _render(self, announced: dict[str, Any] | None = None) -> None:
        """Draw the table now; ``announced``: the push this answers (its revision), else
        the table is read as it is."""
        async with self.render_lock:  # renders go out in the order they read the state
            html, self.revision = await self._fragments(announced)
            if html:
                await self.send(text_data=html)

    def _announced(self, event: dict[str, Any]) -> int | None:
        """The revision a push announces, comparable with ``self.revision`` (None: unknown)."""
        revision = event.get("revision")
        return revision if type(revision) is int else None

    async def table_changed(self, event: dict[str, Any]) -> None:
        """"Changed, version n": from the table (seats) or from its match (moves).

        Coalesced (issue 15): a push for a revision this socket drew already is skipped, and
        pushes that arrive while a render is under way leave one render, of the newest. The
        render runs beside the message loop, so queued pushes are read (and merged) at once."""
        revision = self._announced(event)
        if revision is not None and self.revision is not None and revision <= self.revision:
            return
        if revision is None or self.pending == {}:
            self.pending = {}  # a render that reads the table as it is: it covers any announced one
        elif self.pending is None or self._announced(self.pending) < revision:
            self.pending = event
        if self.drawing is None or self.drawing.done():
            self.drawing = asyncio.create_task(self._draw_pending())

    async def _draw_pending(self) -> None:
        while self.pending is not None:
            event, self.pending = self.pending, None
            revision = self._announced(event)
            if revision is not None and self.revision is not None and revision <= self.revision:
                continue
            try:
                await self._render(event or None)
            except Exception:  # a failed render must not kill the socket: the next push draws again
                log.exception("%s: a render for %s failed", self.log_name, self.channel_name)

    async def chat_message(self, event: dict[str, Any]) -> None:
        html = await self._chat_line(event["id"])
        if html:
            await self.send(text_data=html)

    @database_sync_to_async
    def _chat_line(self, message_id: int) -> str:
        message = chat_message_get(message_id=message_id)
        return "" if message is None or message.hidden else render_chat_line(message=message)

    async def chat_hidden(self, event: dict[str, Any]) -> None:
        await self.send(text_data=render_to_string("chat/_hidden_oob.html", {"message_id": event["id"]}))

    async def socket_close(self, event: dict[str, Any]) -> None:
        await self.close(code=event.get("code", CLOSE_FORBIDDEN))
