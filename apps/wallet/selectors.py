"""Reads of balances and ledgers, and the ledger's invariant check (platform.md §3.8)."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import BooleanField, Case, F, OuterRef, Q, QuerySet, Subquery, Sum, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from apps.adm.selectors import MOVEMENT_KINDS, adm_covered_transactions, movement_codes, participation_codes

from .models import BONUS, CASH, CREDITS, Account, Deposit, Entry, Freeze, Withdrawal

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


def wallet_get(*, player: User) -> dict:
    b = wallet_balances_many(player_ids=[player.pk])[player.pk]
    frozen, _ = freeze_state(player_id=player.pk)
    return {"cash_cents": b[CASH], "bonus_cents": b[BONUS], "credits": b[CREDITS], "frozen": frozen,
            "withdrawals_pending_cents": withdrawals_pending_cents(player_id=player.pk)}


def withdrawals_pending_cents(*, player_id: int) -> int:
    """What the player's withdrawals hold in escrow (regulation.md §5.4)."""
    return Withdrawal.objects.filter(player_id=player_id, status__in=Withdrawal.HELD).aggregate(
        t=Coalesce(Sum("amount"), 0))["t"]


#: the authority's own moves of a share: the player's ledger shows them on their accounts
AUTHORITY_KINDS = ("authority_freeze", "authority_release", "authority_forfeit")


def player_ledger(*, player: User) -> QuerySet:
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
        "balance_after": getattr(entry, "own_balance") if held else entry.balance_after,  # noqa: B009
        "reference": entry.transaction.reference,
        **({"held": True} if held else {}),
    }


def ledger_rows_with_codes(entries: list[Entry], *, player_id: int) -> list[dict]:
    """Ledger rows with ADM's codes (regulation.md §7.4): the movement code of deposits,
    withdrawals and adjustments; participation and session codes join with ADM's sessions."""
    rows = [ledger_entry_as_dict(e) for e in entries]
    codes = movement_codes([r["reference"] for r in rows if r["kind"] in MOVEMENT_KINDS])
    played = participation_codes(player_ids=[player_id],
                                 transaction_ids=[e.transaction_id for e, r in zip(entries, rows, strict=True)
                                                  if r["kind"] in PARTICIPATION_KINDS])
    for entry, row in zip(entries, rows, strict=True):
        part = played.get(entry.transaction_id) if row["kind"] in PARTICIPATION_KINDS else None
        row["adm_code"] = part["code"] if part else (codes.get(row["reference"]) if row["kind"] in MOVEMENT_KINDS
                                                     else None)
        row["adm_session_code"] = (part or {}).get("session_code") or None
    return rows


#: the ledger kinds whose ADM code is a participation's (regulation.md §7.4)
PARTICIPATION_KINDS = ("buy_in", "stake")


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
    return _cashier_check()


def _cashier_check() -> str | None:
    """regulation.md §5.5: (7) each withdrawal's escrow holds its amount while it waits and
    nothing once final; (8) house:erario is not negative; (9) each confirmed deposit has exactly
    one ``deposit`` transaction of its amount, the others none."""
    escrows = dict(Account.objects.filter(code__startswith="escrow:withdrawal:", currency=CASH)
                   .values_list("code", "balance"))
    for withdrawal in Withdrawal.objects.only("pk", "amount", "status").order_by("pk").iterator():
        held = escrows.get(withdrawal.escrow, 0)
        expected = withdrawal.amount if withdrawal.status in Withdrawal.HELD else 0
        if held != expected:
            return (f"rule 7: withdrawal {withdrawal.pk} ({withdrawal.status}) has {held} in escrow,"
                    f" not {expected}")
    erario = Account.objects.filter(code="house:erario", balance__lt=0).first()
    if erario is not None:
        return f"rule 8: house:erario is {erario.balance}"
    paid: dict[str, list[int]] = {}
    for reference, amount in (Entry.objects.filter(transaction__kind="deposit", amount__gt=0)
                              .values_list("transaction__reference", "amount")):
        paid.setdefault(reference, []).append(amount)
    for deposit in Deposit.objects.only("pk", "amount", "status").order_by("pk").iterator():
        moved = paid.pop(f"deposit:{deposit.pk}", [])
        wanted = [deposit.amount] if deposit.status == Deposit.CONFIRMED else []
        if moved != wanted:
            return f"rule 9: deposit {deposit.pk} ({deposit.status}) has deposit transactions {moved}, not {wanted}"
    if paid:
        reference = sorted(paid)[0]
        return f"rule 9: the deposit transaction {reference} has no deposit"
    return None


