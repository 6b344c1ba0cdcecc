"""The operator's tournament form in the admin (issue 25): euro typed in the page's language,
the game by name, payouts as a table, the engine's options as fields, a live split preview,
values kept on a refused save, translations, only open tournaments as satellite targets."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.http import QueryDict
from django.test import Client
from django.utils import timezone, translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.common.errors import ValidationFailed
from apps.tournaments import rules
from apps.tournaments.amounts import AmountError, cents_from_euro, euro_text
from apps.tournaments.forms import TournamentForm, split_preview_from_form
from apps.tournaments.models import Tournament
from tests.conftest import make_user
from tests.test_i18n import untranslated

from .conftest import create, players, register_all

ADD = "/admin/tournaments/tournament/add/"
PREVIEW = "/admin/tournaments/tournament/split-preview/"


def staff_client(user, language: str = "it") -> Client:
    user.is_staff = True
    user.save()
    client = Client()
    client.cookies["django_language"] = language
    client.force_login(user)
    return client


def inline_forms(client: Client, url: str = ADD) -> dict:
    """The page's hidden inputs of its inline formsets, as a browser would send them back."""
    html = client.get(url).content.decode()
    return {name: value for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', html)
            if name != "csrfmiddlewaretoken"}


class Operator:
    """An operator's admin session: every POST carries the page's inline management forms."""

    def __init__(self, user, language: str = "it") -> None:
        self.client = staff_client(user, language)

    def get(self, url: str):
        return self.client.get(url)

    def post(self, url: str, data: dict):
        form = url if url != PREVIEW else None
        return self.client.post(url, {**(inline_forms(self.client, form) if form else {}), **data})


def post_body(**over) -> dict:
    """What an operator types in the add form (Italian page)."""
    data = {"name": "Coppa della sera", "game": "scopa", "kind": "sit_and_go", "format": "knockout",
            "buy_in_cents": "2,50", "fee_cents": "0,50", "guaranteed_cents": "0", "prize": "cash",
            "satellite_target": "", "min_players": "", "max_players": "8", "starts_at_0": "", "starts_at_1": "",
            "payouts": ["60", "40"], "rounds": "", "turn_seconds": "45", "opt-scopa-mode": "points",
            "opt-scopa-target": "21", "opt-scopa-hands": "3", "preview_entrants": "8"}
    data.update(over)
    return data


# -- euro in the page's language ----------------------------------------------------------------


@pytest.mark.parametrize(("language", "text", "cents"), [
    ("it", "2,50", 250), ("it", "2", 200), ("it", "€ 1.250,5", 125050), ("it", "0,05", 5), ("it", "100", 10000),
    ("en", "2.50", 250), ("en", "€1,250.50", 125050), ("en", "7", 700),
])
def test_euro_typed_in_the_pages_language(language, text, cents):
    with translation.override(language):
        assert cents_from_euro(text) == cents


@pytest.mark.parametrize(("language", "text"), [
    ("it", "2,555"), ("it", "abc"), ("it", "2.50"), ("it", ""), ("it", "1,2,3"), ("it", "12.34.5"),
    ("en", "2,50"), ("en", "2.555"), ("en", "1e3"), ("it", "٣"),
])
def test_euro_refuses_what_it_cannot_read(language, text):
    with translation.override(language), pytest.raises(AmountError):
        cents_from_euro(text)


def test_euro_shown_in_the_pages_language():
    with translation.override("it"):
        assert [euro_text(c) for c in (3200, 1600, 960, 640, 125050, 5)] == \
               ["€32,00", "€16,00", "€9,60", "€6,40", "€1.250,50", "€0,05"]
    with translation.override("en"):
        assert [euro_text(c) for c in (3200, 960, 125050)] == ["€32.00", "€9.60", "€1,250.50"]


@pytest.mark.parametrize(("typed", "message"), [
    ("2,555", "at most two decimals"), ("abc", "at most two decimals"), ("-2,50", "cannot be negative"),
])
def test_bad_amounts_are_field_errors_and_nothing_is_saved(operator, typed, message):
    client = Operator(operator, "en")
    with translation.override("en"):  # the English page writes euro with a dot
        answer = client.post(ADD, post_body(buy_in_cents=typed.replace(",", "."), fee_cents="0"))
    assert answer.status_code == 200
    errors = answer.context["adminform"].form.errors
    assert list(errors) == ["buy_in_cents"] and message in errors["buy_in_cents"][0]
    assert not Tournament.objects.exists()
    it = Operator(operator, "it").post(ADD, post_body(buy_in_cents=typed))
    assert it.status_code == 200 and "buy_in_cents" in it.context["adminform"].form.errors
    assert not Tournament.objects.exists()


