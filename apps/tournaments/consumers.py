"""The tournament page's socket (/ws/tournaments/{id}/): it carries only "changed, version n".

The page then fetches its own fragment over HTTP, rendered for its reader (a player's own
refund, an operator's whole table), so nothing private ever travels in a shared message.
A player kept out of the lobby (lobby ban, suspension, authority report) is refused (4403),
and an open socket is closed at once when such a sanction is issued (receivers.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from apps.common.errors import Conflict, DomainError, NotFoundError, Sanctioned
from apps.common.roles import is_staff_member
from apps.common.sockets import GuardedWebsocketConsumer
from apps.compliance.selectors import sanction_check_lobby
from apps.matches.models import Match
from apps.matches.selectors import match_get
from apps.play.consumers import CLOSE_UNKNOWN, MatchSocket
from apps.play.consumers import database_sync_to_async as play_database_sync_to_async
from apps.play.render import match_fragments
from apps.play.selectors import match_reader_access

from . import play, selectors
from .broadcast import player_group, tournament_group, tournament_user_group
from .models import Tournament
from .render import match_page_extra

CLOSE_LOGIN, CLOSE_FORBIDDEN = 4401, 4403


async def _poll_forever(every: float, look) -> None:
    """Without a cross-process channel layer (the embedded defaults) a push made by another
    process (the worker starting a Sit&Go) never arrives: look every ``every`` seconds."""
    while True:
        await asyncio.sleep(every)
        try:
            await look()
        except Exception:  # a failed look must not kill the socket; the next one retries
            continue


class TournamentConsumer(GuardedWebsocketConsumer):
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
        self.sent_version = version
        await self.send(text_data=json.dumps({"version": version}))
        if settings.TABLE_POLL_SECONDS > 0:
            self.poller = asyncio.create_task(_poll_forever(settings.TABLE_POLL_SECONDS, self._look))

    async def _look(self) -> None:
        version = await database_sync_to_async(self._version)()
        if version is not None and version != self.sent_version:
            self.sent_version = version
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
        poller = getattr(self, "poller", None)
        if poller is not None:
            poller.cancel()
        for group in (getattr(self, "group", None), getattr(self, "user_group", None)):
            if group:
                await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the page sends nothing; frames are ignored

    async def socket_close(self, event: dict[str, Any]) -> None:
        await self.close(code=int(event.get("code") or CLOSE_FORBIDDEN))

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        self.sent_version = event.get("version")
        await self.send(text_data=json.dumps({"version": event.get("version")}))


class TournamentPlayerConsumer(GuardedWebsocketConsumer):
    """A player's own socket, opened by every page they have open (/ws/tournaments/me/): when a
    tournament match of theirs starts it says so at once and offers the table ("Your table is
    ready", with the link), rendered for this player in the page's language from their own
    matches in play; the push carries only the match id. It also answers at connect, so a page
    opened later offers a match already in play. Staff, anonymous users and players kept out of
    the lobby are refused (4401, 4403); a sanction issued later closes it (the per-user group)."""

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.shown: tuple[int, ...] = ()
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_LOGIN)
            return
        if not await database_sync_to_async(self._admitted)():
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.joined = (player_group(self.user.pk), tournament_user_group(self.user.pk))
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self._show()
        if settings.TABLE_POLL_SECONDS > 0:
            self.poller = asyncio.create_task(_poll_forever(max(1.0, settings.TABLE_POLL_SECONDS), self._show))

    def _admitted(self) -> bool:
        if is_staff_member(self.user):
            return False  # staff do not play
        try:
            sanction_check_lobby(player=self.user)
        except DomainError:
            return False
        return True

    async def disconnect(self, code: int) -> None:
        poller = getattr(self, "poller", None)
        if poller is not None:
            poller.cancel()
        for group in getattr(self, "joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the page sends nothing; frames are ignored

    def _matches(self) -> tuple[tuple[int, ...], str | None]:
        """This player's matches in play, and their banner only when they changed (a look that
        finds nothing new costs one small read, no render)."""
        rows = selectors.my_matches_in_play(user=self.user)
        ids = tuple(tm.match_id for tm in rows)
        if ids == self.shown:
            return ids, None
        return ids, render_to_string("tournaments/_table_ready.html", {"ready": rows})

    async def _show(self) -> None:
        """Send this player's matches in play when they differ from what the page shows."""
        ids, html = await database_sync_to_async(self._matches)()
        if html is not None and ids != self.shown:
            self.shown = ids
            await self.send(text_data=json.dumps({"matches": list(ids), "html": html}))

    async def tournament_table_ready(self, event: dict[str, Any]) -> None:
        await self._show()

    async def socket_close(self, event: dict[str, Any]) -> None:
        await self.close(code=int(event.get("code") or CLOSE_FORBIDDEN))


class TournamentMatchConsumer(MatchSocket):
    """A tournament match's page socket (/ws/tournaments/matches/{match_id}/): the play
    floor's match socket (platform.md §10) for a match with no table. It hears the match's own
    group ("changed, version n", no card), renders each connection's own view (a seated
    player's hand and controls; anyone else the spectator's view, staff included), and sends
    a move to the action service. No chat and no friendly cancellation here (§5.7)."""

    def _identify(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.dom_id = f"match-{self.match_id}"
        self.log_name = f"match {self.match_id}"

    def _groups(self) -> tuple[str, ...]:
        return self.group, tournament_user_group(self.user.pk)

    @play_database_sync_to_async
    def _admit(self) -> int | None:
        try:
            tm = selectors.tournament_match_get(match_id=self.match_id)
            match = match_get(match_id=tm.match_id)
        except NotFoundError:
            return CLOSE_UNKNOWN
        self.staff = is_staff_member(self.user)
        if not self.staff:
            try:
                sanction_check_lobby(player=self.user)
            except DomainError:
                return CLOSE_FORBIDDEN
        self.access = match_reader_access(match=match, user=self.user)
        self.group = match.group
        self.extra = match_page_extra(tm)
        self.chat_enabled = tm.tournament.chat_enabled
        return None if self.access is not None else CLOSE_FORBIDDEN

    @play_database_sync_to_async
    def _joined(self) -> None:
        if self.access.seat is not None:  # a seated player is back: the robot hands the seat over
            play.match_seat_back(match_id=self.match_id, user=self.user)

    @play_database_sync_to_async
    def _revision(self) -> int | None:
        return Match.objects.filter(pk=self.match_id).values_list("version", flat=True).first()

    @play_database_sync_to_async
    def _fragments(self, announced: dict[str, Any] | None = None) -> tuple[str, int | None]:
        return match_fragments(match_id=self.match_id, user=self.user, access=self.access,
                               extra=self.extra, reality=self.reality)

    @play_database_sync_to_async
    def _act(self, action: dict[str, Any], version: int, seat: int | None) -> None:
        play.match_move(match_id=self.match_id, user=self.user, action=action, version=version, seat=seat)

    async def _chat(self, text: Any) -> None:
        if not self.chat_enabled:  # the operator switched this tournament's chat off (seed 000)
            raise Conflict(_("The chat is switched off in this tournament."), code="chat_disabled")
        raise DomainError(_("There is no chat in a tournament match."), code="permission_denied", status=403)

    async def _cancel_vote(self, accept: Any) -> None:
        raise Conflict(_("A tournament match cannot be cancelled by agreement."), code="not_allowed_in_tournament")
