"""A one-person game (Solitario, registration's max_players == 1) offers no friendly
cancellation vote: there is nobody to agree with (issue 25)."""

from __future__ import annotations

import pytest
from django.utils import translation

from apps.tables import services
from apps.tables.render import render_fragments

from ..conftest import make_user
from .conftest import briscola_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_solitario_offers_no_cancellation_vote_a_two_player_game_does():
    alone = make_user(nickname="Solo_1")
    table = services.table_create(user=alone, data={"game": "solitario", "official": False})
    assert table.matches.get().status == "playing"
    with translation.override("it"):
        solo = render_fragments(table_id=table.pk, user=alone)[0]
        btable, (alice, _bruno) = briscola_table()
        pair = render_fragments(table_id=btable.pk, user=alice)[0]
    assert "Proponi di annullare la partita" not in solo and 'name="cancel_vote"' not in solo
    assert "Proponi di annullare la partita" in pair and 'name="cancel_vote"' in pair
