"""A glyph over most of a cell's inside is ink, never an empty opened cell.

The npm web game at 50% page zoom draws 20 px cells whose bold 4 covers 62%
of the 14 px inside. The face was found around the glyph (`around_glyph`),
but the texture rule set the bar for ink at four times the inside's median
distance from the face, a median that lay on the glyph: 536 levels, so no
pixel was ink, and the 4 read as the empty opened look, a 0 for sure. Play
stopped only because that 0 had four of our flags beside it; beside no flag
its neighbours would have been opened as certain. The face's texture is now
measured on the face's own pixels (`contentbatch.face_texture`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from msolver.core.board import FLAG, neighbours_table
from msolver.core.clock import FakeClock
from msolver.play.readers import reader_for
from msolver.vision.contentbatch import contents_of
from msolver.vision.image import read_png
from msolver.vision.learning_reader import _INK_RULE, LearningReader, content
from msolver.vision.profile import load_profile
from tests.support.replay import recorded

RECORDING = Path(__file__).resolve().parents[2] / "screenshots" / "recordings" / "web-mfw-z50-16x16"
GREY, NAVY = (185, 185, 185), (0, 0, 132)


def test_a_glyph_over_most_of_the_inside_is_ink() -> None:
    reader = reader_for(load_profile(RECORDING / "profile.json"), clock=FakeClock())
    assert isinstance(reader, LearningReader)
    image = read_png(RECORDING / "frames" / "g002-f00011.png")
    tile = reader._tile(image, 3 * 16 + 5)  # the 4 at row 3, col 5
    inside = tile[3:17, 3:17, :3].astype(int)
    assert (np.abs(inside - GREY).max(axis=2) > 48).mean() > 0.6
    c = content(tile)
    assert c.ink is not None and np.abs(c.ink - NAVY).max() <= 8
    assert np.abs(c.face - GREY).max() <= 2
    # the batch rule gives the same, or leaves the box to content
    got = contents_of([tile], _INK_RULE)
    assert got is not None
    if got[0] is not None:
        face, ink = got[0][:2]
        assert ink is not None and np.array_equal(ink, c.ink) and np.array_equal(face, c.face)


def test_the_bold_fours_are_never_read_as_0() -> None:
    readings = [reading for _item, reading in recorded(RECORDING)]
    assert len(readings) == 9
    for reading in readings:
        board = reading.board
        doubt = set(reading.unsure) | set(reading.low_confidence)
        nbrs = neighbours_table(board.width, board.height)
        for i, state in enumerate(board.cells):
            if state == 0 and i not in doubt:
                # a 0 has no mine beside it: never one of our flags (each on a proven mine)
                assert all(board.cells[j] != FLAG for j in nbrs[i]), divmod(i, board.width)
    last = readings[-1]
    assert not last.problem
    cols = last.board.width
    # the two navy 4s of the last frame (a person's reading of its picture)
    for r, c in ((3, 5), (4, 5)):
        assert last.board.cells[r * cols + c] == 4
