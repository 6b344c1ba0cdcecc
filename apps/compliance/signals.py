"""Compliance's hooks: how a sanction tells the floors above it (tournaments, tables) without
compliance importing them (docs/layers.md). Each is sent once, after the sanction's commit,
with ``sender=Sanction``.

- ``sanction_started(sanction_id, player_id, kind)``: a sanction was issued (sent by
  ``sanction_issue`` once it commits; the money it moves was moved in its transaction). When
  the kind keeps the player out of the lobby: tables and the lobby's chat close the player's
  sockets, matches forfeit their running matches, tournaments cancel their registrations in
  tournaments not yet started and disqualify them from running ones (platform.md §7.4, §5.7).
"""

from django.dispatch import Signal

sanction_started = Signal()
