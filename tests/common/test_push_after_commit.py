"""Every app pushes through one helper (``apps.common.push.push_after_commit``): a push issued
inside a transaction that rolls back is never sent, and once the transaction commits it is,
for each sender (tables, matches, tournaments, the lobby's chat, the back office, the sanction
hooks). The real channel layer (channels-redis with REDIS_URL), no mock."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from channels.layers import get_channel_layer
from django.db import connection, transaction

from apps.backoffice.consumers import ONLINE_GROUP
from apps.backoffice.receivers import online_changed
from apps.chat.consumers import LOBBY_GROUP as CHAT_LOBBY_GROUP
from apps.chat.consumers import lobby_user_group
from apps.chat.services import chat_message_hide, chat_post
from apps.common import push
from apps.matches.models import Match, MatchSeat
from apps.matches.services import match_action_apply, match_create
from apps.tables import broadcast as table_broadcast
from apps.tournaments import broadcast as tournament_broadcast
from apps.tournaments.models import Registration
from apps.wallet.selectors import wallet_get

from ..conftest import make_user, sanction_give
from ..tournaments.conftest import create, players, register_all

pytestmark = pytest.mark.django_db(transaction=True)


class Rollback(Exception):
    pass


@pytest.fixture
def listen():
    """``listen(group)`` -> ``heard()``: the messages the group got within a short wait."""
    layer = get_channel_layer()
    loop = push._process_loop()

    def run(coro):
        return asyncio.run_coroutine_threadsafe(coro, loop).result(5)

    def make(group: str) -> Callable[[], list[dict]]:
        channel = run(layer.new_channel())
        run(layer.group_add(group, channel))

        def heard(wait: float = 0.4) -> list[dict]:
            got = []
            while True:
                try:
                    got.append(run(asyncio.wait_for(layer.receive(channel), wait)))
                except TimeoutError:
                    return got

        return heard

    return make


def rolled_back(send: Callable[[], object]) -> None:
    with pytest.raises(Rollback), transaction.atomic():
        send()
        raise Rollback


def committed(send: Callable[[], object]) -> None:
    with transaction.atomic():
        send()


def both_ways(listen, group: str, send: Callable[[], object]) -> list[dict]:
    """Nothing after a rollback; the push once committed (its messages returned)."""
    heard = listen(group)
    rolled_back(send)
    assert heard() == [], "a rolled-back transaction pushed"
    committed(send)
    got = heard()
    assert got, "a committed transaction pushed nothing"
    return got


def test_tables_push_only_after_commit(listen):
    got = both_ways(listen, table_broadcast.table_group(987_001),
                    lambda: table_broadcast.table_notice(table_id=987_001, user_id=None, text="Ciao"))
    assert [m["type"] for m in got] == ["table.notice"]


def test_a_table_change_pushes_only_after_commit(listen):
    """``table_changed`` computes its message after the commit (the new revision), then sends
    with ``push_now``: a rollback sends nothing there either."""
    got = both_ways(listen, table_broadcast.table_group(987_003),
                    lambda: table_broadcast.table_changed(table_id=987_003, match_id=None, version=4))
    assert got == [{"type": "table.changed", "version": 4, "match": None}]  # no such table: no revision


def test_tournaments_push_only_after_commit(listen):
    got = both_ways(listen, tournament_broadcast.tournament_group(987_002),
                    lambda: tournament_broadcast.tournament_changed(tournament_id=987_002, version=3))
    assert got == [{"type": "tournament.changed", "version": 3}]
    got = both_ways(listen, tournament_broadcast.LOBBY_GROUP, tournament_broadcast.lobby_changed)
    assert {m["type"] for m in got} == {"lobby.changed"}
    pages = [tournament_broadcast.player_group(987_004), tournament_broadcast.player_group(987_005)]
    heard = [listen(group) for group in pages]  # one push to several groups
    rolled_back(lambda: tournament_broadcast.tables_ready(user_ids=[987_004, 987_005], match_id=7))
    assert [h() for h in heard] == [[], []]
    committed(lambda: tournament_broadcast.tables_ready(user_ids=[987_004, 987_005], match_id=7))
    assert [h() for h in heard] == [[{"type": "tournament.table_ready", "match": 7}]] * 2


def test_the_lobby_chat_pushes_only_after_commit(listen):
    author = make_user(nickname="Voce_1")

    def post():
        chat_post(user=author, text="ciao a tutti", ip="127.0.0.1")  # the service; chat_posted tells the room

    got = both_ways(listen, CHAT_LOBBY_GROUP, post)
    assert [m["type"] for m in got] == ["chat.message"]


def test_a_hidden_lobby_line_leaves_the_screens_only_after_commit(listen):
    line = chat_post(user=make_user(nickname="Voce_2"), text="una riga da nascondere", ip="127.0.0.1")
    officer = make_user(group="compliance")
    got = both_ways(listen, CHAT_LOBBY_GROUP, lambda: chat_message_hide(actor=officer, message_id=line.pk))
    assert got == [{"type": "chat.hidden", "id": line.pk}]


def test_the_back_office_pushes_only_after_commit(listen):
    got = both_ways(listen, ONLINE_GROUP, lambda: online_changed(sender=None, update_fields=None))
    assert got == [{"type": "online.changed"}]


def test_a_match_pushes_its_moves_only_after_commit(listen):
    """A match no table owns (a tournament's) is pushed to its own group by matches."""
    alice, bruno = make_user(nickname="Mossa_1"), make_user(nickname="Mossa_2")
    match = match_create(game="briscola", players=2, options={}, cancellable=False, forfeit_on_absence=False,
                         awards_xp=False, seats=[{"player": alice}, {"player": bruno}])
    heard = listen(match.group)

    def move():
        match.refresh_from_db()
        from apps.games.engines import get_engine

        state = get_engine("briscola").from_json(match.state)
        seat = state.to_act[0]
        user = {0: alice, 1: bruno}[seat]
        match_action_apply(match_id=match.pk, action=state.legal_actions(seat)[0], version=match.version, user=user)

    rolled_back(move)
    assert heard() == []
    committed(move)
    got = [m for m in heard() if m["type"] == "table.changed"]
    assert got and got[0]["match"] == match.pk and got[0]["version"] == 1
    assert "card" not in str(got)  # "changed, version n": never a card


def test_a_sanction_tells_the_floors_above_only_after_commit(listen):
    """A lobby ban closes the player's lobby room (chat) and table sockets once committed;
    a rolled-back issue closes nothing and freezes nothing."""
    player = make_user(nickname="Sanzionato_1")
    lobby = listen(lobby_user_group(player.pk))
    tables = listen(table_broadcast.user_group(player.pk))
    rolled_back(lambda: sanction_give(player, "lobby_ban", duration="permanent"))
    assert lobby() == [] and tables() == []
    sanction_give(player, "lobby_ban", duration="permanent")
    assert lobby(1.0) == [{"type": "socket.close", "code": 4403}]
    assert tables(1.0) == [{"type": "socket.close", "code": 4403}]


def test_sanction_started_is_sent_once_and_only_after_commit():
    """Every sanction hook hears ``sanction_started``, which the issuing service sends once the
    outermost transaction has committed: never for a rolled-back issue, never inside one."""
    from apps.compliance.signals import sanction_started

    heard: list[tuple[str, bool]] = []

    def hook(sender, sanction_id, player_id, kind, **kwargs):
        heard.append((kind, connection.in_atomic_block))

    sanction_started.connect(hook, dispatch_uid="test_sanction_started_after_commit")
    try:
        player = make_user(nickname="Sanzionato_S")
        rolled_back(lambda: sanction_give(player, "lobby_ban", duration="1_month"))
        assert heard == []
        with transaction.atomic():  # issued inside a caller's transaction: told at its commit
            sanction_give(player, "lobby_ban", duration="1_month")
            assert heard == []
        assert heard == [("lobby_ban", False)]
    finally:
        sanction_started.disconnect(dispatch_uid="test_sanction_started_after_commit")


def test_a_sanction_reaches_tournaments_and_matches_only_after_commit(listen):
    """The tournaments' and the matches' hooks: a rolled-back lobby ban cancels no registration,
    refunds nothing, forfeits no match and closes no tournament socket; committed, it does all
    of it (after the sanction's commit, through ``sanction_started``)."""
    operator = make_user(group="operator")
    [player] = players(1, cash=2000, prefix="Sanzionato_T")
    opponent = make_user(nickname="Avversario_T")
    t = create(operator, max_players=8, buy_in_cents=1000, fee_cents=0)
    register_all(t["id"], [player])
    match = match_create(game="briscola", players=2, options={}, cancellable=False, forfeit_on_absence=False,
                         awards_xp=False, seats=[{"player": player}, {"player": opponent}])
    sockets = listen(tournament_broadcast.tournament_user_group(player.pk))
    page = listen(tournament_broadcast.tournament_group(t["id"]))
    moves = listen(match.group)

    def registered() -> bool:
        return Registration.objects.filter(tournament_id=t["id"], player=player, active=True).exists()

    def forfeited() -> bool:
        return MatchSeat.objects.filter(match=match, player=player, abandoned=True).exists()

    rolled_back(lambda: sanction_give(player, "lobby_ban", duration="1_month"))
    assert sockets() == [] and page() == [] and moves() == []
    assert registered() and not forfeited() and Match.objects.get(pk=match.pk).status == Match.PLAYING
    assert wallet_get(player=player)["cash_cents"] == 1000
    sanction_give(player, "lobby_ban", duration="1_month")
    assert sockets(1.0) == [{"type": "socket.close", "code": 4403}]
    assert [m["type"] for m in page(1.0)][:1] == ["tournament.changed"]
    assert "table.changed" in {m["type"] for m in moves(1.0)}
    assert not registered() and forfeited() and wallet_get(player=player)["cash_cents"] == 2000


def test_a_rolled_back_authority_report_moves_no_money():
    from apps.wallet.models import Freeze
    from apps.wallet.selectors import wallet_get
    from apps.wallet.services import wallet_credit

    player = make_user(nickname="Sanzionato_2")
    wallet_credit(player=player, currency="cash", amount=500, kind="adjustment", reference="test",
                  source="house:cashier")
    rolled_back(lambda: sanction_give(player, "authority_report"))
    assert wallet_get(player=player)["cash_cents"] == 500 and not Freeze.objects.filter(player=player).exists()
    sanction_give(player, "authority_report")  # the service moves it itself, in its transaction
    assert wallet_get(player=player)["cash_cents"] == 0 and Freeze.objects.filter(player=player).exists()
