"""Reads about players."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import OuterRef, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from apps.common.errors import NicknameRequired, NotFoundError, StaffCannotPlay
from apps.common.roles import STAFF_GROUPS, is_staff_member
from apps.compliance.selectors import sanction_check_lobby
from apps.wallet.models import Account, CreditRecharge, Entry
from apps.wallet.selectors import wallet_get

from .models import Profile


def nickname_of(user: Any) -> str | None:
    """The current nickname, read fresh (a cached ``user.profile`` may predate the choice)."""
    if user is None or not getattr(user, "pk", None):
        return None
    return Profile.objects.filter(user_id=user.pk).values_list("nickname", flat=True).first()


def player_play_check(*, user: Any) -> None:
    """Whether ``user`` may take a seat or an entry, refused in the order of platform.md §8.1
    and §5.3: nickname_required, staff_cannot_play, sanctioned."""
    if not nickname_of(user):
        if is_staff_member(user):
            raise StaffCannotPlay()
        raise NicknameRequired()
    if is_staff_member(user):
        raise StaffCannotPlay()
    sanction_check_lobby(player=user)


def chat_hidden_of(user: Any) -> bool:
    """Whether the player hid the table chat for themselves (read fresh, like the nickname)."""
    if user is None or not getattr(user, "pk", None):
        return False
    return bool(Profile.objects.filter(user_id=user.pk).values_list("chat_hidden", flat=True).first())


def player_list(*, search: str | None = None) -> QuerySet:
    """Players only (no staff, no superusers), newest first, optionally searched."""
    users = (
        get_user_model().objects.filter(is_superuser=False)
        .exclude(groups__name__in=STAFF_GROUPS)
        .select_related("profile")
        .order_by("-id")
    )
    if search:
        users = users.filter(Q(username__icontains=search) | Q(profile__nickname__icontains=search))
    return users.distinct()


def player_get(*, player_id: Any) -> User:
    """A player (not staff) by id; 404 otherwise."""
    try:
        pk = int(player_id)
    except (TypeError, ValueError):
        raise NotFoundError(_("No such player.")) from None
    user = get_user_model().objects.filter(pk=pk).select_related("profile").first()
    if user is None:
        raise NotFoundError(_("No such player."))
    return user


def players_with_balances_all(users: QuerySet) -> QuerySet:
    """``users`` with their balances as sortable columns (``cash``, ``bonus``, ``credits``, and
    ``frozen``: their share of house:authority_frozen), for the staff players list."""
    def balance(currency: str) -> Coalesce:
        return Coalesce(Subquery(Account.objects.filter(player=OuterRef("pk"), currency=currency)
                                 .values("balance")[:1]), Value(0))

    frozen = (Entry.objects.filter(account__code="house:authority_frozen", player=OuterRef("pk"))
              .order_by().values("player").annotate(s=Sum("amount")).values("s")[:1])
    return users.annotate(cash=balance("cash"), bonus=balance("bonus"), credits=balance("credits"),
                          frozen=Coalesce(Subquery(frozen), Value(0)))


def recharge_status(*, player: User) -> dict:
    """What the recharge button shows beside it (platform.md §4): the player's credits and,
    if one is waiting, when the pending recharge arrives."""
    pending = (CreditRecharge.objects.filter(player=player, credited_at__isnull=True)
               .order_by("available_at").values_list("available_at", flat=True).first())
    return {"credits": wallet_get(player=player)["credits"], "pending_at": pending}
