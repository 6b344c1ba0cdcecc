"""Reads about sanctions, used by every service that must refuse a sanctioned player."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext as _

from apps.common.errors import Sanctioned
from apps.wallet.models import BONUS, CASH, CREDITS
from apps.wallet.selectors import frozen_cents_many, wallet_balances_many

from .models import ACCOUNT_SUSPENSION, AUTHORITY_REPORT, CHAT_BAN, LOBBY_BAN, Sanction

LOBBY_BLOCKING = (LOBBY_BAN, ACCOUNT_SUSPENSION, AUTHORITY_REPORT)
ROME = ZoneInfo("Europe/Rome")
KIND_WORDS = {CHAT_BAN: gettext_lazy("chat ban"), LOBBY_BAN: gettext_lazy("lobby ban"),
              ACCOUNT_SUSPENSION: gettext_lazy("account suspension"),
              AUTHORITY_REPORT: gettext_lazy("report to the authority")}


def sanction_active_kinds(*, player_id: int) -> set[str]:
    return set(Sanction.objects.active().filter(player_id=player_id).values_list("kind", flat=True))


def sanctions_active(*, player: User) -> list[Sanction]:
    return list(Sanction.objects.active().filter(player=player).order_by("starts_at", "id"))


KIND_PHRASES = {
    CHAT_BAN: gettext_lazy("You cannot write in the chat"),
    LOBBY_BAN: gettext_lazy("You cannot enter the lobby (tables, tournaments, chat, credit recharges)"),
    ACCOUNT_SUSPENSION: gettext_lazy("Your gaming account is suspended and its balances are frozen"),
    AUTHORITY_REPORT: gettext_lazy("You were reported to the authority: your balances are held until it decides"),
}


def sanction_describe(sanction: Sanction) -> str:
    """One sentence for the player: what is sanctioned and until when (platform.md §7.4)."""
    if sanction.ends_at is None:
        until = gettext("permanently")
    else:
        until = gettext("until %(end)s (Rome time)") % {
            "end": sanction.ends_at.astimezone(ROME).strftime("%d/%m/%Y %H:%M")}
    return f"{KIND_PHRASES[sanction.kind]} {until}: {sanction.reason}"


def _describe(sanction: Sanction) -> str:
    kind = KIND_WORDS.get(sanction.kind, sanction.kind.replace("_", " "))
    if sanction.ends_at is None:
        return _("Your account has an active %(kind)s, permanently.") % {"kind": kind}
    return _("Your account has an active %(kind)s until %(end)s (Rome time).") % {
        "kind": kind, "end": sanction.ends_at.astimezone(ROME).strftime("%d/%m/%Y %H:%M")}


def _check(player: User, kinds: tuple[str, ...]) -> None:
    sanction = Sanction.objects.active().filter(player=player, kind__in=kinds).order_by("starts_at").first()
    if sanction is not None:
        raise Sanctioned(_describe(sanction), sanction=sanction.kind)


def sanction_check_lobby(*, player: User) -> None:
    """403 sanctioned for a lobby ban, a suspension or an authority report."""
    _check(player, LOBBY_BLOCKING)


def sanction_check_chat(*, player: User) -> None:
    _check(player, (CHAT_BAN, *LOBBY_BLOCKING))


def sanction_as_dict(sanction: Sanction) -> dict:
    return {
        "id": sanction.pk,
        "kind": sanction.kind,
        "duration": sanction.duration,
        "starts_at": sanction.starts_at.isoformat(),
        "ends_at": sanction.ends_at.isoformat() if sanction.ends_at else None,
        "reason": sanction.reason,
    }


def players_status_many(*, players: list) -> list[dict]:
    """The staff players list rows (platform.md §1, §7.4) for one page, in four queries."""
    ids = [p.pk for p in players]
    balances = wallet_balances_many(player_ids=ids)
    frozen = frozen_cents_many(player_ids=ids)
    active: dict[int, list[Sanction]] = {pid: [] for pid in ids}
    for sanction in Sanction.objects.active().filter(player_id__in=ids).order_by("starts_at", "id"):
        active[sanction.player_id].append(sanction)
    rows = []
    for player in players:
        kinds = {s.kind for s in active[player.pk]}
        status = "reported" if AUTHORITY_REPORT in kinds else "suspended" if ACCOUNT_SUSPENSION in kinds \
            else "active"
        profile = getattr(player, "profile", None)
        rows.append({
            "id": player.pk,
            "username": player.get_username(),
            "nickname": profile.nickname if profile else None,
            "status": status,
            "cash_cents": balances[player.pk][CASH],
            "bonus_cents": balances[player.pk][BONUS],
            "credits": balances[player.pk][CREDITS],
            "frozen_cents": frozen.get(player.pk, 0),
            "sanctions": [sanction_as_dict(s) for s in active[player.pk]],
        })
    return rows


def sanction_as_api_dict(sanction: Sanction) -> dict:
    """``POST /api/sanctions/``'s answer and the items of ``GET /api/sanctions/`` (platform.md §7.4)."""
    return {
        **sanction_as_dict(sanction),
        "player": sanction.player_id,
        "active": sanction.active,
        "created_by": sanction.created_by_id,
        "messages": list(sanction.message_ids),
        "lifted_at": sanction.lifted_at.isoformat() if sanction.lifted_at else None,
        "lifted_by": sanction.lifted_by_id,
        "lift_reason": sanction.lift_reason,
        "decision": sanction.decision or None,
    }


def sanctions_list(*, player_id: int | None = None, active: bool | None = None, kind: str | None = None) -> QuerySet[Sanction]:
    """Every sanction, newest first, filtered; the player and the staff who issued or lifted it joined."""
    rows = Sanction.objects.select_related("player", "player__profile", "created_by", "lifted_by") \
        .order_by("-starts_at", "-id")
    if player_id is not None:
        rows = rows.filter(player_id=player_id)
    if kind:
        rows = rows.filter(kind=kind)
    if active is True:
        rows = rows.active()
    elif active is False:
        rows = rows.exclude(pk__in=Sanction.objects.active().values("pk"))
    return rows


def sanction_get(*, sanction_id: int) -> Sanction | None:
    return Sanction.objects.select_related("player", "created_by", "lifted_by").filter(pk=sanction_id).first()
