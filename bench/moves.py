"""Moves per second and move round-trip through the real server (a benchmark, not a test: it never asserts).

Run from the project root::

    .venv/bin/python bench/moves.py --ports 8301,8302                   # 50 tables, embedded defaults
    .venv/bin/python bench/moves.py --ports 8301,8302 --tables 10 --seconds 10 --runs 3
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/mazziere_bench REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/moves.py --ports 8301,8302 --profile   # PostgreSQL, channels-redis, a worker

N practice tables of a 4-player game (Spades by default), each with two robot seats (1 and 3,
one team) and two human seats (0 and 2) whose players are websocket clients in this process.
A client answers its turn as soon as the render for it arrives, with a legal action read from
the fragment's ``data-action`` attributes. The server is a real ``daphne`` process on
``config.asgi:application``; the robots play in a real Celery worker (``--robots worker``, the
default with REDIS_URL: the worker command ``manage.py serve`` starts) or inside daphne through
eager Celery tasks (``--robots inline``, the default without REDIS_URL, where the filesystem
broker would add its polling delay to every robot move). ``MAZZIERE_ROBOT_MOVE_DELAY=0``.

Side by side, with the same number of clients on the same channel layer: ``bench/bare_echo.py``,
a Channels consumer that only group_sends. See bench/README.md for what the figures mean.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import html
import json
import os
import platform
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PY = sys.executable
HAPROXY = shutil.which("haproxy") or ("/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None)
BOARD = re.compile(r'<section id="table-(\d+)-board"[^>]*data-version="(\d+)" data-match="(\d*)"')
ACTION = re.compile(r"data-action='([^']*)'")
ERROR = re.compile(r'data-code="([^"]+)"[^>]*role="alert"|role="alert"[^>]*data-code="([^"]+)"')
HAND = re.compile(r'<div class="my-hand">(.*?)</div>', re.S)
CARD = re.compile(r'data-card="([^"]+)"')

#: threads that run the consumer's sync code: asgiref's shared thread (thread-sensitive
#: calls) and the event loop's default executor (the consumer's calls on PostgreSQL)
SYNC_THREADS = ("ThreadPoolExecutor-0_", "asyncio_")


# --------------------------------------------------------------------------- processes


def wait_listening(proc: subprocess.Popen, port: int, log: Path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"the server on port {port} exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"the server on port {port} did not listen within {timeout:.0f} s")


def wait_balanced(port: int, daphne: int, timeout: float = 60.0) -> None:
    """Until HAProxy on ``port`` has answered ``/health/?only=process`` from every daphne once
    (each answer names its process: ``leastconn`` sends the next one elsewhere)."""
    import urllib.request

    deadline = time.monotonic() + timeout
    seen: set[str] = set()
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/?only=process", timeout=2) as answer:
                if answer.status == 200:
                    seen.add(answer.headers.get("X-Served-By") or str(len(seen)))
                    if len(seen) >= daphne:
                        time.sleep(1.0)  # a check interval more: every backend is up by now
                        return
        except OSError:
            pass
        time.sleep(0.2)
    sys.exit(f"HAProxy on port {port} found no healthy daphne within {timeout:.0f} s")


def start(cmd: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("ab") as out:
        return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def stop(proc: subprocess.Popen, grace: float = 3.0) -> None:
    """SIGTERM to the process group we created, SIGKILL after ``grace``."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)
    except ProcessLookupError:
        pass


def cpu_seconds(pid: int, children: bool = True) -> float:
    """utime + stime of a process (and its live children) from /proc, in seconds."""
    tick = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    if children:
        pids += [int(p) for p in _children(pid)]
    total = 0.0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    return total


def rss_mib(pid: int, children: bool = True) -> float:
    """Resident memory of a process (and its live children) from /proc, in MiB."""
    total = 0
    for p in [pid] + ([int(c) for c in _children(pid)] if children else []):
        try:
            status = Path(f"/proc/{p}/status").read_text()
            total += int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))
        except (OSError, StopIteration, ValueError, IndexError):
            pass
    return total / 1024


def _children(pid: int) -> list[str]:
    out = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            out += (task / "children").read_text().split()
    except OSError:
        pass
    return out + [c for child in out for c in _children(int(child))]


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of all CPUs from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


# --------------------------------------------------------------------------- the world


def configure(args, var_dir: Path) -> dict[str, str]:
    """The environment shared by the servers and this process (which makes the world)."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.base", "MAZZIERE_ROBOT_MOVE_DELAY": "0",
           "MAZZIERE_CHANNEL_PREFIX": f"bench-{secrets.token_hex(4)}", "DJANGO_DEBUG": "0",
           "DJANGO_LOG_LEVEL": "ERROR", "CELERY_TASK_ALWAYS_EAGER": "0"}
    if not env.get("DATABASE_URL"):
        env["MAZZIERE_VAR_DIR"] = str(var_dir)  # a fresh SQLite file, secret key and broker folder
    return env


def make_world(tables: int, game: str, tag: str) -> list[dict]:
    """Users, practice tables with robots in seats 1 and 3, humans in 0 and 2; the matches start."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from apps.players.services import nickname_set
    from apps.tables import services

    User = get_user_model()
    world = []
    for t in range(tables):
        humans = []
        for k in range(2):
            user = User.objects.create_user(f"bench-{tag}-{t}-{k}", password=None)
            nickname_set(user=user, nickname=f"B{tag}_{t}_{k}")
            humans.append(user)
        table = services.table_create(user=humans[0], data={"game": game, "players": 4, "official": False},
                                      ip=f"127.2.{t // 250}.{t % 250 + 1}")
        services.table_robot_add(user=humans[0], table_id=table.pk, seat=1)
        services.table_robot_add(user=humans[0], table_id=table.pk, seat=3)
        services.table_sit(user=humans[1], table_id=table.pk, seat=2, ip=f"127.3.{t // 250}.{t % 250 + 1}")
        cookies = []
        for user in humans:
            client = Client()
            client.force_login(user)
            cookies.append(client.cookies["sessionid"].value)
        world.append({"table": table.pk, "cookies": cookies})
    return world


