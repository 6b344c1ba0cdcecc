"""The permission matrix of platform.md §1: every endpoint and admin screen, every role.

A cell says whether the role gets past the role check: "ok" (any answer but a refusal),
"denied" (403 permission_denied / staff_cannot_play, or the admin's 403/login redirect),
or "login" (401/403 not_authenticated). Add a row for every endpoint or screen that lands.
"""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from .conftest import make_user

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "player", "operator", "finance", "compliance", "superuser"]
OK, DENIED, LOGIN = "ok", "denied", "login"


def row(anonymous, player, operator, finance, compliance, superuser):
    return dict(zip(ROLES, (anonymous, player, operator, finance, compliance, superuser), strict=True))


STAFF_ONLY = row(LOGIN, DENIED, OK, OK, OK, OK)
FINANCE_ONLY = row(LOGIN, DENIED, DENIED, OK, DENIED, OK)
COMPLIANCE_ONLY = row(LOGIN, DENIED, DENIED, DENIED, OK, OK)
FINANCE_COMPLIANCE = row(LOGIN, DENIED, DENIED, OK, OK, OK)
PLAYER_ONLY = row(LOGIN, OK, DENIED, DENIED, DENIED, DENIED)
ANY_LOGGED_IN = row(LOGIN, OK, OK, OK, OK, OK)
ANYONE = row(OK, OK, OK, OK, OK, OK)

API = [
    ("get", "/api/me/", None, ANY_LOGGED_IN),
    ("post", "/api/me/nickname/", {"nickname": "Fresh_{n}"}, PLAYER_ONLY),
    ("get", "/api/me/wallet/", None, PLAYER_ONLY),
    ("get", "/api/me/ledger/", None, PLAYER_ONLY),
    ("post", "/api/me/credits/recharge/", None, PLAYER_ONLY),
    ("get", "/api/players/", None, STAFF_ONLY),
    ("post", "/api/players/{target}/adjustments/", {"currency": "cash", "amount": 5, "reason": "t"}, FINANCE_ONLY),
    ("post", "/api/players/{target}/passport/", None, FINANCE_ONLY),
    ("post", "/api/players/{target}/nickname/", {"nickname": "Renamed_{n}", "reason": "t"}, COMPLIANCE_ONLY),
    ("get", "/api/players/{target}/ledger/", None, FINANCE_COMPLIANCE),
    ("get", "/api/schema/", None, ANYONE),
    ("post", "/api/tables/", {"game": "briscola"}, PLAYER_ONLY),
    ("get", "/api/tables/", None, ANYONE),
    ("get", "/api/tables/{table}/", None, ANYONE),
    ("patch", "/api/tables/{table}/", {"turn_seconds": 40}, row(LOGIN, OK, DENIED, DENIED, DENIED, DENIED)),
    ("post", "/api/tables/{table}/sit/", None, PLAYER_ONLY),
    ("post", "/api/tables/{table}/leave/", None, PLAYER_ONLY),
    ("post", "/api/tables/{table}/robot/", {"seat": 3}, PLAYER_ONLY),
    ("post", "/api/tables/{table}/invite/", {"nickname": "MatrixTarget"}, PLAYER_ONLY),
    ("post", "/api/tables/{table}/watch/", None, row(LOGIN, OK, OK, DENIED, OK, OK)),
    ("get", "/api/matches/{match}/", None, row(LOGIN, OK, OK, DENIED, OK, OK)),
    ("post", "/api/matches/{match}/actions/", {"action": {"type": "play", "card": "Zz"}, "version": 0}, PLAYER_ONLY),
    ("post", "/api/matches/{match}/cancel-vote/", {"accept": False}, PLAYER_ONLY),
    # while in play nobody reads the log, staff included (§8.2); once over, reviewers do
    ("get", "/api/matches/{match}/log/", None, row(LOGIN, DENIED, DENIED, DENIED, DENIED, DENIED)),
    ("get", "/api/matches/{over}/log/", None, row(LOGIN, DENIED, OK, DENIED, OK, OK)),
    ("get", "/api/rankings/briscola/", None, ANYONE),
]