def stake_matches(*, since: datetime) -> tuple[dict[int, dict[int, int]], dict[int, str]]:
    """Per stake match (``match:{id}`` transactions since ``since``): each player's net result
    (stake, stake returned, winnings); and each match's currency."""
    nets: dict[int, dict[int, int]] = {}
    rows = (Entry.objects.filter(transaction__reference__startswith="match:", player__isnull=False,
                                 kind__in=("stake", "stake_return", "winnings"), created__gte=since)
            .values_list("transaction__reference", "player_id", "currency", "amount"))
    currencies: dict[int, str] = {}
    for reference, player_id, currency, amount in rows:
        try:
            match_id = int(reference.split(":")[1])
        except (IndexError, ValueError):
            continue
        net = nets.setdefault(match_id, {})
        net[player_id] = net.get(player_id, 0) + amount
        currencies[match_id] = currency
    return nets, currencies


def stake_flows(*, since: datetime) -> dict[tuple[int, int, str], tuple[int, list[int]]]:
    """Money or credits moving from one player to another across stake matches (platform.md
    §7.5's chip flow, regulation.md §6.1's ``repeated_losses``): in each match a winner's gain
    comes from the losers in proportion to their losses; per (loser, winner, currency) the
    amount and the matches. The bank's cut is nobody's gain."""
    nets, currency_of = stake_matches(since=since)
    flows: dict[tuple[int, int, str], tuple[int, list[int]]] = {}
    for match_id, net in nets.items():
        gains = {p: v for p, v in net.items() if v > 0}
        total_loss = -sum(v for v in net.values() if v < 0)
        if not gains or not total_loss:
            continue
        for loser, value in net.items():
            if value >= 0:
                continue
            for winner, gain in gains.items():
                share = -value * gain // total_loss
                if share:
                    key = (loser, winner, currency_of[match_id])
                    amount, matches = flows.get(key, (0, []))
                    flows[key] = (amount + share, [*matches, match_id])
    return flows


#: regulation.md §7.5: the money movements ADM must have been told of
ADM_REPORTED_KINDS = ("deposit", "withdrawal_paid", "adjustment", "buy_in", "stake", "unregister_refund",
                      "cancel_refund", "stake_return", "prize", "seat_value", "winnings", "dormant_transfer")


def adm_reconciliation(*, now: datetime | None = None, limit: int = 500) -> dict:
    """§7.5: each cash or bonus transaction of those kinds older than ADM_RECONCILE_HOURS (24)
    that no accepted ADM message covers, newest first (at most ``limit``), and how many."""
    now = now or timezone.now()
    cutoff = now - timedelta(hours=int(getattr(settings, "ADM_RECONCILE_HOURS", 24)))
    rows = (Entry.objects.filter(transaction__kind__in=ADM_REPORTED_KINDS, transaction__created__lt=cutoff,
                                 currency__in=(CASH, BONUS), player__isnull=False)
            .values_list("transaction_id", "transaction__kind", "transaction__reference", "player_id", "amount",
                         "transaction__created").order_by("-transaction_id"))
    seen: dict[int, dict] = {}
    for txn, kind, reference, player, amount, created in rows:
        row = seen.setdefault(txn, {"transaction": txn, "kind": kind, "reference": reference, "player": player,
                                    "amount_cents": 0, "created": timezone.localtime(created).isoformat()})
        row["amount_cents"] += amount
    covered = adm_covered_transactions(transaction_ids=list(seen))
    flagged = []
    for txn, row in seen.items():
        status = covered.get(txn)
        if status != "accepted":
            flagged.append({**row, "message_status": status})
    return {"flagged": flagged[:limit], "count": len(flagged)}
