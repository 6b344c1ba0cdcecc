"""Players: choosing and renaming nicknames."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.audit.services import audit_record
from apps.common.errors import Conflict, DomainError, StaffCannotPlay, ValidationFailed
from apps.common.roles import is_staff_member

from .models import NicknameChange, Profile
from .rules import nickname_problem, skeleton


class NicknameInvalid(DomainError):
    status = 400
    code = "nickname_invalid"


def _taken(nickname: str) -> Conflict:
    return Conflict(_("The nickname '%(nickname)s' is already taken: choose another one.") % {"nickname": nickname},
                    code="nickname_taken")


def profile_ensure(*, user) -> Profile:
    """The user's profile, created on first need (never only by a migration)."""
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def nickname_set(*, user, nickname: object) -> Profile:
    """A player's one and only choice of nickname; credits the 300 welcome credits."""
    from apps.wallet.services import credits_welcome_grant

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


def nickname_rename(*, actor, player, nickname: object, reason: object, ip: str | None = None) -> Profile:
    """Compliance renames a player's nickname: same rules, audited, history kept."""
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 200:
        raise ValidationFailed("A reason of 1 to 200 characters is required.",
                               fields={"reason": ["A reason of 1 to 200 characters is required."]})
    if is_staff_member(player):
        raise ValidationFailed("Only players have nicknames.", fields={"player": ["Not a player."]})
    problem = nickname_problem(nickname)
    if problem:
        raise NicknameInvalid(problem)
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