ADMIN_ANY_STAFF = row(LOGIN, LOGIN, OK, OK, OK, OK)
ADMIN = [
    ("/admin/", ADMIN_ANY_STAFF),
    ("/admin/auth/user/", ADMIN_ANY_STAFF),
    ("/admin/auth/user/{target}/change/", ADMIN_ANY_STAFF),
    ("/admin/wallet/account/", row(LOGIN, LOGIN, DENIED, OK, OK, OK)),
    ("/admin/wallet/transaction/", row(LOGIN, LOGIN, DENIED, OK, OK, OK)),
    ("/admin/wallet/entry/", row(LOGIN, LOGIN, DENIED, OK, OK, OK)),
    ("/admin/wallet/adjustment/", row(LOGIN, LOGIN, DENIED, OK, DENIED, OK)),
    ("/admin/wallet/creditrecharge/", row(LOGIN, LOGIN, DENIED, OK, DENIED, OK)),
    ("/admin/audit/auditlog/", row(LOGIN, LOGIN, DENIED, DENIED, OK, OK)),
    ("/admin/compliance/sanction/", row(LOGIN, LOGIN, DENIED, DENIED, OK, OK)),
    ("/admin/players/nicknamechange/", row(LOGIN, LOGIN, DENIED, DENIED, OK, OK)),
    ("/admin/auth/user/{target}/adjust/", row(LOGIN, LOGIN, DENIED, OK, DENIED, OK)),
    ("/admin/auth/user/{target}/passport/", row(LOGIN, LOGIN, DENIED, OK, DENIED, OK)),
    ("/admin/auth/user/{target}/rename/", row(LOGIN, LOGIN, DENIED, DENIED, OK, OK)),
    ("/admin/tables/table/", row(LOGIN, LOGIN, OK, DENIED, OK, OK)),
    ("/admin/matches/match/", row(LOGIN, LOGIN, OK, DENIED, OK, OK)),
    ("/admin/matches/matchaction/", row(LOGIN, LOGIN, OK, DENIED, OK, OK)),
    ("/admin/matches/match/{match}/replay/", row(LOGIN, LOGIN, OK, DENIED, OK, OK)),
    ("/admin/chat/chatmessage/", row(LOGIN, LOGIN, DENIED, DENIED, OK, OK)),
    ("/admin/rankings/xpaward/", row(LOGIN, LOGIN, OK, DENIED, OK, OK)),
    ("/admin/backoffice/export/", row(LOGIN, LOGIN, DENIED, OK, DENIED, OK)),
    ("/admin/tournaments/tournament/", ADMIN_ANY_STAFF),
    ("/admin/chat/chatreport/", row(LOGIN, LOGIN, DENIED, DENIED, OK, OK)),
    ("/admin/chat/flagword/", row(LOGIN, LOGIN, DENIED, DENIED, OK, OK)),
    # groups, API tokens and login attempts: the superuser's alone
    ("/admin/auth/group/", row(LOGIN, LOGIN, DENIED, DENIED, DENIED, OK)),
    ("/admin/authtoken/tokenproxy/", row(LOGIN, LOGIN, DENIED, DENIED, DENIED, OK)),
    ("/admin/axes/accessattempt/", row(LOGIN, LOGIN, DENIED, DENIED, DENIED, OK)),
    ("/admin/axes/accesslog/", row(LOGIN, LOGIN, DENIED, DENIED, DENIED, OK)),
    ("/admin/axes/accessfailurelog/", row(LOGIN, LOGIN, DENIED, DENIED, DENIED, OK)),
]

