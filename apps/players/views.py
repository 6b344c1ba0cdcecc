"""Player pages: sign-up, login, nickname, profile (server-rendered, Italian by default)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from apps.common.errors import DomainError
from apps.common.references import reference_names
from apps.common.roles import is_staff_member
from apps.compliance.selectors import sanctions_active
from apps.conto import forms_signup as signup_fields
from apps.conto.page_errors import field_rows, form_errors
from apps.conto.signup import conto_sign_up
from apps.wallet.selectors import ledger_rows_with_codes, player_ledger, wallet_get

from . import services
from .forms import CardsForm, NicknameForm
from .game_session import SESSION_KEY
from .selectors import nickname_of


@require_http_methods(["GET", "POST"])
def signup(request):
    """The sign-up page (regulation.md §1.1): the service's checks, each error beside its field."""
    if request.user.is_authenticated:
        return redirect("lobby")
    groups = signup_fields.sections(with_account=True, with_limits=True)
    errors: dict[str, list[str]] = {}
    form_error = None
    values: dict[str, str] = {}
    if request.method == "POST":
        values = {k: v for k, v in request.POST.items() if k not in ("password", "csrfmiddlewaretoken")}
        try:
            user, _conto = conto_sign_up(data=signup_fields.nested(request.POST, with_account=True, with_limits=True))
        except DomainError as exc:
            errors, form_error = form_errors(exc)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Your gaming account is open for verification: choose a nickname, then upload "
                                        "your identity document from your account page."))
            return redirect("players:nickname")
    else:
        values = {"limits.deposit_day": "200", "limits.spend_day": "100", "limits.time_day": "180"}
    context = {"sections": field_rows(groups, values, errors, signup_fields.caps_hint()), "form_error": form_error,
               "terms_errors": errors.get("accept_terms", []), "accept_terms": request.POST.get("accept_terms") == "on"}
    return render(request, "players/signup.html", context, status=400 if request.method == "POST" else 200)


