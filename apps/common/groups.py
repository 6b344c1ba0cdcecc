"""The three staff groups and the admin screens they may open (platform.md §1).

The API decides by group name only; these model permissions only open admin screens.
A migration creates them, and a post_migrate hook re-creates them after a flush.
"""

from __future__ import annotations

GROUP_PERMISSIONS: dict[str, list[str]] = {
    "operator": [
        "auth.view_user", "players.view_profile",
        "tables.view_table", "matches.view_match", "matches.view_matchaction", "rankings.view_xpaward",
        "tournaments.view_tournament", "tournaments.add_tournament", "tournaments.change_tournament",
        "tournaments.view_registration", "tournaments.view_tournamentmatch",
    ],
    "finance": [
        "auth.view_user", "players.view_profile",
        "wallet.view_account", "wallet.view_transaction", "wallet.view_entry",
        "wallet.view_adjustment", "wallet.view_creditrecharge",
    ],
    "compliance": [
        "auth.view_user", "players.view_profile", "players.view_nicknamechange",
        "wallet.view_account", "wallet.view_transaction", "wallet.view_entry",
        "compliance.view_sanction", "compliance.add_sanction", "audit.view_auditlog",
        "tables.view_table", "matches.view_match", "matches.view_matchaction", "chat.view_chatmessage",
        "chat.view_chatreport", "chat.view_flagword", "rankings.view_xpaward",
    ],
}


def ensure_staff_groups(group_model, permission_model) -> None:
    for name, codes in GROUP_PERMISSIONS.items():
        group, _ = group_model.objects.get_or_create(name=name)
        perms = []
        for code in codes:
            app_label, codename = code.split(".")
            perm = permission_model.objects.filter(content_type__app_label=app_label, codename=codename).first()
            if perm is not None:
                perms.append(perm)
        group.permissions.add(*perms)
