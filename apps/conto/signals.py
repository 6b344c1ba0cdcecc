"""The conto's hooks: how it tells the floors above it (tables, tournaments) without importing
them (docs/layers.md). Each is sent once, after the change's commit, with ``sender=Conto``.

- ``conto_left_open(player_id, state, state_reason)``: the conto left ``aperto`` (or legacy
  mode's play window): tables stand the player up between matches, charging nothing (§1.4).
"""

from django.dispatch import Signal

conto_left_open = Signal()
