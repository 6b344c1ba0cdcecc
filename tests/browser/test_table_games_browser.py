"""A whole match of every game the table draws family by family, played through the page in
Debian's chromium (issue 12): one human (Mario) and robots at a practice table, short
options so that the whole module stays quick.

At every one of Mario's turns the page is checked as a player would see it: no engine key
name and no seat number in its text, every opponent's hand drawn as backs with its count,
Mario's own hand once (and nowhere else on the page), and no card the API's view of his seat
does not hold. At the start, the middle and the end it is screenshotted at 1366 px and at
390 px (where nothing may be wider than the screen and his cards are at least 44 px wide).
"""

from __future__ import annotations

import json
import re
import time

import pytest

from tests.embedded import serving, wait_for

from .conftest import CHROMIUM, _still_up
from .test_table_browser import Player, _wait

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

GAMES = [  # (game, players, options): short matches
    ("scopa", 2, {"mode": "points", "target": 1}),
    ("scopone", 4, {"mode": "points", "target": 1}),
    ("asso_pigliatutto", 2, {"mode": "points", "target": 1}),
    ("cirulla", 2, {"mode": "points", "target": 1}),
    ("briscola", 2, {"mode": "points"}),
    ("tresette", 4, {"mode": "hands", "hands": 1}),
    ("bestia", 3, {"rounds": 1}),
    ("hearts", 4, {"mode": "hands", "hands": 1}),
    ("spades", 4, {"target": 200}),
]
ENGINE_KEYS = ["captured_counts", "pass_done", "hands_won", "last_capture", "passed", "received",
               "hand_counts", "stock_count", "to_act", "trump_suit", "taken_points", "points_taken", "last_hand",
               "primiera_values", "put_away", "tricks_taken", "hands_planned", "hand_number", "balances", "None",
               "True", "False", "{'", "\"type\""]
KEY_VALUE = re.compile(r"\b(spareggio|mode|phase|seat|winner|dealer)\s*[:=]", re.IGNORECASE)  # a key shown with its value
SEAT_NUMBER = re.compile(r"\b(posto|seat|squadra|team)\s+\d\b|\bv\d+\b", re.IGNORECASE)
CHOICE_SHOTS: dict[str, bool] = {}  # one screenshot of an open capture choice per game
RERENDERED_PICKS: list[str] = []  # picks that lived through a re-render (Hearts checks it happened)
CARD = re.compile(r"^(?:[A2-7FCR][dcsb]|[A2-9TJQK][hdcs]|X)$")



@pytest.fixture(scope="module")
def mazziere_server(tmp_path_factory):
    """The embedded server with robots that move at once and a socket that looks for the
    worker's changes five times a second: nine whole matches must stay quick."""
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium not installed: apt-get install chromium (CI does)")
    var_dir = tmp_path_factory.mktemp("serve")
    with serving(var_dir, MAZZIERE_ROBOT_MOVE_DELAY="0", MAZZIERE_TABLE_POLL_SECONDS="0.2") as (base, env, proc):
        wait_for(f"{base}/")
        yield base, env, lambda: _still_up(proc, var_dir)


PAGE_JS = """(id) => {
  const q = (sel) => document.querySelector(sel);
  const board = q(`#table-${id}-board`), actions = q(`#table-${id}-actions`);
  const me = actions ? (actions.querySelector("style").textContent.match(/seat-spot\\.at-(\\d+)\\{outline/) || [])[1] : null;
  const spots = Array.from(document.querySelectorAll(`#table-${id}-board .seat-spot`)).map((s) => ({
    seat: s.dataset.seat,
    count: s.querySelector(".hand-backs") ? parseInt(s.querySelector(".hand-backs").dataset.count, 10) : null,
    backs: s.querySelectorAll(".hand-backs svg.back").length,
    countText: (s.querySelector(".hand-backs .count") || {}).textContent || "",
    visible: s.querySelector(".hand-backs") ? getComputedStyle(s.querySelector(".hand-backs")).display !== "none" : false,
  }));
  const hand = Array.from(document.querySelectorAll(`#table-${id}-actions .my-hand [data-hand] > svg[data-card]`));
  const cards = [];
  for (const el of document.querySelectorAll("[data-card],[aria-label],[title],[data-takes]")) {
    for (const name of ["data-card", "aria-label", "title", "data-takes"]) {
      const v = el.getAttribute(name);
      if (v) cards.push(...v.split(/[^0-9A-Za-z]+/));
    }
  }
  const inBoard = Array.from(document.querySelectorAll(`#table-${id}-board svg[data-card]`)).map((e) => e.dataset.card);
  return {
    version: board ? parseInt(board.dataset.version || "0", 10) : null,
    match: board ? board.dataset.match : "",
    actionsVersion: actions ? parseInt(actions.dataset.version || "0", 10) : null,
    me, spots,
    hand: hand.map((e) => e.dataset.card),
    handWidths: hand.map((e) => e.getBoundingClientRect().width),
    inBoard, cards,
    text: document.body.innerText,
    result: (q(`#table-${id}-result`) || {}).textContent || "",
    outcome: (q(".outcome") || {}).textContent || "",
    controls: document.querySelectorAll(`#table-${id}-actions .card-button, #table-${id}-actions form.pick, #table-${id}-actions .plain-actions button`).length,
    scrollWidth: document.documentElement.scrollWidth,
    wide: Array.from(document.querySelectorAll("body *")).filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 6).map((e) => `${e.tagName}.${e.className && e.className.baseVal === undefined ? e.className : ""}#${e.id}`),
    error: (q(`#table-${id}-error`) || {}).textContent || "",
  };
}"""


