"""The review pages (platform.md §7.3-§7.5): for compliance and superusers only, every
filter works, searches and exports are audited, the common path is three clicks, and the
page queries stay flat however many lines there are."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from apps.audit.models import AuditLog
from apps.chat.models import ChatMessage
from apps.chat.services import chat_post, chat_report
from apps.compliance.models import Sanction

from ..conftest import make_user
from ..tables.conftest import briscola_table, current_match, play_out

pytestmark = pytest.mark.django_db
PAGES = ["/compliance/", "/compliance/messages/", "/compliance/sanctions/", "/compliance/words/",
         "/compliance/signals/", "/compliance/messages/export.csv"]


def browser(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("path", PAGES)
def test_only_compliance_opens_the_pages(path, compliance, superuser):
    for user in (make_user(nickname="Giocatore"), make_user(group="operator"), make_user(group="finance")):
        assert browser(user).get(path).status_code == 403
    assert browser(None).get(path).status_code == 302  # to the login page
    for user in (compliance, superuser):
        assert browser(user).get(path).status_code == 200


def test_three_clicks_from_a_flagged_line_to_a_sanction(compliance):
    player = make_user(nickname="Offensore")
    line = chat_post(user=player, text="sei un idiota")
    client = browser(compliance)
    queue = client.get("/compliance/").content.decode()  # click 1: the queue
    assert "sei un idiota" in queue and f'href="/compliance/messages/{line.pk}/"' in queue
    context = client.get(f"/compliance/messages/{line.pk}/").content.decode()  # click 2: its context
    assert 'value="chat_ban:1_month"' in context and 'name="messages"' in context
    form = {"player": player.pk, "preset": "chat_ban:1_month", "reason": "Chat: «sei un idiota»",
            "messages": [line.pk], "next": f"/compliance/messages/{line.pk}/"}
    confirm = client.post("/compliance/sanctions/new/", form)  # click 3: a sanction button (the form as served)
    assert confirm.status_code == 200 and not Sanction.objects.exists()  # it asks first
    answer = client.post("/compliance/sanctions/new/", {**form, "confirm": "1"})  # and the confirmation
    assert answer.status_code == 302 and answer["Location"] == f"/compliance/players/{player.pk}/"
    sanction = Sanction.objects.get(player=player)
    assert (sanction.kind, sanction.duration, sanction.message_ids, sanction.created_by_id) == (
        "chat_ban", "1_month", [line.pk], compliance.pk)
    assert ChatMessage.objects.get(pk=line.pk).reviewed_at is not None
    page = client.get(f"/compliance/players/{player.pk}/").content.decode()
    assert f'href="/compliance/messages/{line.pk}/"' in page  # the sanction links its message
    lift = client.post(f"/compliance/sanctions/{sanction.pk}/lift/", {"reason": "scuse"})
    assert lift.status_code == 302 and not Sanction.objects.get(pk=sanction.pk).active
    refused = client.post("/compliance/sanctions/new/", {"player": player.pk, "preset": "authority_report:1_month",
                                                          "reason": "x", "confirm": "1"})
    assert refused.status_code == 302 and not Sanction.objects.filter(kind="authority_report").exists()


def test_search_filters_csv_and_their_audit(compliance, clock):
    a, b = make_user(nickname="Primo_1"), make_user(nickname="Secondo_2")
    chat_post(user=a, text="ciao a tutti")
    clock.advance(minutes=1)
    chat_post(user=b, text="scrivimi su whatsapp")
    clock.advance(minutes=1)
    chat_post(user=a, text="=HYPERLINK(\"x\")")
    client = browser(compliance)
    page = client.get("/compliance/messages/", {"nickname": "secondo"}).content.decode()
    assert "scrivimi su whatsapp" in page and "ciao a tutti" not in page
    page = client.get("/compliance/messages/", {"player": a.pk, "q": "CIAO"}).content.decode()
    assert "ciao a tutti" in page and "whatsapp" not in page
    assert client.get("/compliance/messages/", {"since": "not a date"}).status_code == 400
    export = client.get("/compliance/messages/export.csv", {"player": a.pk})
    rows = list(csv.reader(io.StringIO(b"".join(export.streaming_content).decode())))
    assert rows[0][:4] == ["id", "created", "player", "nickname"] and len(rows) == 3
    assert rows[1][8].startswith("'=")  # a formula is never run by a spreadsheet
    actions = list(AuditLog.objects.filter(actor=compliance).values_list("action", flat=True).order_by("id"))
    assert actions == ["chat_search", "chat_search", "chat_export"]


def test_the_context_shows_the_match_at_that_moment_and_no_hidden_card(compliance, clock):
    table, (alice, bruno) = briscola_table()
    match = current_match(table)
    clock.advance(seconds=5)
    line = chat_post(user=alice, text="ho il carico, gioca basso", table=table, match=match)
    page = browser(compliance).get(f"/compliance/messages/{line.pk}/").content.decode()
    assert "The match at that moment" in page or "La partita in quel momento" in page
    seats = list(match.match_seats.order_by("number"))
    assert seats[0].nickname in page and seats[1].nickname in page
    from apps.games.engines import get_engine

    state = get_engine("briscola").from_json(match.state)
    hidden = [c for seat in range(2) for c in state.view(seat)["hand"]]
    assert all(f">{c}<" not in page and f'"{c}"' not in page for c in hidden)  # no hand card, in play
    play_out(match.pk, {0: alice, 1: bruno})
    assert browser(compliance).get(f"/compliance/messages/{line.pk}/").status_code == 200


def test_queue_and_search_queries_stay_flat(compliance, django_assert_max_num_queries, clock):
    people = [make_user(nickname=f"Massa_{n}") for n in range(6)]
    for n in range(60):
        clock.advance(seconds=3)
        line = chat_post(user=people[n % 6], text=f"sei un idiota {n}" if n % 2 else f"bella mano {n}")
    chat_report(user=people[1], message_id=line.pk, reason="insult")
    client = browser(compliance)
    for path in ("/compliance/", "/compliance/messages/", "/compliance/sanctions/?active=all",
                 "/compliance/signals/", f"/compliance/messages/{line.pk}/"):
        with django_assert_max_num_queries(20):
            assert client.get(path).status_code == 200, path
