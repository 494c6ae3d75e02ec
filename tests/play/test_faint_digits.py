"""Digits a few tens of levels off a flat face are read, in a whole game.

sgt-mines in a "faint" palette (`tests.support.thirdparty.sgt_palette`, seed
3): each digit lies 24-44 levels from the opened face in its most different
channel, under the reader's INK of 48 in every channel. Before
`contentbatch.faint_ink` every number read as the empty opened look and play
stopped at the first click ("no numbering of the new looks fits the board");
beside our flags such a 0 is a number misread. The recording is game 1 of a
live run (`tests.e2e.bench_battery.run_one`, 2026-11-27), won.
"""

from __future__ import annotations

from pathlib import Path

from msolver.core.board import FLAG, UNKNOWN, neighbours_table
from tests.support.replay import recorded

RECORDING = Path(__file__).resolve().parents[2] / "screenshots" / "recordings" / "sgt-faint-3-t18"


def test_every_frame_of_a_faint_palette_game_reads_and_the_numbers_hold() -> None:
    readings = [reading for _item, reading in recorded(RECORDING)]
    assert len(readings) == 11
    for reading in readings:
        assert not reading.problem and not reading.low_confidence
        board = reading.board
        nbrs = neighbours_table(board.width, board.height)
        for i, state in enumerate(board.cells):
            if state == 0 and i not in reading.unsure:
                # a 0 opens its neighbours and has no mine beside it
                assert all(board.cells[j] not in (UNKNOWN, FLAG) for j in nbrs[i])
    last = readings[-1].board
    assert UNKNOWN not in last.cells
    flags = {i for i, s in enumerate(last.cells) if s == FLAG}
    assert len(flags) == last.mines
    nbrs = neighbours_table(last.width, last.height)
    for i, state in enumerate(last.cells):
        if state >= 0:
            assert state == sum(1 for j in nbrs[i] if j in flags), divmod(i, last.width)
    # digits 1 to 4 all shown, and read
    assert {1, 2, 3, 4} <= set(last.cells)