def test_form_turns_euro_and_rows_into_the_services_body(operator):
    with translation.override("it"):
        form = TournamentForm(data=_querydict(post_body()))
        assert form.is_valid(), form.errors
    body = form.service_data
    assert body["buy_in_cents"] == 250 and body["fee_cents"] == 50 and body["guaranteed_cents"] == 0
    assert body["payouts"] == [60, 40] and body["game_options"] == {"target": 21}
    assert body["min_players"] == 8 and body["turn_seconds"] == 45 and body["game"] == "scopa"


def _querydict(data: dict) -> QueryDict:
    q = QueryDict(mutable=True)
    for key, value in data.items():
        q.setlist(key, value if isinstance(value, list) else [value])
    return q


# -- the add form -------------------------------------------------------------------------------


def test_add_creates_with_cents_percentages_and_options(operator):
    answer = Operator(operator).post(ADD, post_body())
    assert answer.status_code == 302, answer.context["adminform"].form.errors
    t = Tournament.objects.get()
    assert (t.buy_in_cents, t.fee_cents, t.payouts, t.game_options, t.min_players, t.max_players) == \
           (250, 50, [60, 40], {"target": 21}, 8, 8)


def test_game_is_a_select_of_display_names_of_heads_up_games(operator):
    html = staff_client(operator).get(ADD).content.decode()
    select = re.search(r'<select name="game".*?</select>', html, re.S).group(0)
    assert '<option value="briscola">Briscola</option>' in select
    assert "Poker all&#x27;italiana" in select
    assert 'value="hearts"' not in select and 'value="solitario"' not in select  # not heads-up
    # the engine's options are fields; knockout is the platform's (it follows the format)
    assert 'name="opt-scopa-target"' in html and 'name="opt-briscola-hands"' in html
    assert 'name="opt-scopa-knockout"' not in html


@pytest.mark.parametrize("language", ["it", "en"])
def test_refused_add_keeps_every_value_and_says_why_next_to_the_field(operator, language):
    """The issue's quote: a refused add came back empty, all 16 inputs to retype."""
    client = Operator(operator, language)
    with translation.override(language):
        typed = post_body(buy_in_cents="2,30" if language == "it" else "2.30", fee_cents="0",
                          name="Torneo della domenica", game="briscola", format="points", rounds="3",
                          max_players="6", payouts=["50", "30", "20"], **{"opt-briscola-hands": "5",
                                                                         "opt-briscola-mode": "hands"})
    answer = client.post(ADD, typed)
    assert answer.status_code == 200 and not Tournament.objects.exists()
    form = answer.context["adminform"].form
    assert list(form.errors) == ["buy_in_cents"]
    html = answer.content.decode()
    row = re.search(r'<div class="form-row errors field-buy_in_cents">.*?</div>\s*</div>\s*</div>', html, re.S)
    assert row and ("multiplo di €0,50" if language == "it" else "multiple of €0.50") in row.group(0)
    assert 'value="Torneo della domenica"' in html
    assert re.search(r'<option value="briscola" selected>', html)
    assert re.search(r'<option value="points" selected>', html)
    assert 'value="2,30"' in html if language == "it" else 'value="2.30"' in html
    assert [v for v in re.findall(r'name="payouts" value="(\d*)"', html)] == ["50", "30", "20"]
    assert re.search(r'name="opt-briscola-mode".*?<option value="hands" selected>', html, re.S)
    assert re.search(r'<option value="5" selected>', html)
    assert 'name="rounds" value="3"' in html and 'name="turn_seconds" value="45"' in html


def test_payouts_must_add_up_to_100(operator):
    answer = Operator(operator, "en").post(ADD, post_body(payouts=["50", "30", ""], buy_in_cents="2.50",
                                                              fee_cents="0.50"))
    assert answer.status_code == 200 and not Tournament.objects.exists()
    errors = answer.context["adminform"].form.errors
    assert list(errors) == ["payouts"] and "add up to 80 %" in errors["payouts"][0]
    rising = Operator(operator, "en").post(ADD, post_body(payouts=["40", "60"], buy_in_cents="2.50",
                                                              fee_cents="0.50"))
    assert "cannot pay more" in rising.context["adminform"].form.errors["payouts"][0]


