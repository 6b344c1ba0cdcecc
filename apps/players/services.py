"""Players: choosing and renaming nicknames; the credits a player earns as a player (platform.md §4)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from apps.audit.services import audit_record
from apps.common.errors import Conflict, DomainError, NicknameRequired, StaffCannotPlay, ValidationFailed
from apps.common.net import request_ip
from apps.common.otp import otp_enrolled
from apps.common.roles import is_staff_member
from apps.compliance.selectors import sanction_check_lobby
from apps.conto.exclusions import exclusion_check
from apps.conto.registry_login import conto_registry_login
from apps.conto.services import conto_ensure
from apps.conto.sessions import session_open
from apps.wallet.models import BONUS, CreditRecharge
from apps.wallet.services import (
    credits_passport_grant,
    credits_recharge_request,
    credits_welcome_grant,
    player_account_require,
    wallet_adjust,
)

from . import two_factor
from .access_log import access_log_record, device_of
from .account_state import refusal_error
from .logins import seconds_to_wait
from .models import NicknameChange, Profile, StaffTokenOtp
from .rules import nickname_problem, skeleton
from .selectors import nickname_of


class NicknameInvalid(DomainError):
    status = 400
    code = "nickname_invalid"


def _taken(nickname: str) -> Conflict:
    return Conflict(_("The nickname '%(nickname)s' is already taken: choose another one.") % {"nickname": nickname},
                    code="nickname_taken")


def profile_ensure(*, user: Any) -> Profile:
    """The user's profile, created on first need (never only by a migration)."""
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def profile_deck_set(*, user: Any, deck: object) -> Profile:
    """The Italian card faces a player sees at every table (Napoletane or Piacentine)."""
    allowed = [value for value, _label in Profile.ITALIAN_DECKS]
    if deck not in allowed:
        raise ValidationFailed(_("Choose Napoletane or Piacentine."),
                               fields={"italian_deck": [_("Choose Napoletane or Piacentine.")]})
    assert isinstance(deck, str)
    profile = profile_ensure(user=user)
    Profile.objects.filter(pk=profile.pk).update(italian_deck=deck)
    profile.italian_deck = deck
    return profile


def profile_chat_hide(*, user: Any, hidden: object) -> Profile:
    """A player hides the table chat for themselves, or shows it again: the box is not drawn
    and they cannot write; what others write is recorded as always (platform.md §7.1)."""
    if type(hidden) is not bool:
        raise ValidationFailed(_("Say true or false: 'hidden' hides or shows the chat."),
                               fields={"hidden": [_("true or false")]})
    profile = profile_ensure(user=user)
    Profile.objects.filter(pk=profile.pk).update(chat_hidden=hidden)
    profile.chat_hidden = hidden
    return profile


def nickname_set(*, user: Any, nickname: object) -> Profile:
    """A player's one and only choice of nickname; credits the 300 welcome credits."""
    if is_staff_member(user):
        raise StaffCannotPlay()
    profile_ensure(user=user)
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user=user)
        if profile.nickname:
            raise Conflict(_("Your nickname is already '%(nickname)s': it cannot be changed.")
                           % {"nickname": profile.nickname}, code="nickname_already_set")
        problem = nickname_problem(nickname)
        if problem:
            raise NicknameInvalid(problem)
        assert isinstance(nickname, str)  # nickname_problem refused anything else
        if Profile.objects.filter(nickname_skeleton=skeleton(nickname)).exists():
            raise _taken(nickname)
        profile.nickname = nickname
        profile.nickname_set_at = timezone.now()
        try:
            with transaction.atomic():
                profile.save(update_fields=["nickname", "nickname_set_at"])  # and the skeleton
        except IntegrityError:
            raise _taken(nickname) from None
        NicknameChange.objects.create(profile=profile, old=None, new=nickname, changed_by=user)
        credits_welcome_grant(player=user)
    return profile


def nickname_rename(*, actor: User, player: User, nickname: object, reason: object, ip: str | None = None) -> Profile:
    """Compliance renames a player's nickname: same rules, audited, history kept."""
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 200:
        raise ValidationFailed(_("A reason of 1 to 200 characters is required."),
                               fields={"reason": [_("A reason of 1 to 200 characters is required.")]})
    if is_staff_member(player):
        raise ValidationFailed(_("Only players have nicknames."), fields={"player": [_("Not a player.")]})
    problem = nickname_problem(nickname)
    if problem:
        raise NicknameInvalid(problem)
    assert isinstance(nickname, str)  # nickname_problem refused anything else
    profile_ensure(user=player)
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user=player)
        if Profile.objects.filter(nickname_skeleton=skeleton(nickname)).exclude(user=player).exists():
            raise _taken(nickname)
        old = profile.nickname
        profile.nickname = nickname
        if profile.nickname_set_at is None:
            profile.nickname_set_at = timezone.now()
        try:
            with transaction.atomic():
                profile.save(update_fields=["nickname", "nickname_set_at"])  # and the skeleton
        except IntegrityError:
            raise _taken(nickname) from None
        NicknameChange.objects.create(profile=profile, old=old, new=nickname, changed_by=actor, reason=reason)
        audit_record(actor=actor, action="nickname_rename", target=profile, target_type="player",
                     target_id=player.pk, reason=reason, before={"nickname": old},
                     after={"nickname": nickname}, ip=ip)
    return profile


