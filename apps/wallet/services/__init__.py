"""Every movement of money goes through here (platform.md §3, §4): one module a concern,
this package their public surface.

``ledger.ledger_post`` is the one writer: it checks that each currency sums to zero, locks
the accounts it touches in ascending id order (Saleor's rule, no deadlocks), checks
balances under the lock, and writes the transaction, its entries and the cached
balances in one database transaction. ``accounts`` finds and locks the accounts, ``sql``
holds the plumbing of its statements; ``freezes`` (a reported player's diversion and the
authority's share), ``credits`` (play money) and ``movements`` (adjustments, stakes, the
conto's end, the cashier) are the domain's moves. They import one way: movements, credits,
freezes -> ledger -> accounts -> sql.
"""

from .accounts import (
    _ACCOUNT_IDS,
    ADJUSTMENT_COUNTER,
    AUTHORITY_CODES,
    AUTHORITY_FROZEN,
    AUTHORITY_REMITTED,
    NEGATIVE_ALLOWED,
    account_get,
    match_escrow_code,
    player_account_require,
    player_code,
)
from .credits import (
    PASSPORT_CREDITS,
    RECHARGE_BELOW,
    RECHARGE_CREDITS,
    RECHARGE_DELAY,
    RECHARGES_PER_DAY,
    ROME,
    WELCOME_CREDITS,
    RechargeNotAllowed,
    credits_passport_grant,
    credits_recharge_request,
    credits_recharges_credit_due,
    credits_welcome_grant,
)
from .freezes import (
    authority_freeze,
    authority_settle,
    wallet_freeze_set,
)
from .ledger import (
    Leg,
    Posting,
    entry_balance_after,
    ledger_post,
    ledger_post_many,
    player_credit_legs,
    wallet_credit,
    wallet_debit,
    wallet_transfer,
)
from .movements import (
    ADJUSTMENT_MAX,
    bonus_forfeit,
    deposit_credit,
    dormant_transfer,
    escrow_close,
    escrow_settle,
    stakes_collect,
    wallet_adjust,
    withdrawal_escrow,
    withdrawal_pay,
    withdrawal_return,
)
from .sql import (
    ARRAY_ROWS,
    LEDGER_PREPARE_THRESHOLD,
    LedgerError,
)

__all__ = [
    "ADJUSTMENT_COUNTER",
    "ADJUSTMENT_MAX",
    "ARRAY_ROWS",
    "AUTHORITY_CODES",
    "AUTHORITY_FROZEN",
    "AUTHORITY_REMITTED",
    "LEDGER_PREPARE_THRESHOLD",
    "LedgerError",
    "Leg",
    "NEGATIVE_ALLOWED",
    "PASSPORT_CREDITS",
    "Posting",
    "RECHARGES_PER_DAY",
    "RECHARGE_BELOW",
    "RECHARGE_CREDITS",
    "RECHARGE_DELAY",
    "ROME",
    "RechargeNotAllowed",
    "WELCOME_CREDITS",
    "_ACCOUNT_IDS",
    "account_get",
    "authority_freeze",
    "authority_settle",
    "bonus_forfeit",
    "credits_passport_grant",
    "credits_recharge_request",
    "credits_recharges_credit_due",
    "credits_welcome_grant",
    "deposit_credit",
    "dormant_transfer",
    "entry_balance_after",
    "escrow_close",
    "escrow_settle",
    "ledger_post",
    "ledger_post_many",
    "match_escrow_code",
    "player_account_require",
    "player_code",
    "player_credit_legs",
    "stakes_collect",
    "wallet_adjust",
    "wallet_credit",
    "wallet_debit",
    "wallet_freeze_set",
    "wallet_transfer",
    "withdrawal_escrow",
    "withdrawal_pay",
    "withdrawal_return",
]
