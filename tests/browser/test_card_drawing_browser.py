"""Drawing cards in Debian's chromium (issue 25): every game with every face it offers.

French faces were ``<use>`` references into the 962 KB svg-cards sprite: the browser cloned each
face's drawing into the page (a Hearts page held ~815,000 elements) and each socket frame cost
1-3 s of main thread; French faces on an Italian game drew blank cards. For each game and face,
Mario's practice table (robots in the other seats, a dealt match) is opened at 1366 and 390 px
(one login; one page at a time, each in a browser context of its own so that its renderer's
main thread is its alone):

- every card on the page is drawn: a box of nonzero size whose image loads with a nonzero size;
- a table update (a fresh render pushed over the socket and swapped by htmx), measured at
  1366 px (the phone width checks the drawing and the layout), costs at most 100 ms of main thread: the renderer main thread's CPU time (a Chromium trace) from the request
  to 400 ms after the frame painted after it (Performance API: ``requestAnimationFrame``), with the
  long animation frames meanwhile reported beside it (one measured update after one that warms
  up; the median of three only when the first is over the budget).

The same pages check what issue 25 says of single games: Briscola's briscola card is as large as
a hand card (crosswise under the stock); Solitario's seven columns fit a phone, with no dealer
tag and no chat; and a Burraco pile as long as at a hand's end stays inside the board. A Briscola
match between Mario and Anna is shown mid-hand and at its end (screenshots, running points).

Screenshots: test-artifacts/cards-<game>-<face>-<width>.png (and briscola-mid/end, burraco-pile).
"""

from __future__ import annotations

import json

import pytest

from apps.games.engines import ENGINES
from tests.conftest import LONG
from tests.embedded import manage

from .test_table_browser import Player, _wait

pytestmark = [pytest.mark.browser, LONG]

#: every game with every face its registration offers
CASES = [(game, face) for game in sorted(ENGINES) for face in ENGINES[game].card_faces()]
BUDGET_MS = 100

CREATE = """
import json
from apps.games.engines import ENGINES
from apps.players.models import Profile
from apps.tables import services
m = Profile.objects.get(user__username='mario').user
for old in m.seats.filter(table__status='open'):
    services.table_leave(user=m, table_id=old.table_id)
out = {}
for game, face in CASES:
    players = ENGINES[game].min_players
    t = services.table_create(user=m, data={'game': game, 'players': players, 'face': face, 'turn_seconds': 120})
    for s in range(1, players):
        services.table_robot_add(user=m, table_id=t.pk, seat=s)
    out[game + ':' + face] = t.pk
EXTRA
print(json.dumps(out))
"""

#: Briscola between Mario and Anna, mid-hand (three tricks) and played to its end, through the
#: services; a Burraco table whose discard pile is as long as at a hand's end (the stock on it)
EXTRA = """
from django.db import transaction
from django.db.models import F
from apps.games.engines import get_engine
from apps.matches.services import match_action_apply
from apps.tables.models import Match, Table
a = Profile.objects.get(user__username='anna').user
for old in a.seats.filter(table__status='open'):
    services.table_leave(user=a, table_id=old.table_id)
def moves(table, n):
    users = {0: m, 1: a}
    for _ in range(n):
        match = table.matches.order_by('-id').first()
        if match.status != Match.PLAYING:
            return
        state = get_engine(match.game).from_json(match.state)
        seat = state.to_act[0]
        match_action_apply(match_id=match.pk, action=state.legal_actions(seat)[0], version=match.version,
                           user=users[seat])
for name, n in (('briscola:mid', 6), ('briscola:end', 500)):
    t = services.table_create(user=m, data={'game': 'briscola', 'turn_seconds': 120})
    services.table_sit(user=a, table_id=t.pk)
    moves(t, n)
    out[name] = t.pk
t = services.table_create(user=m, data={'game': 'burraco', 'players': 2, 'turn_seconds': 120,
                                        'game_options': {'dealer': 1}})  # Mario first: no robot takes the pile
services.table_robot_add(user=m, table_id=t.pk, seat=1)
with transaction.atomic():
    match = Match.objects.select_for_update().get(table_link__table=t)
    state = get_engine('burraco').from_json(match.state)
    while len(state.d['stock']) > 3:
        state.d['pile'].append(state.d['stock'].pop(0))
    match.state = state.to_json()
    match.save(update_fields=['state'])
    Table.objects.filter(pk=t.pk).update(revision=F('revision') + 1)
out['burraco:pile'] = t.pk
"""

