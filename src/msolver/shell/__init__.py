"""What both live players share: the stop, the outcome, the run-and-log loop, the start key.

The Minesweeper player (`msolver.play`) and the Flood-It player
(`msolver.flood`) each play one game their own way; the session around the
games (stop on a reason or a person's key, log each game and the summary,
wait for the start key) is this one, so the two never drift apart.
"""
