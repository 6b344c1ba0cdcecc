from apps.common.roles import has_role, is_staff_member
from apps.compliance.selectors import sanction_describe, sanctions_active
from apps.wallet.selectors import wallet_balances_many

from .selectors import nickname_of


def player(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"is_player": False, "nickname": None, "is_staff_member": False}
    staff = is_staff_member(user)
    return {
        "is_player": not staff,
        #: what is sanctioned and until when, on every page the player opens (platform.md §7.4)
        "active_sanctions": [] if staff else [sanction_describe(s) for s in sanctions_active(player=user)],
        "is_staff_member": is_staff_member(user),
        "nickname": nickname_of(user),
        #: the player's own balances in the header of every page (cash, bonus, credits; one query)
        "balances": None if staff else wallet_balances_many(player_ids=[user.pk])[user.pk],
        "is_compliance": has_role(user, "compliance"),
        "is_operator": has_role(user, "operator"),
        "is_finance": has_role(user, "finance"),
    }
