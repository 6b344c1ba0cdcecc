"""Every page in Italian (the default) and in English, with nothing left untranslated (issue 12).

1. The committed ``django.mo`` is the compiled ``django.po``, and ``makemessages`` run on
   today's sources adds no entry that is untranslated or fuzzy.
2. Each page of ``PAGES`` is rendered in both languages; its visible text and labels are
   compared with the catalogue: an Italian page showing an English msgid, or an English page
   showing an Italian translation, fails, naming the string.

Add a page by appending to ``PAGES`` (a name and a function that builds its URL from the
``world`` fixture); pages of other areas join the same check that way.
"""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
from datetime import UTC
from html.parser import HTMLParser
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.test import Client, override_settings
from django.utils import timezone

from tests.conftest import make_user

#: msgfmt in a subprocess is not timing-sensitive: this module runs on the parallel workers
PARALLEL_SAFE = True

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT / "locale" / "it" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
IGNORE = [".venv", "var", "test-artifacts", "node_modules", "bench", ".git", "jinja2"]  # jinja2: apps/play/fragment_strings.py
SOURCES = ("apps", "config", "templates")  # where translatable strings live
ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
ROME = ZoneInfo("Europe/Rome")


def _catalogue(path: Path) -> dict:
    with path.open("rb") as handle:
        return dict(gettext.GNUTranslations(handle)._catalog)  # noqa: SLF001 (the parsed .mo)


def _entries(po_text: str) -> list[str]:
    """The .po's live entries (not the header, not obsolete ``#~`` ones)."""
    return [e for e in po_text.split("\n\n") if re.search(r'^msgid "(?!")|^msgid ""\n"', e, re.M)
            and not e.lstrip().startswith("#~")]


def _problems(po_text: str) -> list[str]:
    problems = []
    for entry in _entries(po_text):
        msgid = re.search(r'^msgid ((?:".*"\n?)+)', entry, re.M)
        if msgid is None or msgid.group(1).strip() == '""':
            continue  # the header
        name = " ".join(re.findall(r'"(.*)"', msgid.group(1)))[:90]
        if re.search(r"^#,.*\bfuzzy\b", entry, re.M):
            problems.append(f"fuzzy: {name}")
        strings = re.findall(r'^msgstr(?:\[\d\])? ((?:".*"\n?)+)', entry, re.M)
        if not strings or any(not "".join(re.findall(r'"(.*)"', s)) for s in strings):
            problems.append(f"untranslated: {name}")
    return problems


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext tools not installed (apt-get install gettext)")
def test_catalogue_compiles_to_the_committed_mo(tmp_path):
    compiled = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check-format", "-o", str(compiled), str(PO)], check=True)
    assert _catalogue(compiled) == _catalogue(MO), "run scripts/fill_po.py (it compiles the .mo)"
    assert not _problems(PO.read_text()), _problems(PO.read_text())


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="gettext tools not installed (apt-get install gettext)")
def test_makemessages_leaves_nothing_untranslated_or_fuzzy(tmp_path, monkeypatch):
    """makemessages over today's sources, on a copy: the sources are linked into a scratch
    folder holding a copy of the catalogue, so the committed .po is never rewritten."""
    target = tmp_path / "locale" / "it" / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy(PO, target / "django.po")
    for name in SOURCES:
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    before = PO.read_bytes()
    with override_settings(LOCALE_PATHS=[tmp_path / "locale"]):
        call_command("makemessages", locale=["it"], ignore_patterns=IGNORE, verbosity=0, no_obsolete=True,
                     symlinks=True)
    assert PO.read_bytes() == before
    problems = _problems((target / "django.po").read_text())
    assert not problems, ("strings missing from scripts/it_strings.py (add them, then makemessages and "
                          "scripts/fill_po.py):\n  " + "\n  ".join(problems))


# --- pages ------------------------------------------------------------------------------

