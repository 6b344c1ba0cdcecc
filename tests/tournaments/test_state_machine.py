"""A Hypothesis state machine over register / unregister / start / play / cancel: after every
step the ledger holds (check_ledger), nobody's money is created or lost, and the escrow holds
exactly what the rules say."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from apps.common.errors import DomainError
from apps.tournaments import services
from apps.tournaments.models import Registration, Tournament
from apps.wallet.models import Account
from tests.conftest import make_user

from .conftest import GAME, assert_ledger_ok, balances, fund, play_match, playing_matches

pytestmark = pytest.mark.django_db(transaction=True)

FUNDS = {"cash": 1500, "bonus": 300}


class TournamentMachine(RuleBasedStateMachine):
    @initialize(fmt=st.sampled_from(["knockout", "points"]), guaranteed=st.sampled_from([0, 5000]),
                fee=st.sampled_from([0, 100]))
    def setup(self, fmt, guaranteed, fee):
        self.operator = make_user(group="operator")
        self.t = services.tournament_create(actor=self.operator, data={
            "name": "Hypothesis", "game": GAME, "kind": "scheduled", "format": fmt, "buy_in_cents": 1000,
            "fee_cents": fee, "guaranteed_cents": guaranteed, "prize": "cash", "min_players": 2,
            "max_players": 8, "starts_at": "2099-01-01T20:00:00+00:00", "payouts": [60, 40]})
        self.people = []
        for _ in range(4):
            p = make_user(nickname=f"Hy_{make_user().pk}")
            fund(p, cash=FUNDS["cash"], bonus=FUNDS["bonus"])
            self.people.append(p)

    def _t(self) -> Tournament:
        return Tournament.objects.get(pk=self.t.pk)

    @rule(i=st.integers(0, 3))
    def register(self, i):
        with contextlib.suppress(DomainError):
            services.tournament_register(user=self.people[i], tournament_id=self.t.pk)

    @rule(i=st.integers(0, 3))
    def unregister(self, i):
        with contextlib.suppress(DomainError):
            services.tournament_unregister(user=self.people[i], tournament_id=self.t.pk)

    @rule()
    def start(self):
        with contextlib.suppress(DomainError):
            services.tournament_start(tournament_id=self.t.pk, actor=self.operator)

    @precondition(lambda self: self._t().status == "running")
    @rule()
    def play_one(self):
        ids = playing_matches(self.t.pk)
        if ids:
            play_match(ids[0])

    @rule()
    def cancel(self):
        with contextlib.suppress(DomainError):
            services.tournament_cancel(actor=self.operator, tournament_id=self.t.pk, reason="hypothesis")
        services.tournament_refunds_pay(tournament_id=self.t.pk)  # a rerun pays nothing twice

    @invariant()
    def ledger_holds(self):
        assert_ledger_ok()

    @invariant()
    def escrow_is_what_the_rules_say(self):
        t = self._t()
        escrow = dict(Account.objects.filter(code=t.escrow).values_list("currency", "balance"))
        regs = Registration.objects.filter(tournament=t, active=True)
        if t.status == "open":
            assert escrow.get("bonus", 0) == sum(r.paid_bonus_cents for r in regs)
            assert escrow.get("cash", 0) == sum(r.paid_cash_cents for r in regs)
        elif t.status == "running":
            assert escrow.get("bonus", 0) == 0 and escrow.get("cash", 0) == t.prize_pool_cents
        else:
            assert not any(escrow.values())

    @invariant()
    def money_is_conserved(self):
        t = self._t()
        players_total = sum(sum(balances(p)) for p in self.people)
        start = len(self.people) * (FUNDS["cash"] + FUNDS["bonus"])
        if t.status in ("open", "running"):
            held = sum(r.paid_bonus_cents + r.paid_cash_cents for r in Registration.objects.filter(tournament=t,
                                                                                                 active=True))
            assert players_total + held == start
        elif t.status == "cancelled" and t.started_at is None:
            assert players_total == start  # full refunds, fees included
        else:
            fees = t.fees_cents or 0
            overlay = t.overlay_cents or 0
            assert players_total == start - fees + overlay  # the pool goes back to the players


TournamentMachine.TestCase.settings = settings(max_examples=4, stateful_step_count=8, deadline=None,
                                               suppress_health_check=list(HealthCheck))
test_tournament_state_machine = TournamentMachine.TestCase
