"""The conto's hooks: how it tells the floors above it (tables, tournaments) without importing
them (docs/layers.md). Each is sent once, after the change's commit, with ``sender=Conto``.

- ``conto_left_open(player_id, state, state_reason)``: the conto left ``aperto`` (or legacy
  mode's play window): tables stand the player up between matches, charging nothing (§1.4).
"""

from django.dispatch import Signal

conto_left_open = Signal()

#: ``conto_busy(player_id)``, sent (synchronously) before a player closes the conto: the floors
#: above answer a sentence when the player is seated at a table or registered in an unfinished
#: tournament (§1.8's ``account_busy``), else None
conto_busy = Signal()

#: ``nightly_steps(now)``, sent (synchronously) by the nightly job (regulation.md §11.1): the
#: floors above run their own steps (the AML scan) and answer their counts as a dict
nightly_steps = Signal()