class _Text(HTMLParser):
    """Visible text nodes and labelling attributes, skipping scripts and parts marked in
    another language (``lang="en"`` rules text on an Italian page)."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
            "use", "path", "circle", "rect"}

    def __init__(self, language: str) -> None:
        super().__init__(convert_charrefs=True)
        self.language = language
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)
        self.texts: list[str] = []

    def _skipped(self) -> bool:
        return any(skip for _tag, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        lang = attrs.get("lang")
        skip = tag in ("script", "style") or (lang is not None and tag != "html" and lang != self.language)
        if not (skip or self._skipped()):
            self.texts.extend(v.strip() for k, v in attrs.items() if k in ATTRIBUTES and v and v.strip())
            if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
                self.texts.append(attrs["value"].strip())
        if tag not in self.VOID:
            self.stack.append((tag, skip))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self._skipped():
            self.texts.extend(t.strip() for t in re.split(r"\s*[·|]\s*|\n", data) if t.strip())


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")


def _pattern(text: str) -> re.Pattern | None:
    """The string with its placeholders as short wildcards; None when too little of it is
    fixed text to recognise it ("%(rank)s di %(suit)s")."""
    parts = PLACEHOLDER.split(text)
    if len(parts) > 1 and sum(ch.isalpha() for ch in "".join(parts)) < 8:
        return None
    return re.compile(r"\s*" + r".{1,40}?".join(re.escape(p.strip()) if i in (0, len(parts) - 1) else re.escape(p)
                                                for i, p in enumerate(parts)) + r"\s*$", re.S)


def _pairs() -> list[tuple[str, str]]:
    """(English msgid, Italian msgstr) for every string whose two languages differ."""
    pairs = []
    for key, value in _catalogue(MO).items():
        msgid = key[0] if isinstance(key, tuple) else key
        msgid = msgid.split("\x04", 1)[-1]
        if msgid and value and msgid != value and len(msgid) > 1 and len(value) > 1:  # one letter tells no language
            pairs.append((msgid, value))
    return pairs


#: names that read the same in both languages (the product's name is also Italian for "dealer"),
#: and the Italian names of moves and hands the English rules keep (Poker all'italiana's "Busso")
PROPER_NAMES = {"Mazziere", "Busso", "Coppia"}


def untranslated(html: str, language: str) -> list[str]:
    """Texts of the page that are the other language's version of a catalogue string."""
    parser = _Text(language)
    parser.feed(html)
    foreign = {m for m, _i in _pairs()} if language == "it" else {i for _m, i in _pairs()}
    own = {i for _m, i in _pairs()} if language == "it" else {m for m, _i in _pairs()}
    patterns = [(s, p) for s in foreign if s not in own and s not in PROPER_NAMES
                and (p := _pattern(s)) is not None]
    own_patterns = [p for o in own if (p := _pattern(o)) is not None]
    found = []
    for text in set(parser.texts):
        for source, pattern in patterns:
            if pattern.match(text) and not any(p.match(text) for p in own_patterns):
                found.append(f"{text!r} (catalogue: {source!r})")
                break
    return sorted(found)


@pytest.fixture
def world(db):
    """Everything a page needs: players with nicknames and ledger rows, open, private, playing
    and finished tables, a reported chat line, a sanction, an export, and the staff roles."""
    from apps.backoffice.services import export_request
    from apps.chat.services import chat_post, chat_report
    from apps.compliance.services import sanction_issue
    from apps.tables.services import table_create, table_sit
    from tests.tables.conftest import current_match, play_out

    mario = make_user("mario_i18n", nickname="Mario")
    anna = make_user("anna_i18n", nickname="Anna")
    carlo = make_user("carlo_i18n", nickname="Carlo")
    staff = {role: make_user(f"{role}_i18n", group=role) for role in ("operator", "finance", "compliance")}
    public = table_create(user=mario, data={"game": "briscola", "players": 2})
    private = table_create(user=anna, data={"game": "scopa", "players": 2, "private": True})
    playing = table_create(user=anna, data={"game": "scopa", "players": 2})
    table_sit(user=mario, table_id=playing.pk)
    finished = table_create(user=carlo, data={"game": "briscola", "players": 2})
    table_sit(user=mario, table_id=finished.pk)
    match = play_out(current_match(finished).pk, {ms.number: ms.player for ms in
                                                  current_match(finished).match_seats.select_related("player")})
    line = chat_post(user=anna, text="Ciao a tutti, buona partita")
    chat_report(user=mario, message_id=line.pk, reason="spam")
    sanctioned = make_user("dario_i18n", nickname="Dario")
    sanction = sanction_issue(actor=staff["compliance"], player=sanctioned.pk, kind="lobby_ban", duration="1_month",
                              reason="test")
    export = export_request(actor=staff["finance"], kind="ledger", fmt="csv", params={})
    return World({"player": mario, "anna": anna, "carlo": carlo, "sanctioned": sanctioned, "newcomer": make_user(),
                  "superuser": make_user(superuser=True), **staff, "public": public, "private": private,
                  "playing": playing, "finished": match, "line": line, "sanction": sanction, "export": export})


