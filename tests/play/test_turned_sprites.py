"""A sprite measured the other way round may be the same number.

Recorded live: kmines' green theme, 16x16/40 at Qt's 125% (17.5 px cells).
Each number is a signpost over grass; in some cells the post covers more of
the box than the grass, so their look measured the post as its face and the
grass as ink. Told those looks were other numbers than the 1s and 2s on
grass, the rules named every 1 a 2 for sure, the player flagged three safe
cells and opened a mine. The game's end (frame 3) shows the mines: (1, 0)
and (2, 0), none at (0, 0) or (3, 0), so the numbers are 1s in the 1-looking
posts and 2s in the 2-looking ones.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.replay import recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "kmines-green-medium-qt125-turned-sprites"
)
# (row, col): the number the game's end proves, around its mines
TRUE = {(0, 1): 1, (1, 1): 2, (2, 1): 2, (0, 5): 1}


def test_no_number_is_read_for_sure_wrong() -> None:
    frames = recorded(RECORDING)
    item, reading = frames[1]  # the frame after the first click's opening
    assert item["frame"] == 2
    doubt = reading.unsure | frozenset(reading.low_confidence)
    wrong = {
        (r, c): reading.board.cells[r * 16 + c]
        for (r, c), n in TRUE.items()
        if r * 16 + c not in doubt and reading.board.cells[r * 16 + c] != n
    }
    assert wrong == {}
    # every numbering the reader holds possible is one the truth may be
    for cell, n in TRUE.items():
        i = cell[0] * 16 + cell[1]
        if i in doubt:
            assert any(alt.cells[i] == n for alt in reading.alternatives), cell
