"""The tournament pages in Debian's chromium against `manage.py serve` with the demo world:
the lobby, a scheduled tournament, registering (and a clear refusal), the finished bracket,
a running bracket with byes, points standings, a cancelled tournament as its player and as
an operator; a tournament match played from its page by clicking. Screenshots at 1366 and 390 px."""

from __future__ import annotations

import re

import pytest

from tests.embedded import manage

from .test_table_browser import Player, _wait

pytestmark = pytest.mark.browser


def _login(page, base, username):
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "mazziere-demo")
    page.click("button[type=submit]")


def _open(page, base, name):
    page.goto(f"{base}/tournaments/")
    page.click(f"text={name}")
    page.wait_for_selector("#tournament-body")


def test_tournament_pages(chromium, mazziere_server, artifacts):
    base, _env, still_up = mazziere_server
    for width, height, lang in ((1366, 900, "it-IT"), (390, 844, "en-US")):
        context = chromium.new_context(viewport={"width": width, "height": height}, locale=lang)
        page = context.new_page()
        page.goto(f"{base}/tournaments/")
        assert "Sit and Go" in page.inner_text("main")
        assert "€5,00 (4,50+0,50)" in page.inner_text("main")
        page.screenshot(path=str(artifacts / f"tournaments-lobby-{width}.png"), full_page=True)

        # a player with no money is told why; one with money registers and can unregister
        _login(page, base, "anna" if width == 1366 else "demo_lia")
        _open(page, base, "Torneo della sera")
        if width == 1366:
            page.click("#register")
            assert "€10,00" in page.inner_text(".messages")
            page.screenshot(path=str(artifacts / f"tournament-register-refused-{width}.png"), full_page=True)
        else:
            page.click("#register")
            page.wait_for_selector("#unregister")
            page.screenshot(path=str(artifacts / f"tournament-registered-{width}.png"), full_page=True)
            page.click("#unregister")
            page.wait_for_selector("#register")
        page.context.clear_cookies()

        _open(page, base, "Sit and Go concluso")
        assert page.locator(".bracket-round").count() == 2
        page.screenshot(path=str(artifacts / f"tournament-bracket-finished-{width}.png"), full_page=True)

        _open(page, base, "Eliminazione in corso")  # 6 players: an 8 bracket with 2 byes, round one in play
        assert page.locator(".bracket-round").count() == 3 and page.locator(".bracket-match.bye").count() == 2
        page.screenshot(path=str(artifacts / f"tournament-knockout-running-{width}.png"), full_page=True)

        _open(page, base, "Torneo a punti concluso")
        assert page.locator("table.standings tbody tr").count() == 3
        page.screenshot(path=str(artifacts / f"tournament-points-finished-{width}.png"), full_page=True)

        _login(page, base, "demo_elsa")
        _open(page, base, "Torneo annullato")
        assert page.locator("#my-refund").count() == 1 and page.locator("#refund-progress").count() == 0
        page.screenshot(path=str(artifacts / f"tournament-cancelled-player-{width}.png"), full_page=True)
        page.context.clear_cookies()

        _login(page, base, "operatore")
        _open(page, base, "Torneo annullato")
        assert "8" in page.inner_text("#refund-progress")
        page.screenshot(path=str(artifacts / f"tournament-cancelled-operator-{width}.png"), full_page=True)
        context.close()
    still_up()


# A Sit&Go of two (Anna and Mario, a Briscola freeroll) starts in the server's own database; the
# player to act finds "Gioca la tua partita" on the tournament page, opens the match and plays a
# card by clicking it; the move comes back over the socket (platform.md §5.7).
START = (
    "from apps.players.models import Profile; from apps.tournaments import services;"
    "from apps.tournaments.models import TournamentMatch; from apps.matches.models import Match;"
    "from apps.games.engines import get_engine;"
    "from django.contrib.auth import get_user_model; op = get_user_model().objects.get(username='operatore');"
    "t = services.tournament_create(actor=op, data={'name': 'Coppa del browser', 'game': 'briscola',"
    " 'kind': 'sit_and_go', 'format': 'knockout', 'buy_in_cents': 0, 'fee_cents': 0,"
    " 'guaranteed_cents': 1000, 'prize': 'cash', 'satellite_target': None, 'max_players': 2,"
    " 'starts_at': None, 'payouts': [100], 'game_options': {}, 'turn_seconds': 120});"
    "[services.tournament_register(user=Profile.objects.get(user__username=n).user, tournament_id=t.pk)"
    " for n in ('anna', 'mario')]\n"
    "if not TournamentMatch.objects.filter(tournament_id=t.pk).exists(): services.tournament_start(tournament_id=t.pk)\n"
    "tm = TournamentMatch.objects.get(tournament_id=t.pk); m = Match.objects.get(pk=tm.match_id);"
    "seat = get_engine(m.game).from_json(m.state).to_act[0];"
    "print(t.pk, m.pk, m.match_seats.get(number=seat).player.username)"
)