def _card_codes(value, out: set[str]) -> set[str]:
    if isinstance(value, str):
        if CARD.match(value):
            out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _card_codes(v, out)
    elif isinstance(value, list):
        for v in value:
            _card_codes(v, out)
    return out


def _csrf(player: Player) -> str:
    return next(c["value"] for c in player.context.cookies() if c["name"] == "csrftoken")


def _check(player: Player, snap: dict, match_id: str, players: int, phone: bool = False) -> None:
    """What a player may and may not see, on the page as it is now."""
    text = snap["text"]
    for key in ENGINE_KEYS:
        assert key not in text, f"engine key {key!r} in the page text"
    assert not KEY_VALUE.search(text), KEY_VALUE.search(text).group(0)
    found = SEAT_NUMBER.search(text)
    assert found is None, f"a seat number in the page text: {found.group(0)!r}"
    me = snap["me"]
    assert me is not None, "the page does not say which seat is mine"
    assert len(snap["spots"]) == players
    for spot in snap["spots"]:
        if spot["seat"] == me or spot["count"] is None:
            continue
        assert spot["visible"], f"an opponent's hand is not shown: {spot}"
        assert spot["backs"] == min(spot["count"], 20), spot
        assert str(spot["count"]) in spot["countText"], spot
    hand = snap["hand"]
    assert len(hand) == len(set(hand)), f"a card twice in the hand: {hand}"
    assert not set(hand) & set(snap["inBoard"]), "the own hand is drawn on the board too"
    view = player.api_match(match_id)["view"]
    allowed = _card_codes(view, set())
    shown = {c for c in snap["cards"] if CARD.match(c)}
    assert shown <= allowed, f"cards on the page that this seat may not see: {sorted(shown - allowed)}"
    assert not snap["error"], snap["error"]
    if phone:
        assert snap["scrollWidth"] <= 390, f"the page is {snap['scrollWidth']} px wide at 390 px: {snap['wide']}"
        assert all(w >= 44 for w in snap["handWidths"]), snap["handWidths"]


