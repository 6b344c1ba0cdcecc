"""Demo tournaments for ``seed_demo``: one of each kind in the lobby, plus one finished and
one cancelled with their standings and refunds. Safe to run again (by name)."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.utils import timezone

from apps.players.demo import demo_password_set
from apps.players.selectors import nickname_of
from apps.players.services import nickname_set
from apps.wallet.models import CASH
from apps.wallet.selectors import wallet_get
from apps.wallet.services import wallet_adjust

from . import play, services
from .models import Tournament, TournamentMatch

ROME = ZoneInfo("Europe/Rome")
DEMO_PLAYERS = [f"Demo_{name}" for name in ("Rosa", "Nico", "Sara", "Ugo", "Elsa", "Dino", "Ivo", "Lia",
                                            "Ada", "Teo", "Rita", "Leo")]


def _players(admin) -> list:
    User = get_user_model()
    out = []
    for nickname in DEMO_PLAYERS:
        user, created = User.objects.get_or_create(username=nickname.lower())
        if created:
            demo_password_set(user)
            user.save()
        if not nickname_of(user):
            nickname_set(user=user, nickname=nickname)
        missing = 20_000 - wallet_get(player=user)["cash_cents"]
        if missing > 0:
            wallet_adjust(actor=admin, player=user, currency=CASH, amount=missing, reason="demo deposit")
        out.append(user)
    return out


def _tonight() -> str:
    local = timezone.now().astimezone(ROME)
    at = local.replace(hour=21, minute=0, second=0, microsecond=0)
    if at <= local + timedelta(minutes=10):
        at += timedelta(days=1)
    return at.isoformat()


def _make(admin, name: str, **data) -> Tournament | None:
    if Tournament.objects.filter(name=name).exists():
        return None
    base = {"name": name, "game": "scopa", "kind": "sit_and_go", "format": "knockout", "buy_in_cents": 1000,
            "fee_cents": 0, "guaranteed_cents": 0, "prize": "cash", "max_players": 8, "payouts": [50, 30, 20]}
    return services.tournament_create(actor=admin, data={**base, **data})


def _register(t: Tournament, people) -> None:
    for p in people:
        services.tournament_register(user=p, tournament_id=t.pk)


def _play_round(t: Tournament) -> None:
    for match_id in TournamentMatch.objects.filter(tournament=t, status="playing").values_list("match_id", flat=True):
        play.match_play_out_by_robots(match_id=match_id)
        services.tournament_match_finished(match_id=match_id)


def demo_tournaments(stdout) -> None:
    User = get_user_model()
    admin = User.objects.filter(username="operatore").first() or User.objects.filter(is_superuser=True).first()
    if admin is None:
        return
    people = _players(admin)
    made = []
    if t := _make(admin, "Sit and Go Scopa €5", buy_in_cents=500, fee_cents=50):
        _register(t, people[:3])
        made.append(t)
    tonight = Tournament.objects.filter(name="Torneo della sera").first()
    if t := _make(admin, "Torneo della sera", kind="scheduled", starts_at=_tonight(), min_players=4,
                  max_players=64, fee_cents=100, payouts=[50, 30, 10, 10], game_options={"target": 11}):
        _register(t, people[:5])
        tonight = t
        made.append(t)
    if t := _make(admin, "Freeroll del lunedì", game="briscola", kind="scheduled", starts_at=_tonight(),
                  min_players=2, max_players=32, buy_in_cents=0, guaranteed_cents=2000, payouts=[60, 40]):
        _register(t, people[:4])
        made.append(t)
    if t := _make(admin, "Garantito €500", kind="scheduled", starts_at=_tonight(), min_players=8, max_players=128,
                  guaranteed_cents=50_000, payouts=[40, 25, 15, 10, 10]):
        _register(t, people[:6])
        made.append(t)
    if tonight is not None and (t := _make(admin, "Satellite per la sera", buy_in_cents=250, max_players=4,
                                           prize="satellite", satellite_target=tonight.pk, payouts=None,
                                           guaranteed_cents=1000)):
        _register(t, people[6:8])
        made.append(t)
    if t := _make(admin, "Freeroll bonus Briscola", game="briscola", format="points", buy_in_cents=0,
                  guaranteed_cents=1000, prize="bonus", max_players=6, payouts=[70, 30]):
        _register(t, people[8:10])
        made.append(t)
    if t := _make(admin, "Sit and Go concluso", game="briscola", max_players=4, payouts=[70, 30]):
        _register(t, people[:4])
        services.tournament_start(tournament_id=t.pk)  # the worker may not run: start it here
        for _ in range(4):
            t.refresh_from_db()
            if t.status != Tournament.RUNNING:
                break
            _play_round(t)
        made.append(t)
    if t := _make(admin, "Torneo a punti concluso", game="briscola", format="points", kind="scheduled",
                  starts_at=_tonight(), min_players=2, max_players=16, buy_in_cents=500, payouts=[60, 40]):
        _register(t, people[:3])  # 3 players: 2 rounds, one bye a round
        services.tournament_start(tournament_id=t.pk, actor=admin)
        for _ in range(6):
            t.refresh_from_db()
            if t.status != Tournament.RUNNING:
                break
            _play_round(t)
        made.append(t)
    if t := _make(admin, "Eliminazione in corso", game="briscola", kind="scheduled", starts_at=_tonight(),
                  min_players=2, max_players=16, buy_in_cents=500, payouts=[70, 30]):
        _register(t, people[6:12])  # 6 players: an 8 bracket, 2 byes, 2 matches being played
        services.tournament_start(tournament_id=t.pk, actor=admin)
        made.append(t)
    if t := _make(admin, "Torneo annullato", game="briscola", max_players=8, payouts=[50, 30, 20]):
        _register(t, people[4:12])
        services.tournament_start(tournament_id=t.pk)
        _play_round(t)
        services.tournament_cancel(actor=admin, tournament_id=t.pk, reason="Malfunzionamento del server durante il turno 2")
        services.tournament_refunds_pay(tournament_id=t.pk)
        made.append(t)
    if made:
        stdout.write("demo: tournaments " + ", ".join(f"{t.pk} {t.name}" for t in made))