class World(dict):
    """The world's parts only some pages need are built when a page first asks for them."""

    def __missing__(self, key):
        if key != "tournament_match":
            raise KeyError(key)
        from apps.tournaments.models import TournamentMatch
        from apps.tournaments.services import tournament_register, tournament_start
        from tests.tournaments.conftest import create

        t = create(self["operator"], name="Coppa i18n", game="briscola", max_players=2, payouts=[100],
                   buy_in_cents=0, guaranteed_cents=1000)
        for p in (self["player"], self["anna"]):
            tournament_register(user=p, tournament_id=t["id"])
        if not TournamentMatch.objects.filter(tournament_id=t["id"]).exists():  # no commit here: start it now
            tournament_start(tournament_id=t["id"])
        self[key] = TournamentMatch.objects.get(tournament_id=t["id"])
        return self[key]


#: (name, URL from the world, who is logged in (a key of the world, or None), expected status)
PAGES = [
    # players
    ("lobby", lambda w: "/", "player", 200),
    ("lobby-anonymous", lambda w: "/", None, 200),
    ("tables", lambda w: "/tables/", "player", 200),
    ("tables-filtered", lambda w: "/tables/?game=scopa", "player", 200),
    ("tables-create-form", lambda w: "/tables/?new=poker_italiana", "player", 200),
    ("table-list-fragment", lambda w: "/tables/", "player", 200),  # the same list, as htmx asks for it
    ("tables-sanctioned", lambda w: "/tables/", "sanctioned", 403),
    ("table-waiting", lambda w: f"/tables/{w['public'].pk}/", "player", 200),
    ("table-playing", lambda w: f"/tables/{w['playing'].pk}/", "player", 200),
    ("table-spectator", lambda w: f"/tables/{w['playing'].pk}/", "carlo", 200),
    ("table-private-leader", lambda w: f"/tables/{w['private'].pk}/", "anna", 200),
    ("private-table", lambda w: f"/tables/{w['private'].pk}/", "player", 403),
    ("my-matches", lambda w: "/tables/matches/mine/", "player", 200),
    ("replay", lambda w: f"/tables/matches/{w['finished'].pk}/replay/", "player", 200),
    ("replay-step", lambda w: f"/tables/matches/{w['finished'].pk}/replay/?step=7", "player", 200),
    ("rankings", lambda w: "/rankings/briscola/", "player", 200),
    ("rankings-month", lambda w: "/rankings/scopa/?period=month", "player", 200),
    ("rankings-solitario", lambda w: "/rankings/solitario/", None, 200),
    ("profile", lambda w: "/accounts/profile/", "player", 200),
    ("nickname", lambda w: "/accounts/nickname/", "newcomer", 200),
    ("rules", lambda w: "/games/briscola/rules/", "player", 200),
    ("rules-anonymous", lambda w: "/games/hearts/rules/", None, 200),
    ("rules-poker", lambda w: "/games/poker_italiana/rules/", None, 200),
    ("login", lambda w: "/accounts/login/", None, 200),
    ("signup", lambda w: "/accounts/signup/", None, 200),
    ("not-found", lambda w: "/no-such-page/", None, 404),
    ("staff-on-player-page", lambda w: "/tables/", "operator", 200),
    ("tournament-playing", lambda w: f"/tournaments/{w['tournament_match'].tournament_id}/", "player", 200),
    ("tournament-match", lambda w: f"/tournaments/matches/{w['tournament_match'].match_id}/", "player", 200),
    ("tournament-match-spectator", lambda w: f"/tournaments/matches/{w['tournament_match'].match_id}/", "carlo",
     200),
    # back office
    ("backoffice", lambda w: "/backoffice/", "operator", 200),
    ("backoffice-finance", lambda w: "/backoffice/", "finance", 200),
    ("backoffice-reconciliation", lambda w: "/backoffice/reconciliation/", "finance", 200),
    ("backoffice-ledger", lambda w: "/backoffice/ledger/", "finance", 200),
    ("backoffice-ledger-player", lambda w: f"/backoffice/ledger/?player={w['player'].pk}", "finance", 200),
    ("backoffice-exports", lambda w: "/backoffice/exports/", "finance", 200),
    ("backoffice-export", lambda w: f"/backoffice/exports/{w['export'].pk}/", "finance", 200),
    ("backoffice-tables", lambda w: "/backoffice/tables/", "operator", 200),
    ("backoffice-forbidden", lambda w: "/backoffice/ledger/", "player", 403),
    # compliance
    ("compliance-queue", lambda w: "/compliance/", "compliance", 200),
    ("compliance-messages", lambda w: "/compliance/messages/", "compliance", 200),
    ("compliance-message", lambda w: f"/compliance/messages/{w['line'].pk}/", "compliance", 200),
    ("compliance-sanctions", lambda w: "/compliance/sanctions/", "compliance", 200),
    ("compliance-player", lambda w: f"/compliance/players/{w['sanctioned'].pk}/", "compliance", 200),
    ("compliance-words", lambda w: "/compliance/words/", "compliance", 200),
    ("compliance-signals", lambda w: "/compliance/signals/", "compliance", 200),
]


