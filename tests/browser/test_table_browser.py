"""People play Briscola in real browsers, over the real server.

`manage.py serve` (daphne, a Celery worker and beat on the embedded defaults) in a scratch
folder; Debian's chromium through Playwright, one browser context per person. Everything
goes through the pages a person uses: the login form, the tables lobby form, "Siediti" (or
"Robot al posto 1"), then the card buttons (htmx ``ws-send`` forms over /ws/tables/{id}/).

Two players play a whole match: each page must show its own hand and never the other's,
the opponent's page must show each move once it is made, and at the end both pages show
the same result, which the API (with each browser's session) and the database confirm.
A player against a robot must see the robot's moves promptly, though robots move in the
Celery worker, whose pushes do not reach daphne on the embedded defaults.

Screenshots go to test-artifacts/ at the project root.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from tests.embedded import manage

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

PASSWORD = "mazziere-demo"
MOVE_SECONDS = 15  # well below the 30 s turn: a timeout would be a failure, never a robot move for us

SNAPSHOT_JS = """(id) => {
  const q = (sel) => document.querySelector(sel);
  const codes = (sel) => Array.from(document.querySelectorAll(sel)).map((e) => e.dataset.card);
  const text = (sel) => (q(sel) || {}).textContent || "";
  const board = q(`#table-${id}-board`), actions = q(`#table-${id}-actions`);
  const refs = [];  // every attribute that could name a card, anywhere on the page
  for (const el of document.querySelectorAll("[data-card],[aria-label],[title],[data-action],input[value]")) {
    if (el.name === "csrfmiddlewaretoken") continue;
    for (const name of ["data-card", "aria-label", "title", "data-action", "value"]) {
      const v = el.getAttribute(name);
      if (v) refs.push(v);
    }
  }
  return {
    version: board ? parseInt(board.dataset.version || "0", 10) : null,
    match: board ? board.dataset.match : "",
    actionsVersion: actions ? parseInt(actions.dataset.version || "0", 10) : null,
    hand: codes(`#table-${id}-actions .my-hand [data-hand] > svg[data-card]`),
    handTitle: text(`#table-${id}-actions .my-hand h3`),
    outcome: text(`#table-${id}-actions .outcome`),
    buttons: codes(`#table-${id}-actions .card-button svg[data-card]`),
    trick: codes(`#table-${id}-board .trick svg[data-card]`),
    lastTrick: codes(`#table-${id}-board .last-trick svg[data-card]`),
    trump: codes(`#table-${id}-board .info svg[data-card]`),
    stock: text(`#table-${id}-board .stock-count`),
    waiting: text(`#table-${id}-actions`).includes("attendi il tuo turno"),
    result: text(`#table-${id}-result`),
    error: text(`#table-${id}-error`),
    refs,
  };
}"""


def _mentions(refs: list[str], card: str) -> bool:
    pattern = re.compile(rf"(?<![0-9A-Za-z]){re.escape(card)}(?![0-9A-Za-z])")
    return any(pattern.search(r) for r in refs)


def _wait(page, condition, seconds: float, what: str):
    """Poll ``condition`` until it is truthy; waiting through ``page`` lets Playwright deliver
    its events (socket frames, console messages) meanwhile."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds}s waiting for {what}")
        page.wait_for_timeout(50)


