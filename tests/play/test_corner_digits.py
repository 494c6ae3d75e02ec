"""A digit set in the cell's corner is measured whole.

Recorded on the test page's seed 1146 (a one-ink checkerboard of purples at
67%: 11 px cells, each digit set in the cell's bottom-right corner) with
`cascade=sides`, 16x16/40. `content` leaves out a rim of 2 px a side as
lines and bevels; at one sub-pixel phase the corner 3 fell into it, and
only a sliver of one column was measured (its aspect -0.64 against -1.37
for the same 3 a pixel further in). The 3 was a new look no number fitted
near, and game 2 stopped on "no numbering of the new looks fits the board"
(before the reader's variants were widened, it named a wrong number and
flagged a safe cell). Where the glyph's ink runs into a rim line that is
face, not a line, the glyph is now measured with that line.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.replay import recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "web-own-random1146-corner-sideways-16x16"
)

# Game 2's last frame as the screen shows it (checked by eye, cell by cell).
SHOWN = """
011101.3F2011...
02F202.4F201F...
24F312F311122...
..FF12.2001F3...
22.....31012F...
001...FF10023...
001222221012F...
00000001222F3...
01110001FF21....
01..12222.......
02..............
01..............
01..............
1...............
................
................
"""


def test_the_corner_threes_read_as_threes_and_the_game_reads_through() -> None:
    readings = [reading for item, reading in recorded(RECORDING) if item["game"] == 2]
    assert not any(r.problem for r in readings)
    last = readings[-1]
    assert not last.unsure and len(last.alternatives) <= 1
    assert str(last.board).split() == SHOWN.split()
