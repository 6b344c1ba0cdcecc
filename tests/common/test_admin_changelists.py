"""Every admin changelist reads a fixed number of queries however many rows it shows: one
case per registered model (and per filter an operator uses), each with one row and then
100, every row by or for a different user so a per-row lookup cannot hit a cache
(``list_select_related`` where a column follows a foreign key)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from django.contrib import admin
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ..conftest import make_user

pytestmark = pytest.mark.django_db

_n = itertools.count(1)


def queries(client: Client, url: str) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as ctx:
        answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return len(ctx.captured_queries), answer.content.decode()


def player() -> object:
    return make_user(nickname=f"Row_{next(_n)}")


def adjusted() -> object:
    """A player with a balance, adjusted by a finance user of its own (transaction, entries,
    accounts, adjustment and audit row)."""
    from apps.wallet.services import wallet_adjust

    who = player()
    wallet_adjust(actor=make_user(group="finance"), player=who, currency="cash", amount=500, reason="row")
    return who


def table_row() -> object:
    from apps.tables.services import table_create

    return table_create(user=player(), data={"game": "briscola"})


def match_row() -> object:
    """A table whose match started: a match, its seats, its table link."""
    from apps.tables.services import table_sit

    table = table_row()
    table_sit(user=player(), table_id=table.pk)
    return table.matches.get()


def match_action() -> None:
    from apps.matches.models import Match, MatchAction

    # the admin shows a match's actions once it is over
    match = Match.objects.create(game="briscola", players=2, seed="1", state={}, started_at=timezone.now(),
                                 status=Match.FINISHED)
    MatchAction.objects.create(match=match, seq=1, seat=0, action={"play": "x"}, by="player", version=1,
                               at=timezone.now())


def sanction() -> None:
    from apps.compliance.models import Sanction

    Sanction.objects.create(player=player(), kind="chat_ban", duration="1_month", reason="row",
                            starts_at=timezone.now(), created_by=make_user(group="compliance"))


def nickname_change() -> None:
    from apps.players.services import nickname_rename

    nickname_rename(actor=make_user(group="compliance"), player=player(), nickname=f"Renamed_{next(_n)}",
                    reason="row")


def audit_row() -> None:
    from apps.audit.models import AuditLog

    AuditLog.objects.create(actor=make_user(group="operator"), action="table_message", target_type="table",
                            target_id=str(next(_n)), reason="row", created=timezone.now())


def chat_line() -> object:
    from apps.chat.models import ChatMessage

    nickname = f"Chatter_{next(_n)}"
    return ChatMessage.objects.create(sender=make_user(nickname=nickname), nickname=nickname, room="lobby", text="ciao",
                                      created=timezone.now())


def chat_report() -> None:
    from apps.chat.models import ChatReport

    ChatReport.objects.create(message=chat_line(), reporter=player(), reason="spam", created=timezone.now())


def flag_word() -> None:
    from apps.chat.models import FlagWord

    FlagWord.objects.create(value=f"parola{next(_n)}", created=timezone.now())


def xp_award() -> None:
    from apps.matches.models import Match
    from apps.rankings.models import XpAward

    match = Match.objects.create(game="briscola", players=2, seed="1", state={}, started_at=timezone.now())
    XpAward.objects.create(player=player(), game="briscola", match=match, xp=5, created=timezone.now())


def recharge() -> None:
    from apps.wallet.models import CreditRecharge

    now = timezone.now()
    CreditRecharge.objects.create(player=player(), requested_at=now, available_at=now)


def export_row() -> None:
    from apps.backoffice.models import Export

    Export.objects.create(kind="ledger", format="csv", requested_by=make_user(group="finance"))


def tournament() -> None:
    from apps.tournaments.models import Tournament

    Tournament.objects.create(name=f"Torneo {next(_n)}", game="briscola", kind="sit_and_go", format="knockout",
                              min_players=2, max_players=8)


def group() -> None:
    from django.contrib.auth.models import Group

    Group.objects.create(name=f"group{next(_n)}")


def token() -> None:
    from rest_framework.authtoken.models import Token

    Token.objects.create(user=player())


def axes_row(model: str) -> Callable[[], None]:
    def make() -> None:
        from axes import models

        fields = {"username": f"who{next(_n)}", "ip_address": "10.9.0.1", "user_agent": "pytest", "path_info": "/"}
        if model == "AccessAttempt":
            fields.update(failures_since_start=1, get_data="", post_data="", http_accept="*/*")
        elif model == "AccessFailureLog":
            fields.update(http_accept="*/*")
        else:
            fields.update(http_accept="*/*")
        getattr(models, model).objects.create(**fields)
    return make


#: (model label, changelist URL, what makes one more row of it)
CASES = [
    ("auth.User", "/admin/auth/user/", adjusted),
    ("auth.User", "/admin/auth/user/?role=player&o=-4", adjusted),
    ("auth.User", "/admin/auth/user/?balance=cash", adjusted),
    ("auth.Group", "/admin/auth/group/", group),
    ("authtoken.TokenProxy", "/admin/authtoken/tokenproxy/", token),
    ("axes.AccessAttempt", "/admin/axes/accessattempt/", axes_row("AccessAttempt")),
    ("axes.AccessLog", "/admin/axes/accesslog/", axes_row("AccessLog")),
    ("axes.AccessFailureLog", "/admin/axes/accessfailurelog/", axes_row("AccessFailureLog")),
    ("audit.AuditLog", "/admin/audit/auditlog/", audit_row),
    ("players.NicknameChange", "/admin/players/nicknamechange/", nickname_change),
    ("wallet.Account", "/admin/wallet/account/", adjusted),
    ("wallet.Account", "/admin/wallet/account/?owner=player", adjusted),
    ("wallet.Transaction", "/admin/wallet/transaction/", adjusted),
    ("wallet.Entry", "/admin/wallet/entry/", adjusted),
    ("wallet.Entry", "/admin/wallet/entry/?kind=adjustment", adjusted),
    ("wallet.Adjustment", "/admin/wallet/adjustment/", adjusted),
    ("wallet.CreditRecharge", "/admin/wallet/creditrecharge/", recharge),
    ("compliance.Sanction", "/admin/compliance/sanction/", sanction),
    ("tables.Table", "/admin/tables/table/", table_row),
    ("matches.Match", "/admin/matches/match/", match_row),
    ("matches.MatchAction", "/admin/matches/matchaction/", match_action),
    ("tournaments.Tournament", "/admin/tournaments/tournament/", tournament),
    ("chat.ChatMessage", "/admin/chat/chatmessage/", chat_line),
    ("chat.ChatReport", "/admin/chat/chatreport/", chat_report),
    ("chat.FlagWord", "/admin/chat/flagword/", flag_word),
    ("rankings.XpAward", "/admin/rankings/xpaward/", xp_award),
    ("backoffice.Export", "/admin/backoffice/export/", export_row),
]


def test_every_registered_model_has_a_case():
    registered = {model._meta.label for model in admin.site._registry}
    assert registered == {label for label, _, _ in CASES}, registered ^ {label for label, _, _ in CASES}


@pytest.mark.parametrize("label, url, make", CASES, ids=[url.removeprefix("/admin/") for _, url, _ in CASES])
def test_changelist_with_100_rows_reads_as_many_queries_as_with_one(label, url, make):
    client = Client()
    client.force_login(make_user(superuser=True))
    make()
    one, _ = queries(client, url)
    for _ in range(99):
        make()
    hundred, page = queries(client, url)
    if "?" not in url:
        assert page.count("<tr") > 100, f"{label}: the page does not show 100 rows"
    assert hundred == one, f"{label}: {one} queries with one row, {hundred} with 100"
