"""The lobby room's page fragment (loaded into the lobby by htmx): recent lines, the
"every message is recorded" notice, the form, and the socket it talks to."""

from __future__ import annotations

from django.shortcuts import render

from apps.common.errors import DomainError
from apps.common.roles import is_staff_member
from apps.compliance.selectors import sanction_check_chat, sanction_check_lobby

from .selectors import room_chat_recent


def lobby_room(request):
    user = request.user
    context = {"lines": [], "can_chat": False, "refusal": None, "connect": False}
    if not user.is_authenticated:
        return render(request, "chat/_lobby_room.html", context)
    try:
        if not is_staff_member(user):
            sanction_check_lobby(player=user)
        context.update(lines=room_chat_recent(room="lobby"), connect=True)
        if not is_staff_member(user):
            sanction_check_chat(player=user)
            context["can_chat"] = True
    except DomainError as exc:
        context["refusal"] = exc.detail
    return render(request, "chat/_lobby_room.html", context)