# the back office's pages (issue 16): anonymous → the admin login, a role without the page → 403
BACKOFFICE = [
    ("get", "/backoffice/", row(LOGIN, DENIED, OK, OK, DENIED, OK)),
    ("get", "/backoffice/?period=today", row(LOGIN, DENIED, OK, OK, DENIED, OK)),
    ("get", "/backoffice/reconciliation/", row(LOGIN, DENIED, DENIED, OK, DENIED, OK)),
    ("get", "/backoffice/ledger/?player={target}", FINANCE_COMPLIANCE),
    ("get", "/backoffice/exports/", FINANCE_ONLY),
    ("post", "/backoffice/exports/", FINANCE_ONLY),
    ("get", "/backoffice/exports/{export}/", FINANCE_ONLY),
    ("get", "/backoffice/exports/{export}/progress/", FINANCE_ONLY),
    ("get", "/backoffice/exports/{export}/download/", FINANCE_ONLY),
    ("get", "/backoffice/tables/", row(LOGIN, DENIED, OK, DENIED, DENIED, OK)),
    ("post", "/backoffice/tables/{table}/message/", row(LOGIN, DENIED, OK, DENIED, DENIED, OK)),
    ("post", "/backoffice/tables/{table}/stand-up/", row(LOGIN, DENIED, OK, DENIED, DENIED, OK)),
    ("post", "/backoffice/tables/{table}/close/", row(LOGIN, DENIED, OK, DENIED, DENIED, OK)),
    ("post", "/backoffice/tables/{table}/chat/", row(LOGIN, DENIED, OK, DENIED, DENIED, OK)),
    # the player page (regulation.md §9): its tabs by role are tested in tests/backoffice/test_player_page.py
    ("get", "/backoffice/players/{player}/", STAFF_ONLY),
    ("get", "/backoffice/players/{player}/?tab=money", FINANCE_COMPLIANCE),
    ("get", "/backoffice/players/{player}/?tab=play", row(LOGIN, DENIED, OK, DENIED, OK, OK)),
    ("get", "/backoffice/players/{player}/?tab=audit", COMPLIANCE_ONLY),
    ("post", "/backoffice/players/{player}/notes/", STAFF_ONLY),
    ("post", "/backoffice/players/{player}/status/", COMPLIANCE_ONLY),
    # the cashier, AML and ADM (regulation.md §5-§7)
    ("get", "/backoffice/withdrawals/", FINANCE_COMPLIANCE),
    ("post", "/backoffice/withdrawals/{withdrawal}/review/", FINANCE_ONLY),
    ("post", "/backoffice/withdrawals/{withdrawal}/approve/", FINANCE_ONLY),
    ("post", "/backoffice/withdrawals/{withdrawal}/reject/", FINANCE_ONLY),
    ("get", "/backoffice/aml/", COMPLIANCE_ONLY),
    ("post", "/backoffice/aml/cases/", COMPLIANCE_ONLY),
    ("get", "/backoffice/aml/cases/{case}/", COMPLIANCE_ONLY),
    ("post", "/backoffice/aml/cases/{case}/review/", COMPLIANCE_ONLY),
    ("post", "/backoffice/aml/cases/{case}/note/", COMPLIANCE_ONLY),
    ("post", "/backoffice/aml/cases/{case}/close/", COMPLIANCE_ONLY),
    ("get", "/backoffice/adm/", STAFF_ONLY),
    ("get", "/backoffice/adm/reconciliation/", STAFF_ONLY),
]


def test_every_admin_changelist_and_back_office_page_is_in_the_matrix():
    """A screen that lands without its row fails here (issue 16: every back-office URL)."""
    import re

    from django.contrib import admin

    from apps.backoffice.urls import urlpatterns

    listed = {url for url, _ in ADMIN}
    missing = [url for model in admin.site._registry
               if (url := f"/admin/{model._meta.app_label}/{model._meta.model_name}/") not in listed]
    assert not missing, missing
    pages = {url.partition("?")[0] for _, url, _ in BACKOFFICE}
    routes = {"/backoffice/" + re.sub(r"<int:(\w+)_id>", r"{\1}", str(p.pattern)) for p in urlpatterns}
    assert routes - pages == set(), routes - pages


