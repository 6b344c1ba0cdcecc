"""What the review of the tables found wanting, checked in Debian's chromium (issue 12).

Each case brings one of Mario's practice tables (robots in the other seats) to the moment that
showed the fault, by playing his turns through the service with the robots' own strategy, then
opens the page at 1366 px and 390 px, measures it and screenshots it to
test-artifacts/polish-<case>-<width>.png:

- Burraco: the top of the discard pile is a full-size card, not a small one;
- Scala 40 and Burraco: the melds are fanned wide enough to read each card's index and pips;
- Cirulla: the box that asks which capture to make does not cover the names of the sheet;
- Briscola at 390 px: no empty band of felt between the opponent and the middle;
- Solitario drawing one card: the waste shows one card, its top;
- Spades at 390 px: a team's names stay on one or two lines;
- French backs: a 20 px back reads as a card back (a patterned face with a white border).
"""

from __future__ import annotations

import json

import pytest

from tests.embedded import manage

from .test_table_browser import Player, _wait

pytestmark = pytest.mark.browser

CREATE = """
import json
from apps.players.models import Profile
from apps.tables import services
m = Profile.objects.get(user__username='mario').user
for old in m.seats.filter(table__status='open'):
    services.table_leave(user=m, table_id=old.table_id)
t = services.table_create(user=m, data={'game': GAME, 'players': PLAYERS, 'game_options': OPTIONS,
                                       'turn_seconds': 120})
print(json.dumps({'table': t.pk}))
"""

PLAY = """
import json, random, time
from apps.players.models import Profile
from apps.tables import services
from apps.tables.models import Table
from apps.games.engines import get_engine
from apps.matches.services import match_action_apply
m = Profile.objects.get(user__username='mario').user
t = Table.objects.get(pk=TABLE)
for s in range(1, t.players):
    services.table_robot_add(user=m, table_id=t.pk, seat=s)
match = t.matches.get()
engine = get_engine(t.game)
rng = random.Random(7)
moves = 0
deadline = time.time() + 90
found = False
while time.time() < deadline:
    match.refresh_from_db()
    if match.status != 'playing':
        break
    s = engine.from_json(match.state)
    if 0 not in s.to_act:
        time.sleep(0.05)
        continue
    v, legal = s.view(0), s.legal_actions(0)
    if moves >= AT_LEAST and (STOP):
        found = True
        break
    try:
        match_action_apply(match_id=match.pk, action=engine.robot_choice(v, legal, rng), version=match.version, user=m)
        moves += 1
    except Exception:
        time.sleep(0.05)
print(json.dumps({'found': found, 'moves': moves, 'version': match.version, 'over': match.status != 'playing'}))
"""


def _setup(player: Player, base: str, env, game: str, players: int, options: dict, stop: str,
           at_least: int = 0) -> int:
    """Mario's table for ``game``, brought to his turn where ``stop`` (a Python test of his view
    ``v`` and his moves ``legal``) holds; the table's id. His page is open on the table from
    the start, as a player's would be: a seat nobody watches is played by the robot. A match
    that ends before the moment (a random deal: Cirulla's cappotto ends it in the first hand)
    is followed by a new table, at most three times."""
    for _attempt in range(3):
        script = (CREATE.replace("GAME", repr(game)).replace("PLAYERS", str(players))
                  .replace("OPTIONS", repr(options)))
        table_id = json.loads(manage(env, "shell", "-c", script).strip().splitlines()[-1])["table"]
        player.page.goto(f"{base}/tables/{table_id}/")
        player.page.wait_for_selector(f"#table-{table_id}-board")
        _wait(player.page, lambda table_id=table_id: any(f"/ws/tables/{table_id}/" in url for url in player.sockets),
              10, "the table's socket")
        player.page.wait_for_timeout(500)
        script = PLAY.replace("TABLE", str(table_id)).replace("AT_LEAST", str(at_least)).replace("STOP", stop)
        out = json.loads(manage(env, "shell", "-c", script).strip().splitlines()[-1])
        if out["found"] or not out["over"]:
            break
    assert out["found"], f"{game}: the moment was not reached in {out['moves']} moves ({stop})"
    player.version = out["version"]
    return table_id


@pytest.fixture
def mario(chromium, fast_server):
    base, env, still_up = fast_server
    player = Player(chromium, base, "mario")
    player.log_in()
    yield player, base, env
    assert not player.errors, player.errors
    player.context.close()
    still_up()


