"""Compliance's hooks: how a sanction tells the floors above it (tournaments, tables) without
compliance importing them (docs/layers.md). Each is sent once, after the sanction's commit,
with ``sender=Sanction``.

- ``sanction_started(sanction_id, player_id, kind)``: a sanction was issued. Tournaments
  cancel the player's registrations in tournaments not yet started and disqualify them
  from running ones when the kind keeps them out of the lobby (platform.md §7.4, §5.7).
"""

from django.dispatch import Signal

sanction_started = Signal()
