"""Numbers drawn as sprites over a textured face: read, and named by the rules.

screenshots/kmines-green/ holds the first click of a live game of KDE's
kmines in its "green" theme: grass everywhere, each number a wooden signpost
with the digit painted on it, and the 0 a signpost with a skull. A signpost
covers about a quarter of the cell, so the face colour taken as the median of
the whole box lies between grass and wood, and the texture threshold (four
times the median distance from it) rose above every pixel: the 1 and the 2
read as faces without ink, one look, and no numbering fitted the board.
Before that, the skull (the 0, drawn with ink) did not count as a 0 whose
opening spreads, and the read stopped with "the board changed where we did
not click".
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from msolver.core.board import UNKNOWN
from msolver.vision.image import read_png
from msolver.vision.learning_reader import Content, content
from msolver.vision.profile import load_profile
from msolver.vision.reading import Reading
from tests.support.contents import assert_batch_matches
from tests.support.replay import replay

SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "kmines-green"


def _replay() -> list[Reading]:
    return replay(SHOTS)


def _cell(row: int, col: int) -> np.ndarray:
    prof = load_profile(SHOTS / "profile.json")
    image = read_png(SHOTS / "g1-f2.png")
    left, top, _, _ = prof.grid.rect()
    x, y, w, h = (round(v) for v in prof.grid.cell_box(row, col))
    return image[y - top : y - top + h, x - left : x - left + w]


def test_signposts_have_ink_and_the_one_and_the_two_differ() -> None:
    one, two = content(_cell(0, 6)), content(_cell(4, 5))
    assert one.ink is not None and two.ink is not None
    assert one.distance(two) > 1.0
    # The same signpost in another cell is the same look.
    assert one.distance(content(_cell(1, 6))) <= 1.0


def test_the_batch_finds_the_same_sprite_ink_as_one_box_at_a_time() -> None:
    tiles = [_cell(r, c) for r, c in ((0, 6), (4, 5), (0, 0), (8, 8))]
    assert_batch_matches(tiles)


def test_the_first_click_reads_zeros_ones_and_twos() -> None:
    last = _replay()[-1]
    rows = str(last.board).splitlines()
    # Named by the rules: the opened area and its border of 1s and 2s.
    assert rows[0].startswith("0000001")
    assert rows[4].startswith("000002")
    assert rows[5].startswith("221")
    assert "the board changed" not in (last.problem or "")
    # No cell of the opened area is left unknown, and grass stays unopened.
    assert last.board.cells[0] == 0
    assert last.board.cells[8 * 9 + 0] == UNKNOWN


def test_two_numbers_on_small_signposts_are_two_looks() -> None:
    """19 px cells (kmines' hard level): the digit on a signpost is a few
    pixels, and the glyph's shape could not tell these two signposts apart
    (a 4 and a 5 by the rules). Taken for one look, the rules named both 5 and
    the player lost on a 'certain' click. The sprites' own pixels tell them
    apart."""
    prof = load_profile(SHOTS / "hard-profile.json")
    image = read_png(SHOTS / "hard-f12.png")
    left, top, _, _ = prof.grid.rect()

    def at(row: int, col: int) -> Content:
        x, y, w, h = (round(v) for v in prof.grid.cell_box(row, col))
        return content(image[y - top : y - top + h, x - left : x - left + w])

    one, other, other_too = at(2, 2), at(2, 9), at(4, 10)
    assert one.sprite is not None and other.sprite is not None
    assert one.distance(other) > 1.0
    assert other.distance(other_too) <= 1.0