def statements_per_move(world: list[dict], moves: int = 40) -> tuple[float, float]:
    """(statements per human move, per robot move): SQL statements the very code paths run
    (``table_move`` as the socket calls it, commit hooks included; ``match_robot_move`` as the
    worker's task calls it), counted here with an execute wrapper on the bench's database,
    before the servers start. The Celery publishes are left out (they are not SQL)."""
    from django.db import connection

    from apps.games.engines import get_engine
    from apps.matches import services as matches
    from apps.matches.models import Match
    from apps.matches.services import acting, presence  # where robots and timers are published
    from apps.tables.services import table_move

    count = {"n": 0}

    def counter(execute, sql, params, many, context):
        count["n"] += 1
        return execute(sql, params, many, context)

    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    human, robot = [], []
    saved = [(m, m.schedule_robots, m._timer_arm) for m in (acting, presence)]
    for module in (acting, presence):
        module.schedule_robots = module._timer_arm = lambda *a, **k: None
    try:
        for w in world[:4]:
            table = w["table"]
            for _ in range(moves):
                match = Match.objects.filter(table_link__table_id=table, status=Match.PLAYING).first()
                if match is None:
                    redeal(table)
                    continue
                state = get_engine(match.game).from_json(match.state)
                seat = state.to_act[0]
                start = count["n"]
                with connection.execute_wrapper(counter):
                    if seat in (1, 3):
                        matches.match_robot_move(match_id=match.pk)
                        robot.append(count["n"] - start)
                        continue
                ms = match.match_seats.get(number=seat)
                user = users.get(pk=ms.player_id)
                start = count["n"]
                with connection.execute_wrapper(counter):
                    table_move(table_id=table, user=user, action=state.legal_actions(seat)[0],
                               version=match.version)
                human.append(count["n"] - start)
    finally:
        for module, robots, timer in saved:
            module.schedule_robots, module._timer_arm = robots, timer
    return (statistics.median(human) if human else float("nan"),
            statistics.median(robot) if robot else float("nan"))


def private_part_ms(world: list[dict], reps: int = 5) -> tuple[float, float]:
    """(median, max of the per-table medians) CPU milliseconds of a seat's private part (hand
    and controls: ``tables/_private.html``) rendered from a ready context, in this process,
    for the humans of the first 20 tables: the template time issue 15 bounds to 1 ms."""
    from django.template.loader import render_to_string
    from django.utils import translation

    from apps.play.render import table_context
    from apps.tables import render
    from apps.tables.selectors import table_access

    contexts = []
    with translation.override("it"):
        for w in world[:20]:
            snap = render.snapshot_current(table_id=w["table"])
            if snap is None:
                continue
            for seat in snap.seats:
                if seat.player_id:
                    access = table_access(table=snap.table, user=seat.player, match=snap.match, seats=snap.seats)
                    contexts.append(table_context(table=snap.table, match=snap.match, user=seat.player,
                                                  access=access, snapshot=snap))
        times = []
        for context in contexts:
            render_to_string("tables/_private.html", context)  # warm: template compiled, cards drawn
        for _ in range(reps):
            for context in contexts:
                t = time.process_time()
                render_to_string("tables/_private.html", context)
                times.append(time.process_time() - t)
    return (statistics.median(times) * 1000, max(times) * 1000) if times else (float("nan"), float("nan"))


def redeal(table_id: int) -> None:
    """Start the next match at once (every bench player confirms it, as "Gioca ancora" does)."""
    from apps.tables.models import Seat, Table
    from apps.tables.services import table_start_if_ready

    Table.objects.filter(pk=table_id).update(next_match_at=None)
    Seat.objects.filter(table_id=table_id, player__isnull=False).update(ready=True)
    table_start_if_ready(table_id=table_id)


def moves_between(table_ids: list[int], t0: float, t1: float) -> int:
    from datetime import UTC, datetime

    from apps.matches.models import MatchAction

    return MatchAction.objects.filter(match__table_link__table_id__in=table_ids, at__gte=datetime.fromtimestamp(t0, UTC),
                                      at__lt=datetime.fromtimestamp(t1, UTC)).count()


# --------------------------------------------------------------------------- clients