def test_play_a_tournament_match_by_clicking(chromium, mazziere_server, artifacts):
    base, env, still_up = mazziere_server
    tid, mid, username = manage(env, "shell", "-c", START).strip().splitlines()[-1].split()
    player = Player(chromium, base, username)
    player.log_in()
    page = player.page
    page.goto(f"{base}/tournaments/{tid}/")
    assert "Gioca la tua partita" in page.inner_text("#play-your-match")
    page.screenshot(path=str(artifacts / "tournament-play-your-match-1366.png"), full_page=True)
    page.click("#play-your-match a")
    page.wait_for_url(f"{base}/tournaments/matches/{mid}/")
    board = f"#match-{mid}-board"
    page.wait_for_selector(f"#match-{mid}-actions form.action button.card-button")
    version = int(page.get_attribute(board, "data-version"))
    assert re.search(r"\d+ s", page.inner_text(f"#match-{mid}-timer"))  # the turn's countdown
    hand = page.locator(f"#match-{mid}-actions .hand-cards [data-hand]").count()
    page.screenshot(path=str(artifacts / "tournament-match-1366.png"), full_page=True)
    page.locator(f"#match-{mid}-actions form.action button.card-button").first.click()
    _wait(page, lambda: int(page.get_attribute(board, "data-version") or 0) > version, 10, "the move to come back")
    assert any("action" in frame for frame in player.sent), player.sent  # the move went over the socket
    _wait(page, lambda: page.locator(f"#match-{mid}-actions .hand-cards [data-hand]").count() < hand
          or int(page.get_attribute(board, "data-version") or 0) > version + 1, 10, "the hand to lose the card")
    assert f"/ws/tournaments/matches/{mid}/" in " ".join(player.sockets)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    page.screenshot(path=str(artifacts / "tournament-match-390.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide at 390"
    assert not player.errors, player.errors
    player.context.close()
    still_up()


# Giulia waits on the tournament page and on the tournaments lobby; Luca's registration, made in
# another process (as the worker would start it), fills the Sit&Go: both pages say "your table is
# ready" with the link within seconds, and the tournament page no longer says "registered".
READY_SETUP = (
    "from apps.players.models import Profile; from apps.tournaments import services;"
    "from django.contrib.auth import get_user_model; op = get_user_model().objects.get(username='operatore');"
    "t = services.tournament_create(actor=op, data={'name': 'Sit and Go del banner', 'game': 'briscola',"
    " 'kind': 'sit_and_go', 'format': 'knockout', 'buy_in_cents': 0, 'fee_cents': 0,"
    " 'guaranteed_cents': 1000, 'prize': 'cash', 'satellite_target': None, 'max_players': 2,"
    " 'starts_at': None, 'payouts': [100], 'game_options': {}, 'turn_seconds': 120});"
    "services.tournament_register(user=Profile.objects.get(user__username='giulia').user, tournament_id=t.pk);"
    "print(t.pk)"
)
READY_FILL = (
    "from apps.players.models import Profile; from apps.tournaments import services;"
    "from apps.tournaments.models import TournamentMatch; tid = {tid};"
    "services.tournament_register(user=Profile.objects.get(user__username='luca').user, tournament_id=tid)\n"
    "if not TournamentMatch.objects.filter(tournament_id=tid).exists(): services.tournament_start(tournament_id=tid)\n"
    "print(TournamentMatch.objects.get(tournament_id=tid).match_id)"
)


def test_a_filled_sit_and_go_offers_the_table_on_every_open_page(chromium, mazziere_server, artifacts):
    base, env, still_up = mazziere_server
    tid = manage(env, "shell", "-c", READY_SETUP).strip().splitlines()[-1]
    player = Player(chromium, base, "giulia")
    player.log_in()
    page = player.page
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{base}/tournaments/{tid}/")
    lobby = player.context.new_page()
    lobby.set_viewport_size({"width": 390, "height": 844})
    lobby.goto(f"{base}/tournaments/")
    assert page.locator("#table-ready").is_hidden() and page.locator("#unregister").count() == 1
    mid = manage(env, "shell", "-c", READY_FILL.format(tid=tid)).strip().splitlines()[-1]
    href = f"/tournaments/matches/{mid}/"
    for each in (page, lobby):
        each.wait_for_selector(f"#table-ready a[href='{href}']", state="visible", timeout=10_000)
        assert "Il tuo tavolo è pronto" in each.inner_text("#table-ready")
    page.wait_for_selector("#play-your-match", timeout=10_000)  # the page itself refreshed too
    assert page.locator("#unregister").count() == 0
    page.screenshot(path=str(artifacts / "tournament-table-ready-1366.png"), full_page=False)
    lobby.screenshot(path=str(artifacts / "tournaments-lobby-table-ready-390.png"), full_page=False)
    assert lobby.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("#table-ready .table-ready-close")  # hidden for this match, also on the next page
    page.wait_for_selector("#table-ready", state="hidden")
    page.reload()
    page.wait_for_timeout(1500)
    assert page.locator("#table-ready").is_hidden() and page.locator("#play-your-match").count() == 1
    lobby.click("#table-ready a")
    lobby.wait_for_url(f"{base}{href}")
    assert lobby.locator("#table-ready").is_hidden()  # not offered on the table's own page
    assert not player.errors, player.errors
    player.context.close()
    still_up()
