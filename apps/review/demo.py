"""Demo data for compliance (``seed_demo``): a few hundred chat lines in the lobby and at
tables, some flagged by the word list and reported by players, staked matches between two
players who share an address (collusion signals), and sanctions linked to their lines.

Safe to run again: it does nothing once its marker player exists. Lines are written as rows
with their flags computed by the word list (their times spread over the last days); the
reports, hiding and sanctions go through the services, so their audit rows exist too."""

from __future__ import annotations

import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from apps.chat import wordlist
from apps.chat.models import ChatMessage
from apps.chat.services import chat_message_hide, chat_report, flag_entries
from apps.compliance.models import Sanction
from apps.compliance.services import sanction_issue
from apps.games.engines import get_engine
from apps.matches.models import Match
from apps.matches.services import match_action_apply
from apps.players.demo import demo_password_set
from apps.players.selectors import nickname_of
from apps.players.services import nickname_set
from apps.tables import services as table_services
from apps.tournaments.models import Tournament
from apps.tournaments.services import registration_open, tournament_register
from apps.wallet.services import wallet_adjust

MARKER = "demo_volpe"
EXTRA = [("demo_volpe", "Volpe_7"), ("demo_gatto", "GattoNero"), ("demo_ricci", "Ricci"), ("demo_sole", "SoleMio"),
         ("demo_nebbia", "Nebbia"), ("demo_tuono", "Tuono_22")]
PLAIN = [
    "ciao a tutti", "buonasera!", "qualcuno per una briscola?", "bella mano", "complimenti", "grazie, gg",
    "che fortuna...", "dai che la rimontiamo", "ho finito le briscole", "scusate, mi è caduta la linea",
    "tocca a te", "ottima giocata", "ancora una?", "vado a cena, a dopo", "gg wp", "non ci credo, settebello!",
    "partita tirata", "buona fortuna", "chi fa un tavolo a scopa?", "sono nuovo, come funziona il gioco ancora?",
    "ahah", "ok", "nice", "well played", "anyone for hearts?", "il tavolo 3 è libero", "vinto per un punto!",
    "attenti al carico", "mannaggia", "che carte oggi",
]
BAD = [
    "sei un idiota", "ma sei scemo?", "giochi come un cretino", "vaffanculo", "stronzo", "you are an idiot",
    "what a moron", "scrivimi su whatsapp al 333 123 4567", "mandami una mail: volpe.carte@gmail.com",
    "guarda qui www.trucchi-carte.it", "ti faccio vincere se dividiamo la vincita", "passami le carte dopo",
    "chiamami al +39 347 765 4321", "questo sito è una truffa",
]


def _players() -> list:
    User = get_user_model()
    users = []
    for username, nickname in EXTRA:
        user, created = User.objects.get_or_create(username=username)
        if created:
            demo_password_set(user)
            user.save()
            nickname_set(user=user, nickname=nickname)
        users.append(user)
    return users


def _play_out(match_id: int, users_by_seat: dict[int, object], rng: random.Random) -> list:
    """Play a match to its end with random legal moves, through the action service."""
    for _ in range(400):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.PLAYING:
            break
        state = get_engine(match.game).from_json(match.state)
        seat = state.to_act[0]
        match_action_apply(match_id=match_id, action=rng.choice(state.legal_actions(seat)),
                           version=match.version, user=users_by_seat[seat])
    return list(Match.objects.get(pk=match_id).actions.order_by("seq"))


def _line(user, nickname: str, text: str, created, entries, *, table=None, match=None, ip=None) -> ChatMessage:
    reasons = wordlist.matches(text, entries)
    return ChatMessage.objects.create(sender=user, nickname=nickname, room=str(table.pk) if table else "lobby",
                                      table=table, match=match, text=text, ip=ip, created=created,
                                      flagged=bool(reasons), flag_reasons=reasons)


def _shared_tournament_address(admin, first, second) -> None:
    """Two players who register for one tournament from one address (a tournament signal)."""
    shared_ip = "203.0.113.45"
    for t in Tournament.objects.filter(status=Tournament.OPEN, kind=Tournament.SCHEDULED).order_by("pk"):
        if registration_open(t) and t.registrations.filter(active=True).count() + 2 < t.max_players:
            for user in (first, second):
                if t.buy_in_cents:
                    wallet_adjust(actor=admin, player=user, currency="cash", amount=t.buy_in_cents,
                                  reason="demo deposit")
                tournament_register(user=user, tournament_id=t.pk, ip=shared_ip)
            break


