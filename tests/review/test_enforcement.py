"""Each sanction's enforcement path (platform.md §7.4), its expiry by time and its lifting:
the services refuse, so the API, the pages and the sockets refuse the same way."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from apps.chat.models import ChatMessage
from apps.chat.services import chat_post
from apps.common.errors import Sanctioned
from apps.compliance.services import sanction_issue, sanction_lift
from apps.tables.services import table_create

from ..conftest import make_user
from ..tables.conftest import fund

pytestmark = pytest.mark.django_db


def sanction(compliance, player, kind, duration="1_month"):
    return sanction_issue(actor=compliance, player=player.pk, kind=kind, duration=duration, reason="test")


def lobby_answers(api, player, table_id: int) -> dict[str, tuple[int, str]]:
    client = api(player)
    answers = {
        "create": client.post("/api/tables/", {"game": "briscola"}, format="json"),
        "sit": client.post(f"/api/tables/{table_id}/sit/", {}, format="json"),
        "watch": client.post(f"/api/tables/{table_id}/watch/", {}, format="json"),
        "recharge": client.post("/api/me/credits/recharge/", {}, format="json"),
    }
    return {name: (a.status_code, a.json().get("code", "")) for name, a in answers.items()}


def page_status(player, path: str) -> tuple[int, str]:
    client = Client()
    client.force_login(player)
    answer = client.get(path)
    return answer.status_code, answer.content.decode()


def test_a_chat_ban_refuses_chat_everywhere_but_not_play(api, compliance, player):
    other = make_user(nickname="Altro_9")
    table = table_create(user=other, data={"game": "briscola"})
    ban = sanction(compliance, player, "chat_ban")
    for room in (None, table):
        with pytest.raises(Sanctioned) as refused, translation.override("en"):  # the sentences in English
            chat_post(user=player, text="ciao", table=room)
        assert refused.value.code == "sanctioned" and "chat ban" in refused.value.detail
        assert "(Rome time)" in refused.value.detail  # names its end
    assert ChatMessage.objects.filter(sender=player, refused=True).count() == 2  # stored, flagged refused
    assert api(player).post(f"/api/tables/{table.pk}/sit/", {}, format="json").status_code == 200  # play is fine
    status, html = page_status(player, "/chat/lobby/")
    assert status == 200 and 'data-code="sanctioned"' in html and 'name="chat"' not in html
    status, html = page_status(player, "/accounts/profile/")
    assert 'id="sanction-banner"' in html and ban.reason in html  # what and until when
    sanction_lift(actor=compliance, sanction_id=ban.pk, reason="ok")
    assert chat_post(user=player, text="di nuovo qui").refused is False


@pytest.mark.parametrize("kind", ["lobby_ban", "account_suspension", "authority_report"])
def test_lobby_blocking_sanctions_refuse_the_lobby_api_and_pages(api, compliance, player, kind):
    other = make_user(nickname="Tavolo_1")
    table = table_create(user=other, data={"game": "scopa", "players": 4})
    before = lobby_answers(api, make_user(nickname="Libero_1"), table.pk)
    assert before["create"][0] == 201 and before["sit"][0] == 200
    sanction(compliance, player, kind, duration="permanent")
    answers = lobby_answers(api, player, table.pk)
    assert answers == {name: (403, "sanctioned") for name in answers}, answers
    with pytest.raises(Sanctioned):
        chat_post(user=player, text="ciao")
    for path in ("/tables/", f"/tables/{table.pk}/"):
        status, html = page_status(player, path)
        assert status == 403 and 'data-code="sanctioned"' in html, path
    status, html = page_status(player, "/accounts/profile/")  # can still see profile and wallet
    assert status == 200 and 'id="sanction-banner"' in html
    assert api(player).get("/api/me/wallet/").status_code == 200


def test_a_suspension_freezes_and_its_lift_restores(api, compliance, player, finance):
    fund(player, cash=800)
    suspension = sanction(compliance, player, "account_suspension", duration="permanent")
    debit = api(finance).post(f"/api/players/{player.pk}/adjustments/",
                              {"currency": "cash", "amount": -100, "reason": "withdrawal"}, format="json")
    assert (debit.status_code, debit.json()["code"]) == (409, "account_frozen")
    assert api(player).get("/api/me/wallet/").json()["frozen"] is True
    sanction_lift(actor=compliance, sanction_id=suspension.pk, reason="cleared")
    assert api(player).get("/api/me/wallet/").json() == {"cash_cents": 800, "bonus_cents": 0, "credits": 300,
                                                         "frozen": False, "withdrawals_pending_cents": 0}
    table = table_create(user=player, data={"game": "briscola"})
    assert table.pk


def test_one_month_sanctions_expire_by_time_without_a_job(api, compliance, player, clock):
    ban = sanction(compliance, player, "lobby_ban")
    clock.advance(days=29, hours=23, minutes=59)
    with pytest.raises(Sanctioned):
        table_create(user=player, data={"game": "briscola"})
    clock.advance(minutes=1)  # now == ends_at: over (platform.md §7.4)
    assert table_create(user=player, data={"game": "briscola"}).pk
    assert api(player).get("/api/me/").json()["sanctions"] == []
    from apps.compliance.services import sanctions_mark_expired

    assert sanctions_mark_expired() == 1 and sanctions_mark_expired() == 0  # the tick marks it, once
    ban.refresh_from_db()
    assert ban.expired_at is not None and not ban.active
    lifted = api(compliance).post(f"/api/sanctions/{ban.pk}/lift/", {}, format="json")
    assert (lifted.status_code, lifted.json()["code"]) == (409, "not_active")


def test_a_staff_account_is_never_sanctioned_and_staff_get_staff_cannot_play(api, compliance):
    with pytest.raises(Exception) as refused:
        sanction_issue(actor=compliance, player=compliance.pk, kind="chat_ban", duration="1_month", reason="x")
    assert getattr(refused.value, "code", "") == "validation_error"


def test_a_lobby_ban_forfeits_the_running_table_match_and_keeps_the_money_moving(compliance,
                                                                                 django_capture_on_commit_callbacks):
    """§7.4 with §8.6: a lobby ban forfeits the player's running table match once it commits;
    their stake goes to the winner (a lobby ban freezes nothing), and they cannot sit again."""
    from apps.matches.models import Match
    from apps.wallet.selectors import ledger_check, wallet_get

    from ..tables.conftest import briscola_table, current_match

    a, b = make_user(nickname="Banno_1"), make_user(nickname="Resta_1")
    fund(a, cash=1000)
    fund(b, cash=1000)
    table, _ = briscola_table(official=True, stake=500, currency="cash", players=[a, b])
    match = current_match(table)
    with django_capture_on_commit_callbacks(execute=True):
        sanction(compliance, a, "lobby_ban", duration="permanent")
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    assert match.match_seats.get(player=a).abandoned is True
    assert wallet_get(player=a)["cash_cents"] == 500 and wallet_get(player=a)["frozen"] is False
    assert wallet_get(player=b)["cash_cents"] == 500 + 900  # the pot less the bank's 10% (the cash regime)
    with pytest.raises(Sanctioned):
        table_create(user=a, data={"game": "briscola"})
    assert ledger_check() is None
