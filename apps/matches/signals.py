"""The matches app's hooks: how a match tells whoever made it what happened, without
knowing who that is (docs/layers.md). Every one is sent after commit, exactly once per
event, with ``sender=Match``.

- ``match_finished(match_id, outcome)``: the match is over, finished or cancelled.
  ``outcome`` is ``{"status": "finished" | "cancelled", "result": the engine's result with
  the winner (None when cancelled), "game": the game}``. Tables subscribe (the window to
  confirm the next match opens); tournaments will (the bracket advances).
- ``match_seat_abandoned(match_id, player_id)``: a player's seat was forfeited (they left,
  or their grace period ran out); a table stands them up.
- ``match_changed(match_id, version, move)``: any committed change a page shows (a move, a
  vote, a connection). The match's owner tells its own sockets and answers True (a table
  advances its revision and pushes "table changed, revision r" to its group); when no
  receiver answers True, matches pushes "changed, version n" to the match's own group (a
  tournament's match). ``move`` is None, or for a move that changed nothing but the match
  row (version, state, deadline) and added its log row: ``{"match": the saved Match,
  "state": the engine state after the move, "action": the MatchAction}``, read-only, so that
  a table can draw the new version in this process without reading it back (issue 15).
"""

from django.dispatch import Signal

match_finished = Signal()
match_seat_abandoned = Signal()
match_changed = Signal()