@dataclass
class Run:
    name: str
    clients: int
    seconds: float = 0.0
    moves: int = 0
    client_moves: int = 0
    rtts: list[float] = field(default_factory=list)
    errors: collections.Counter = field(default_factory=collections.Counter)
    closed: collections.Counter = field(default_factory=collections.Counter)
    redeals: int = 0
    cpu: dict[str, float] = field(default_factory=dict)
    bytes_in: int = 0
    frames_in: int = 0
    inflight: int = 0  # moves sent inside the window whose round-trip has not come back yet
    rss: dict[str, float] = field(default_factory=dict)  # MiB at the window's end

    def pct(self, q: float) -> float | None:
        if not self.rtts:
            return None
        ordered = sorted(self.rtts)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Window:
    """The measured interval: samples count only for moves sent inside it."""

    def __init__(self) -> None:
        self.t0: float | None = None  # perf_counter
        self.t1: float | None = None
        self.stopping = False
        self.rendered: set[tuple[int, int]] = set()  # (table, client) that drew their first board

    def inside(self, t: float) -> bool:
        return self.t0 is not None and t >= self.t0 and (self.t1 is None or t < self.t1)


def choose(actions: list[dict], frame: str, rng: random.Random) -> dict:
    bids = [a for a in actions if a.get("type") == "bid"]
    if bids:  # Spades: a rough bid from the hand, so that matches last several hands
        hand = HAND.search(frame)
        cards = CARD.findall(hand.group(1)) if hand else []
        spades = sum(1 for c in cards if c.endswith("s"))
        guess = sum(1 for c in cards if c[0] == "A") + max(0, spades - 3) + sum(1 for c in cards if c[0] == "K") // 2
        wanted = min(max(1, guess), 13)
        return next((a for a in bids if a.get("bid") == wanted), bids[0])
    return rng.choice(actions)


async def think(seconds: float, rng: random.Random) -> None:
    """A player's thinking time before a move (``--think``): uniform in [S/2, 3S/2], so that
    the clients do not move in step; nothing with the default 0 (as fast as renders come)."""
    if seconds > 0:
        await asyncio.sleep(rng.uniform(seconds / 2, seconds * 3 / 2))


async def real_client(ws, table: int, index: int, run: Run, window: Window, dealer, rng: random.Random,
                      thinking: float = 0.0) -> None:
    acted = None  # (match, version) acted on
    pending = None  # (match, version, sent_at)
    try:
        async for frame in ws:
            now = time.perf_counter()
            if window.inside(now):
                run.frames_in += 1
                run.bytes_in += len(frame)
            found = ERROR.search(frame)  # an error fragment names its code (a render's empty alert box does not)
            if found:
                run.errors[found.group(1) or found.group(2)] += 1
                if pending is not None and window.inside(pending[2]):
                    run.inflight -= 1
                pending = None
                continue
            board = BOARD.search(frame)
            if board is None:
                continue
            key = (int(board.group(3) or 0), int(board.group(2)))
            window.rendered.add((table, index))
            if pending is not None and key > pending[:2]:
                if window.inside(pending[2]):
                    run.rtts.append(now - pending[2])
                    run.inflight -= 1
                pending = None
            if f'id="table-{table}-result"' in frame:
                dealer(table, key[0])
                continue
            if window.stopping or pending is not None or key == acted:
                continue
            actions = [json.loads(html.unescape(a)) for a in ACTION.findall(frame)]
            if not actions:
                continue
            acted = key
            action = choose(actions, frame, rng)
            await think(thinking, rng)
            if window.stopping:
                continue
            sent = time.perf_counter()
            pending = (*key, sent)
            if window.inside(sent):
                run.client_moves += 1
                run.inflight += 1
            await ws.send(json.dumps({"action": action, "version": key[1]}))
    except Exception as exc:  # noqa: BLE001 - a socket lost during the run is counted, the run goes on
        if not window.stopping:
            run.closed[_close_reason(exc)] += 1


async def bare_client(ws, index: int, run: Run, window: Window, versions: dict, group: int,
                      thinking: float = 0.0) -> None:
    acted = -1
    pending = None
    rng = random.Random(group * 2 + index)

    async def act(v: int) -> None:
        nonlocal acted, pending
        acted = v
        await think(thinking, rng)
        if window.stopping:
            return
        pending = (v, time.perf_counter())
        if window.inside(pending[1]):
            run.client_moves += 1
            run.inflight += 1
        await ws.send(json.dumps({"v": v}))

    try:
        if index == 0:
            await act(0)
        async for raw in ws:
            now = time.perf_counter()
            if window.inside(now):
                run.frames_in += 1
                run.bytes_in += len(raw)
            v = json.loads(raw)["v"]
            versions[group] = max(versions.get(group, 0), v)
            if pending is not None and v > pending[0]:
                if window.inside(pending[1]):
                    run.rtts.append(now - pending[1])
                    run.inflight -= 1
                pending = None
            if not window.stopping and v % 2 == index and v > acted and pending is None:
                await act(v)
    except Exception as exc:  # noqa: BLE001
        if not window.stopping:
            run.closed[_close_reason(exc)] += 1


def _close_reason(exc: Exception) -> str:
    rcvd = getattr(exc, "rcvd", None)
    if rcvd is not None:
        return f"closed {rcvd.code}"
    return type(exc).__name__


async def open_ws(url: str, origin: str, cookie: str | None):
    from websockets.asyncio.client import connect

    headers = {"Cookie": f"sessionid={cookie}"} if cookie else None
    return await connect(url, origin=origin, additional_headers=headers, proxy=None, compression=None,
                         ping_interval=None, max_size=2**23, open_timeout=60)


