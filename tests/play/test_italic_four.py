"""A digit whose glyph lies nearer another number's look than its own.

Recorded on the test page's seed 2195 at 67% (17.4 px cells, thin italic
digits in pastel inks), 30x16/99, by `tests.e2e.bench_battery.run_one` on
2026-12-01. At this size two drawings of one digit differ in glyph by more
than a 1 and a 4 may: on frame 4 two purple 4s at (5, 3) and (5, 5) lay
0.89 from the blue 1s' look and 2.15 from the 4s', and were read as 1s; no
board fitted them, and play stopped. Their ink is the 4s' (within 3 levels)
and 34 levels from the 1s': a cell whose colour says one number and glyph
another is a new look that may be either, and the rules decide.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.replay import numbers_shown, recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "web-own-random2195-italic-four-z67-30x16"
)
# frame 4 as it shows (F: our flags, '.': unopened; checked by eye)
SHOWN = """
0000000000001.................
0001110000002.................
0112F10000002F................
24F3221122102.................
FFF31F22FF102.................
...424..22102F................
........11223.................
........1..F..................
..............................
..............................
..............................
..............................
..............................
..............................
..............................
..............................
"""
TRUTH = numbers_shown(SHOWN)


def test_the_fours_read_as_fours() -> None:
    item, reading = recorded(RECORDING)[-1]
    assert (item["game"], item["frame"]) == (1, 4)
    assert not reading.problem
    boards = reading.alternatives or (reading.board,)
    assert any(all(b.cells[i] == v for i, v in TRUTH.items()) for b in boards)
    for i, v in TRUTH.items():
        if i not in reading.unsure:
            assert all(b.cells[i] == v for b in boards), divmod(i, 30)
    assert {(5 * 30 + 3), (5 * 30 + 5)}.isdisjoint(reading.unsure)
