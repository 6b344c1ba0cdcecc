"""The back office's player page (regulation.md §9): one page per player, a tab per subject,
each tab by role; actions with a required reason, audited by the services they call.

Nothing about a match in play beyond what a watcher sees: the play tab lists matches and links
their replays, which the replay page itself refuses while a match is in play."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from apps.aml.models import AmlCase, AmlSignal
from apps.audit.models import AuditLog
from apps.audit.services import audit_record
from apps.cashier.selectors import deposits_as_dicts, withdrawal_queue, withdrawal_staff_dict
from apps.chat.models import ChatMessage, ChatReport
from apps.common.errors import DomainError
from apps.common.net import request_ip
from apps.common.roles import COMPLIANCE, FINANCE, OPERATOR, STAFF_GROUPS, has_role, is_staff_member
from apps.compliance.selectors import sanctions_list
from apps.conto.exclusions import exclusions_of
from apps.conto.limits import limits_view
from apps.conto.models import GameSession, KycEvent, LimitChange, StateChange
from apps.conto.notes import player_note_add, player_notes
from apps.conto.presenters import conto_as_dict, current_documents
from apps.conto.services import conto_ensure
from apps.conto.sessions import session_row
from apps.conto.status import conto_status_change
from apps.conto.words import CAN_WORDS, DOCUMENT_WORDS, KYC_WORDS
from apps.matches.models import MatchSeat
from apps.players.access_log import access_log_for
from apps.players.selectors import player_get
from apps.review.selectors import frequent_pairs, shared_ip_signals
from apps.tournaments.models import Registration
from apps.wallet.models import Deposit, Instrument
from apps.wallet.selectors import player_ledger, wallet_get

from .views import _context

ALL = (OPERATOR, FINANCE, COMPLIANCE)
#: §9's table: who sees each tab
TABS: list[tuple[str, Any, tuple[str, ...]]] = [
    ("identity", gettext_lazy("Identity"), ALL),
    ("limits", gettext_lazy("Limits"), ALL),
    ("exclusions", gettext_lazy("Exclusions and sanctions"), ALL),
    ("money", gettext_lazy("Money"), (FINANCE, COMPLIANCE)),
    ("cashier", gettext_lazy("Cashier"), (FINANCE, COMPLIANCE)),
    ("sessions", gettext_lazy("Sessions"), ALL),
    ("play", gettext_lazy("Play"), (OPERATOR, COMPLIANCE)),
    ("chat", gettext_lazy("Chat"), (COMPLIANCE,)),
    ("signals", gettext_lazy("Signals"), (COMPLIANCE,)),
    ("notes", gettext_lazy("Notes"), ALL),
    ("audit", gettext_lazy("Audit"), (COMPLIANCE,)),
]
ROLES = dict((key, roles) for key, _label, roles in TABS)


def _player(player_id: int):
    try:
        user = player_get(player_id=player_id)
    except DomainError:
        raise Http404 from None
    if is_staff_member(user):
        raise Http404
    return user


def _tab_data(tab: str, user: Any, request: HttpRequest) -> dict[str, Any]:
    conto = conto_ensure(user=user)
    if tab == "identity":
        account = conto_as_dict(conto)
        return {"account": account, "conto": conto, "kyc_words": KYC_WORDS.get(conto.kyc_status, conto.kyc_status),
                "document_words": DOCUMENT_WORDS.get((conto.document or {}).get("type"), ""),
                "can": [(CAN_WORDS[k], v) for k, v in account["can"].items()],
                "documents": current_documents(conto), "images": has_role(request.user, COMPLIANCE),
                "state_history": StateChange.objects.filter(conto=conto).select_related("by")[:50],
                "kyc_history": KycEvent.objects.filter(conto=conto).select_related("by")[:50]}
    if tab == "limits":
        shape = limits_view(conto=conto)
        return {"limits": [{"key": k, **shape[k]} for k in shape if isinstance(shape[k], dict) and "used" in shape[k]],
                "limit_history": LimitChange.objects.filter(conto=conto)[:100], "young": shape["young"]}
    if tab == "exclusions":
        return {"exclusions": exclusions_of(conto=conto), "sanctions": sanctions_list(player_id=user.pk)}
    if tab == "money":
        page = Paginator(player_ledger(player=user), 50).get_page(request.GET.get("page"))
        return {"wallet": wallet_get(player=user), "page": page}
    if tab == "cashier":
        return {"instruments": Instrument.objects.filter(player=user),
                "deposits": deposits_as_dicts(list(Deposit.objects.filter(player=user).order_by("-id")[:100])),
                "withdrawals": [withdrawal_staff_dict(w) for w in withdrawal_queue(player_id=user.pk).order_by("-id")[:100]],
                "wallet": wallet_get(player=user)}
    if tab == "sessions":
        games = [session_row(s) for s in GameSession.objects.filter(user=user).order_by("-started_at")[:100]]
        return {"access": access_log_for(user_id=user.pk), "game_sessions": games}
    if tab == "play":
        seats = (MatchSeat.objects.filter(player=user).select_related("match").order_by("-match__started_at")[:100])
        regs = Registration.objects.filter(player=user).select_related("tournament").order_by("-created")[:100]
        return {"seats": seats, "registrations": regs}
    if tab == "chat":
        return {"lines": ChatMessage.objects.filter(sender=user).order_by("-created")[:100],
                "reports_by": ChatReport.objects.filter(reporter=user).select_related("message")[:100],
                "reports_about": ChatReport.objects.filter(message__sender=user).select_related("message",
                                                                                                 "reporter")[:100]}
    if tab == "signals":
        name = user.profile.nickname if hasattr(user, "profile") else None
        return {"shared": [s for s in shared_ip_signals() if name in s.players],
                "pairs": [p for p in frequent_pairs() if user.pk in p.player_ids],
                "aml_signals": AmlSignal.objects.filter(player=user).select_related("counterparty")[:100],
                "aml_cases": AmlCase.objects.filter(player=user)[:50]}
    if tab == "notes":
        return {"notes": player_notes(player_id=user.pk)[:200]}
    if tab == "audit":
        return {"audit": AuditLog.objects.filter(target_type="player", target_id=str(user.pk))
                .select_related("actor").order_by("-created", "-id")[:200]}
    raise Http404


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), reverse("admin:login"))
    if not has_role(request.user, *STAFF_GROUPS):
        raise PermissionDenied
    tab = request.GET.get("tab") or "identity"
    if tab not in ROLES:
        raise Http404
    if not has_role(request.user, *ROLES[tab]):
        raise PermissionDenied
    user = _player(player_id)
    if tab == "identity":
        audit_record(actor=request.user, action="player_view_identity", target_type="player", target_id=user.pk,
                     ip=request_ip(request))
    tabs = [(key, label) for key, label, roles in TABS if has_role(request.user, *roles)]
    title = _("Player %(name)s") % {"name": getattr(getattr(user, "profile", None), "nickname", None) or user.username}
    return render(request, "backoffice/player.html", _context(
        request, title, target=user, tab=tab, tabs=tabs, is_compliance=has_role(request.user, COMPLIANCE),
        is_finance=has_role(request.user, FINANCE), **_tab_data(tab, user, request)))


@require_POST
def player_note(request: HttpRequest, player_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), reverse("admin:login"))
    if not has_role(request.user, *STAFF_GROUPS):
        raise PermissionDenied
    try:
        player_note_add(author=request.user, player_id=player_id, text=request.POST.get("text"),
                        ip=request_ip(request))
        messages.success(request, _("Note added."))
    except DomainError as exc:
        messages.error(request, exc.detail)
    return redirect(f"{reverse('backoffice:player', args=[player_id])}?tab=notes")


@require_POST
def player_status(request: HttpRequest, player_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), reverse("admin:login"))
    if not has_role(request.user, COMPLIANCE):
        raise PermissionDenied
    try:
        conto = conto_status_change(actor=request.user, player_id=player_id, action=request.POST.get("action"),
                                    reason=request.POST.get("reason"), ip=request_ip(request))
        messages.success(request, _("The account is now %(state)s.") % {
            "state": f"{conto.state}{'/' + conto.state_reason if conto.state_reason else ''}"})
    except DomainError as exc:
        fields = "; ".join(f"{k}: {' '.join(map(str, v))}" for k, v in exc.extra.get("fields", {}).items())
        messages.error(request, f"{exc.detail} {fields}".strip())
    return redirect(f"{reverse('backoffice:player', args=[player_id])}?tab=identity")