async def connect_all(specs: list[tuple[str, str, str | None]]) -> list:
    sockets = []
    for i in range(0, len(specs), 20):  # a few at a time: the server does real work per connect
        sockets += await asyncio.gather(*(open_ws(*spec) for spec in specs[i:i + 20]))
    return sockets


async def measure(window: Window, run: Run, warmup: float, seconds: float, procs: dict[str, int],
                  profile=None) -> tuple[float, float]:
    """Warm up, then time the window; CPU use of the given processes over it. Wall times returned."""
    await asyncio.sleep(warmup)
    cpu0 = {name: cpu_seconds(pid) for name, pid in procs.items()}
    own0 = sum(os.times()[:2])
    busy0, all0 = machine_busy()
    wall0 = time.time()
    window.t0 = time.perf_counter()
    if profile is not None:
        profile.start()
    await asyncio.sleep(seconds)
    window.t1 = time.perf_counter()
    wall1 = time.time()
    run.seconds = window.t1 - window.t0
    busy1, all1 = machine_busy()
    run.cpu = {name: (cpu_seconds(pid) - cpu0[name]) / run.seconds for name, pid in procs.items()}
    run.cpu["clients (this process)"] = (sum(os.times()[:2]) - own0) / run.seconds
    run.cpu["machine"] = (busy1 - busy0) / max(1, all1 - all0) * (os.cpu_count() or 1)
    run.rss = {name: rss_mib(pid) for name, pid in procs.items()}
    window.stopping = True
    # no new moves from here; collect the round-trips of moves sent inside the window (at most 15 s)
    deadline = time.perf_counter() + 15
    while run.inflight > 0 and time.perf_counter() < deadline:
        await asyncio.sleep(0.05)
    return wall0, wall1


async def close_all(sockets: list) -> None:
    await asyncio.gather(*(asyncio.wait_for(ws.close(), 2) for ws in sockets), return_exceptions=True)