@pytest.fixture
def people(db):
    users = {
        "anonymous": None,
        "player": make_user(nickname="MatrixPlayer"),
        "operator": make_user(group="operator"),
        "finance": make_user(group="finance"),
        "compliance": make_user(group="compliance"),
        "superuser": make_user(superuser=True),
    }
    users["target"] = make_user(nickname="MatrixTarget")
    # a 4-seat table led by the matrix player, with a match between two other players
    from apps.tables.services import table_create, table_sit

    users["table"] = table_create(user=users["player"], data={"game": "scopa", "players": 4}).pk
    host = make_user(nickname="MatrixHost")
    game = table_create(user=host, data={"game": "briscola"})
    table_sit(user=users["player"], table_id=game.pk)
    users["match"] = game.matches.get().pk
    return users


def finished_match() -> int:
    """A finished match the matrix player did not play."""
    from apps.tables.services import table_create, table_sit

    from .tables.conftest import play_out

    first, second = make_user(nickname="MatrixOver1"), make_user(nickname="MatrixOver2")
    over = table_create(user=first, data={"game": "briscola"})
    table_sit(user=second, table_id=over.pk)
    return play_out(over.matches.get().pk, {0: first, 1: second}).pk


def classify_api(response) -> str:
    if response.status_code in (401, 403):
        code = response.json().get("code")
        if code == "not_authenticated":
            return LOGIN
        assert code in ("permission_denied", "staff_cannot_play", "not_table_leader"), response.json()
        return DENIED
    assert response.status_code < 500, response.content
    return OK