def _shots(player: Player, artifacts, game: str, moment: str, match_id: str, players: int) -> None:
    page = player.page
    page.screenshot(path=str(artifacts / f"table-{game}-{moment}-1366.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(150)
    _check(player, player.page.evaluate(PAGE_JS, player.table_id), match_id, players, phone=True)
    page.screenshot(path=str(artifacts / f"table-{game}-{moment}-390.png"), full_page=True)
    page.set_viewport_size({"width": 1366, "height": 900})


def _act(page, table_id: int, on_choice=None) -> bool:
    """Make the first move the page offers, the way a player would click it; False when the
    page changed under the test and offers nothing now (the caller waits again)."""
    actions = f"#table-{table_id}-actions"
    pick = page.locator(f"{actions} form.pick")
    single = page.locator(f"{actions} .card-button:not(.chooser)")
    chooser = page.locator(f"{actions} .card-button.chooser")
    plain = page.locator(f"{actions} .plain-actions button")
    if pick.count():
        wanted = int(pick.first.get_attribute("data-min") or "1")
        labels = pick.first.locator("label.pick-card")
        labels.nth(0).click()
        # a fresh render (another player's move does the same) replaces the form: the card
        # ticked so far stays ticked
        count = page.evaluate("""() => { const r = document.getElementById("table-root");
          if (!r.dataset.renders) { r.dataset.renders = "0";
            r.addEventListener("htmx:wsAfterMessage", () => { r.dataset.renders = String(+r.dataset.renders + 1); }); }
          r.dispatchEvent(new Event("table:sync")); return +r.dataset.renders; }""")
        _wait(page, lambda: page.evaluate("() => +document.getElementById('table-root').dataset.renders") > count,
              5, "a fresh render of the pass")
        first = page.locator(f"#table-{table_id}-actions form.pick label.pick-card").nth(0)
        if first.count():
            assert first.locator("input").is_checked(), "the pick was wiped by a re-render"
            assert "picked" in (first.get_attribute("class") or "")
            RERENDERED_PICKS.append(str(count))
        if not first.count():  # the turn went by meanwhile (a loaded machine): wait for the next one
            return False
        labels = page.locator(f"#table-{table_id}-actions form.pick label.pick-card")
        for i in range(1, wanted):
            labels.nth(i).click()
        page.locator(f"#table-{table_id}-actions form.pick .pick-submit").click()
    elif chooser.count():  # a card with several captures first: the chooser is what needs checking
        chooser.first.click()
        option = page.locator(f"{actions} .choice:not([hidden]) .take-option").first
        option.hover()
        lit = page.locator(f"#table-{table_id}-board .felt-cards svg.taken").count()
        assert lit == len((option.get_attribute("data-takes") or "").split()), "the option's cards are not lit"
        if on_choice is not None:
            on_choice()
        option.click()
    elif single.count():
        single.first.click()
    elif plain.count():
        plain.first.click()
    else:
        return False
    return True


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_match_through_the_page(chromium, mazziere_server, artifacts, game, players, options):
    base, env, still_up = mazziere_server
    started = time.monotonic()
    mario = Player(chromium, base, "mario")
    mario.context.close()
    mario.context = chromium.new_context(viewport={"width": 1366, "height": 900}, locale="it-IT")
    mario.page = mario.context.new_page()
    mario.page.on("pageerror", lambda exc: mario.errors.append(f"pageerror: {exc}"))
    mario.log_in()
    page = mario.page
    page.goto(f"{base}/tables/")
    response = page.request.post(f"{base}/api/tables/", data=json.dumps(
        {"game": game, "players": players, "game_options": options}),
        headers={"Content-Type": "application/json", "X-CSRFToken": _csrf(mario)})
    assert response.status == 201, response.text()
    table_id = mario.table_id = response.json()["id"]
    page.goto(f"{base}/tables/{table_id}/")
    for n in range(1, players):
        try:
            _wait(page, lambda n=n: page.locator(f"#table-{table_id}-seats li.seat em").count() == players - n
                  and page.locator(".robot-button").count(), 10, "the free seat's robot button")
        except AssertionError:
            page.screenshot(path=str(artifacts / f"table-{game}-robots-failed.png"), full_page=True)
            raise
        page.click(".robot-button")
    snap = _wait(page, lambda: (s := page.evaluate(PAGE_JS, table_id))["match"] and s, 15, "the match to start")
    match_id = snap["match"]

    moves, shot_middle, shot_start = 0, False, False
    while True:
        def ready():
            s = page.evaluate(PAGE_JS, table_id)
            if s["result"]:
                return s
            return s if s["controls"] and s["version"] == s["actionsVersion"] else None
        snap = _wait(page, ready, 20, f"{game}: Mario's turn after move {moves}")
        if snap["result"]:
            break
        _check(mario, snap, match_id, players)
        if not shot_start:
            _shots(mario, artifacts, game, "start", match_id, players)
            shot_start = True
        elif not shot_middle and moves >= 6:
            _shots(mario, artifacts, game, "middle", match_id, players)
            shot_middle = True
        version = snap["version"]
        def choice_shot():
            if not CHOICE_SHOTS.get(game):
                CHOICE_SHOTS[game] = True
                page.screenshot(path=str(artifacts / f"table-{game}-choice-1366.png"), full_page=True)
        if not _act(page, table_id, choice_shot):
            continue
        _wait(page, lambda v=version: (s := page.evaluate(PAGE_JS, table_id))["result"] or s["actionsVersion"] != v,
              20, f"{game}: the page to take move {moves}")
        moves += 1
        assert moves < 400, "the match does not end"
    _wait(page, lambda: page.evaluate(PAGE_JS, table_id)["outcome"], 10, "the outcome line")
    snap = page.evaluate(PAGE_JS, table_id)
    assert "Mario_88" in snap["result"] or "Robot" in snap["result"] or "Pareggio" in snap["result"], snap["result"]
    assert "Gioca ancora" in snap["text"]
    _check(mario, snap, match_id, players)
    _shots(mario, artifacts, game, "end", match_id, players)
    if game in ("scopa", "briscola", "hearts"):  # the replay, step by step, in words
        page.goto(f"{base}/tables/matches/{match_id}/replay/?step=3")
        before = page.inner_text("#move-text")
        assert "Mario_88" in before or "Robot" in before, before
        page.click("#next")
        page.wait_for_url(re.compile(r"step=4$"))
        text = page.inner_text("main")
        assert page.inner_text("#move-text") != before and "· v ·" not in text and "{'" not in text
        assert not SEAT_NUMBER.search(text), SEAT_NUMBER.search(text).group(0)
        page.screenshot(path=str(artifacts / f"replay-{game}-1366.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(artifacts / f"replay-{game}-390.png"), full_page=True)
        page.click("#last")
        page.wait_for_selector("#replay-result")
    assert not mario.errors, mario.errors
    if game == "hearts":
        assert RERENDERED_PICKS, "the pass was never re-rendered while Mario was picking"
    print(f"{game}: {moves} moves by Mario in {time.monotonic() - started:.1f}s")
    mario.context.close()
    still_up()
