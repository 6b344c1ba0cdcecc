"""Every registered engine is playable at a table with no change to the tables app: the
generic renderer offers a control for every legal action, and the controls' payloads are
accepted by the one action service. A new engine is checked here by adding nothing."""

from __future__ import annotations

import html
import json
import re
from collections import Counter

import pytest

from apps.games.engines import ENGINES, get_engine
from apps.matches.models import Match
from apps.matches.services import match_action_apply
from apps.tables import services
from apps.tables.render import render_fragments

from ..conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)
ACTION = re.compile(r"data-action='([^']*)'")
PICK = re.compile(r'data-pick="([^"]+)"')
#: games with their own board controls list their board moves for card_games.js
CHOICE = re.compile(r"<option value='([^']*)'")  # an amount chosen from a list (poker's bets)
MOVES = re.compile(r'<script id="legal-moves" type="application/json">(.*?)</script>', re.S)


def unescape(text: str) -> str:
    """An attribute's text as the browser reads it (Jinja2 writes ``&#34;``, Django ``&quot;``)."""
    return html.unescape(text)


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_generic_table_plays_every_engine(game):
    engine = get_engine(game)
    players = engine.min_players
    human = make_user(nickname=f"Human_{game[:9]}")
    table = services.table_create(user=human, data={"game": game, "players": players})
    for seat in range(1, players):
        services.table_robot_add(user=human, table_id=table.pk, seat=seat)
    match = table.matches.get()
    for _ in range(40):  # forty of the human's turns, or the end
        match.refresh_from_db()
        if match.status != Match.PLAYING:
            break
        state = engine.from_json(match.state)
        assert state.to_act == [0] or 0 in state.to_act, "robots must have played their turns at once"
        legal = state.legal_actions(0)
        html, _ = render_fragments(table_id=table.pk, user=human)
        assert f'data-version="{match.version}"' in html
        offered = [json.loads(unescape(a)) for a in ACTION.findall(html)]
        picks = PICK.findall(html)
        found = MOVES.search(html)
        offered += [m["action"] for m in json.loads(found.group(1))] if found else []
        offered += [json.loads(unescape(a)) for a in CHOICE.findall(html)]
        for action in legal:
            if found and action in offered:
                continue
            if isinstance(action.get("cards"), list):
                assert action["type"] in picks, f"{game}: no pick form for {action['type']}"
            else:
                assert action in offered, f"{game}: no control for {action}"
        assert all(a in legal for a in offered), f"{game}: a control for an illegal action"
        # the first control the page offers, sent as the page would send it
        if offered:
            chosen = offered[0]
        else:  # a multi-card pick: the page sends the ticked cards in page order
            first = next(a for a in legal if isinstance(a.get("cards"), list))
            chosen = {**first, "cards": sorted(first["cards"], reverse=True)}
        match_action_apply(match_id=match.pk, action=chosen, version=match.version, user=human)
    # a spectator's render holds no card hidden from spectators
    watcher = make_user(nickname=f"Watch_{game[:9]}")
    html, _ = render_fragments(table_id=table.pk, user=watcher)
    match.refresh_from_db()
    state = engine.from_json(match.state)
    copies = Counter(engine.deck(players))
    hidden = Counter(state.hidden_from(None))
    fully_hidden = {card for card, n in hidden.items() if n >= copies[card]}  # double decks share codes
    shown = set(re.findall(r'data-card="([^"]+)"', html))
    assert not (shown & fully_hidden), shown & fully_hidden


def test_board_shows_per_seat_lists_and_public_card_lists():
    from apps.play.render import view_facts

    texts, card_lists = view_facts({"hand": ["Ad"], "bids": [3, None, 0, 4], "scope": [2, 1], "mode": "points",
                                    "passed": ["Qs", "Kh", "Ah"], "nested": {"a": 1}}, 4)
    assert texts == {"bids": "3 · — · 0 · 4", "scope": "2 · 1", "mode": "points"}
    assert card_lists == {"passed": ["Qs", "Kh", "Ah"]} and "hand" not in texts