def demo_compliance(stdout) -> None:
    User = get_user_model()
    if User.objects.filter(username=MARKER).exists():
        return
    rng = random.Random(11)
    admin = User.objects.filter(username="admin").first()
    reviewer = User.objects.filter(username="conformita").first() or admin
    if admin is None:
        return
    with transaction.atomic():
        extra = _players()
        volpe, gatto = extra[0], extra[1]
        for user in (volpe, gatto):
            wallet_adjust(actor=admin, player=user, currency="credits", amount=2000, reason="demo credits")
        # staked matches between two players on one address: shared IP, a frequent pair, a chip flow
        table = table_services.table_create(user=volpe, data={"game": "briscola", "official": True, "stake": 50,
                                                              "currency": "credits"}, ip="192.0.2.77")
        table_services.table_sit(user=gatto, table_id=table.pk, ip="192.0.2.77")
        entries = flag_entries()
        actions_of_first = []
        for n in range(4):
            match = table.matches.filter(status=Match.PLAYING).first()
            if match is None:
                break
            actions = _play_out(match.pk, {0: volpe, 1: gatto}, rng)
            if n == 0:
                actions_of_first = actions
                first_match = match
            for user in (volpe, gatto):
                table_services.table_ready(user=user, table_id=table.pk)
        # lines written during the first match, between its moves: the context shows the hand then
        if actions_of_first:
            script = [(gatto, "GattoNero", "ciao Volpe"), (volpe, "Volpe_7", "ciao, come d'accordo"),
                      (gatto, "GattoNero", "ho il carico di spade, gioca basso"),
                      (volpe, "Volpe_7", "ok ti lascio la presa"), (gatto, "GattoNero", "scrivimi su whatsapp"),
                      (volpe, "Volpe_7", "333 987 6543"), (gatto, "GattoNero", "dividiamo la vincita dopo"),
                      (volpe, "Volpe_7", "gg")]
            step = max(1, len(actions_of_first) // (len(script) + 1))
            for i, (user, nickname, text) in enumerate(script):
                at = actions_of_first[min(len(actions_of_first) - 1, (i + 1) * step)].at + timedelta(microseconds=1)
                _line(user, nickname, text, at, entries, table=table, match=first_match, ip="192.0.2.77")
        # a few hundred lines in the lobby and at the table, spread over the last four days
        people = [(u, nickname_of(u)) for u in [*User.objects.filter(username__in=["mario", "giulia", "luca",
                                                                                     "anna"]), *extra]]
        people = [(u, n) for u, n in people if n]
        now = timezone.now()
        lines = []
        for _i in range(320):
            user, nickname = rng.choice(people)
            text = rng.choice(BAD) if rng.random() < 0.08 else rng.choice(PLAIN)
            created = now - timedelta(minutes=rng.randint(5, 4 * 24 * 60))
            at_table = rng.random() < 0.3
            lines.append(_line(user, nickname, text, created, entries, table=table if at_table else None,
                               ip=f"198.51.100.{user.pk % 200 + 1}"))
        # players report some lines; compliance hides one; sanctions linked to their lines
        bad = [m for m in lines if m.flagged]
        for message in bad[:8]:
            reporter = next(u for u, _n in people if u.pk != message.sender_id)
            chat_report(user=reporter, message_id=message.pk, reason="insult")
        plain = [m for m in lines if not m.flagged]
        reporter = next(u for u, _n in people if u.pk != plain[0].sender_id)
        chat_report(user=reporter, message_id=plain[0].pk, reason="spam")
        if bad:
            chat_message_hide(actor=reviewer, message_id=bad[0].pk, reason="demo: insult", ip=None)
        _shared_tournament_address(admin, extra[2], extra[3])
        tuono = extra[5]
        tuono_lines = [m.pk for m in lines if m.sender_id == tuono.pk][:2]
        if not Sanction.objects.filter(player=tuono).exists():
            sanction_issue(actor=reviewer, player=tuono.pk, kind="chat_ban", duration="1_month",
                           reason="Insulti ripetuti in chat (demo)", messages=tuono_lines)
    stdout.write(f"demo: {ChatMessage.objects.count()} chat lines, "
                 f"{ChatMessage.objects.filter(flagged=True, reviewed_at__isnull=True).count()} in the review queue; "
                 f"{volpe.username} and {gatto.username} share an address at table {table.pk}")