class Player:
    """One person: a browser context of their own, logged in through the login page."""

    def __init__(self, browser, base: str, username: str) -> None:
        self.username = username
        self.base = base
        self.context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="it-IT")
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.sent: list[dict] = []
        self.sockets: list[str] = []
        self.table_id: int | None = None
        self.page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        self.page.on("console", self._console)
        self.page.on("websocket", self._websocket)

    def _console(self, message) -> None:
        # the one error a page may log is the 404 of the browser's own favicon request
        if message.type == "error" and "favicon" not in (message.location or {}).get("url", ""):
            self.errors.append(f"console: {message.text} at {message.location}")

    def _websocket(self, ws) -> None:
        self.sockets.append(ws.url)

        def sent(payload) -> None:
            try:
                self.sent.append(json.loads(payload))
            except (TypeError, ValueError):
                self.sent.append({"raw": payload})

        ws.on("framesent", sent)

    def log_in(self) -> None:
        page = self.page
        page.goto(f"{self.base}/accounts/login/")
        page.fill("#id_username", self.username)
        page.fill("#id_password", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{self.base}/")
        assert page.locator("form[action$='/logout/']").count() == 1, f"{self.username} is not logged in"

    def create_practice_briscola(self) -> int:
        """Through the tables lobby form: Briscola, not official (a practice table)."""
        page = self.page
        page.goto(f"{self.base}/tables/")
        page.select_option("#create-game", "briscola")
        assert not page.locator("form.create-table input[name=official]").is_checked()
        page.click("#create-table")
        page.wait_for_url(re.compile(r"/tables/\d+/$"))
        self.table_id = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
        page.wait_for_selector(f"#table-{self.table_id}-board:has-text('In attesa dei giocatori')")
        return self.table_id

    def snapshot(self) -> dict:
        return self.page.evaluate(SNAPSHOT_JS, self.table_id)

    def play(self, card: str) -> None:
        self.page.click(f"#table-{self.table_id}-actions .card-button:has(svg[data-card='{card}'])")

    def api_match(self, match_id: str) -> dict:
        response = self.page.request.get(f"{self.base}/api/matches/{match_id}/")
        assert response.ok, response.text()
        return response.json()

    def screenshot(self, path) -> None:
        self.page.screenshot(path=str(path), full_page=True)


def test_two_players_play_briscola_to_the_end(chromium, mazziere_server, artifacts):
    base, env, still_up = mazziere_server
    started = time.monotonic()
    mario, giulia = Player(chromium, base, "mario"), Player(chromium, base, "giulia")
    players = (mario, giulia)
    for p in players:
        p.log_in()

    # -- Mario creates a practice Briscola table through the lobby form ----------------------
    table_id = mario.create_practice_briscola()
    seats = mario.page.locator(f"#table-{table_id}-seats li.seat")
    assert seats.count() == 2
    assert "Mario" in seats.nth(0).inner_text() and "libero" in seats.nth(1).inner_text()

    # -- Giulia finds it in the lobby, opens it and sits --------------------------------------
    giulia.table_id = table_id
    page = giulia.page
    page.goto(f"{base}/tables/")
    page.click(f"#table-list tr[data-table='{table_id}'] a")
    page.wait_for_url(f"{base}/tables/{table_id}/")
    page.click("#sit-button")  # no reload: the socket re-renders the seats and starts the match

    # the match starts by itself; Mario's page, never reloaded, learns it over the socket
    for p in players:
        _wait(p.page, lambda p=p: p.snapshot()["match"], 15, f"{p.username}'s page to show the match")
    first = {p.username: p.snapshot() for p in players}
    match_id = first["mario"]["match"]
    assert match_id == first["giulia"]["match"]
    assert first["mario"]["hand"] and first["giulia"]["hand"]  # each page shows its own hand, as the controls
    socket_url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}/"
    for p in players:
        tables = {s for s in p.sockets if "/ws/tables/" in s}  # the lobby page also opens /ws/lobby/
        assert tables == {socket_url}, p.sockets

    def settled():
        """Both pages on the same version, exactly one offering card buttons; or both finished."""
        snaps = [p.snapshot() for p in players]
        if any(s["result"] for s in snaps):
            return snaps if all(s["result"] for s in snaps) else None
        if len({s["version"] for s in snaps} | {s["actionsVersion"] for s in snaps}) != 1:
            return None
        return snaps if sum(bool(s["buttons"]) for s in snaps) == 1 else None

    public: set[str] = set()  # cards both may know: the face-up trump cards
    moves = 0
    while True:
        snaps = _wait(mario.page, settled, MOVE_SECONDS, f"the pages to settle after move {moves}")
        if all(s["result"] for s in snaps):
            break
        version = snaps[0]["version"]
        for s in snaps:
            public.update(s["trump"])
            assert not s["error"], s["error"]

        # each page shows its own hand and only that: the API (with that browser's session)
        # agrees, and no card of the other hand is named anywhere on the page
        for p, mine, theirs in ((mario, snaps[0], snaps[1]), (giulia, snaps[1], snaps[0])):
            api = p.api_match(match_id)
            assert api["version"] == version
            assert sorted(mine["hand"]) == sorted(api["view"]["hand"]), (p.username, mine, api)
            assert not set(mine["hand"]) & set(theirs["hand"])
            for card in set(theirs["hand"]) - public:
                assert not _mentions(mine["refs"], card), f"{p.username}'s page shows {card}, not their card"
            if mine["buttons"]:
                assert api["to_act"] == [api["seat"]]
                assert sorted(mine["buttons"]) == sorted(mine["hand"])  # Briscola: any card may be played
            else:
                assert mine["waiting"], f"{p.username}'s page neither offers cards nor says to wait"

        mover, other = (mario, giulia) if snaps[0]["buttons"] else (giulia, mario)
        mine = snaps[0] if mover is mario else snaps[1]
        card = mine["buttons"][0]
        last_of_hand = len(mine["hand"]) == 1 and mine["stock"] in ("0", "")
        sent_before = len(mover.sent)
        mover.play(card)
        moves += 1

        # the click goes out over the socket as the move ...
        frame = _wait(mover.page, lambda m=mover, n=sent_before: m.sent[n:] and m.sent[n], 5,
                      f"the frame of {card}")
        assert json.loads(frame["action"]) == {"type": "play", "card": card}
        assert int(frame["version"]) == version
        # ... the mover's page takes the card out of the hand ...
        after = _wait(mover.page, lambda m=mover, v=version: (s := m.snapshot())["version"] > v and s,
                      MOVE_SECONDS, f"{mover.username}'s page after playing {card}")
        assert card not in after["hand"], after
        # ... and the opponent's page shows it: on the table, or in the trick just taken
        seen = _wait(other.page, lambda o=other, v=version: (s := o.snapshot())["version"] > v and s,
                     MOVE_SECONDS, f"{other.username}'s page to show {card}")
        if not (last_of_hand and (seen["result"] or not seen["lastTrick"])):  # a 60-60 hand is dealt again
            assert card in seen["trick"] + seen["lastTrick"], (card, seen["trick"], seen["lastTrick"])

        if moves == 8:
            for p in players:
                p.screenshot(artifacts / f"briscola-during-play-{p.username}.png")

    # -- the end: both pages show the same result ------------------------------------------------
    for p in players:
        p.screenshot(artifacts / f"briscola-end-{p.username}.png")
    results = [" ".join(s["result"].split()) for s in snaps]
    assert all("Partita finita" in r for r in results), results
    assert results[0] == results[1]
    assert moves >= 20, moves  # 40 cards, one move each: a whole hand at least
    # the players still see the finished match from their own seats: each is told the outcome
    assert {" ".join(s["outcome"].split()) for s in snaps} <= {"Hai vinto!", "Hai perso.", "Pareggio."}
    assert all(s["outcome"] for s in snaps)

    views = {p.username: p.api_match(match_id) for p in players}
    for view in views.values():
        assert view["status"] == "finished"
        assert view["legal_actions"] == [] and view["to_act"] == []
    result = views["mario"]["result"]
    assert result == views["giulia"]["result"]
    scores = result["scores"]
    assert sum(scores) == 120 and max(scores) >= 61
    assert result["winner"] == scores.index(max(scores))
    assert re.search(rf"Mario_88 {scores[0]} – Giulia {scores[1]}", results[0]), results[0]
    winner = re.search(r"Vince: (\S+)\.", results[0]).group(1)
    assert winner.lower().startswith(("mario", "giulia")[result["winner"]]), winner

    # the database agrees, read by the server's own models
    out = manage(env, "shell", "-c", (
        "import json; from apps.matches.models import Match;"
        f"m = Match.objects.get(pk={int(match_id)});"
        "print(json.dumps({'status': m.status, 'result': m.result, 'table': m.table_link.table_id,"
        " 'players': [s.player.username for s in m.match_seats.order_by('number')]}))"))
    db = json.loads(out.strip().splitlines()[-1])
    assert db["status"] == "finished" and db["table"] == table_id
    assert db["players"] == ["mario", "giulia"]
    assert db["result"]["scores"] == scores and db["result"]["winner"] == result["winner"]

    # every move was one frame from a card button's ws-send form; no page had a script error
    assert sum("action" in f for p in players for f in p.sent) == moves
    for p in players:
        assert not p.errors, p.errors
        p.context.close()
    still_up()
    assert time.monotonic() - started < 120


