"""A cell's surroundings are not its state: the last column beside a window frame.

kmines' default theme at Qt's 125%, Medium (16x16): cells 17 and 18 px apart
at a pitch of 17.5, and the last column cut short by the window's dark frame,
which each of its boxes takes in. Its opened cells differ from its blank ones
only by a faint bevel. A 0 opened in the last column was then nearer its own
blank look (frame and all) than the 0's look, learned on a cell in the
board's middle with light pixels where the frame is; the guard against a
hover or a faint preview (`_halfway`) took it for a blank cell under a mark,
and play stopped at the sixth frame: "cells nearer their blank look than any
tile". The pixels where the two cells' blank looks differ show their
surroundings, not their state, and are now left out of that comparison.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.replay import recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "kmines-default-qt125-16x16"
)

# frame 6 as the picture shows it (a person's reading)
SHOWN = """\
000000001F1001..
0000111011100111
00001F2111110000
0000112F11F21011
00001243213F202.
00001FFF202F202.
0001235F3011101.
0112F13F3011101.
01F2223F312F212.
01112F312F22....
11113F2011111111
..2..11000000000
......1001221122
......2112......
................
................"""


def test_zeros_opened_beside_the_frame_read_as_shown() -> None:
    readings = [reading for _item, reading in recorded(RECORDING)]
    assert len(readings) == 6
    assert all(r.problem == "" for r in readings)
    last = readings[-1]
    assert last.board.to_text() == SHOWN
    # the last column's 0s beside the frame, the cells that stopped play
    cols = last.board.width
    assert last.board.cells[2 * cols + 15] == 0
    assert last.board.cells[11 * cols + 15] == 0
    assert not last.unsure