def _open(player: Player, base: str, table_id: int, width: int) -> None:
    """The page opened by ``_setup``, at ``width``, once it shows the moment reached. It is not
    reloaded: leaving the table's page would hand Mario's seat to the robot for a moment."""
    page = player.page
    page.set_viewport_size({"width": width, "height": 900 if width > 600 else 844})
    page.wait_for_selector(f'#table-{table_id}-board[data-version="{player.version}"]')
    page.wait_for_selector(f"#table-{table_id}-actions .card-button, #table-{table_id}-actions .card-pick, "
                           f"#table-{table_id}-actions .plain-actions button, #table-{table_id}-actions label.pick-card")
    page.wait_for_timeout(200)  # the new width's layout
    player.table_id = table_id
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at {width} px"


def _shot(player: Player, artifacts, case: str, width: int) -> None:
    player.page.screenshot(path=str(artifacts / f"polish-{case}-{width}.png"), full_page=True)


BOX = "(el) => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; }"

# how far each card of a meld stands clear of the next one, in px, and the card's width
FAN_JS = """(sel) => [...document.querySelectorAll(sel)].map(meld => {
  const cards = [...meld.querySelectorAll('svg.playing-card')].map(c => c.getBoundingClientRect());
  const steps = cards.slice(1).map((r, i) => r.x - cards[i].x).filter(d => d > 0);
  return {width: cards.length ? cards[0].width : 0, step: steps.length ? Math.min(...steps) : null};
}).filter(m => m.step !== null)"""


def _fanned_wide_enough(page, selector: str) -> None:
    melds = page.evaluate(FAN_JS, selector)
    assert melds, f"no meld of two cards or more under {selector}"
    for meld in melds:
        # the index in the corner and the first pips: half a card, at least 18 px
        assert meld["step"] >= max(18, meld["width"] * 0.5) - 0.5, meld


def test_burraco_discard_top_and_melds(mario, artifacts):
    player, base, env = mario
    table_id = _setup(player, base, env, "burraco", 2, {"target": 0, "variant": "aperto"},
                      "len(v['pile']) >= 2 and any(len(x) >= 1 for x in v['melds'])")
    for width in (1366, 390):
        _open(player, base, table_id, width)
        page = player.page
        stock = page.locator(".stock-box svg.playing-card").evaluate(BOX)
        cards = page.locator(".discard-box .pile-cards svg.playing-card")
        top = cards.nth(cards.count() - 1).evaluate(BOX)
        # the card a player takes or plays on is as large as the stock's back beside it
        assert top["w"] >= stock["w"] - 0.5 and top["h"] >= stock["h"] - 0.5, (top, stock)
        _fanned_wide_enough(page, ".teams-melds .meld")
        _shot(player, artifacts, "burraco", width)


def test_scala40_melds(mario, artifacts):
    player, base, env = mario
    table_id = _setup(player, base, env, "scala40", 2, {"mode": "hands", "hands": 1},
                      "sum(len(x.get('cards') or []) >= 3 for x in v['melds']) >= 1 and legal[0]['type'] == 'draw'")
    for width in (1366, 390):
        _open(player, base, table_id, width)
        _fanned_wide_enough(player.page, ".table-melds .meld")
        _shot(player, artifacts, "scala40", width)


def test_cirulla_choice_leaves_the_names_in_sight(mario, artifacts):
    player, base, env = mario
    table_id = _setup(player, base, env, "cirulla", 2, {"mode": "points", "target": 51},
                      "len({a.get('card') for a in legal if a.get('type') == 'play'})"
                      " < len([a for a in legal if a.get('type') == 'play'])")
    for width in (1366, 390):
        _open(player, base, table_id, width)
        page = player.page
        choice = page.locator(f"#table-{table_id}-actions .choice:not([hidden])")
        if not choice.count():  # opened at the first width, it stays open at the next
            page.locator(f"#table-{table_id}-actions .card-button.chooser").first.click()
        choice.wait_for()
        box = choice.evaluate(BOX)
        for cell in page.locator(".scorebox th:first-child, .scorebox td:first-child").all():
            name = cell.evaluate(BOX)
            if not name["w"]:
                continue
            apart = (box["x"] + box["w"] <= name["x"] or name["x"] + name["w"] <= box["x"]
                     or box["y"] + box["h"] <= name["y"] or name["y"] + name["h"] <= box["y"])
            assert apart, f"the choice {box} covers the sheet's names {name} at {width} px"
        # and it stays inside the screen
        assert box["x"] >= 0 and box["x"] + box["w"] <= width + 0.5, box
        _shot(player, artifacts, "cirulla-choice", width)