def passport_pay(*, actor: User, player: User, ip: str | None = None) -> int:
    """Finance records the passport: +1000 credits once. Returns the new credits balance."""
    player_account_require(player)
    profile_ensure(user=player)
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user=player)
        if profile.passport_paid_at is not None:
            raise Conflict(_("The passport has already been paid for this player."), code="passport_already_paid")
        profile.passport_paid_at = timezone.now()
        profile.save(update_fields=["passport_paid_at"])
        balance = credits_passport_grant(actor=actor, player=player)
        audit_record(actor=actor, action="credits_passport", target_type="player", target_id=player.pk,
                     reason="passport", after={"credits": balance}, ip=ip)
    return balance


def recharge_request(*, player: User) -> CreditRecharge:
    """A player asks for 300 credits: checked in the order of platform.md §4 (a player, with a
    nickname, not kept out of the lobby), then the wallet's recharge rules."""
    if is_staff_member(player):
        raise StaffCannotPlay()
    if not nickname_of(player):
        raise NicknameRequired()
    sanction_check_lobby(player=player)
    return credits_recharge_request(player=player)
def token_obtain(*, request: HttpRequest, username: object, password: object, otp: object = None) -> str:
    """The API token of ``username`` (platform.md §12): the same key until it is revoked.

    ``request`` is the Django request: django-axes reads it to count the failure and to refuse
    a locked username or address before the password is even checked.
    """
    fields = {name: [_("A non-empty string is required.")] for name, value in
              (("username", username), ("password", password)) if not isinstance(value, str) or not value}
    if fields:
        raise ValidationFailed(_("A token needs a username and a password."), fields=fields)
    user = authenticate(request, username=username, password=password)
    if user is None:
        if getattr(request, "axes_locked_out", False):
            wait = seconds_to_wait(request)
            raise DomainError(_("Too many failed logins: try again in %(n)s minutes.") % {"n": max(1, -(-wait // 60))},
                              code="throttled", status=429, wait=wait)
        raise DomainError(_("The username or password is not correct."), code="invalid_credentials", status=400)
    refused = refusal_error(user)  # regulation.md §1.5: blocked, closed, dormant
    if refused is not None:
        raise refused
    if settings.STAFF_OTP_REQUIRED and is_staff_member(user):  # regulation.md §10
        if otp is None or otp == "":
            raise DomainError(_("Staff tokens need the second factor: send otp."), code="otp_required",
                              enrolled=otp_enrolled(user))
        if not otp_enrolled(user):
            raise DomainError(_("No second factor is enrolled yet."), code="otp_required", enrolled=False)
        two_factor.otp_code_check(user=user, code=otp, ip=request_ip(request))
    token, _created = Token.objects.get_or_create(user=user)
    access_log_record(event="token", request=request, user=user)  # regulation.md §4.3
    conto_registry_login(user=user)  # regulation.md §3.4: the registry at each login, the token's too
    if not is_staff_member(user):  # regulation.md §4.1: a token login opens a game session
        session_open(user=user, ip=request_ip(request), device=device_of(request),
                     user_agent=request.META.get("HTTP_USER_AGENT", ""))
    if settings.STAFF_OTP_REQUIRED and is_staff_member(user):
        StaffTokenOtp.objects.update_or_create(key=token.key, defaults={"verified_at": timezone.now()})
    return token.key


def player_adjust(*, actor: User, player: User, currency: object, amount: object, reason: object, ip: str | None = None) -> Any:
    """A finance adjustment (platform.md §3.6); a bonus for a self-excluded player is refused
    like any bonus (regulation.md §3.3: 403 self_excluded)."""
    if currency == BONUS and type(amount) is int and amount > 0 and not is_staff_member(player):
        exclusion_check(conto=conto_ensure(user=player), what="bonus")
    return wallet_adjust(actor=actor, player=player, currency=currency, amount=amount, reason=reason, ip=ip)
