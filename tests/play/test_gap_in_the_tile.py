"""A row of tiles that begins a pixel into the gap above it.

Recorded on the test page's seed 2314 at 80% (19.33 px cells, gaps the
browser draws 3 or 4 px wide, all digits one white on a dark face, every
cascade drawn in waves and flooding sideways), 9x9/10, by
`tests.e2e.bench_battery.run_one` on 2026-12-02. Row 4's tiles start in the
gap, so the box the reader looks in held a grey line along its top: every
cell of the row took it for ink, its 0 read as a number, and no numbering
fitted the frame (play stopped). A line of the box along its whole side,
continued by the rim past it, is rim, not glyph.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.replay import numbers_shown, recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "web-own-random2314-gap-in-the-tile-z80-9x9"
)
# frame 3 as it shows (F: our flags, '.': unopened; checked by eye)
SHOWN = """
000001...
001111221
001F21000
0123.2100
12F...310
.......10
12.112210
011100000
000000000
"""
TRUTH = numbers_shown(SHOWN)


def test_a_row_whose_tiles_begin_in_the_gap_reads() -> None:
    item, reading = recorded(RECORDING)[-1]
    assert (item["game"], item["frame"]) == (1, 3)
    assert not reading.problem and not reading.unsure
    for i, v in TRUTH.items():
        assert reading.board.cells[i] == v, divmod(i, 9)
