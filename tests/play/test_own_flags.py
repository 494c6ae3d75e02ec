"""Flags read as flags: the game's own, and ours at another sub-pixel phase.

A won game that flags its last mine itself is a win. Recorded on the test
page's seed 1288 (flat green cells, grey raised flags, 21 px cells at 80%),
9x9/10, two games. Game 1's last click, a guess at
(2, 7), showed a 4 never seen before and won; the page then drew its own
flag on the last mine, (2, 8), at a sub-pixel phase none of our flags had.
That new look was named the mine that went off (nine flags and it made ten
mines, every number fitting): the win was logged lost, the look proved an
exploded mine, and in game 2 our own flag at (8, 8), drawn at that phase,
read as a loss too. No click of ours opened (2, 8), so no mine went off
there; with no cell left unopened it is the game's own flag.
"""

from __future__ import annotations

from pathlib import Path

from msolver.core.board import EXPLODED, FLAG, MINE
from tests.support.replay import recorded

RECORDINGS = Path(__file__).resolve().parents[2] / "screenshots" / "recordings"
RECORDING = RECORDINGS / "web-own-random1288-own-flags-9x9"


def test_the_games_own_flag_on_the_last_mine_reads_as_a_flag() -> None:
    games: dict[int, list] = {}
    for item, reading in recorded(RECORDING):
        games.setdefault(item["game"], []).append(reading)
    assert sorted(games) == [1, 2]
    for readings in games.values():
        assert not any(r.problem for r in readings)
        assert not any(s in (EXPLODED, MINE) for r in readings for s in r.board.cells)
    first, second = games[1][-1].board, games[2][-1].board
    assert first.cells[2 * 9 + 8] == FLAG and first.cells[2 * 9 + 7] == 4
    assert first.cells.count(FLAG) == 10
    assert second.cells[8 * 9 + 8] == FLAG


def test_our_flag_at_another_phase_is_no_half_drawn_cell() -> None:
    # Seed 1307 (dark green opened cells, pink unopened ones, a small red
    # flag), 30x16/99 at 90%. Our flag at (4, 15) matched the flag's look by
    # its content, but its whole patch lay nearer its own blank look than the
    # patch of the cell that look was learned on (a small flag, another
    # sub-pixel phase): play stopped on "cells nearer their blank look than
    # any tile (a hover or a half-drawn frame)".
    readings = [r for _item, r in recorded(RECORDINGS / "web-own-random1307-flag-phase-30x16")]
    assert not any(r.problem for r in readings)
    last = readings[-1].board
    assert last.cells[4 * 30 + 15] == FLAG
    assert last.cells.count(FLAG) == 43
