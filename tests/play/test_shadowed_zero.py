"""A 0 whose face carries a shadow at one phase is still a 0.

Recorded on the test page's seed 1510 at 80% (12.8 px cells, an inset shadow
along each opened cell's top and left), 16x16/40, by
`tests.e2e.bench_battery.run_one` on 2026-12-01: game 1 won, then game 2 to
its stop. Game 2's first click opened (0, 0) and a cascade; at (0, 1) the
shadow fell inside the box the reader measures, a grey sliver (173, 180, 183)
on the face (226, 234, 238): a look with ink, unlike the inkless 0. Every
neighbour of (0, 1) was opened, so the rules allow it only a 0, which the
0's look already had: no numbering fitted and play stopped ("no numbering of
the new looks fits the board"). A look that is an inkless one with its own
face darker or lighter (no hue of its own) may now be the same number.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.replay import recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "web-own-random1510-shadowed-zero-z80-16x16"
)


def test_a_zero_with_a_shadow_in_its_box_reads_as_the_zero() -> None:
    readings = [reading for item, reading in recorded(RECORDING) if item["game"] == 2]
    last = readings[-1]
    assert not last.problem
    assert not last.unsure
    assert last.board.cells[1] == 0


def test_game_one_reads_as_before() -> None:
    # the same looks named in the won game: its last frame reads won
    readings = [reading for item, reading in recorded(RECORDING) if item["game"] == 1]
    assert readings[-1].board.outcome() == "won"