#: the conto's pages (regulation.md): one test over one world (building it plays a match)
CONTO_PAGES = [
    ("compliance-kyc", lambda w: "/compliance/kyc/", "compliance", 200),
    # the conto di gioco (regulation.md)
    ("account", lambda w: "/accounts/account/", "player", 200),
    ("account-identity", lambda w: "/accounts/account/identity/", "player", 200),
    ("account-close", lambda w: "/accounts/account/close/", "player", 200),
    ("limits", lambda w: "/accounts/limits/", "player", 200),
    ("self-exclusion", lambda w: "/accounts/self-exclusion/", "player", 200),
    ("sessions", lambda w: "/accounts/sessions/", "player", 200),
    ("responsible-gaming", lambda w: "/responsible-gaming/", None, 200),
    ("backoffice-player", lambda w: f"/backoffice/players/{w['player'].pk}/", "compliance", 200),
    ("backoffice-player-limits", lambda w: f"/backoffice/players/{w['player'].pk}/?tab=limits", "compliance", 200),
    ("backoffice-player-sessions", lambda w: f"/backoffice/players/{w['player'].pk}/?tab=sessions", "compliance",
     200),
    ("backoffice-player-notes", lambda w: f"/backoffice/players/{w['player'].pk}/?tab=notes", "operator", 200),
    # the cashier, AML and ADM (regulation.md §5-§7)
    ("cashier", lambda w: "/accounts/cashier/", "player", 200),
    ("history", lambda w: "/accounts/history/", "player", 200),
    ("backoffice-player-cashier", lambda w: f"/backoffice/players/{w['player'].pk}/?tab=cashier", "compliance", 200),
    ("backoffice-player-signals", lambda w: f"/backoffice/players/{w['player'].pk}/?tab=signals", "compliance", 200),
    ("backoffice-withdrawals", lambda w: "/backoffice/withdrawals/", "compliance", 200),
    ("backoffice-aml", lambda w: "/backoffice/aml/", "compliance", 200),
    ("backoffice-adm", lambda w: "/backoffice/adm/", "compliance", 200),
    ("backoffice-adm-reconciliation", lambda w: "/backoffice/adm/reconciliation/", "compliance", 200),
]


def test_the_conto_pages_are_wholly_in_their_language(world):
    for name, url, who, status in CONTO_PAGES:
        _check_page(world, name, url, who, status)


@pytest.mark.parametrize(("name", "url", "who", "status"), PAGES, ids=[p[0] for p in PAGES])
def test_page_is_wholly_in_its_language(world, name, url, who, status):
    """The page in Italian and in English (one world for both: building it plays a match)."""
    _check_page(world, name, url, who, status)


def _check_page(world, name, url, who, status) -> None:
    for language in ("it", "en"):
        client = Client()
        client.cookies["django_language"] = language
        if who:
            client.force_login(world[who])
        headers = {"HTTP_HX_REQUEST": "true"} if name.endswith("-fragment") else {}
        answer = client.get(url(world), **headers)
        assert answer.status_code == status, (name, language)
        html = answer.content.decode()
        if not name.endswith("-fragment"):
            assert f'<html lang="{language}"' in html
        problems = untranslated(html, language)
        assert not problems, f"{name} in {language} shows untranslated strings:\n  " + "\n  ".join(problems)


def test_the_check_catches_a_hard_coded_string():
    """The comparison itself: an English sentence on an Italian page, and Italian on an English one."""
    assert untranslated("<p>The table is full.</p>", "it")
    assert untranslated("<p>Il tavolo è al completo.</p>", "en")
    assert untranslated('<button title="Crea un tavolo">+</button>', "en")
    assert not untranslated("<p>Il tavolo è al completo.</p>", "it")
    assert not untranslated('<article lang="en"><p>The table is full.</p></article>', "it")


@pytest.mark.django_db
def test_profile_ledger_times_are_rome_and_money_is_euro(world, operator):
    """The profile ledger: Europe/Rome times and euro amounts, never UTC or cents."""
    from apps.wallet.models import Entry
    from apps.wallet.services import wallet_adjust

    wallet_adjust(actor=operator, player=world["player"], currency="cash", amount=5050, reason="test")
    client = Client()
    client.force_login(world["player"])
    html = client.get("/accounts/profile/").content.decode()
    for entry in Entry.objects.filter(account__player=world["player"]):
        assert timezone.localtime(entry.created, ROME).strftime("%d/%m/%Y %H:%M") in html
        assert entry.created.astimezone(UTC).isoformat()[:16] not in html  # no raw UTC time
    assert "€50,50" in html and ">5050<" not in html
    assert "300 crediti" in html
