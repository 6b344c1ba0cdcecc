"""Words for the conto's codes on pages (the API keeps the codes)."""

from django.utils.translation import gettext_lazy

KYC_WORDS = {"documents_required": gettext_lazy("documents required"), "pending": gettext_lazy("waiting for review"),
             "resubmission_required": gettext_lazy("asked to send again"), "approved": gettext_lazy("approved"),
             "rejected": gettext_lazy("rejected"), "legacy": gettext_lazy("account from before the check")}
DOCUMENT_WORDS = {"carta_identita": gettext_lazy("Carta d'identità"), "passaporto": gettext_lazy("Passport"),
                  "patente": gettext_lazy("Driving licence")}
CAN_WORDS = {"money_play": gettext_lazy("Money play"), "deposit": gettext_lazy("Deposits"),
             "withdraw": gettext_lazy("Withdrawals")}