async def bench_bare(args, env: dict[str, str], tmp: Path) -> Run:
    port = args.ports[0]
    log = tmp / "bare-daphne.log"
    proc = start([PY, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "--websocket_connect_timeout", "120", "bench.bare_echo:application"], env, log)
    try:
        await asyncio.to_thread(wait_listening, proc, port, log)
        run = Run("bare group_send", clients=2 * args.tables)
        window = Window()
        versions: dict[int, int] = {}
        origin = f"http://127.0.0.1:{port}"
        specs = [(f"ws://127.0.0.1:{port}/ws/bare/{g}/", origin, None) for g in range(args.tables) for _ in (0, 1)]
        sockets = await connect_all(specs)
        tasks = [asyncio.create_task(bare_client(ws, i % 2, run, window, versions, i // 2, args.think))
                 for i, ws in enumerate(sockets)]
        await asyncio.sleep(args.warmup)
        before = dict(versions)
        await measure(window, run, 0, args.seconds, {"daphne (bare)": proc.pid})
        run.moves = sum(versions.get(g, 0) - before.get(g, 0) for g in range(args.tables))
        await close_all(sockets)
        await asyncio.gather(*tasks, return_exceptions=True)
        return run
    finally:
        stop(proc)


async def bench_real(args, env: dict[str, str], tmp: Path, world: list[dict]) -> tuple[Run, str | None]:
    from asgiref.sync import sync_to_async

    port = args.ports[1]
    server_env = dict(env)
    procs: dict[str, subprocess.Popen] = {}
    if args.robots == "inline":
        server_env["CELERY_TASK_ALWAYS_EAGER"] = "1"
    else:  # the worker as `manage.py serve` starts it (beat is not needed: no deadline falls due)
        sqlite = not env.get("DATABASE_URL")
        worker = [PY, "-m", "celery", "-A", "config", "worker", "--loglevel", "WARNING"]
        worker += ["--pool", "solo"] if sqlite else ["--concurrency", "2"]
        procs["celery worker"] = start(worker, server_env, tmp / "celery.log")
    daphne = [PY, "-m", "daphne", "-b", "127.0.0.1", "--websocket_connect_timeout", "120", "config.asgi:application"]
    if args.daphne == 1:
        listening = [("daphne", port, tmp / "daphne.log")]
    else:  # production's topology (docs/deploy.md): HAProxy on the real port, N daphne behind it
        listening = [(f"daphne {i + 1}", p, tmp / f"daphne{i + 1}.log") for i, p in enumerate(args.ports[2:])]
    for name, p, log in listening:
        procs[name] = start([*daphne[:5], "-p", str(p), *daphne[5:]], server_env, log)
    if args.daphne > 1:
        from apps.common.cluster import haproxy_config_write

        config = haproxy_config_write(tmp / "haproxy.cfg", host="127.0.0.1", port=port, backends=args.ports[2:])
        log = tmp / "haproxy.log"
        procs["haproxy"] = start([HAPROXY, "-f", str(config), "-db"], server_env, log)
        listening.append(("haproxy", port, log))
    first = procs["daphne" if args.daphne == 1 else "daphne 1"]
    profile = Profiler(first.pid, args.seconds, tmp) if args.profile else None
    try:
        for name, p, log in listening:
            await asyncio.to_thread(wait_listening, procs[name], p, log)
        if args.daphne > 1:  # HAProxy sends nothing to a daphne until its first health check passes
            await asyncio.to_thread(wait_balanced, port, args.daphne)
        run = Run(f"real moves ({args.game}, robots {args.robots})", clients=2 * args.tables)
        window = Window()
        rng = random.Random(args.seed)
        origin = f"http://127.0.0.1:{port}"
        specs = [(f"ws://127.0.0.1:{port}/ws/tables/{w['table']}/", origin, c) for w in world for c in w["cookies"]]
        sockets = await connect_all(specs)
        by_table: dict[int, list] = collections.defaultdict(list)
        for w, pair in zip(world, (sockets[i:i + 2] for i in range(0, len(sockets), 2)), strict=True):
            by_table[w["table"]] = pair
        dealt: set[tuple[int, int]] = set()
        in_memory = not env.get("REDIS_URL")

        async def deal(table: int, match: int) -> None:
            await sync_to_async(redeal)(table)
            run.redeals += 1
            if in_memory:  # this process's broadcast cannot reach daphne's in-process layer: ask for a render
                for ws in by_table[table]:
                    await ws.send(json.dumps({"sync": True}))

        def dealer(table: int, match: int) -> None:
            if (table, match) not in dealt and not window.stopping:
                dealt.add((table, match))
                asyncio.get_running_loop().create_task(deal(table, match))

        tasks = [asyncio.create_task(real_client(ws, w["table"], k, run, window, dealer, random.Random(rng.random()),
                                                 args.think))
                 for w in world for k, ws in enumerate(by_table[w["table"]])]
        t = time.perf_counter()  # the warm-up starts once every socket drew its table (connects are real work)
        while len(window.rendered) < len(tasks) and time.perf_counter() - t < 180:
            await asyncio.sleep(0.1)
        print(f"  {len(window.rendered)} of {len(tasks)} sockets drew their first table in "
              f"{time.perf_counter() - t:.1f} s", flush=True)
        wall0, wall1 = await measure(window, run, args.warmup, args.seconds,
                                     {name: p.pid for name, p in procs.items()}, profile)
        run.moves = await sync_to_async(moves_between)([w["table"] for w in world], wall0, wall1)
        report = profile.finish() if profile else None
        # the servers are killed with the clients still connected: closing 2N sockets first would make
        # the robots play every match out (each disconnected seat goes to its robot), for nothing
        for proc in procs.values():
            stop(proc, grace=0.5)
        await close_all(sockets)
        await asyncio.gather(*tasks, return_exceptions=True)
        return run, report
    finally:
        for proc in procs.values():
            stop(proc, grace=0.5)


# --------------------------------------------------------------------------- profiling


class Profiler:
    """py-spy on the real daphne over the measured window, summarised by where the time goes."""

    BUCKETS = [  # (label, substring of a frame); a sample counts once per bucket (inclusive time)
        ("consumer _act: match_action_apply (the move; robots too when inline)", "match_action_apply (apps/matches/services/acting.py"),
        ("consumer _fragments: render_fragments (one per connection per broadcast)",
         "render_fragments (apps/tables/render.py"),
        ("  render: table_context (engine view, legal actions, seats)", "table_context (apps/play/render.py"),
        ("  render: the template (render_to_string)", "render_to_string (django/template/loader.py"),
        ("consumer connect/disconnect", "socket_connected (apps/tables/services/sockets.py"),
        ("engine code (apps/games/engines)", "apps/games/engines/"),
        ("Django ORM (queryset, SQL compiler, model instances)", "django/db/models/"),
        ("DB: execute + fetch (driver, incl. waiting for the server)", "execute (django/db/backends/utils.py"),
        ("DB: open a connection (CONN_MAX_AGE=0: one per sync call)", "connect (django/db/backends/base/base.py"),
        ("DB: close_old_connections before/after each sync call", "close_old_connections (django/db/__init__.py"),
        ("DB: waiting on the socket of PostgreSQL (psycopg wait)", "Connection.wait (psycopg/connection.py"),
        ("DB: waiting for a new PostgreSQL connection (psycopg wait_conn)", "wait_conn (psycopg/waiting.py"),
        ("transaction on_commit callbacks (broadcast, Celery tasks)", "run_and_clear_commit_hooks"),
        ("broadcast: async_to_sync(group_send), the sync thread blocked until sent", "push_now (apps/common/push.py"),
        ("Celery apply_async (eager run or broker publish)", "apply_async (celery/app/task.py"),
        ("channels-redis", "channels_redis/"),
        ("redis-py", "redis/"),
        ("Twisted / autobahn (sockets, websocket framing)", "twisted/"),
    ]
    WAITS = ("Condition.wait (threading.py", "Event.wait (threading.py", "Queue.get (queue.py")

    def __init__(self, pid: int, seconds: float, tmp: Path) -> None:
        self.pid, self.seconds, self.out = pid, seconds, tmp / "daphne.pyspy.txt"
        self.proc: subprocess.Popen | None = None
        self.exe = shutil.which("py-spy") or str(Path(PY).with_name("py-spy"))

    def start(self) -> None:
        if not Path(self.exe).exists():
            print("  (py-spy not found: pip install py-spy to profile)", flush=True)
            return
        self.proc = subprocess.Popen([self.exe, "record", "-p", str(self.pid), "-d", str(int(self.seconds)),
                                      "-r", "200", "-f", "raw", "--threads", "--idle", "--nonblocking",
                                      "-o", str(self.out)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)

    def finish(self) -> str | None:
        if self.proc is None:
            return None
        try:
            _, err = self.proc.communicate(timeout=self.seconds + 30)
        except subprocess.TimeoutExpired:
            stop(self.proc)
            return "py-spy did not finish"
        if not self.out.exists():
            return f"py-spy wrote nothing: {err.decode(errors='replace')[-500:]}"
        return self.summary(self.out.read_text())

    def idle(self, thread: str, frames: list[str]) -> bool:
        """Waiting for work: the executor's queue, or the event loop's select. A thread blocked
        on PostgreSQL, on a new connection or on async_to_sync is busy (nothing else can use it)."""
        if not frames:
            return True
        leaf = frames[-1]
        if leaf.startswith("_worker (concurrent/futures/thread.py"):
            return True
        if leaf.startswith("EpollSelector.select") and len(frames) > 1 and "_run_once (asyncio" in frames[-2]:
            return True
        return not thread.startswith(("main", *SYNC_THREADS)) and leaf.startswith(self.WAITS)

    def summary(self, raw: str) -> str:
        stacks = []  # (thread, frames, count, idle)
        for line in raw.splitlines():
            stack, _, count = line.rpartition(" ")
            if stack and count.isdigit():
                frames = stack.split(";")
                thread = _thread_label(frames[0])
                stacks.append((thread, frames[1:], int(count), self.idle(thread, frames[1:])))
        per_thread: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])  # [all, busy]
        for thread, _, c, idle in stacks:
            per_thread[thread][0] += c
            per_thread[thread][1] += 0 if idle else c
        main = [t for t in per_thread if t.startswith("main")]
        sync = [t for t in per_thread if t.startswith(SYNC_THREADS)]
        lines = [f"py-spy on the real daphne (pid {self.pid}), 200 Hz over {self.seconds:.0f} s, idle samples "
                 f"included (a thread is 'busy' unless it waits for work: its executor queue, the event loop's "
                 f"select; waiting on PostgreSQL or on a broadcast is busy)"]
        for thread, (n, busy) in sorted(per_thread.items(), key=lambda kv: -kv[1][1])[:4]:
            lines.append(f"  {thread}: busy {busy / max(1, n):.0%} of the wall time")
        columns = [(name, [t for t in per_thread if t in group]) for name, group in (("sync", sync), ("main", main))]
        lines.append("  share of each thread's wall time spent in (inclusive):")
        lines.append(f"    {'sync':>6} {'main':>6}")
        for label, needle in self.BUCKETS:
            cells = []
            for _, group in columns:
                n = sum(per_thread[t][0] for t in group) or 1
                c = sum(k for t, frames, k, idle in stacks if t in group and not idle and any(needle in f for f in frames))
                cells.append(f"{c / n:6.1%}")
            lines.append(f"    {cells[0]} {cells[1]}  {label}")
        entries: collections.Counter = collections.Counter()
        sync_all = sum(per_thread[t][0] for t in sync) or 1
        for t, frames, c, idle in stacks:
            if t in sync and not idle:
                entries[_entry(frames)] += c
        lines.append("  the sync thread's wall time by what it was called for:")
        for name, c in entries.most_common(6):
            lines.append(f"    {c / sync_all:6.1%}  {name}")
        own: collections.Counter = collections.Counter()
        busy_all = sum(b for _, b in per_thread.values()) or 1
        for _, frames, c, idle in stacks:
            if not idle and frames:
                own[_short(frames[-1])] += c
        lines.append("  top self time (leaf frames, share of all busy samples):")
        for name, c in own.most_common(10):
            lines.append(f"    {c / busy_all:6.1%}  {name}")
        return "\n".join(lines)


def _thread_label(frame: str) -> str:
    name = frame.split(": ", 1)[-1].strip()
    if name == "MainThread":
        return "main thread (Twisted reactor + asyncio loop)"
    if name.startswith(SYNC_THREADS):
        return f"{name} (a thread running sync code: database_sync_to_async)"
    return name


def _entry(frames: list[str]) -> str:
    """The function a sync-thread sample was running for: the frame under asgiref's wrapper."""
    for i, frame in enumerate(frames):
        if "run_child (asgiref/sync.py" in frame or "thread_handler (asgiref/sync.py" in frame:
            nxt = frames[i + 1:i + 2]
            if nxt and "asgiref/sync.py" not in nxt[0]:
                return _short(nxt[0])
    for i, frame in enumerate(frames):  # channels' wrapper: close_old_connections before and after the call
        if "thread_handler (channels/db.py" in frame and i + 1 < len(frames) and "asgiref" not in frames[i + 1]:
            return _short(frames[i + 1]) + " [channels.db, around every call]"
    return "other: " + _short(frames[-1]) if frames else "other"


def _short(frame: str) -> str:
    name, _, where = frame.partition(" (")
    return f"{name} ({where.rstrip(')')})" if where else name


# --------------------------------------------------------------------------- output


def ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 1000:.1f} ms"


