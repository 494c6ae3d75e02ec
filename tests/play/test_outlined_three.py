"""A digit in a white outline, measured once as a sprite whose ink is the outline.

Recorded on the test page's seed 2221 at 80% (18 px cells, coloured digits
in a white outline), 9x9/10, by `tests.e2e.bench_battery.run_one` on
2026-12-02. Game 1 names the red 3 and the purple 4. In game 2 a red 3 at
(2, 6), drawn at another sub-pixel phase, measured as a sprite whose ink is
its white outline: alike the 1 and the 4 (white-ish inks), not the red 3,
so of the numbers its neighbours allow (3 to 5) only 4 was left, and the
rules named it a 4 for sure. Live, a safe cell was flagged and a cell
opened on it as certain. Its light and dark tones (`contentbatch.ink_tones`,
taken for sprites too) show the red fill, so the 3 stays one of its
readings.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.replay import numbers_shown, recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "web-own-random2221-outlined-three-z80-9x9"
)
# game 2's frame 12 as it shows (F: our flags, '.': unopened)
SHOWN = """
000000000
110011211
F1002F3F2
11002F...
011111...
01F211...
0112.....
00012....
00001....
"""
TRUTH = numbers_shown(SHOWN)


def test_the_outlined_three_keeps_its_number_among_the_readings() -> None:
    item, reading = recorded(RECORDING)[-1]
    assert (item["game"], item["frame"]) == (2, 12)
    boards = reading.alternatives or (reading.board,)
    assert any(all(b.cells[i] == v for i, v in TRUTH.items()) for b in boards)
    for i, v in TRUTH.items():
        if i not in reading.unsure:
            assert boards[0].cells[i] == v, divmod(i, 9)