def test_briscola_phone_has_no_empty_band(mario, artifacts):
    player, base, env = mario
    table_id = _setup(player, base, env, "briscola", 2, {"mode": "points"}, "not v.get('trick')")
    for width in (1366, 390):
        _open(player, base, table_id, width)
        page = player.page
        # from the opponent's box down to the first thing drawn in the middle (a card or a word)
        gap = page.evaluate("""(id) => {
          const board = document.querySelector(`#table-${id}-board`);
          const top = board.querySelector('.seat-spot.at-1').getBoundingClientRect();
          const drawn = [...board.querySelectorAll('.felt-grid .center svg, .felt-grid .center .info, .felt-grid .center p')]
            .map(e => e.getBoundingClientRect()).filter(r => r.height > 0);
          return Math.min(...drawn.map(r => r.y)) - (top.y + top.height); }""", table_id)
        assert gap <= 48, f"{gap:.0f} px of empty felt under the opponent at {width} px"
        _shot(player, artifacts, "briscola", width)


def test_solitario_draw_one_shows_one_waste_card(mario, artifacts):
    player, base, env = mario
    table_id = _setup(player, base, env, "solitario", 1, {"draw": 1}, "len(v['waste']) >= 3 and v['stock_count'] > 0")
    for width in (1366, 390):
        _open(player, base, table_id, width)
        page = player.page
        shown = page.locator(".sol-waste svg.playing-card").count()
        assert shown == 1, f"{shown} waste cards drawn when drawing one at a time"
        _shot(player, artifacts, "solitario", width)


def test_spades_team_names_fit_on_a_phone(mario, artifacts):
    player, base, env = mario
    table_id = _setup(player, base, env, "spades", 4, {"target": 200}, "True")
    for width in (1366, 390):
        _open(player, base, table_id, width)
        page = player.page
        lines = page.evaluate("""() => [...document.querySelectorAll('.board-panels .scorebox tbody th')].map(c => {
          const lh = parseFloat(getComputedStyle(c).lineHeight) || parseFloat(getComputedStyle(c).fontSize) * 1.2;
          const pad = parseFloat(getComputedStyle(c).paddingTop) + parseFloat(getComputedStyle(c).paddingBottom);
          return {text: c.innerText, lines: Math.round((c.getBoundingClientRect().height - pad) / lh)}; })""")
        names = [c for c in lines if "Robot" in c["text"]]
        assert len(names) == 2, lines
        for cell in names:
            assert cell["lines"] <= 2, f"{cell['text']!r} on {cell['lines']} lines at {width} px"
        # and the sheet is whole: no column hidden behind a sideways scroll
        widths = page.evaluate("""() => { const t = document.querySelector('.board-panels .scorebox');
          return {sheet: t.getBoundingClientRect().width, room: t.parentElement.clientWidth}; }""")
        assert widths["sheet"] <= widths["room"] + 0.5, f"the score sheet is cut at {width} px: {widths}"
        _shot(player, artifacts, "spades", width)
        # French backs: white lines on a blue middle, as a real deck's (svg-cards draws the
        # middle in the page's fill colour: black unless the page gives one)
        fill = page.evaluate("""() => { const b = document.querySelector('.seat-spot .backs svg.back');
          return b ? getComputedStyle(b).fill : null; }""")
        assert fill == "rgb(31, 79, 156)", fill
        box = page.evaluate("""() => { const b = [...document.querySelectorAll('.seat-spot .backs')]
          .map(e => e.getBoundingClientRect()).find(r => r.width > 0);
          return {x: b.x + window.scrollX, y: b.y + window.scrollY, width: b.width, height: b.height}; }""")
        page.screenshot(path=str(artifacts / f"polish-french-back-{width}.png"), full_page=True,
                        clip={"x": box["x"] - 4, "y": box["y"] - 4, "width": box["width"] + 8, "height": box["height"] + 8})
