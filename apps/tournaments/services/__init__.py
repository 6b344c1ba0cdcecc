"""Writes for tournaments (platform.md §5, §6): create, edit, register, start, play, finish,
cancel; one module a concern, this package their public surface.

Money moves only through ``apps.wallet.services``. Every path that changes a tournament
locks its row first (``core._locked``): counting the seats, starting (which pairs once), a
finished match advancing the bracket and the refund run are serialised by it. Internal
money moves carry deterministic idempotency keys (``cancel_refund:tournament:12:
registration:345``), so a task that runs twice, or is killed and rerun, pays each line once:
the ledger's unique key guarantees it. The modules import one way: registration ->
lifecycle -> settlement -> core; creation -> core.
"""

from ..validation import tournament_validate
from .core import EDITABLE_AFTER_REGISTRATION, REGISTRATION_CLOSES_BEFORE
from .creation import tournament_create, tournament_update
from .lifecycle import (
    start_when_full,
    tournament_cancel,
    tournament_match_finished,
    tournament_start,
    tournaments_due_work,
)
from .registration import (
    registration_open,
    registration_window_open,
    tournament_register,
    tournament_registrations_pause,
    tournament_registrations_resume,
    tournament_unregister,
    tournaments_busy,
    tournaments_sanction_apply,
)
from .settlement import prize_list, prize_preview, refunds_pay, tournament_refunds_pay

__all__ = [
    "EDITABLE_AFTER_REGISTRATION", "REGISTRATION_CLOSES_BEFORE", "prize_list", "prize_preview", "refunds_pay",
    "registration_open", "registration_window_open", "start_when_full", "tournament_cancel", "tournament_create",
    "tournament_match_finished", "tournament_refunds_pay", "tournament_register", "tournament_registrations_pause",
    "tournament_registrations_resume", "tournament_start", "tournament_unregister", "tournament_update",
    "tournament_validate", "tournaments_busy", "tournaments_due_work", "tournaments_sanction_apply",
]
