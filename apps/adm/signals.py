"""The outbox's hooks (the outbox sits below every app that writes to it).

- ``adm_message_answered(message_id, type, reference, player_id, accepted, code)``: ADM
  answered a message (sent after the answer's commit). The conto keeps the account code of
  ``account_open``; the registry stand-in hears of an accepted ``self_exclusion``.
"""

from django.dispatch import Signal

adm_message_answered = Signal()