#: every card drawn on the page, and whether its image loads with a nonzero size
CARDS_JS = """async () => {
  const cards = [...document.querySelectorAll('#table-root svg.playing-card')];
  const hrefs = new Set();
  const bad = [];
  for (const c of cards) {
    const r = c.getBoundingClientRect();
    const img = c.querySelector('image');
    const href = img && img.getAttribute('href');
    if (!href) { bad.push({card: c.dataset.card || 'back', why: 'no image'}); continue; }
    if (c.checkVisibility() && (!r.width || !r.height))  // a hidden one (the own seat's backs) has no box
      bad.push({card: c.dataset.card || 'back', why: 'no size'});
    hrefs.add(href);
  }
  for (const href of hrefs) {
    const size = await new Promise((ok) => {
      const i = new Image(); i.onload = () => ok(i.naturalWidth * i.naturalHeight); i.onerror = () => ok(0); i.src = href;
    });
    if (!size) bad.push({href, why: 'image does not load'});
  }
  return {count: cards.length, faces: cards.filter((c) => c.dataset.card).length, files: hrefs.size, bad,
          elements: document.getElementsByTagName('*').length};
}"""

#: one table update: ask a fresh render (table.js's ``table:sync``), time from the first socket
#: frame's arrival to the frame painted after the last one, and collect the long animation
#: frames (Chromium's Performance API) meanwhile
UPDATE_JS = """() => new Promise((resolve) => {
  const root = document.getElementById('table-root');
  const frames = [];
  const observer = new PerformanceObserver((list) => {
    // the main thread's own work in a long animation frame: its scripts and its rendering
    for (const e of list.getEntries()) {
      const scripts = e.scripts.reduce((sum, s) => sum + s.duration, 0);
      const render = e.renderStart ? e.startTime + e.duration - e.renderStart : 0;
      frames.push(Math.round(scripts + render));
    }
  });
  observer.observe({type: 'long-animation-frame'});
  let start = null, painted = null, quiet = null, messages = 0;
  const done = () => { observer.disconnect(); resolve({ms: painted === null ? null : Math.round(painted - start),
                                                        frames, messages}); };
  root.addEventListener('htmx:wsBeforeMessage', () => { if (start === null) start = performance.now(); messages++; });
  root.addEventListener('htmx:wsAfterMessage', () => {
    requestAnimationFrame(() => setTimeout(() => {
      painted = performance.now();
      clearTimeout(quiet);
      quiet = setTimeout(done, 400);
    }, 0));
  });
  setTimeout(done, 5000);
  root.dispatchEvent(new Event('table:sync'));
})"""