def _safe_next(request, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return default


@login_required
@require_http_methods(["GET", "POST"])
def nickname(request):
    if is_staff_member(request.user):
        messages.info(request, _("Staff accounts do not play and have no nickname."))
        return redirect("lobby")
    if nickname_of(request.user):
        return redirect("players:profile")
    form = NicknameForm(request.POST or None)
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            services.nickname_set(user=request.user, nickname=form.cleaned_data["nickname"])
        except DomainError as exc:
            error = exc
        else:
            messages.success(request, _("Welcome, %(nickname)s! You received 300 credits to play with.")
                             % {"nickname": form.cleaned_data["nickname"]})
            return redirect(_safe_next(request, "/"))
    status = 200 if error is None else (409 if error.code == "nickname_taken" else 400)
    return render(request, "players/nickname.html", {"form": form, "error": error,
                                                      "next": _safe_next(request, "")}, status=status)


#: ledger entry kinds in words (the wallet records them as codes)
ENTRY_KINDS = {
    "adjustment": gettext_lazy("Adjustment by the operator"), "authority_forfeit": gettext_lazy("Forfeit (authority)"),
    "authority_freeze": gettext_lazy("Frozen (authority)"), "authority_release": gettext_lazy("Released (authority)"),
    "bank": gettext_lazy("Bank's share"), "credits_passport": gettext_lazy("Passport credits"),
    "credits_recharge": gettext_lazy("Credits recharge"), "credits_welcome": gettext_lazy("Welcome credits"),
    "match_settlement": gettext_lazy("Match settlement"), "release": gettext_lazy("Stake released"),
    "stake": gettext_lazy("Stake"), "stake_return": gettext_lazy("Stake returned"),
    "winnings": gettext_lazy("Winnings"),
}
#: a tournament's lines, with its name (``%(name)s``); the reference says which tournament
TOURNAMENT_KINDS = {
    "buy_in": gettext_lazy("Tournament entry «%(name)s»"),
    "unregister_refund": gettext_lazy("Entry refunded «%(name)s»"),
    "cancel_refund": gettext_lazy("Refund: tournament «%(name)s» cancelled"),
    "prize": gettext_lazy("Tournament prize «%(name)s»"),
    "seat_value": gettext_lazy("Satellite seat paid in cash «%(name)s»"),
    #: the player's own entry given back because a satellite seat paid it (platform.md §5.9)
    "seat_funded": gettext_lazy("Entry paid by a satellite seat «%(name)s»"),
}
CURRENCY_NAMES = {"cash": gettext_lazy("cash"), "bonus": gettext_lazy("bonus"), "credits": gettext_lazy("credits")}


def _kind_label(entry: dict, txn, names: dict[str, str]) -> str:
    """A line's words: a tournament's with its name; the entry a satellite seat replaced by
    what it is (its memo, or its key for lines written before the memo)."""
    kind = entry["kind"]
    if kind == "unregister_refund" and (txn.memo == "seat_funded" or (txn.idempotency_key or "").startswith(
            "seat_refund:")):
        kind = "seat_funded"
    name = names.get(entry["reference"])
    if kind in TOURNAMENT_KINDS and name is not None:
        return TOURNAMENT_KINDS[kind] % {"name": name}
    return str(ENTRY_KINDS.get(kind, kind))


def _ledger_rows(entries, *, player_id: int) -> list[dict]:
    """Ledger entries as the page shows them: an aware time (the template shows it in
    Europe/Rome), the kind (with the tournament's name) and currency in words, money held by
    the authority marked, and ADM's codes (regulation.md §7.4)."""
    entries = list(entries)
    names = reference_names(e.transaction.reference for e in entries)
    rows = []
    for e, row in zip(entries, ledger_rows_with_codes(entries, player_id=player_id), strict=True):
        rows.append({**row, "created": parse_datetime(row["created"]),
                     "kind_label": _kind_label(row, e.transaction, names),
                     "currency_label": CURRENCY_NAMES.get(row["currency"], row["currency"]),
                     "held": row.get("held", False)})
    return rows


@login_required
def profile(request):
    context = {"sanctions": sanctions_active(player=request.user)}
    if not is_staff_member(request.user):
        entries = player_ledger(player=request.user)[:20]
        profile_row = services.profile_ensure(user=request.user)
        context.update(wallet=wallet_get(player=request.user),
                       entries=_ledger_rows(entries, player_id=request.user.pk),
                       cards_form=CardsForm(initial={"italian_deck": profile_row.italian_deck}))
    return render(request, "players/profile.html", context)


@login_required
def history(request):
    """/accounts/history/ (regulation.md §4.3, §7.4): every movement with ADM's codes; with
    ``?session=current`` only this game session's (the reality check's "vedi movimenti")."""
    if is_staff_member(request.user):
        return redirect("lobby")
    entries = player_ledger(player=request.user)
    since = None
    if request.GET.get("session") == "current":
        stored = request.session.get(SESSION_KEY) or {}
        since = parse_datetime(stored.get("started") or "")
        if since is not None:
            entries = entries.filter(created__gte=since)
    page = Paginator(entries, 50).get_page(request.GET.get("page"))
    return render(request, "players/history.html", {"page": page, "entries": _ledger_rows(page.object_list, player_id=request.user.pk),
                                                    "since": since, "wallet": wallet_get(player=request.user)})


@login_required
@require_POST
def profile_cards(request):
    """The player's choice of Italian card faces."""
    try:
        services.profile_deck_set(user=request.user, deck=request.POST.get("italian_deck"))
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, _("Card faces saved."))
    return redirect("players:profile")


@login_required
@require_POST
def recharge(request):
    try:
        item = services.recharge_request(player=request.user)
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, _("Recharge requested: %(credits)s credits arrive at %(at)s.")
                         % {"credits": item.credits, "at": timezone.localtime(item.available_at).strftime("%H:%M")})
    back = request.POST.get("next") or ""
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                                require_https=request.is_secure()):
        return redirect(back)  # the button beside a poker table or the poker tables' list
    return redirect("players:profile")