def test_option_out_of_range_is_a_field_error(operator):
    answer = Operator(operator, "en").post(ADD, post_body(**{"opt-scopa-target": "500"}, buy_in_cents="2.50",
                                                              fee_cents="0.50"))
    assert list(answer.context["adminform"].form.errors) == ["opt-scopa-target"]
    assert not Tournament.objects.exists()


def test_a_refusal_the_form_could_not_see_still_keeps_the_values(operator, monkeypatch):
    """A race (the service refuses at save time): the form comes back, values kept, the reason
    next to its field; not a redirect to an empty form."""
    from apps.tournaments import services

    def refuse(**_kwargs):
        raise ValidationFailed("no", fields={"satellite_target": ["The target has just started."]})

    monkeypatch.setattr(services, "tournament_create", refuse)
    answer = Operator(operator, "en").post(ADD, post_body(buy_in_cents="2.50", fee_cents="0.50"))
    assert answer.status_code == 200
    assert answer.context["adminform"].form.errors == {"satellite_target": ["The target has just started."]}
    assert 'value="Coppa della sera"' in answer.content.decode()


def test_edit_shows_euro_and_saves_only_what_changed(operator):
    t = create(operator, buy_in_cents=1000, fee_cents=100, game_options={"target": 21}, game="scopa")
    client = Operator(operator)
    html = client.get(f"/admin/tournaments/tournament/{t['id']}/change/").content.decode()
    assert 'name="buy_in_cents" value="10,00"' in html and 'name="fee_cents" value="1,00"' in html
    assert re.search(r'name="opt-scopa-target"[^>]*value="21"', html)
    register_all(t["id"], players(1, cash=1000))
    answer = client.post(f"/admin/tournaments/tournament/{t['id']}/change/",
                         post_body(name="Nuovo nome", buy_in_cents="10,00", fee_cents="1,00", payouts=["50", "30", "20"],
                                   turn_seconds="30", **{"opt-scopa-target": "21"}))
    assert answer.status_code == 302, answer.context["adminform"].form.errors
    assert Tournament.objects.get(pk=t["id"]).name == "Nuovo nome"


# -- the live split preview ---------------------------------------------------------------------


def test_preview_endpoint_shows_the_rules_split_in_euro(operator):
    client = staff_client(operator)
    answer = client.post(PREVIEW, post_body(buy_in_cents="10,00", fee_cents="1,00", payouts=["50", "30", "20"],
                                            preview_entrants="10"))
    assert answer.status_code == 200
    html = answer.content.decode()
    cents = [int(c) for c in re.findall(r'data-cents="(\d+)"', html)]
    assert cents == rules.payouts_compute(9000, [50, 30, 20], 10) == [4500, 2700, 1800]
    assert "€45,00" in html and "€27,00" in html and "€90,00" in html
    # fewer entrants than places: the missing places go to 1st (§5.4)
    two = client.post(PREVIEW, post_body(buy_in_cents="10,00", fee_cents="0", payouts=["50", "30", "20"],
                                         preview_entrants="2")).content.decode()
    assert [int(c) for c in re.findall(r'data-cents="(\d+)"', two)] == [1400, 600]  # [70, 30] of €20,00
    bad = client.post(PREVIEW, post_body(buy_in_cents="abc")).content.decode()
    assert "preview-problem" in bad
    en = staff_client(operator, "en").post(PREVIEW, post_body(buy_in_cents="10.00", fee_cents="1.00",
                                                               payouts=["50", "30", "20"], preview_entrants="10"))
    assert "€45.00" in en.content.decode()


def test_preview_of_a_satellite_counts_seats(operator):
    target = create(operator, buy_in_cents=1000, max_players=8)
    html = staff_client(operator).post(PREVIEW, post_body(
        prize="satellite", satellite_target=str(target["id"]), buy_in_cents="2,00", fee_cents="0",
        preview_entrants="8", payouts=[])).content.decode()
    assert "1 posto" in html and [int(c) for c in re.findall(r'data-cents="(\d+)"', html)] == [1000, 600]


@pytest.mark.parametrize("role", ["finance", "compliance"])
def test_preview_is_for_operators(db, role):
    user = make_user(group=role)
    assert staff_client(user).post(PREVIEW, post_body()).status_code == 403
    assert Client().post(PREVIEW, post_body()).status_code == 302  # to the admin's login


@pytest.mark.django_db
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(buy_in=st.integers(0, 200).map(lambda n: n * 50), fee_share=st.integers(0, 20),
       guaranteed=st.integers(0, 500_000), entrants=st.integers(0, 64),
       payouts=st.lists(st.integers(1, 100), min_size=1, max_size=8))