#: the conto di gioco's endpoints (regulation.md §12), checked in one test over one set of people
CONTO_API = [
    # the conto di gioco (regulation.md §12)
    ("post", "/api/auth/signup/", {"username": "x"}, row(OK, DENIED, DENIED, DENIED, DENIED, DENIED)),
    ("get", "/api/me/account/", None, PLAYER_ONLY),
    ("patch", "/api/me/account/", {"document": {}}, PLAYER_ONLY),
    ("post", "/api/me/account/close/", {"reason": "t"}, PLAYER_ONLY),
    ("post", "/api/me/documents/", None, PLAYER_ONLY),
    ("get", "/api/me/limits/", None, PLAYER_ONLY),
    ("put", "/api/me/limits/", {"spend_day": "x"}, PLAYER_ONLY),
    ("delete", "/api/me/limits/spend_day/pending/", None, PLAYER_ONLY),
    ("get", "/api/me/self-exclusions/", None, PLAYER_ONLY),
    ("post", "/api/me/self-exclusions/", {"scope": "nope"}, PLAYER_ONLY),
    ("post", "/api/me/self-exclusions/999999/revoke/", None, PLAYER_ONLY),
    ("get", "/api/kyc/queue/", None, COMPLIANCE_ONLY),
    ("post", "/api/kyc/{target}/approve/", None, COMPLIANCE_ONLY),
    ("post", "/api/kyc/{target}/resubmit/", {"reason": "t"}, COMPLIANCE_ONLY),
    ("post", "/api/kyc/{target}/reject/", {"reason": "t"}, COMPLIANCE_ONLY),
    ("get", "/api/kyc/documents/999999/", None, COMPLIANCE_ONLY),
    ("get", "/api/players/{target}/account/", None, STAFF_ONLY),
    ("get", "/api/players/{target}/self-exclusions/", None, STAFF_ONLY),
    ("post", "/api/players/{target}/account/status/", {"action": "nope", "reason": "t"}, COMPLIANCE_ONLY),
    ("get", "/api/players/{target}/notes/", None, STAFF_ONLY),
    ("post", "/api/players/{target}/notes/", {"text": "matrix"}, STAFF_ONLY),
    ("get", "/api/audit/", None, COMPLIANCE_ONLY),
    ("get", "/api/me/session/", None, PLAYER_ONLY),
    ("get", "/api/me/sessions/", None, PLAYER_ONLY),
    ("post", "/api/me/session/reality-check/", {"choice": "continue"}, PLAYER_ONLY),
    ("get", "/api/players/{target}/sessions/", None, row(LOGIN, DENIED, OK, DENIED, OK, OK)),
    # the cashier (§5) and anti-money-laundering (§6)
    ("get", "/api/me/instruments/", None, PLAYER_ONLY),
    ("post", "/api/me/instruments/", {"kind": "nope"}, PLAYER_ONLY),
    ("get", "/api/me/deposits/", None, PLAYER_ONLY),
    ("post", "/api/me/deposits/", {"amount_cents": "x"}, PLAYER_ONLY),
    ("get", "/api/me/withdrawals/", None, PLAYER_ONLY),
    ("post", "/api/me/withdrawals/", {"amount_cents": "x"}, PLAYER_ONLY),
    ("post", "/api/me/withdrawals/999999/cancel/", None, PLAYER_ONLY),
    ("post", "/api/cashier/callback/test/", {"event_id": "x"}, ANYONE),
    ("get", "/api/withdrawals/", None, FINANCE_COMPLIANCE),
    ("post", "/api/withdrawals/999999/review/", None, FINANCE_ONLY),
    ("post", "/api/withdrawals/999999/approve/", {"reason": "t"}, FINANCE_ONLY),
    ("post", "/api/withdrawals/999999/reject/", {"reason": "t"}, FINANCE_ONLY),
    ("get", "/api/aml/signals/", None, COMPLIANCE_ONLY),
    ("get", "/api/aml/cases/", None, COMPLIANCE_ONLY),
    ("post", "/api/aml/cases/", {"player": "x"}, COMPLIANCE_ONLY),
    ("get", "/api/aml/cases/999999/", None, COMPLIANCE_ONLY),
    ("post", "/api/aml/cases/999999/review/", None, COMPLIANCE_ONLY),
    ("post", "/api/aml/cases/999999/close/", {"outcome": "x"}, COMPLIANCE_ONLY),
    ("post", "/api/aml/cases/999999/notes/", {"text": "x"}, COMPLIANCE_ONLY),
    ("get", "/api/adm/summary/", None, STAFF_ONLY),
    ("get", "/api/adm/messages/", None, STAFF_ONLY),
    ("get", "/api/adm/reconciliation/", None, STAFF_ONLY),
]


def test_conto_api_matrix(people):
    for method, url, body, expected in CONTO_API:
        _api_row(people, method, url, body, expected)


@pytest.mark.parametrize(("method", "url", "body", "expected"), API, ids=[f"{m} {u}" for m, u, _, _ in API])
def test_api_matrix(people, method, url, body, expected):
    _api_row(people, method, url, body, expected)


def _api_row(people, method, url, body, expected) -> None:
    target = people["target"].pk
    ids = {"target": target, "table": people["table"], "match": people["match"]}
    if "{over}" in url:
        ids["over"] = finished_match()
    for n, role in enumerate(ROLES):
        client = APIClient()
        if people[role] is not None:
            client.force_authenticate(people[role])
        if role == "player" and "/me/nickname/" in url:
            # the matrix player has a nickname; a newcomer really gets past the check
            newcomer = make_user()
            client.force_authenticate(newcomer)
        data = None if body is None else {k: (v.format(n=n) if isinstance(v, str) else v) for k, v in body.items()}
        response = getattr(client, method)(url.format(**ids), data, format="json")
        assert classify_api(response) == expected[role], (role, method, url, response.status_code,
                                                          response.content[:200])


def classify_admin(response) -> str:
    if response.status_code == 302 and "/admin/login/" in response["Location"]:
        return LOGIN
    if response.status_code == 403:
        return DENIED
    assert response.status_code == 200, response.status_code
    return OK


