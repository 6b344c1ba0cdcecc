"""The conto's states and what each may do (regulation.md §1.4, §1.5), as plain data.

Kept apart from the models so services, selectors, pages and tests read one table.
"""

from __future__ import annotations

IN_VERIFICA = "in_verifica"
APERTO = "aperto"
SOSPESO = "sospeso"
BLOCCATO = "bloccato"
CHIUSO = "chiuso"
DORMIENTE = "dormiente"
STATES = (IN_VERIFICA, APERTO, SOSPESO, BLOCCATO, CHIUSO, DORMIENTE)

# state_reason
DOCUMENTI = "documenti"
AUTOESCLUSIONE = "autoesclusione"
OPERATORE = "operatore"
GIOCATORE = "giocatore"
REASONS = (DOCUMENTI, AUTOESCLUSIONE, OPERATORE, GIOCATORE)

#: §1.4's ADM reason codes for account_status
ADM_REASON = {(SOSPESO, DOCUMENTI): 6, (SOSPESO, AUTOESCLUSIONE): 8, (SOSPESO, OPERATORE): 7, (BLOCCATO, ""): 2}

# kyc_status
DOCUMENTS_REQUIRED = "documents_required"
PENDING = "pending"
RESUBMISSION_REQUIRED = "resubmission_required"
APPROVED = "approved"
REJECTED = "rejected"
LEGACY = "legacy"
KYC_STATUSES = (DOCUMENTS_REQUIRED, PENDING, RESUBMISSION_REQUIRED, APPROVED, REJECTED, LEGACY)
#: §1.3: uploads are accepted only in these
KYC_ACCEPTS_UPLOADS = (DOCUMENTS_REQUIRED, RESUBMISSION_REQUIRED, PENDING)

# origin
ORIGIN_SIGNUP = "signup"
ORIGIN_LEGACY = "legacy"
ORIGIN_DEMO = "demo"
ORIGINS = (ORIGIN_SIGNUP, ORIGIN_LEGACY, ORIGIN_DEMO)


def may_log_in(state: str) -> bool:
    """§1.5: blocked, closed and dormant conti cannot log in."""
    return state not in (BLOCCATO, CHIUSO, DORMIENTE)
