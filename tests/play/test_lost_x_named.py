"""A lost game's only mine, named a number once the batch after the loss flagged cells.

Recorded on nicegui-minesweeper 0.1.1 (PyPI, a NiceGUI web game; white digits
on green, only the mine that went off shown on a loss, a white X on red) at
16x16/40 on 2026-12-07. Game 3's guess at (2,0) hit a mine. On the frame
after, the X was a tile not named yet that may be that mine; the batch after
it, certain on every numbering, flagged cells, which this game still takes
after a loss; on the next frame, the guess no longer the last batch's and
those flags on the board, no loss fitted and the X's look was named a 3.
Play then stopped on "a left click changed nothing twice" instead of
telling the loss. A guessed cell whose look is still unnamed now stays a
guess that may have gone off, and the loss is asked of the board without the
flags sent since (they rest on the readings where the guess was safe).
"""

from __future__ import annotations

from pathlib import Path

from tests.support.replay import recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "nicegui-16x16-lost-x-after-flags"
)
X = 2 * 16 + 0  # (2, 0), the guess that went off


def test_the_mine_that_went_off_is_never_named_a_number() -> None:
    for item, reading in recorded(RECORDING):
        if item["game"] != 3 or item["frame"] < 19:
            continue
        # unread, or one of several readings (the loss among them): never a number for sure
        assert X in reading.unsure or X in reading.low_confidence or reading.problem, (
            item["frame"],
            reading.board.cells[X],
        )
