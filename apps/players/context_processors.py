from apps.common.roles import has_role, is_staff_member

from .selectors import nickname_of


def player(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"is_player": False, "nickname": None, "is_staff_member": False}
    return {
        "is_player": not is_staff_member(user),
        "is_staff_member": is_staff_member(user),
        "nickname": nickname_of(user),
        "is_compliance": has_role(user, "compliance"),
        "is_operator": has_role(user, "operator"),
        "is_finance": has_role(user, "finance"),
    }