def test_preview_equals_the_rules_split(buy_in, fee_share, guaranteed, entrants, payouts):
    fee = buy_in * fee_share // 100
    total = sum(payouts)
    shares = sorted({max(1, p * 100 // total) for p in payouts}, reverse=True)
    shares[0] += 100 - sum(shares)
    if shares[0] < (shares[1] if len(shares) > 1 else 0) or not 1 <= shares[0] <= 100:
        shares = [100]
    with translation.override("it"):
        from apps.tournaments.amounts import euro_number

        preview = split_preview_from_form(_querydict(post_body(
            buy_in_cents=euro_number(buy_in), fee_cents=euro_number(fee), guaranteed_cents=euro_number(guaranteed),
            payouts=[str(s) for s in shares], preview_entrants=str(entrants))))
    pool = rules.pool_compute(entrants=entrants, buy_in_cents=buy_in, fee_cents=fee, guaranteed_cents=guaranteed)
    assert preview["prize_pool_cents"] == pool.prize_pool and preview["fees_cents"] == pool.fees
    assert [r["cents"] for r in preview["rows"]] == rules.payouts_compute(pool.prize_pool, shares, entrants)
    assert sum(r["cents"] for r in preview["rows"]) == pool.prize_pool


# -- satellite targets --------------------------------------------------------------------------


def test_only_open_tournaments_are_satellite_targets(operator):
    from apps.tournaments import services

    open_one = create(operator, name="Aperto", buy_in_cents=1000, max_players=8)
    scheduled = create(operator, name="Programmato", buy_in_cents=500, kind="scheduled", min_players=2,
                       max_players=8)
    cancelled = create(operator, name="Annullato", buy_in_cents=1000, max_players=8)
    services.tournament_cancel(actor=operator, tournament_id=cancelled["id"], reason="prova")
    running = create(operator, name="In corso", buy_in_cents=1000, max_players=2, payouts=[100])
    register_all(running["id"], players(2, cash=1000))
    services.tournament_start(tournament_id=running["id"])
    assert Tournament.objects.get(pk=running["id"]).status == "running"
    finished_id = create(operator, name="Finito", buy_in_cents=1000, max_players=8)["id"]
    Tournament.objects.filter(pk=finished_id).update(status="finished")
    freeroll = create(operator, name="Freeroll", buy_in_cents=0, guaranteed_cents=1000, max_players=8)
    html = staff_client(operator).get(ADD).content.decode()
    select = re.search(r'<select name="satellite_target".*?</select>', html, re.S).group(0)
    offered = {int(v) for v in re.findall(r'<option value="(\d+)"', select)}
    assert offered == {open_one["id"], scheduled["id"]}
    assert not offered & {cancelled["id"], finished_id, running["id"], freeroll["id"]}
    assert f"Aperto (#{open_one['id']}) · €10,00" in select
    # editing a tournament never offers itself
    edit = staff_client(operator).get(f"/admin/tournaments/tournament/{open_one['id']}/change/").content.decode()
    select = re.search(r'<select name="satellite_target".*?</select>', edit, re.S).group(0)
    assert {int(v) for v in re.findall(r'<option value="(\d+)"', select)} == {scheduled["id"]}


# -- translations -------------------------------------------------------------------------------


def test_add_form_is_wholly_in_its_language(operator):
    for language, words in (("it", ["Costo di partecipazione (€)", "Anteprima della ripartizione dei premi",
                                    "Aggiungi un posto", "Opzioni di gioco: Briscola"]),
                            ("en", ["Entry cost (€)", "Prize-split preview", "Add a place", "Game options: Briscola"])):
        html = staff_client(operator, language).get(ADD).content.decode()
        for word in words:
            assert word in html, (language, word)
        assert not untranslated(html, language), untranslated(html, language)


def test_overview_in_euro_and_in_its_language(operator):
    t = create(operator, name="KO serale Briscola", game="briscola", kind="scheduled", buy_in_cents=800,
               payouts=[50, 30, 20], max_players=16, min_players=4)
    register_all(t["id"], players(4, cash=1000))
    url = f"/admin/tournaments/tournament/{t['id']}/overview/"
    it = staff_client(operator, "it").get(url).content.decode()
    assert "montepremi €32,00" in it and "premi €16,00 · €9,60 · €6,40" in it
    assert "Avvia ora" in it and "Start now" not in it and "Anteprima della ripartizione dei premi" in it
    assert not untranslated(it, "it"), untranslated(it, "it")
    en = staff_client(operator, "en").get(url).content.decode()
    assert "pool €32.00" in en and "prizes €16.00 · €9.60 · €6.40" in en and "Start now" in en
    assert not untranslated(en, "en"), untranslated(en, "en")
    change = staff_client(operator, "it").get(f"/admin/tournaments/tournament/{t['id']}/change/").content.decode()
    assert "Partite del torneo" in change and "Tournament matchs" not in change.lower()
    assert "tournament matches" in staff_client(operator, "en").get(
        f"/admin/tournaments/tournament/{t['id']}/change/").content.decode().lower()


def test_scheduled_start_in_the_future_is_kept_as_typed(operator):
    """The admin's split date and time in Rome's time reach the service as that instant."""
    when = timezone.localtime(timezone.now() + timedelta(days=2)).replace(hour=21, minute=0, second=0, microsecond=0)
    answer = Operator(operator).post(ADD, post_body(kind="scheduled", min_players="2", max_players="8",
                                                        starts_at_0=when.strftime("%d/%m/%Y"), starts_at_1="21:00"))
    assert answer.status_code == 302, answer.context["adminform"].form.errors
    assert Tournament.objects.get().starts_at == when


def test_list_is_in_its_language_with_game_names_and_euro(operator):
    create(operator, name="Serale", game="poker_italiana", kind="scheduled", min_players=2, buy_in_cents=1000,
           fee_cents=100)
    it = staff_client(operator, "it").get("/admin/tournaments/tournament/").content.decode()
    assert "Poker all&#x27;italiana" in it and "programmato" in it and "€10,00 (€9,00+€1,00)" in it
    django_own = ["'Search' (catalogue: 'Search')"]  # the admin's search icon: alt="Search" in Django's template
    assert [p for p in untranslated(it, "it") if p not in django_own] == []
    en = staff_client(operator, "en").get("/admin/tournaments/tournament/?kind=scheduled").content.decode()
    assert "€10.00 (€9.00+€1.00)" in en and "Serale" in en
    assert not untranslated(en, "en"), untranslated(en, "en")


def test_add_a_satellite_of_an_open_tournament(operator):
    """A satellite's payouts are not used (§5.9): the hidden table is neither checked nor stored."""
    target = create(operator, name="Serata", buy_in_cents=1000, max_players=8)
    answer = Operator(operator).post(ADD, post_body(prize="satellite", satellite_target=str(target["id"]),
                                                    buy_in_cents="2,00", fee_cents="0", max_players="8",
                                                    payouts=["70", "70"]))
    assert answer.status_code == 302, answer.context["adminform"].form.errors
    sat = Tournament.objects.get(prize="satellite")
    assert sat.satellite_target_id == target["id"] and sat.payouts == [100] and sat.buy_in_cents == 200


def test_change_page_inlines_in_euro_and_words(operator):
    from apps.tournaments import services

    t = create(operator, max_players=2, buy_in_cents=1000, payouts=[100])
    people = players(2, cash=1000)
    register_all(t["id"], people)
    services.tournament_start(tournament_id=t["id"])
    services.tournament_cancel(actor=operator, tournament_id=t["id"], reason="prova")
    html = staff_client(operator, "it").get(f"/admin/tournaments/tournament/{t['id']}/change/").content.decode()
    assert "Partite del torneo" in html and "annullata" in html and "b1 €10,00" in html
    nicknames = list(Tournament.objects.get(pk=t["id"]).registrations.values_list("nickname", flat=True))
    assert len(nicknames) == 2
    for nickname in nicknames:  # the seats by nickname, not "Pl_5 in 12"
        assert re.search(rf'<td class="field-(first|second)_column">\s*<p>{nickname}</p>', html), nickname
    assert not untranslated(html, "it"), untranslated(html, "it")


def test_a_tournament_that_can_no_longer_change_reads_in_words(operator):
    from apps.tournaments import services

    t = create(operator, name="Chiuso", game="scopa", max_players=8, buy_in_cents=1000, fee_cents=100,
               guaranteed_cents=5000, game_options={"target": 21})
    services.tournament_cancel(actor=operator, tournament_id=t["id"], reason="prova")
    html = staff_client(operator, "it").get(f"/admin/tournaments/tournament/{t['id']}/change/").content.decode()
    for words in ("€10,00 (€9,00+€1,00)", "€50,00", "1° 50 % · 2° 30 % · 3° 20 %", "Punti per vincere: 21",
                  "annullato", "Sit and Go · eliminazione diretta"):
        assert words in html, words
    assert 'name="opt-' not in html and 'id="split-preview"' not in html and "Buy in cents" not in html
    assert not untranslated(html, "it"), untranslated(html, "it")