def _main_thread_ms(trace: dict, url: str) -> float:
    """The CPU time of the page's renderer main thread in a Chromium trace: the thread time
    (``tdur``) of its top-level tasks. Thread time, not wall time: 8 other people's tests share
    this machine's 2 cores, and a task that waits for a core does not cost the page more."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    pids = {frame["processId"] for e in events if e.get("name") == "TracingStartedInBrowser"
            for frame in e["args"]["data"].get("frames", []) if frame.get("url", "").startswith(url)}
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain" and e["pid"] in pids}
    assert main, f"no renderer main thread for {url} in the trace"
    return sum(e.get("tdur", 0) for e in events if (e.get("pid"), e.get("tid")) in main
               and e.get("ph") == "X" and e.get("name") in ("ThreadControllerImpl::RunTask", "RunTask")) / 1000


def _update_cost(browser, page, warm: bool) -> tuple[float, list[dict]]:
    """The main-thread cost of a table update on ``page`` (after one that warms up when
    ``warm``): the renderer main thread's CPU time from the request to 400 ms after the painted
    frame (so a little more than the update itself). Over the budget, two more are measured and
    the median counts: one slow update on a shared machine is not the page's cost."""
    if warm:
        page.evaluate(UPDATE_JS)
    updates = []
    for _ in range(3):
        browser.start_tracing(page=page, categories=["toplevel", "disabled-by-default-devtools.timeline"])
        update = page.evaluate(UPDATE_JS)
        update["cpu_ms"] = round(_main_thread_ms(json.loads(browser.stop_tracing()), page.url), 1)
        assert update["messages"] >= 1 and update["ms"] is not None, "no update came"
        updates.append(update)
        if len(updates) == 1 and update["cpu_ms"] <= BUDGET_MS:
            break
    costs = sorted(u["cpu_ms"] for u in updates)
    return costs[len(costs) // 2], updates


class Visit:
    """Mario at one table: a browser context of its own (its own renderer process), logged in
    with the cookies of the one login, the page open and its socket connected."""

    def __init__(self, browser, base: str, storage: dict, table_id: int) -> None:
        self.context = browser.new_context(storage_state=storage, viewport={"width": 1366, "height": 900},
                                           locale="it-IT")
        self.page = page = self.context.new_page()
        self.errors: list[str] = []
        self.sockets: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("console", lambda m: self.errors.append(f"console: {m.text} at {m.location}")
                if m.type == "error" and "favicon" not in (m.location or {}).get("url", "") else None)
        page.on("websocket", lambda ws: self.sockets.append(ws.url))
        page.goto(f"{base}/tables/{table_id}/")
        page.wait_for_selector(f"#table-{table_id}-board svg.playing-card", state="attached")
        _wait(page, lambda: any(f"/ws/tables/{table_id}/" in u for u in self.sockets), 10, "the table's socket")

    def width(self, width: int) -> None:
        self.page.set_viewport_size({"width": width, "height": 900 if width > 600 else 844})
        self.page.wait_for_timeout(100)


#: the Briscola briscola card's box and a hand card's
TRUMP_JS = """() => {
  const box = (el) => el && (({width, height}) => ({width, height}))(el.getBoundingClientRect());
  return {trump: box(document.querySelector('#table-root .stock-pile svg.trump-card')),
          hand: box(document.querySelector('#table-root .my-hand .hand-cards svg.playing-card'))};
}"""

#: each Solitario column's box and the boxes of its cards, and what a one-person table shows
SOLITARIO_JS = """() => {
  const board = document.querySelector('.solitario').getBoundingClientRect();
  const columns = [...document.querySelectorAll('.sol-column')].map((col) => {
    const box = col.getBoundingClientRect();
    const cards = [...col.querySelectorAll('svg.playing-card')].map((c) => c.getBoundingClientRect())
      .map((r) => ({x: r.x, right: r.right, w: r.width, h: r.height}));
    return {x: box.x, right: box.right, cards};
  });
  return {board: {x: board.x, right: board.right}, columns,
          dealer: [...document.querySelectorAll('#table-root .chip.dealer, #table-root .tag')]
            .filter((t) => /mazziere|dealer/i.test(t.textContent)).length,
          chat: document.querySelectorAll('#table-root .chat, #table-root form.chat-form').length,
          cancel: document.querySelectorAll('#table-root .cancel-vote').length,
          overflow: document.documentElement.scrollWidth - window.innerWidth};
}"""

#: the Burraco board's box, its discard pile's and each pile card's
PILE_JS = """() => {
  const r = (el) => (({x, y, right, bottom}) => ({x, y, right, bottom}))(el.getBoundingClientRect());
  return {board: r(document.querySelector('#table-root section.board')),
          pile: r(document.querySelector('#table-root .discard-box')),
          cards: [...document.querySelectorAll('#table-root .discard-box svg.playing-card')].map(r),
          overflow: document.documentElement.scrollWidth - window.innerWidth};
}"""


def _check_trump(page, game: str, width: int) -> None:
    """Issue 25: the briscola card was a 35 px thumbnail; it lies crosswise, a hand card's size."""
    got = page.evaluate(TRUMP_JS)
    assert got["trump"] and got["hand"], (game, width, got)
    assert abs(got["trump"]["width"] - got["hand"]["height"]) <= 1, (game, width, got)
    assert abs(got["trump"]["height"] - got["hand"]["width"]) <= 1, (game, width, got)


def _check_solitario(page, width: int) -> None:
    """Issue 25: at 390 px the face-down rows spilled into the next columns and the seventh
    column was pushed off; the one-person board showed a "mazziere" tag, a chat and a vote."""
    got = page.evaluate(SOLITARIO_JS)
    assert got["overflow"] <= 0, f"the page scrolls sideways by {got['overflow']} px at {width} px"
    assert len(got["columns"]) == 7
    for n, col in enumerate(got["columns"]):
        assert got["board"]["x"] - 0.5 <= col["x"] and col["right"] <= got["board"]["right"] + 0.5, (width, n, col)
        for card in col["cards"]:  # every card (face-down ones too) inside its own column
            assert col["x"] - 0.5 <= card["x"] and card["right"] <= col["right"] + 0.5, (width, n, card)
            assert card["w"] >= 36 and card["h"] >= 54, (width, n, card)
    assert got["dealer"] == 0 and got["chat"] == 0 and got["cancel"] == 0, got


def test_every_game_with_every_face_draws_every_card_and_updates_fast(chromium, mazziere_server, artifacts):
    base, env, still_up = mazziere_server
    script = CREATE.replace("EXTRA", EXTRA).replace("CASES", repr(CASES))
    tables = json.loads(manage(env, "shell", "-c", script).strip().splitlines()[-1])
    mario = Player(chromium, base, "mario")
    mario.log_in()
    storage = mario.context.storage_state()
    mario.context.close()
    slow, blank, errors = [], [], []
    # one table at a time: Mario stays connected while he is measured there, so no robot plays
    # his seat and the robots wait for his turn (the match does not run on meanwhile)
    for game, face in CASES:
        visit = Visit(chromium, base, storage, tables[f"{game}:{face}"])
        page = visit.page
        for width in (1366, 390):
            visit.width(width)
            drawn = page.evaluate(CARDS_JS)
            assert drawn["faces"] >= 1, f"{game} {face}: no card face on the page"
            if drawn["bad"]:
                blank.append((game, face, width, drawn["bad"][:5]))
            if game == "briscola":
                _check_trump(page, game, width)
            if game == "solitario":
                _check_solitario(page, width)
            if width == 1366:  # the update's cost is measured once a case (CI's time budget); 390 px: drawing
                cost, updates = _update_cost(chromium, page, warm=True)
                print(f"{game} {face} {width}px: {drawn['count']} cards, {drawn['elements']} elements, "
                      f"update {cost} ms")
                if cost > BUDGET_MS:
                    slow.append((game, face, width, cost, drawn["elements"], updates))
            page.screenshot(path=str(artifacts / f"cards-{game}-{face}-{width}.png"), full_page=True)
        errors += visit.errors
        visit.context.close()
    # Burraco's pile as long as at a hand's end, and Briscola mid-hand and at the end
    for name in ("burraco:pile", "briscola:mid", "briscola:end"):
        visit = Visit(chromium, base, storage, tables[name])
        for width in (1366, 390):
            visit.width(width)
            visit.page.screenshot(path=str(artifacts / f"{name.replace(':', '-')}-{width}.png"), full_page=True)
            if name == "burraco:pile":  # issue 25: the pile spilled off the table
                got = visit.page.evaluate(PILE_JS)
                assert len(got["cards"]) >= 60 and got["overflow"] <= 0, (width, got["overflow"])
                board, pile = got["board"], got["pile"]
                for box in [pile, *got["cards"]]:
                    assert board["x"] - 0.5 <= box["x"] and box["right"] <= board["right"] + 0.5, (width, board, box)
                    assert board["y"] - 0.5 <= box["y"] and box["bottom"] <= board["bottom"] + 0.5, (width, board, box)
                for box in got["cards"]:  # inside the pile's own box, not drawn over the stock beside it
                    assert pile["x"] - 0.5 <= box["x"] and box["right"] <= pile["right"] + 0.5, (width, pile, box)
                # each card shows a strip of itself (the pile is not stacked into one card)
                lefts = sorted({round(box["x"]) for box in got["cards"]})
                assert len(lefts) >= 8 and min(b - a for a, b in zip(lefts, lefts[1:], strict=False)) >= 10, (width, lefts)
            elif name == "briscola:mid":
                _check_trump(visit.page, name, width)
        errors += visit.errors
        visit.context.close()
    still_up()
    assert not blank, f"blank cards: {blank}"
    assert not slow, f"table updates over {BUDGET_MS} ms of main thread: {slow}"
    assert not errors, errors