def print_run(run: Run) -> None:
    rate = run.moves / run.seconds if run.seconds else 0.0
    print(f"\n{run.name}: {run.clients} clients, {run.seconds:.1f} s measured")
    print(f"  moves/s          {rate:9.1f}   ({run.moves} moves; {run.client_moves} sent by the clients)")
    print(f"  round-trip       p50 {ms(run.pct(0.5))}   p99 {ms(run.pct(0.99))}   max "
          f"{ms(max(run.rtts) if run.rtts else None)}   ({len(run.rtts)} samples"
          + (f"; {run.inflight} never came back" if run.inflight else "") + ")")
    if run.frames_in:
        print(f"  frames received  {run.frames_in / run.seconds:9.1f}/s, {run.bytes_in / max(1, run.frames_in) / 1024:.1f} "
              f"KiB average")
    print("  cpu (cores)      " + ", ".join(f"{name} {v:.2f}" for name, v in run.cpu.items()))
    if run.rss:
        print("  memory (RSS)     " + ", ".join(f"{name} {v:.0f} MiB" for name, v in run.rss.items()))
    per_move = server_cpu_per_move(run)
    if per_move is not None:
        print(f"  server cpu       {per_move:.2f} ms per move (the servers: daphne, the worker, HAProxy when in front)")
    if run.redeals:
        print(f"  matches redealt  {run.redeals} (finished matches restarted at once by the bench)")
    if run.errors:
        print("  error frames     " + ", ".join(f"{k} {v}" for k, v in run.errors.most_common()))
    if run.closed:
        print("  sockets lost     " + ", ".join(f"{k} {v}" for k, v in run.closed.most_common()))


