"""The table page as a player reads it (issue 12): names not seat numbers, no engine key, the
own hand once, scores in words, both languages, the replay in words, and the public part of a
table rendered once per revision for every socket of the process."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from apps.games.engines import ENGINES, get_engine
from apps.matches.services import match_action_apply, match_cancel_vote
from apps.play import render as play_render
from apps.play.presenters import presenter_for
from apps.play.words import move_words
from apps.tables import services
from apps.tables.render import render_fragments

from ..conftest import make_user
from .conftest import briscola_table, play_out
from .test_match_lifecycle import finish, seat_players

#: the games whose whole table is drawn from public views (every game their presenters draw)
PUBLIC_BOARD_GAMES = [g for g in ENGINES if presenter_for(g).public_board]

pytestmark = pytest.mark.django_db(transaction=True)
ENGINE_KEYS = ("captured_counts", "pass_done", "hands_won", "last_capture", "passed", "received",
               "hand_counts", "stock_count", "to_act", "points_taken", "last_hand", "primiera_values", "None",
               "True", "False", "{'")
SEAT_NUMBER = re.compile(r"\b(posto|seat)\s+\d\b|\bv\d+\b", re.IGNORECASE)
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from it_strings import IT  # noqa: E402


def text_of(html: str) -> str:
    html = re.sub(r"<style>.*?</style>", " ", html, flags=re.DOTALL)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def section(html: str, dom_id: str) -> str:
    start = html.index(f'<section id="{dom_id}"')
    return html[start:html.index("</section>", start)]


def test_public_part_is_rendered_once_per_revision_for_every_socket(django_assert_max_num_queries):
    table, (alice, bruno) = briscola_table()
    watcher = make_user(nickname="Guarda")
    before = play_render.PUBLIC_RENDERS["count"]
    with translation.override("it"):
        first, revision = render_fragments(table_id=table.pk, user=alice)
        with django_assert_max_num_queries(6):  # the revision, the access check: no re-read of the table
            second, again = render_fragments(table_id=table.pk, user=bruno)
        third, _ = render_fragments(table_id=table.pk, user=watcher)
    assert revision == again
    assert play_render.PUBLIC_RENDERS["count"] == before + 1, "the board was rendered more than once"
    board = section(first, f"table-{table.pk}-board")
    assert board == section(second, f"table-{table.pk}-board") == section(third, f"table-{table.pk}-board")
    assert section(first, f"table-{table.pk}-actions") != section(second, f"table-{table.pk}-actions")
    # another language is another rendering, once
    with translation.override("en"):
        render_fragments(table_id=table.pk, user=alice)
        render_fragments(table_id=table.pk, user=bruno)
    assert play_render.PUBLIC_RENDERS["count"] == before + 2


@pytest.mark.parametrize("game", sorted(PUBLIC_BOARD_GAMES))
def test_a_table_reads_as_words_with_the_own_hand_once(game):
    engine = get_engine(game)
    players = 4 if game in ("scopone", "hearts", "spades") else engine.min_players
    human = make_user(nickname=f"Gio_{game[:8]}")
    table = services.table_create(user=human, data={"game": game, "players": players})
    for seat in range(1, players):
        services.table_robot_add(user=human, table_id=table.pk, seat=seat)
    match = table.matches.get()
    state = engine.from_json(match.state)
    with translation.override("it"):
        html, _ = render_fragments(table_id=table.pk, user=human)
    text = text_of(html)
    for key in ENGINE_KEYS:
        assert key not in text, (game, key)
    assert not SEAT_NUMBER.search(text), (game, SEAT_NUMBER.search(text).group(0))
    assert "Gio_" in text and ("Robot" in text or players == 1)
    board = section(html, f"table-{table.pk}-board")
    hand = state.view(0)["hand"]
    # the own hand is not drawn on the board: no card shows more often than the deck holds it
    # (Burraco and Scala 40 play two decks, so a card of the hand may also lie in a meld)
    copies = Counter(engine.deck(players, match.options))
    shown = Counter(re.findall(r'data-card="([^"]+)"', board)) + Counter(hand)
    assert all(shown[card] <= copies[card] for card in hand), "the own hand drawn on the board"
    actions = section(html, f"table-{table.pk}-actions")
    drawn = re.findall(r'data-hand[^>]*>\s*(?:<[^>]+>\s*)*?<svg[^>]*data-card="([^"]+)"', actions)
    assert sorted(drawn) == sorted(hand), (game, drawn, hand)
    for seat in range(1, players):  # every opponent's hand as backs with its count
        spot = board[board.index(f'seat-spot at-{seat}'):]
        spot = re.split(r'<div class="(?:seat-spot|center)', spot)[0]
        count = state.view(None)["hand_counts"][seat]
        assert f'data-count="{count}"' in spot and spot.count("playing-card back") == min(count, 20)
    # English is another catalogue: no Italian of these strings on the English page
    with translation.override("en"):
        english = text_of(render_fragments(table_id=table.pk, user=human)[0])
    assert "cards:" in english and "carte:" not in english


def test_italian_table_page_shows_no_english_interface_string():
    table, (alice, _bruno) = briscola_table()
    client = Client()
    client.force_login(alice)
    page = text_of(client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode())
    english = [msgid for msgid, it in IT.items() if msgid != it and "%(" not in msgid and len(msgid) > 4
               and re.search(rf"(?<![\w]){re.escape(msgid)}(?![\w])", page)]
    assert english == [], english


def test_replay_tells_the_moves_in_words_with_working_steps():
    table, (alice, bruno) = briscola_table()
    match = play_out(table.matches.get().pk, {0: alice, 1: bruno})
    client = Client()
    client.force_login(alice)
    last = match.actions.count()
    with translation.override("it"):
        start = client.get(f"/tables/matches/{match.pk}/replay/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
        middle = client.get(f"/tables/matches/{match.pk}/replay/?step=3", HTTP_ACCEPT_LANGUAGE="it").content.decode()
        end = client.get(f"/tables/matches/{match.pk}/replay/?step={last}", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    for page in (start, middle, end):
        text = text_of(page)
        assert "· v ·" not in text and "{'" not in text and not SEAT_NUMBER.search(text)
        assert 'href="?step=0"' in page and f'href="?step={last}"' in page
    first = match.actions.order_by("seq").first()
    nick = match.match_seats.get(number=first.seat).nickname
    assert re.search(rf"{nick} gioca (il|l'|la) ", text_of(middle)), text_of(middle)[:800]
    assert 'href="?step=2"' in middle and 'href="?step=4"' in middle
    assert "Vince:" in text_of(end) or "Pareggio" in text_of(end)


@pytest.mark.parametrize("game", sorted(PUBLIC_BOARD_GAMES))
def test_a_table_waiting_for_players_renders_at_every_size(game):
    engine = get_engine(game)
    leader = make_user(nickname=f"Wait_{game[:8]}")
    for players in engine.player_counts:
        table = services.table_create(user=leader, data={"game": game, "players": players})
        client = Client()
        client.force_login(leader)
        page = client.get(f"/tables/{table.pk}/")
        assert page.status_code == 200, (game, players)
        assert "robot-button" in page.content.decode() or players == 1  # Solitario starts at once


def test_the_end_of_an_official_match_names_the_winner_the_prize_the_bank_and_the_xp():
    table, users = seat_players("briscola", 2, official=True, stake=100, cash=5000, credits=0, currency="cash")
    match = finish(table.matches.get().pk, users)
    assert match.status == "finished"
    with translation.override("it"):
        pages = [text_of(render_fragments(table_id=table.pk, user=u)[0]) for u in users]
    winner = match.result["winner"]
    names = [ms.nickname for ms in match.match_seats.order_by("number")]
    for seat, text in enumerate(pages):
        if winner is None:
            assert "Pareggio" in text
            continue
        assert f"Vince: {names[winner]}." in text
        assert ("Hai vinto!" if seat == winner else "Hai perso.") in text
        assert "Premio €1,80 (piatto €2,00, al banco il 10%: €0,20)." in text, text  # the cash regime
        assert "XP:" in text and f"{names[winner]} +" in text
        assert "Gioca ancora" in text


def test_every_voter_is_asked_to_cancel_and_everyone_reads_the_outcome():
    table, (alice, bruno) = briscola_table()
    match = table.matches.get()
    match_cancel_vote(match_id=match.pk, user=alice, accept=True)
    with translation.override("it"):
        asked = render_fragments(table_id=table.pk, user=bruno)[0]
        proposer = render_fragments(table_id=table.pk, user=alice)[0]
    assert 'id="cancel-accept"' in asked and 'id="cancel-refuse"' in asked and "data-countdown" in asked
    assert "Annullare la partita di comune accordo?" in text_of(asked)
    assert 'id="cancel-accept"' not in proposer and "Hai accettato" in text_of(proposer)
    match_cancel_vote(match_id=match.pk, user=bruno, accept=True)
    with translation.override("it"):
        for user in (alice, bruno):
            assert "Partita annullata" in text_of(render_fragments(table_id=table.pk, user=user)[0])


def test_a_refused_cancellation_is_announced_and_play_goes_on():
    table, (alice, bruno) = briscola_table()
    match = table.matches.get()
    match_cancel_vote(match_id=match.pk, user=alice, accept=True)
    match_cancel_vote(match_id=match.pk, user=bruno, accept=False)
    nick = match.match_seats.get(number=1).nickname
    with translation.override("it"):
        text = text_of(render_fragments(table_id=table.pk, user=alice)[0])
    assert f"{nick} ha rifiutato l'annullamento: la partita continua." in text.replace("&#x27;", "'")


def test_the_moves_of_the_games_played_on_the_board_in_words():
    with translation.override("it"):
        assert move_words(name="Mario", action={"type": "discard", "card": "7h"}, events=None,
                          french=True) == "Mario scarta il 7 di cuori"  # face up on the pile: named
        change = move_words(name="Mario", action={"type": "draw", "cards": ["7h", "Kd"]}, events=None, french=True)
        assert change == "Mario cambia 2 carte"  # a poker change never names its cards
        assert move_words(name="Mario", action={"type": "meld", "cards": ["7h", "8h", "9h"]}, events=None,
                          french=True) == "Mario cala 3 carte"
        moved = move_words(name="Mario", action={"type": "move", "card": "Ks", "to": "t3"}, events=None, french=True)
        assert moved == "Mario sposta il Re di picche su una colonna"


def test_a_solitario_ends_solved_or_not_never_as_a_draw():
    player = make_user(nickname="Sola")
    table = services.table_create(user=player, data={"game": "solitario", "players": 1})
    match = table.matches.get()
    match_action_apply(match_id=match.pk, user=player, action={"type": "end"}, version=match.version)
    with translation.override("it"):
        text = text_of(render_fragments(table_id=table.pk, user=player)[0])
    assert "Pareggio" not in text and "Punteggio:" in text and "Partita finita." in text, text


def test_hearts_tie_break_hand_is_named_as_such():
    """A Hearts match of one hand that ends tied for the fewest points plays one more: its
    note says so, not "Hand 2 of 1"."""
    view = {"hand_number": 2, "hands_planned": 1, "mode": "hands", "taken_points": [0] * 4, "totals": [13] * 4}
    names = {s: {"name": f"P{s}"} for s in range(4)}
    with translation.override("it"):
        notes = play_render._scores("hearts", view, names, [[0], [1], [2], [3]], 4)["notes"]
    assert "Mano 2, di spareggio · vince chi ha meno punti" in notes and not any("di 1" in n for n in notes)
    view["hand_number"] = 1
    with translation.override("en"):
        assert "Hand 1 of 1 · the fewest points win" in play_render._scores("hearts", view, names, [[0], [1], [2], [3]], 4)["notes"]


def test_spades_board_says_a_team_at_minus_200_loses():
    """A Spades match also ends when a team falls to −200 (spades.md D3): the board says so, or
    a player losing at −310 is never told why the match stopped before the target."""
    state = get_engine("spades").new_game(4, seed=3)
    view = state.view(None)
    names = {s: {"name": f"P{s}"} for s in range(4)}
    with translation.override("it"):
        notes = play_render._scores("spades", view, names, [list(t) for t in state.teams], 4)["notes"]
    assert f"Vince la prima squadra che arriva a {view['target']} punti; chi scende a −200 o meno perde" in notes
    with translation.override("en"):
        notes = play_render._scores("spades", view, names, [list(t) for t in state.teams], 4)["notes"]
    assert f"The first team to {view['target']} points wins; a team at −200 or below loses" in notes


def test_burraco_board_shows_the_count_of_the_last_hand():
    """Not only the totals: each team's count of the hand just over, so a player can check it."""
    count = {"melded": 230, "bonus": 200, "closing": 100, "hand": -20, "pozzetto": 0, "total": 510}
    view = {"hand_points": [[510, -85]], "totals": [510, -85], "target": 0, "variant": "chiuso", "hand_no": 1,
            "last_hand": [count, {**count, "melded": 15, "bonus": 0, "closing": 0, "hand": 0, "pozzetto": -100,
                                  "total": -85}]}
    names = {0: {"name": "Mario"}, 1: {"name": "Anna"}}
    with translation.override("it"):
        notes = play_render._scores("burraco", view, names, [[0], [1]], 2)["notes"]
    assert ("Ultima mano, Mario: calate 230 · burraco 200 · chiusura 100 · carte in mano -20 · pozzetto 0 = 510"
            in notes)
    assert "Ultima mano, Anna: calate 15 · burraco 0 · chiusura 0 · carte in mano 0 · pozzetto -100 = -85" in notes
