"""A 0 that differs from its unopened look only in a one-pixel bevel is read opened.

sgt-mines in an "any" palette (`tests.support.thirdparty.sgt_palette`, seed
3) draws the opened face in the unopened face's very colour, and at 16 px
its bevel is one pixel, which the cell patches leave out (a neighbour's
sliver in a box cut at a fractional phase must not count). The clicked 0
read as still unopened and play stopped at the first click ("the board
changed where we did not click"); once read, opened 0s read unopened again
("opened cells changed their look"). `LearningReader._opened_by_rim` takes a
clicked or already opened cell whose box changed from the blank board's on
all four sides as opened, and the 0s beside it so. The recording is game 1
of a live run (`tests.e2e.bench_battery.run_one`, 2026-11-28), won.
"""

from __future__ import annotations

from pathlib import Path

from msolver.core.board import FLAG, UNKNOWN, neighbours_table
from tests.support.replay import recorded

RECORDINGS = Path(__file__).resolve().parents[2] / "screenshots" / "recordings"
RECORDING = RECORDINGS / "sgt-any-3-t16"
BUTTONS = RECORDINGS / "web-own-buttons-z67-16x16"


def test_every_frame_reads_and_its_zeros_are_opened() -> None:
    readings = [reading for _item, reading in recorded(RECORDING)]
    assert len(readings) == 12
    zeros = 0
    # the last frame is sgt's win flash (every colour changed): the player's
    # own end-of-game rules read it, not this test
    for reading in readings[1:-1]:
        assert not reading.problem and not reading.low_confidence, reading.problem
        board = reading.board
        nbrs = neighbours_table(board.width, board.height)
        for i, state in enumerate(board.cells):
            if state == 0:
                zeros += 1
                assert all(board.cells[j] not in (UNKNOWN, FLAG) for j in nbrs[i])
    assert zeros > 0
    last = readings[-2].board
    # the last frame before the win: every number has as many of our flags
    # beside it as it says, or fewer with unopened cells to make up the rest
    flags = {i for i, s in enumerate(last.cells) if s == FLAG}
    unknown = {i for i, s in enumerate(last.cells) if s == UNKNOWN}
    nbrs = neighbours_table(last.width, last.height)
    for i, state in enumerate(last.cells):
        if state >= 0:
            near = set(nbrs[i])
            assert len(near & flags) <= state <= len(near & (flags | unknown)), divmod(i, 16)
    assert len(flags) > 20 and len(unknown) <= 5


def test_a_zero_an_opening_spread_to_is_opened_by_its_rim_alone() -> None:
    # Our web page's buttons look at 67%: an opened cell is a disabled button,
    # its face 1 level off the enabled one's inside, its border lighter. The
    # last frame's opening spread to (10, 4), a 0 neither clicked nor read
    # before, which read unopened beside the 0s around it; play stopped
    # ("a 0 at row 9, col 3 borders unopened cells"). Recorded live
    # (`tests.e2e.bench_battery.run_one`, 2026-11-28), game 1 to that stop.
    readings = [reading for _item, reading in recorded(BUTTONS)]
    last = readings[-1]
    assert not last.problem and not last.low_confidence, last.problem
    board = last.board
    nbrs = neighbours_table(board.width, board.height)
    assert board.cells[10 * 16 + 4] == 0
    for reading in readings:
        b = reading.board
        for i, state in enumerate(b.cells):
            if state == 0 and not reading.unsure:
                assert all(b.cells[j] not in (UNKNOWN, FLAG) for j in nbrs[i]), divmod(i, 16)
