"""Table chat rules (platform.md §7.1-§7.2): limits, flags, reports, recording."""

from __future__ import annotations

import pytest

from apps.chat.models import ChatMessage
from apps.chat.services import chat_post, chat_report
from apps.common.errors import DomainError
from apps.tables.services import table_create

pytestmark = pytest.mark.django_db


def test_rate_limit_five_in_ten_seconds(player, clock):
    table = table_create(user=player, data={"game": "briscola"})
    for i in range(5):
        chat_post(user=player, text=f"line {i}", table=table, ip="10.0.0.9")
    with pytest.raises(DomainError) as refused:
        chat_post(user=player, text="one too many", table=table)
    assert refused.value.code == "chat_rate_limited"
    clock.advance(seconds=11)
    chat_post(user=player, text="later", table=table)
    assert ChatMessage.objects.filter(room=str(table.pk)).count() == 6


def test_length_trim_and_staff(player, operator):
    table = table_create(user=player, data={"game": "briscola"})
    assert chat_post(user=player, text="  ciao  ", table=table).text == "ciao"
    assert chat_post(user=player, text="x" * 300, table=table)
    for text, code in [("   ", "chat_empty"), ("x" * 301, "chat_too_long"), (None, "chat_empty")]:
        with pytest.raises(DomainError) as refused:
            chat_post(user=player, text=text, table=table)
        assert refused.value.code == code
    with pytest.raises(DomainError) as staff:
        chat_post(user=operator, text="hi", table=table)
    assert staff.value.code == "staff_cannot_play"


def test_flag_words_and_reports(player, user_factory):
    table = table_create(user=player, data={"game": "briscola"})
    flagged = chat_post(user=player, text="questa è una TRUFFA", table=table)
    plain = chat_post(user=player, text="bella mano", table=table)
    assert flagged.flagged and not plain.flagged
    other = user_factory(nickname="Reporter")
    chat_report(user=other, message_id=plain.pk)
    plain.refresh_from_db()
    assert plain.flagged and plain.reports == 1
    with pytest.raises(DomainError):
        chat_report(user=other, message_id="x")
