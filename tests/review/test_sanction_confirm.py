"""Issue 25, compliance: a sanction button asks first (the server shows what the sanction will
do: the money frozen or moved, the registrations refunded), and the lines behind a sanction
are recorded as actioned by it, not as "reviewed: no action"."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from apps.audit.models import AuditLog
from apps.chat.models import ChatMessage
from apps.chat.services import chat_message_review, chat_post
from apps.compliance.models import Sanction
from apps.tournaments.models import Registration
from apps.tournaments.services import tournament_create, tournament_register
from apps.wallet.selectors import wallet_get
from apps.wallet.services import wallet_adjust

from ..conftest import make_user

pytestmark = pytest.mark.django_db
PRESETS = ["chat_ban:1_month", "chat_ban:permanent", "lobby_ban:1_month", "lobby_ban:permanent",
           "account_suspension:1_month", "account_suspension:permanent", "authority_report:permanent"]


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def reported(compliance, operator, finance):
    """A player with €50 cash and €3 bonus who paid a €10 entry (€3 bonus + €7 cash) to a
    tournament not yet started, and two lines in the lobby."""
    player = make_user(nickname="Sospetto")
    wallet_adjust(actor=finance, player=player, currency="cash", amount=5700, reason="deposit")
    wallet_adjust(actor=finance, player=player, currency="bonus", amount=300, reason="promo")
    tournament = tournament_create(actor=operator, data={
        "name": "Serale", "game": "briscola", "kind": "scheduled", "format": "knockout", "buy_in_cents": 1000,
        "fee_cents": 100, "guaranteed_cents": 0, "prize": "cash", "min_players": 2, "max_players": 8,
        "starts_at": "2099-01-01T20:00:00+00:00", "payouts": [100]})
    tournament_register(user=player, tournament_id=tournament.pk)
    lines = [chat_post(user=player, text="vi faccio vedere io"), chat_post(user=player, text="imbroglio tutti")]
    return player, tournament, lines


def _form(player, preset: str, lines) -> dict:
    return {"player": player.pk, "preset": preset, "reason": "Chat: «imbroglio tutti»",
            "messages": [m.pk for m in lines], "next": f"/compliance/messages/{lines[0].pk}/"}


@pytest.mark.parametrize("preset", PRESETS)
def test_the_first_click_of_every_sanction_button_changes_nothing(compliance, reported, preset):
    player, _tournament, lines = reported
    audit_rows, wallet = AuditLog.objects.count(), wallet_get(player=player)
    page = browser(compliance).post("/compliance/sanctions/new/", _form(player, preset, lines))
    assert page.status_code == 200 and 'id="sanction-confirm"' in page.content.decode()
    assert not Sanction.objects.exists()
    assert AuditLog.objects.count() == audit_rows
    assert wallet_get(player=player) == wallet
    assert Registration.objects.get(player=player).active
    assert not ChatMessage.objects.filter(pk__in=[m.pk for m in lines], reviewed_at__isnull=False).exists()


def test_the_confirmation_says_what_an_authority_report_moves_and_refunds(compliance, reported):
    player, tournament, lines = reported
    html = browser(compliance).post("/compliance/sanctions/new/",
                                    _form(player, "authority_report:permanent", lines)).content.decode()
    # €57 − €7 of the entry = €50 cash and €3 − €3 = €0 bonus move; the entry (€3 bonus, €7 cash) is
    # refunded, into the frozen account too: €60 in all
    moved = html.split('data-key="authority"')[1].split("</li>")[0]
    assert "€50,00" in moved and "€60,00" in moved
    refunds = html.split('data-key="refunds"')[1].split("</li>\n")[0]
    assert "Serale" in refunds and "€3,00" in refunds and "€7,00" in refunds
    assert 'name="confirm" value="1"' in html and f'name="messages" value="{lines[1].pk}"' in html
    assert "Che cosa farà" in html and "Conferma: Denuncia" in html  # in the page's language
    suspension = browser(compliance).post("/compliance/sanctions/new/",
                                          _form(player, "account_suspension:permanent", lines)).content.decode()
    assert 'data-key="freeze"' in suspension and "€50,00" in suspension and 'data-key="authority"' not in suspension
    chat = browser(compliance).post("/compliance/sanctions/new/", _form(player, "chat_ban:1_month", lines)).content
    assert b'data-key="chat"' in chat and b'data-key="refunds"' not in chat and b'data-key="freeze"' not in chat
    # the second click, as the confirmation page posts it, issues it
    answer = browser(compliance).post("/compliance/sanctions/new/", {
        "player": player.pk, "kind": "authority_report", "duration": "permanent", "reason": "Chat: «imbroglio tutti»",
        "messages": [m.pk for m in lines], "next": f"/compliance/messages/{lines[0].pk}/", "confirm": "1"})
    assert answer.status_code == 302 and Sanction.objects.get(player=player).kind == "authority_report"
    assert wallet_get(player=player)["cash_cents"] == 0


def test_the_lines_behind_a_sanction_are_actioned_by_it_not_reviewed_with_no_action(compliance, reported):
    player, _tournament, lines = reported
    earlier = chat_post(user=player, text="già visto")
    chat_message_review(actor=compliance, message_id=earlier.pk)  # reviewed with no action, then cited
    start = AuditLog.objects.order_by("-id").values_list("id", flat=True).first()
    answer = browser(compliance).post("/compliance/sanctions/new/", {
        **_form(player, "chat_ban:1_month", [*lines, earlier]), "confirm": "1"})
    assert answer.status_code == 302
    sanction = Sanction.objects.get(player=player)
    rows = list(AuditLog.objects.filter(id__gt=start).order_by("id").values_list("action", "target_id", "reason"))
    assert rows[0][0] == "sanction_issue"
    reviews = rows[1:]
    assert sorted(int(t) for _a, t, _r in reviews) == sorted(m.pk for m in [*lines, earlier])
    assert {(a, r) for a, _t, r in reviews} == {("chat_review", f"actioned: sanction #{sanction.pk} (chat_ban)")}
    assert not AuditLog.objects.filter(reason="reviewed: no action", id__gt=start).exists()
    for m in ChatMessage.objects.filter(pk__in=[m.pk for m in [*lines, earlier]]):
        assert m.actioned_by_id == sanction.pk and m.reviewed_at is not None
    page = browser(compliance).get("/compliance/?reviewed=1").content.decode()
    assert re.search(rf'data-key="actioned">[^<]*\b{sanction.pk}</span>', page)  # "provvedimento: sanzione n. 1"