def test_a_player_sees_the_robots_moves_promptly(chromium, mazziere_server, artifacts):
    """Robots move in the Celery worker: the page must show their moves within seconds."""
    base, env, still_up = mazziere_server
    luca = Player(chromium, base, "luca")
    luca.log_in()
    table_id = luca.create_practice_briscola()
    luca.page.click(".robot-button")  # "Robot al posto 1": the table is full, the match starts
    seats = luca.page.locator(f"#table-{table_id}-seats li.seat")
    # no reload: the socket re-renders the seats for everyone at the table
    _wait(luca.page, lambda: "Robot" in seats.nth(1).inner_text(), 5, "the robot in seat 1")

    robot_moves = 0
    waits = []
    for _ in range(6):  # six of Luca's moves (three tricks or more)
        snap = _wait(luca.page, lambda: (s := luca.snapshot())["buttons"]
                     and s["version"] == s["actionsVersion"] and s, 10, "Luca's turn")
        card, version = snap["buttons"][0], snap["version"]
        luca.play(card)
        moved = _wait(luca.page, lambda v=version: (s := luca.snapshot())["version"] > v and s, 5,
                      f"Luca's page after playing {card}")
        if moved["result"]:
            break
        # unless Luca leads again, the robot is to act: its move must reach the page within seconds
        if not moved["buttons"]:
            t0 = time.monotonic()
            _wait(luca.page, lambda v=moved["version"]: luca.snapshot()["version"] > v, 8,
                  "the robot's move to reach the page (robots move in the worker)")
            waits.append(round(time.monotonic() - t0, 1))
            robot_moves += 1
    luca.screenshot(artifacts / "briscola-vs-robot-luca.png")
    assert robot_moves >= 3, (robot_moves, waits)
    assert not luca.errors, luca.errors
    luca.context.close()
    still_up()