@pytest.mark.parametrize(("url", "expected"), ADMIN, ids=[u for u, _ in ADMIN])
def test_admin_matrix(people, url, expected):
    for role in ROLES:
        client = Client()
        if people[role] is not None:
            client.force_login(people[role])
        response = client.get(url.format(target=people["target"].pk, match=people["match"]))
        assert classify_admin(response) == expected[role], (role, url, response.status_code)


def classify_page(response) -> str:
    if response.status_code == 302 and "/admin/login/" in response["Location"]:
        return LOGIN
    if response.status_code == 403:
        return DENIED
    assert response.status_code in (200, 302), response.status_code
    return OK


@pytest.mark.parametrize(("method", "url", "expected"), BACKOFFICE, ids=[f"{m} {u}" for m, u, _ in BACKOFFICE])
def test_backoffice_matrix(people, method, url, expected, settings, tmp_path):
    from apps.backoffice.services import export_request

    settings.EXPORTS_DIR = tmp_path
    export = export_request(actor=people["superuser"], kind="players", fmt="csv", params={})
    withdrawal, case = _cashier_rows(people)
    for role in ROLES:
        client = Client()
        if people[role] is not None:
            client.force_login(people[role])
        body = {"kind": "players", "format": "csv", "reason": "matrix", "text": "matrix",
                "player": people["target"].pk} if method == "post" else None
        response = getattr(client, method)(url.format(target=people["target"].pk, player=people["target"].pk,
                                                      table=people["table"], export=export.pk,
                                                      withdrawal=withdrawal.pk, case=case.pk), body)
        assert classify_page(response) == expected[role], (role, url, response.status_code)


def _cashier_rows(people):
    """A withdrawal and an AML case of the target, for the back office's cashier and AML rows."""
    from apps.aml.models import AmlCase
    from apps.wallet.models import Instrument, Withdrawal
    from apps.wallet.services import wallet_credit, withdrawal_escrow

    target = people["target"]
    instrument = Instrument.objects.create(player=target, kind="card", holder_name="x", masked="•••• 0000",
                                           fingerprint=f"matrix-{target.pk}")
    withdrawal = Withdrawal.objects.create(player=target, instrument=instrument, amount=1_000)
    wallet_credit(player=target, currency="cash", amount=1_000, kind="adjustment", reference="matrix",
                  source="house:cashier")
    withdrawal_escrow(withdrawal=withdrawal)
    case = AmlCase.objects.create(player=target, summary="matrix", opened_by=people["superuser"])
    return withdrawal, case


def test_ledger_admin_cannot_edit_or_delete(people, finance):
    from apps.wallet.models import Entry

    entry = Entry.objects.filter(account__player=people["target"]).first()
    client = Client()
    client.force_login(people["superuser"])
    assert client.get(f"/admin/wallet/entry/{entry.pk}/delete/").status_code == 403
    assert client.post(f"/admin/wallet/entry/{entry.pk}/change/", {"amount": 1}).status_code == 403
    assert client.get("/admin/wallet/entry/add/").status_code == 403
    assert client.get("/admin/audit/auditlog/add/").status_code == 403


def test_admin_adjustment_form_is_audited(people):
    from apps.audit.models import AuditLog
    from apps.wallet.selectors import wallet_get

    client = Client()
    client.force_login(people["finance"])
    target = people["target"]
    missing_reason = client.post(f"/admin/auth/user/{target.pk}/adjust/", {"currency": "cash", "amount": 50})
    assert missing_reason.status_code == 200 and wallet_get(player=target)["cash_cents"] == 0
    done = client.post(f"/admin/auth/user/{target.pk}/adjust/",
                       {"currency": "cash", "amount": 50, "reason": "bank transfer 123"})
    assert done.status_code == 302 and wallet_get(player=target)["cash_cents"] == 50
    assert AuditLog.objects.get(action="ledger_adjustment").reason == "bank transfer 123"
