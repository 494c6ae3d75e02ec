"""One number over a gradient, drawn by whole pixels at a fractional scale: one number.

kmines' default theme draws its opened cells translucent over the window's
gradient, so a number's face is a shade lighter or darker row by row; under
Qt's 125% scaling its digits are also scaled by whole pixels (every fourth
doubled), so no two 1s are drawn alike pixel for pixel. Two looks may share
a number as a shade of one face (same glyph within its own tolerance) or as
one glyph at two phases (same face within FACE_TOL); a 1 a shade apart *and*
at another phase was neither, each 1 a look of its own, and no numbering of
six 1s and four 2s as distinct numbers fits any board: play stopped at the
first click. A glyph at another phase on a shade of the face is now the same
number's look (`learning_reader._face_alike`); the rules still decide.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from msolver.vision.learning_reader import FACE_TOL, SHADE_TOL, Content, _redrawn
from tests.support.replay import recorded

RECORDING = (
    Path(__file__).resolve().parents[2] / "screenshots" / "recordings" / "kmines-default-qt125-9x9"
)

# frame 2 as the picture shows it (a person's reading)
SHOWN = """\
001......
0012.....
0001.....
00012....
00001....
11001....
.2011....
.212.....
........."""


def test_the_first_click_at_125_percent_reads_as_shown() -> None:
    readings = [reading for _item, reading in recorded(RECORDING)]
    assert len(readings) == 2
    second = readings[1]
    assert second.problem == ""
    assert second.board.to_text() == SHOWN
    # the 2 at (1, 3) is a look no rule names yet (2 or 3): unsure, every
    # reading kept. The other three 2s, their glyphs measured whole where
    # they run into the rim (`contentbatch.rim_grown`), are one look the
    # rules name 2 (before, measured cut, they were three looks, unnamed).
    cols = second.board.width
    assert sorted(divmod(i, cols) for i in second.unsure) == [(1, 3)]
    assert any(a.to_text() == SHOWN for a in second.alternatives)


def test_a_glyph_at_another_phase_on_a_shade_of_its_face_may_be_one_number() -> None:
    grey = np.array([191.0, 191.0, 191.0])
    ink = np.array([14.0, 14.0, 133.0])
    shape = np.zeros(64)
    moved = shape.copy()
    moved[:8] = 1.0  # a stroke a pixel over: beyond SHAPE_TOL, within its variants'
    one = Content(grey, ink, shape, -0.7)
    darker = grey - 18.0  # further than FACE_TOL, a grey shade within SHADE_TOL
    assert FACE_TOL < 18.0 < SHADE_TOL
    assert _redrawn(one, Content(darker, ink, moved, -0.67))
    # another hue of face is another tile, whatever the glyph
    tinted = grey + np.array([-18.0, 0.0, 0.0])
    assert not _redrawn(one, Content(tinted, ink, moved, -0.67))
    # another ink is another number
    assert not _redrawn(one, Content(darker, np.array([20.0, 136.0, 20.0]), moved, -0.67))
