"""Reads of balances and ledgers, and the ledger's invariant check (platform.md §3.8)."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import BooleanField, Case, F, OuterRef, Q, QuerySet, Subquery, Sum, Value, When
from django.db.models.functions import Coalesce

from .models import BONUS, CASH, CREDITS, Account, Entry, Freeze

AUTHORITY_FROZEN = "house:authority_frozen"


def freeze_state(*, player_id: int) -> tuple[bool, bool]:
    """(frozen, diverted): may nothing in cash or bonus be spent; does arriving cash and bonus
    go to house:authority_frozen (an authority report)."""
    diverts = set(Freeze.objects.active().filter(player_id=player_id).values_list("divert", flat=True))
    return bool(diverts), True in diverts


def wallet_balances_many(*, player_ids: list[int]) -> dict[int, dict[str, int]]:
    balances: dict[int, dict[str, int]] = {pid: {CASH: 0, BONUS: 0, CREDITS: 0} for pid in player_ids}
    for pid, currency, balance in Account.objects.filter(player_id__in=player_ids).values_list(
            "player_id", "currency", "balance"):
        balances[pid][currency] = balance
    return balances


def frozen_cents_many(*, player_ids: list[int]) -> dict[int, int]:
    """Each player's share of house:authority_frozen (cash plus bonus)."""
    shares: dict[int, int] = defaultdict(int)
    rows = (Entry.objects.filter(account__code="house:authority_frozen", player_id__in=player_ids)
            .values("player_id").annotate(total=Sum("amount")))
    for row in rows:
        shares[row["player_id"]] = row["total"] or 0
    return shares


def wallet_get(*, player) -> dict:
    b = wallet_balances_many(player_ids=[player.pk])[player.pk]
    frozen, _ = freeze_state(player_id=player.pk)
    return {"cash_cents": b[CASH], "bonus_cents": b[BONUS], "credits": b[CREDITS], "frozen": frozen}


#: the authority's own moves of a share: the player's ledger shows them on their accounts
AUTHORITY_KINDS = ("authority_freeze", "authority_release", "authority_forfeit")


def player_ledger(*, player) -> QuerySet:
    """The entries on the player's own accounts, newest first, and the money that arrived for
    them while an authority report held it (a refund, a prize: credited to their share of
    house:authority_frozen, platform.md §7.4), marked ``held``. A held line's
    ``balance_after`` is the player's own balance then (unchanged by it), never the house's."""
    own_before = (Entry.objects.filter(account__player=player, currency=OuterRef("currency"),
                                       id__lt=OuterRef("id")).order_by("-id").values("balance_after")[:1])
    held = Q(account__code=AUTHORITY_FROZEN, player=player, account__player__isnull=True) & ~Q(
        kind__in=AUTHORITY_KINDS)
    return (Entry.objects.filter(Q(account__player=player) | held)
            .annotate(held=Case(When(account__player__isnull=True, then=Value(True)), default=Value(False),
                                output_field=BooleanField()),
                      own_balance=Case(When(account__player__isnull=True,
                                            then=Coalesce(Subquery(own_before), Value(0))),
                                       default=F("balance_after")))
            .select_related("transaction").order_by("-id"))


def ledger_entry_as_dict(entry: Entry) -> dict:
    held = bool(getattr(entry, "held", False))
    return {
        "id": entry.pk,
        "created": entry.created.isoformat(),
        "kind": entry.kind or entry.transaction.kind,
        "currency": entry.currency,
        "amount": entry.amount,
        "balance_after": entry.own_balance if held else entry.balance_after,
        "reference": entry.transaction.reference,
        **({"held": True} if held else {}),
    }


def ledger_check() -> str | None:
    """The first broken money invariant, as a sentence naming the row; None if all hold."""
    unbalanced = (Entry.objects.values("transaction_id", "currency").annotate(total=Sum("amount"))
                  .exclude(total=0).order_by("transaction_id").first())
    if unbalanced:
        return (f"rule 1: transaction {unbalanced['transaction_id']} does not sum to zero in"
                f" {unbalanced['currency']} (sum {unbalanced['total']})")
    sums = Entry.objects.filter(account=OuterRef("pk")).values("account").annotate(s=Sum("amount")).values("s")
    drift = (Account.objects.annotate(entries_total=Coalesce(Subquery(sums), Value(0)))
             .exclude(balance=F("entries_total")).order_by("pk").first())
    if drift:
        return (f"rule 2: account {drift} (id {drift.pk}) caches {drift.balance} but its entries sum to"
                f" {drift.entries_total}")
    negative_player = Account.objects.filter(player__isnull=False, balance__lt=0).order_by("pk").first()
    if negative_player:
        return f"rule 3: player account {negative_player} (id {negative_player.pk}) is {negative_player.balance}"
    open_escrow = Account.objects.filter(code__startswith="escrow:", closed=True).exclude(balance=0) \
        .order_by("pk").first()
    if open_escrow:
        return f"rule 4: escrow {open_escrow} of a finished or cancelled event holds {open_escrow.balance}"
    negative_house = Account.objects.filter(allow_negative=False, balance__lt=0).order_by("pk").first()
    if negative_house:
        return f"rule 5: account {negative_house} (id {negative_house.pk}) is {negative_house.balance}"
    shares = (Entry.objects.filter(account__code="house:authority_frozen").values("player_id")
              .annotate(total=Sum("amount")).exclude(total=0).order_by("player_id"))
    for share in shares:
        reported = Freeze.objects.active().filter(player_id=share["player_id"], divert=True).exists()
        if not reported:
            return (f"rule 6: player {share['player_id']} has {share['total']} in house:authority_frozen"
                    " without an active authority report")
    return None
