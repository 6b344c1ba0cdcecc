"""The create-table form (issue 12): fields from the engine's option schema, euro stakes."""

from __future__ import annotations

import pytest

from apps.games.engines import ENGINES
from apps.tables.forms import option_fields, options_from_form, stake_from_form
from apps.tables.models import Table


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_option_becomes_a_select_or_a_number(game):
    engine = ENGINES[game]
    fields = {f.name: f for f in option_fields(game)}
    for name, rule in engine.options.items():
        if name in ("dealer", "stacks") or not ({"choices", "min", "max"} & set(rule)):
            assert name not in fields
            continue
        field = fields[name]
        assert field.label and "_" not in field.label  # words, not the option's id
        if "choices" in rule:
            assert [v for v, _label in field.choices] == [
                "true" if c is True else "false" if c is False else str(c) for c in rule["choices"]]
        else:
            assert not field.choices and field.minimum == rule.get("min") and field.maximum == rule.get("max")
    # the defaults, sent back as the form shows them, are no options at all
    form = {f.input_name: f.default_value for f in fields.values()}
    assert options_from_form(game, form) == {}
    engine.resolve_options(engine.min_players, options_from_form(game, form))


def test_form_values_become_typed_options():
    assert options_from_form("scopa", {"opt-scopa-mode": "hands", "opt-scopa-hands": "5",
                                       "opt-scopa-knockout": "true"}) == {"mode": "hands", "hands": 5,
                                                                          "knockout": True}
    assert options_from_form("scopa", {"opt-scopa-mode": "<script>"}) is None
    assert options_from_form("scopa", {"opt-scopa-hands": "tre"}) is None
    assert options_from_form("briscola", {"opt-scopa-hands": "5"}) == {}  # another game's fields are ignored


@pytest.mark.parametrize(("text", "currency", "value"), [
    ("2,50", "cash", 250), ("2.5", "cash", 250), ("€ 10", "cash", 1000), ("0,05", "cash", 5), ("", "cash", 0),
    ("2,505", "cash", None), ("dieci", "cash", None), ("-1", "cash", None), ("30", "credits", 30),
    ("3,5", "credits", None), ("1.250,50", "cash", 125050), ("€2,50", "cash", 250), ("2,5", "cash", 250),
])
def test_stake_in_euro_with_a_decimal_comma(text, currency, value):
    assert stake_from_form(text, currency) == value


@pytest.mark.django_db
def test_create_from_the_page_with_options_and_a_euro_stake(client, player, operator):
    from apps.wallet.services import wallet_adjust

    wallet_adjust(actor=operator, player=player, currency="cash", amount=1000, reason="test")
    client.force_login(player)
    answer = client.post("/tables/new/", {"game": "scopa", "players": "2", "official": "on", "currency": "cash",
                                          "stake": "2,50", "opt-scopa-mode": "points", "opt-scopa-target": "21",
                                          "opt-briscola-hands": "7"})
    table = Table.objects.get(leader=player)
    assert answer.status_code == 302 and answer["Location"] == f"/tables/{table.pk}/"
    assert (table.stake, table.currency, table.game_options) == (250, "cash", {"target": 21})


@pytest.mark.django_db
def test_a_refused_form_says_why_in_words(client, player):
    client.force_login(player)
    answer = client.post("/tables/new/", {"game": "scopa", "currency": "cash", "stake": "2,50"}, follow=True)
    text = answer.content.decode()
    assert "I tavoli amichevoli non hanno posta" in text and "official: false" not in text
    assert '<option value="scopa" selected' in text  # the form shows the game again
    answer = client.post("/tables/new/", {"game": "scopa", "opt-scopa-target": "500"}, follow=True)
    text = answer.content.decode()
    assert "Punti per vincere: un numero intero da 1 a 101." in text and "Non valida per questo gioco" not in text
    answer = client.post("/tables/new/", {"game": "scopa", "opt-scopa-mode": "sideways"}, follow=True)
    assert "La partita si decide a: scegli fra punti, mani vinte." in answer.content.decode()
    answer = client.post("/tables/new/", {"game": "scopa", "official": "on", "currency": "cash", "stake": "2,505"},
                         follow=True)
    assert "Posta: scrivi gli euro con la virgola, per esempio 2,50." in answer.content.decode()
    client.cookies["django_language"] = "en"
    answer = client.post("/tables/new/", {"game": "scopa", "currency": "credits", "stake": "tre"}, follow=True)
    assert "Stake: a whole number of credits, for example 50." in answer.content.decode()
    assert not Table.objects.filter(leader=player).exists()


@pytest.mark.django_db
def test_lobby_shows_game_names_and_no_raw_json(client, player):
    from apps.tables.services import table_create

    table_create(user=player, data={"game": "poker_italiana", "players": 2})
    client.force_login(player)
    html = client.get("/tables/").content.decode()
    assert "Poker all&#x27;italiana" in html and ">poker_italiana<" not in html
    assert "JSON" not in html and "centesimi" not in html and 'name="game_options"' not in html
    assert 'name="opt-poker_italiana-opening"' in html and 'type="number" name="opt-scopa-target"' in html


@pytest.mark.django_db
def test_private_table_invite_from_the_page_and_a_clear_page_for_the_uninvited(client, user_factory):
    from apps.tables.services import table_create

    leader = user_factory(nickname="Capo")
    guest = user_factory(nickname="Ospite")
    table = table_create(user=leader, data={"game": "briscola", "players": 2, "private": True})
    client.force_login(guest)
    closed = client.get(f"/tables/{table.pk}/")
    assert closed.status_code == 403
    assert "Questo tavolo è privato" in closed.content.decode() and "Capo" in closed.content.decode()
    client.force_login(leader)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'class="invite card"' in page
    answer = client.post(f"/tables/{table.pk}/invite/", {"nickname": "ospite"}, follow=True)
    assert "Invito inviato a ospite" in answer.content.decode()
    unknown = client.post(f"/tables/{table.pk}/invite/", {"nickname": "Nessuno"}, follow=True)
    assert "Nessun giocatore ha quel nickname." in unknown.content.decode()
    client.force_login(guest)
    assert client.get(f"/tables/{table.pk}/").status_code == 200
