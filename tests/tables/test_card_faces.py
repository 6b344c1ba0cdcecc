"""Card faces a table may choose (issue 25): only the decks its game can be drawn with.

The form offered "French" for every game (an Italian table then drew bastoni as nothing) and
"Italian" for French games (every heart blank). Each game's registration declares its faces
(``Engine.card_faces``); the form offers those, the API and the form refuse the others with
a clear 400, and an Italian game with French faces is drawn with the French counterparts.
"""

from __future__ import annotations

import re

import pytest

from apps.games.engines import ENGINES
from apps.play.render import face_for
from apps.tables.models import Table

#: the seeds allow French cards for Scopone and Asso Pigliatutto; Cirulla's rules name French faces
WITH_FRENCH = {"asso_pigliatutto", "cirulla", "scopone"}
FRENCH_GAMES = {"burraco", "hearts", "poker_italiana", "scala40", "solitario", "spades"}


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_each_game_declares_the_faces_it_can_be_drawn_with(game):
    faces = ENGINES[game].card_faces()
    if game in FRENCH_GAMES:
        assert faces == ("french",)
    elif game in WITH_FRENCH:
        assert faces == ("italian", "french")
    else:
        assert faces == ("italian",)


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "face"), [("scopa", "french"), ("briscola", "french"), ("hearts", "italian"),
                                            ("solitario", "italian"), ("scopone", "piacentine"), ("burraco", 3)])
def test_the_api_refuses_a_deck_the_game_cannot_use(api, player, game, face):
    answer = api(player).post("/api/tables/", {"game": game, "face": face}, format="json")
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "validation_error" and "face" in body["fields"]
    assert not Table.objects.filter(leader=player).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "face", "drawn"), [("scopone", "french", "italian_french"),
                                                     ("scopone", "italian", "italian"),
                                                     ("asso_pigliatutto", "auto", "italian"),
                                                     ("hearts", "french", "french"), ("hearts", "auto", "french")])
def test_the_api_accepts_the_game_s_decks(api, player, game, face, drawn):
    answer = api(player).post("/api/tables/", {"game": game, "face": face}, format="json")
    assert answer.status_code == 201, answer.content
    assert face_for(Table.objects.get(leader=player), game) == drawn


@pytest.mark.django_db
def test_a_table_saved_with_a_face_its_game_cannot_use_draws_the_game_s_own(player):
    table = Table.objects.create(game="scopa", leader=player, players=2, face="french")  # made before the check
    assert face_for(table, "scopa") == "italian"
    table = Table.objects.create(game="hearts", leader=player, players=4, face="italian")
    assert face_for(table, "hearts") == "french"


@pytest.mark.django_db
def test_the_form_offers_only_the_game_s_decks_and_refuses_another(client, player):
    client.force_login(player)
    page = client.get("/tables/").content.decode()
    faces = dict(re.findall(r'<option value="(\w+)"[^>]*data-faces="([\w,]*)"', page))
    assert faces["scopone"] == "italian,french" and faces["scopa"] == "italian" and faces["hearts"] == "french"
    answer = client.post("/tables/new/", {"game": "scopa", "face": "french"}, follow=True)
    assert not Table.objects.filter(leader=player).exists()
    assert "Scopa" in answer.content.decode() and answer.redirect_chain[-1][0].endswith("?new=scopa#create")