def server_cpu_per_move(run: Run) -> float | None:
    """CPU milliseconds the servers (daphne, the worker and HAProxy when it is in front; not the
    clients) spent per move."""
    if not run.moves:
        return None
    server = sum(v for name, v in run.cpu.items() if name.startswith(("daphne", "celery", "haproxy")))
    return server * run.seconds / run.moves * 1000


def header(args, env: dict[str, str]) -> None:
    db = env.get("DATABASE_URL") or "SQLite (embedded default, fresh file)"
    layer = f"channels-redis {env['REDIS_URL']}" if env.get("REDIS_URL") else "InMemoryChannelLayer (embedded)"
    print("bench/moves.py: moves through daphne vs a bare group_send consumer")
    print(f"python   {platform.python_version()} ({PY}); cpus {os.cpu_count()}; {platform.platform()}")
    shown = re.sub(r"//([^:@/]+):[^@/]+@", r"//\1:***@", db)  # no password in the output
    print(f"database {shown}")
    print(f"layer    {layer} (prefix {env['MAZZIERE_CHANNEL_PREFIX']})")
    robots = ("a Celery worker process (as `manage.py serve` starts it; no beat)" if args.robots == "worker"
              else "inside daphne: eager Celery tasks run in the move's on_commit (no worker)")
    print(f"robots   {robots}; MAZZIERE_ROBOT_MOVE_DELAY=0")
    if args.think > 0:
        print(f"pace     each client thinks {args.think / 2:g}-{args.think * 3 / 2:g} s before a move (--think "
              f"{args.think:g}): the p99 is at that pace; the throughput ratio measures the pace, not the server")
    print(f"tables   {args.tables} x {args.game} (seats 0, 2 websocket clients; 1, 3 robots); "
          f"warm-up {args.warmup:g} s, measured {args.seconds:g} s per side, {args.runs} runs")
    if args.daphne == 1:
        print(f"ports    bare {args.ports[0]}, real {args.ports[1]} (127.0.0.1; nothing else is bound)")
    else:
        print(f"ports    bare {args.ports[0]}, real {args.ports[1]}: HAProxy in front of {args.daphne} daphne on "
              f"{', '.join(map(str, args.ports[2:]))} (127.0.0.1; nothing else is bound)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window of each side (default 20)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (default 5)")
    parser.add_argument("--game", choices=["spades", "briscola"], default="spades")
    parser.add_argument("--robots", choices=["auto", "worker", "inline"], default="auto",
                        help="auto: worker with REDIS_URL, inline without")
    parser.add_argument("--only", choices=["both", "real", "bare"], default="both")
    parser.add_argument("--profile", action="store_true", help="py-spy the real daphne over its window")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.0,
                        help="a client's thinking time before each move, seconds, uniform in [S/2, 3S/2] "
                             "(default 0: at once; with S > 0 the p99 is at that pace, the ratio means nothing)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (logs, SQLite, profile)")
    parser.add_argument("--ports", required=True,
                        help="BARE,REAL: the two ports the servers bind on 127.0.0.1 (and no other); with "
                             "--daphne N > 1, BARE,REAL,D1,...,DN: HAProxy on REAL, the N daphne on D1..DN")
    parser.add_argument("--daphne", type=int, default=1,
                        help="real daphne processes (default 1); more run behind HAProxy (Debian's), as "
                             "`manage.py serve --daphne N` does")
    parser.add_argument("--runs", type=int, default=3, help="runs of each side, at least 3 (median and range)")
    args = parser.parse_args()
    try:
        args.ports = [int(p) for p in args.ports.split(",")]
    except ValueError:
        parser.error("--ports takes two port numbers: BARE,REAL")
    wanted = 2 if args.daphne == 1 else 2 + args.daphne
    if args.daphne < 1:
        parser.error("--daphne: at least 1")
    if len(args.ports) != wanted or len(set(args.ports)) != wanted or not all(1024 <= p < 65536 for p in args.ports):
        parser.error(f"--ports takes {wanted} different port numbers from 1024 to 65535: BARE,REAL"
                     + ("" if args.daphne == 1 else ",D1,...,DN (the daphne behind HAProxy)"))
    if args.daphne > 1 and not HAPROXY:
        parser.error("--daphne N > 1 needs Debian's haproxy (apt-get install haproxy)")
    if args.runs < 3:
        parser.error("--runs must be at least 3: the output is a median and a range")
    if args.robots == "auto":
        args.robots = "worker" if os.environ.get("REDIS_URL") else "inline"

    tmp = Path(tempfile.mkdtemp(prefix="mazziere-bench-"))
    env = configure(args, tmp / "var")
    header(args, env)
    try:
        subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
        os.environ.update(env)
        os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"  # this process: a robot that opens a match plays at once
        import django

        django.setup()
        from django.conf import settings

        poll = getattr(settings, "TABLE_POLL_SECONDS", 0)
        if poll:
            print(f"polling  table sockets also look for changes every {poll:g} s (TABLE_POLL_SECONDS; "
                  "MAZZIERE_TABLE_POLL_SECONDS=0 turns it off)")
        report = None
        world = None
        if args.only in ("both", "real"):
            print(f"\nmaking {args.tables} tables ...", flush=True)
            t = time.perf_counter()
            world = make_world(args.tables, args.game, secrets.token_hex(2))
            human, robot = statements_per_move(world)
            private, private_max = private_part_ms(world)
            print(f"  {time.perf_counter() - t:.1f} s; statements per move (the same code paths, in this process):"
                  f" human {human:g}, robot {robot:g}; a seat's private part {private:.2f} ms template CPU"
                  f" (median, max {private_max:.2f} ms; load {os.getloadavg()[0]:.2f})", flush=True)
        bares: list[Run] = []
        reals: list[Run] = []
        for k in range(args.runs):
            print(f"\n=== run {k + 1}/{args.runs}, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
            if args.only in ("both", "bare"):
                bares.append(asyncio.run(bench_bare(args, env, tmp)))
                print_run(bares[-1])
            if world is not None:
                run, report = asyncio.run(bench_real(args, env, tmp, world))
                reals.append(run)
                print_run(run)
        print("\nmedian [min-max] of the runs")

        def summary(values: list[float], fmt: str) -> str:
            values = [v for v in values if v is not None]
            if not values:
                return "n/a"
            return (f"{fmt.format(statistics.median(values))} "
                    f"[{fmt.format(min(values))}-{fmt.format(max(values))}]")

        for label, side in (("bare group_send", bares), ("real moves", reals)):
            if side:
                print(f"  {label:16} moves/s {summary([r.moves / r.seconds for r in side], '{:.1f}')},"
                      f" p50 {summary([r.pct(0.5) and r.pct(0.5) * 1000 for r in side], '{:.0f} ms')},"
                      f" p99 {summary([r.pct(0.99) and r.pct(0.99) * 1000 for r in side], '{:.0f} ms')},"
                      f" server CPU per move {summary([server_cpu_per_move(r) for r in side], '{:.2f} ms')}")
        if reals:
            print(f"  statements per move: human {human:g}, robot {robot:g}; private part {private:.2f} ms template CPU")
        if bares and reals:
            ratios = [(r.moves / r.seconds) / (b.moves / b.seconds) for b, r in zip(bares, reals, strict=True)
                      if b.moves]
            print(f"  real / bare throughput, run by run: {summary(ratios, '{:.3f}x')}"
                  "  (at a player's pace (--think) it measures the pace: the moves clients sent)")
            pairs = [(server_cpu_per_move(r), server_cpu_per_move(b)) for b, r in zip(bares, reals, strict=True)]
            cpu = [real / bare for real, bare in pairs if real and bare]
            p99 = [r.pct(0.99) / b.pct(0.99) for b, r in zip(bares, reals, strict=True) if r.pct(0.99) and b.pct(0.99)]
            sent = [(r.client_moves / r.seconds) / (b.client_moves / b.seconds)
                    for b, r in zip(bares, reals, strict=True) if b.client_moves]
            print(f"  moves the clients sent per second, real / bare, run by run: {summary(sent, '{:.3f}x')}"
                  "  (issue 30, at --think 2: within 5%)")
            print(f"  real / bare server CPU per move, run by run: {summary(cpu, '{:.2f}x')}  (issue 30: at most 2.5x)")
            print(f"  real / bare p99, run by run: {summary(p99, '{:.1f}x')}  (issue 30, at --think 2: at most 3x)")
        if report:
            print("\n" + report)
    finally:
        _forget_layer(env)
        if args.keep:
            print(f"\nkept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def _forget_layer(env: dict[str, str]) -> None:
    """Delete this run's keys from Redis (its prefix is unique to the run)."""
    if not env.get("REDIS_URL"):
        return
    try:
        import redis

        client = redis.Redis.from_url(env["REDIS_URL"])
        for prefix in (env["MAZZIERE_CHANNEL_PREFIX"],):
            keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
            if keys:
                client.delete(*keys)
    except Exception as exc:  # noqa: BLE001 - tidying only
        print(f"(could not tidy Redis: {exc})")


if __name__ == "__main__":
    main()
