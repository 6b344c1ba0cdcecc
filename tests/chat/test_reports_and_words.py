"""Reports with reasons (once per player), the word list's defaults and edits (audited), the
review queue, hiding (platform.md §7.1-§7.3)."""

from __future__ import annotations

import pytest

from apps.audit.models import AuditLog
from apps.chat import selectors
from apps.chat.models import ChatMessage, ChatReport, FlagWord
from apps.chat.services import (
    chat_message_hide,
    chat_message_review,
    chat_post,
    chat_report,
    flag_word_add,
    flag_word_remove,
)
from apps.common.errors import DomainError

from ..conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text", [
    "sei un idiota", "SEI UN IDIOTA!", "che cretino", "sei uno str0nz0", "you idiot", "vaffanculo",
    "scrivimi al 333 123 4567", "chiamami +39 347 765 4321", "mario.rossi@gmail.com", "vai su www.carte-facili.it",
    "guarda https://bit.ly/abc", "ti faccio vincere se dividiamo la vincita", "ci sentiamo su whatsapp",
])
def test_the_default_word_list_flags_insults_contacts_and_links(player, text):
    message = chat_post(user=player, text=text)
    assert message.flagged and message.flag_reasons, text
    assert message.refused is False and message.hidden is False  # it flags, it does not block


@pytest.mark.parametrize("text", ["bella mano", "ho preso 3 carte", "punteggio 61 a 59", "scampi fritti",
                                  "sono di Bari", "gioco alle 21:30", "tavolo 12 libero"])
def test_ordinary_lines_are_not_flagged(player, text):
    assert chat_post(user=player, text=text).flagged is False


def test_an_insult_says_why_it_is_flagged(player):
    assert chat_post(user=player, text="sei un idiota").flag_reasons == ["insult:idiot*"]
    assert chat_post(user=player, text="333 1234567").flag_reasons == ["phone"]


def test_a_report_carries_its_reason_and_reporter_once(player):
    other = make_user(nickname="Segnala_1")
    line = chat_post(user=player, text="bella mano")
    chat_report(user=other, message_id=line.pk, reason="cheating")
    with pytest.raises(DomainError) as twice:
        chat_report(user=other, message_id=line.pk, reason="insult")
    assert (twice.value.code, twice.value.status) == ("already_reported", 409)
    third = make_user(nickname="Segnala_2")
    chat_report(user=third, message_id=line.pk, reason="spam")
    line.refresh_from_db()
    assert (line.reports, line.flagged, line.flag_reasons) == (2, True, ["report"])
    assert sorted(ChatReport.objects.filter(message=line).values_list("reporter_id", "reason")) == sorted(
        [(other.pk, "cheating"), (third.pk, "spam")])
    with pytest.raises(DomainError) as own:
        chat_report(user=player, message_id=line.pk)
    assert own.value.code == "cannot_report_own"
    for n, bad in enumerate(({"reason": "because"}, {"note": "x" * 201})):
        with pytest.raises(DomainError) as invalid:
            chat_report(user=make_user(nickname=f"Segnala_x{n}"), message_id=line.pk, **bad)
        assert invalid.value.code == "validation_error"
    with pytest.raises(DomainError) as missing:
        chat_report(user=other, message_id=999999)
    assert missing.value.code == "not_found"
    with pytest.raises(DomainError) as staff:
        chat_report(user=make_user(group="compliance"), message_id=line.pk)
    assert staff.value.status == 403


def test_the_queue_holds_reported_and_listed_lines_until_reviewed(player, compliance):
    insult = chat_post(user=player, text="sei un idiota")
    plain = chat_post(user=player, text="bella mano")
    reported = chat_post(user=player, text="gioca male apposta")
    chat_report(user=make_user(nickname="Rep_1"), message_id=reported.pk, reason="cheating")
    assert [m.pk for m in selectors.chat_queue()] == [reported.pk, insult.pk]  # most reported first
    chat_message_review(actor=compliance, message_id=insult.pk)
    chat_message_review(actor=compliance, message_id=insult.pk)
    assert [m.pk for m in selectors.chat_queue()] == [reported.pk]
    assert AuditLog.objects.filter(action="chat_review", target_id=str(insult.pk)).count() == 1
    chat_report(user=make_user(nickname="Rep_2"), message_id=insult.pk, reason="insult")
    assert insult.pk in [m.pk for m in selectors.chat_queue()]  # a new report puts it back
    assert plain.pk not in [m.pk for m in selectors.chat_queue()]


def test_a_hidden_line_leaves_the_room_but_stays_for_review(player, compliance):
    line = chat_post(user=player, text="vaffanculo")
    chat_message_hide(actor=compliance, message_id=line.pk, reason="insult")
    assert line.pk not in [m.pk for m in selectors.room_chat_recent(room="lobby")]
    assert selectors.chat_message_for_review(message_id=line.pk).text == "vaffanculo"
    row = AuditLog.objects.get(action="chat_hide")
    assert (row.actor_id, row.target_id, row.reason) == (compliance.pk, str(line.pk), "insult")
    with pytest.raises(DomainError):
        chat_report(user=make_user(nickname="Rep_3"), message_id=line.pk)


def test_compliance_edits_the_word_list_and_every_change_is_audited(player, compliance):
    assert FlagWord.objects.count() > 50  # the defaults (data migration)
    assert chat_post(user=player, text="sei un brocco").flagged is False
    entry = flag_word_add(actor=compliance, kind="word", value="Brocc*", category="insult")
    assert entry.value == "brocc*"
    assert chat_post(user=player, text="sei un brocco").flag_reasons == ["insult:brocc*"]
    pattern = flag_word_add(actor=compliance, kind="pattern", value=r"iban\s*it\d+", category="contact")
    for bad in [{"kind": "word", "value": "brocc*", "category": "insult"},
                {"kind": "pattern", "value": "([", "category": "contact"},
                {"kind": "word", "value": "", "category": "insult"},
                {"kind": "word", "value": "ok", "category": "nope"},
                {"kind": "regex", "value": "ok", "category": "insult"}]:
        with pytest.raises(DomainError):
            flag_word_add(actor=compliance, **bad)
    flag_word_remove(actor=compliance, entry_id=entry.pk)
    assert chat_post(user=player, text="sei un brocco").flagged is False
    actions = list(AuditLog.objects.filter(action__startswith="flag_word").order_by("id")
                   .values_list("action", "actor_id"))
    assert actions == [("flag_word_add", compliance.pk), ("flag_word_add", compliance.pk),
                       ("flag_word_remove", compliance.pk)]
    assert AuditLog.objects.filter(action="flag_word_remove").get().before["value"] == "brocc*"
    assert FlagWord.objects.filter(pk=pattern.pk).exists()


def test_messages_are_never_edited_or_deleted_by_a_hide(player, compliance):
    line = chat_post(user=player, text="testo originale", ip="10.0.0.5")
    before = ChatMessage.objects.filter(pk=line.pk).values("text", "created", "ip", "sender_id", "room").get()
    chat_message_hide(actor=compliance, message_id=line.pk)
    assert ChatMessage.objects.filter(pk=line.pk).values("text", "created", "ip", "sender_id", "room").get() == before
