"""Admin changelists read a fixed number of queries however many rows they show."""

from __future__ import annotations

import itertools

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ..conftest import make_user

pytestmark = pytest.mark.django_db

_n = itertools.count(1)


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return len(ctx.captured_queries)


def superuser_client() -> Client:
    client = Client()
    client.force_login(make_user(superuser=True))
    return client


def test_transactions_list_is_flat_in_created_by():
    """100 adjustments by 100 different finance users: one query per row for the
    ``created_by`` column before (107 queries), a fixed number now."""
    from apps.wallet.services import wallet_adjust

    player = make_user(nickname="Ledger_Rows")
    client = superuser_client()
    wallet_adjust(actor=make_user(group="finance"), player=player, currency="credits", amount=1, reason="r")
    one_row = queries(client, "/admin/wallet/transaction/")
    for _ in range(99):
        wallet_adjust(actor=make_user(group="finance"), player=player, currency="credits", amount=1, reason="r")
    hundred_rows = queries(client, "/admin/wallet/transaction/")
    page = client.get("/admin/wallet/transaction/").content.decode()
    assert page.count('field-created_by') == 100
    assert hundred_rows == one_row, (one_row, hundred_rows)


def world(size: int) -> None:
    """``size`` more rows of everything the changelists below show, each by or for a
    different user (so a per-row lookup cannot hit a cache)."""
    from apps.compliance.models import Sanction
    from apps.players.services import nickname_rename
    from apps.tables.services import table_create, table_sit
    from apps.wallet.services import wallet_adjust

    for _ in range(size):
        n = next(_n)
        host, guest = make_user(nickname=f"World_H{n}"), make_user(nickname=f"World_G{n}")
        wallet_adjust(actor=make_user(group="finance"), player=host, currency="credits", amount=5, reason="w")
        table = table_create(user=host, data={"game": "briscola"})
        table_sit(user=guest, table_id=table.pk)
        Sanction.objects.create(player=guest, kind="chat_ban", duration="1_month", reason="w",
                                starts_at=timezone.now(), created_by=make_user(group="compliance"))
        nickname_rename(actor=make_user(group="compliance"), player=guest, nickname=f"World_R{n}", reason="w")


CHANGELISTS = [
    "/admin/wallet/transaction/", "/admin/wallet/entry/", "/admin/wallet/account/", "/admin/wallet/adjustment/",
    "/admin/audit/auditlog/", "/admin/compliance/sanction/", "/admin/players/nicknamechange/",
    "/admin/auth/user/", "/admin/tables/table/", "/admin/matches/match/",
]


def test_every_changelist_is_flat():
    client = superuser_client()
    world(2)
    small = {url: queries(client, url) for url in CHANGELISTS}
    world(5)
    large = {url: queries(client, url) for url in CHANGELISTS}
    grew = {url: (small[url], large[url]) for url in CHANGELISTS if large[url] != small[url]}
    assert not grew, grew


def more_rows(size: int) -> None:
    """Rows of the changelists ``world`` does not fill: chat lines, XP, recharges, exports."""
    from apps.backoffice.models import Export
    from apps.chat.models import ChatMessage
    from apps.matches.models import Match
    from apps.rankings.models import XpAward
    from apps.wallet.models import CreditRecharge

    now = timezone.now()
    for _ in range(size):
        n = next(_n)
        player = make_user(nickname=f"More_{n}")
        match = Match.objects.create(game="briscola", players=2, seed="1", state={}, started_at=now)
        ChatMessage.objects.create(sender=player, nickname=f"More_{n}", room="lobby", text="ciao", created=now)
        XpAward.objects.create(player=player, game="briscola", match=match, xp=5, created=now)
        CreditRecharge.objects.create(player=player, requested_at=now, available_at=now)
        Export.objects.create(kind="ledger", format="csv", requested_by=make_user(group="finance"))


#: every changelist an operator, finance or compliance reads, with the filters they use
HUNDRED = [*CHANGELISTS, "/admin/auth/user/?role=player&o=-4", "/admin/auth/user/?balance=cash",
           "/admin/wallet/entry/?kind=adjustment", "/admin/wallet/creditrecharge/", "/admin/chat/chatmessage/",
           "/admin/rankings/xpaward/", "/admin/backoffice/export/", "/admin/wallet/account/?owner=player"]


@pytest.fixture
def one_then_hundred(db):
    """The query count of each changelist with one row of everything, then with 100."""
    client = superuser_client()
    world(1)
    more_rows(1)
    one = {url: queries(client, url) for url in HUNDRED}
    world(99)
    more_rows(99)
    return one, {url: queries(client, url) for url in HUNDRED}


def test_every_changelist_with_100_rows_reads_as_many_queries_as_with_one(one_then_hundred):
    one, hundred = one_then_hundred
    grew = {url: (one[url], hundred[url]) for url in HUNDRED if hundred[url] != one[url]}
    assert not grew, grew
