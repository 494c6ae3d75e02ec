"""A pale digit set in the cell's corner, its stem along the inside's edge.

Recorded on the test page's seed 2213 at 75% (12.8 px cells; digits set in
each opened cell's bottom-right corner, pale on a light grey face; tiles
fading in), 16x16/40, by `tests.e2e.bench_battery.run_one` on 2026-12-02.
The 1 at (1, 7) stood within INK of its face but for two pixels, and as a
faint glyph its stem ran the whole right side of the box the reader looks
in, which a faint glyph's rule takes for a bevel's or a neighbour's edge.
The cell read as a 0 beside unopened cells, and no numbering fitted the
first opening (play stopped on its first frame). Grown over the rim the
stem runs into, the glyph leaves the side, and the 1 reads.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.replay import numbers_shown, recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "web-own-random2213-corner-digits-z75-16x16"
)
# frame 2 as it shows ('.': unopened)
SHOWN = """
0000001.........
110000112.......
.211000012323...
...200000000123.
...310112110001.
....101...10112.
....112..3101...
.........2001...
.........1122...
................
................
................
................
................
................
................
"""
TRUTH = numbers_shown(SHOWN)


def test_a_pale_digit_in_the_corner_reads() -> None:
    item, reading = recorded(RECORDING)[-1]
    assert (item["game"], item["frame"]) == (1, 2)
    assert not reading.low_confidence
    for i, v in TRUTH.items():
        assert reading.board.cells[i] == v, divmod(i, 16)
