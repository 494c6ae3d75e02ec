"""A dim digit in a cell cut a pixel off its face is still found.

Recorded on the test page's seed 2107 at 67% (16.7 px cells with 14 px
faces, dim blue 1s on a dark opened face), 16x16/40, by
`tests.e2e.bench_battery.run_one` on 2026-12-01. The board's rows snap to
whole pixels unevenly: in row 3 the box the reader measures starts a pixel
into the face and ends on the face's bevel and the gap below, two lines
along its edge. The 1 at (3, 0), drawn at another sub-pixel phase than the
other 1s, stands 44 levels off the face: under INK, and the faint rule saw
the lines touch the box's side and found no glyph. The 1 read as the empty
0 look. In game 2 no numbering fitted ("no numbering of the new looks fits
the board", a stop); in game 1 a guess that opened a cascade read as nothing
known and was judged a loss. Lines along the box's edge are now peeled off
before the faint glyph is looked for (`contentbatch.peeled_box`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from msolver.core.board import Board
from msolver.vision.contentbatch import inside_box, peeled_box
from msolver.vision.learning_reader import _INK_RULE, content
from tests.support.replay import recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "web-own-random2107-peeled-one-z67-16x16"
)


def _rows(board: Board, rows: int, cols: int) -> list[str]:
    return [line[:cols] for line in board.to_text().splitlines()[:rows]]


def test_the_one_in_the_cut_cell_reads_as_a_one() -> None:
    last = [reading for item, reading in recorded(RECORDING) if item["game"] == 2][-1]
    assert not last.problem
    assert not last.low_confidence
    # (0..3, 0) are 0, 0, 0, 1 and (0..3, 1) are 1, 1, 1, 3 on the frame
    assert _rows(last.board, 4, 2) == ["01", "01", "01", "13"]


def test_the_cascade_of_game_one_is_read_not_judged_lost() -> None:
    readings = [reading for item, reading in recorded(RECORDING) if item["game"] == 1]
    cascade = readings[-1]
    assert not cascade.problem and not cascade.low_confidence
    assert cascade.board.outcome() is None
    assert _rows(cascade.board, 1, 11) == ["11000000001"]


def _cell_with_lines() -> np.ndarray:
    # a dark face with a dim 1, the face's bevel inside the box (the last
    # rows and column of the box), the gap beyond it, as in row 3 above
    tile = np.full((17, 17, 3), (57, 42, 65), np.uint8)
    tile[12, :13] = (40, 30, 55)  # the bottom bevel's light half, 17 off
    tile[13, :14] = (20, 15, 28)  # its dark half, 37 off
    tile[:14, 13] = (22, 16, 28)  # the right bevel, 37 off
    tile[14:, :] = (93, 93, 93)  # the gap below
    tile[:, 14:] = (93, 93, 93)  # and to the right
    tile[3:10, 7] = (15, 24, 97)  # the 1's stem, 42 levels off the face
    tile[10, 5:10] = (20, 28, 90)  # its foot
    return tile


def test_lines_at_the_box_edge_are_peeled_and_the_glyph_found() -> None:
    tile = _cell_with_lines()
    box = inside_box(tile)
    peeled = peeled_box(tile, box, _INK_RULE)
    assert peeled is not None
    top, bottom, left, right = peeled
    assert (top, left) == box[:1] + box[2:3]  # nothing to peel at the top and left
    assert bottom < box[1] and right < box[3]
    found = content(tile)
    assert found.ink is not None and found.faint


def test_a_blank_cell_with_lines_stays_blank() -> None:
    tile = _cell_with_lines()
    tile[3:11, 5:10] = (57, 42, 65)
    assert content(tile).ink is None
