"""A faint digit on a flat face is ink; a flat face's edges and shades are not.

A pastel digit, or a dim one in a dark mode, may lie within INK (48 levels)
of its face in every channel. Before `contentbatch.faint_ink`, every such
number read as the empty opened look, and no numbering fitted the board
(sgt-mines in a "faint" palette stopped at its first click). On a face with
no texture, 16 levels are ink when they make a glyph: not a whole side of the
inside (a bevel's bit, a neighbour's edge, a shade's darker side) and not
half the inside.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from msolver.vision.learning_reader import content
from tests.support.contents import assert_batch_matches

FACE = (154, 191, 205)


def _tile(face: tuple[int, int, int] = FACE, side: int = 22) -> np.ndarray:
    tile = np.zeros((side, side, 3), np.uint8)
    tile[:] = face
    return tile


def _digit(tile: np.ndarray, text: str, colour: tuple[int, int, int]) -> np.ndarray:
    side = tile.shape[0]
    scale = side / 30
    thick = max(1, side // 14)  # a stroke a tenth of the cell or less, as games draw
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    org = ((side - w) // 2, (side + h) // 2)
    cv2.putText(tile, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)
    return tile


@pytest.mark.parametrize("step", [24, 30, 40, -26, -44])
@pytest.mark.parametrize("side", [18, 22, 30])
def test_a_digit_24_to_44_levels_off_a_flat_face_is_ink(step: int, side: int) -> None:
    colour = tuple(max(0, min(255, v + step)) for v in FACE)
    one = content(_digit(_tile(side=side), "1", colour))  # type: ignore[arg-type]
    three = content(_digit(_tile(side=side), "3", colour))  # type: ignore[arg-type]
    blank = content(_tile(side=side))
    assert one.ink is not None and three.ink is not None and blank.ink is None
    assert np.abs(one.ink - colour).max() <= 12
    assert one.distance(three) > 1.0  # two glyphs, two looks
    assert one.distance(blank) > 1.0


def test_a_faint_digit_in_a_dark_mode_is_ink() -> None:
    face = (38, 40, 44)
    c = content(_digit(_tile(face), "2", (70, 72, 76)))
    assert c.ink is not None


def test_a_faint_edge_along_a_side_is_not_ink() -> None:
    # a bevel's bit along the inside's top (a cell cut at a fractional phase)
    tile = _tile()
    tile[3:5, :] = (180, 215, 230)
    assert content(tile).ink is None
    # a shade: the inside's lower part 20 levels darker
    tile = _tile()
    tile[13:, :] = tuple(v - 20 for v in FACE)
    assert content(tile).ink is None


def test_a_digit_under_16_levels_is_not_ink() -> None:
    colour = tuple(v - 14 for v in FACE)
    assert content(_digit(_tile(), "4", colour)).ink is None  # type: ignore[arg-type]


def test_a_faint_digit_on_a_textured_face_is_not_taken() -> None:
    # noise of +-10 levels: 16 levels is the texture's own, not a glyph's
    rng = np.random.default_rng(1)
    tile = (_tile().astype(int) + rng.integers(-10, 11, (22, 22, 1))).clip(0, 255)
    tile = _digit(tile.astype(np.uint8), "5", tuple(v - 30 for v in FACE))  # type: ignore[arg-type]
    assert content(tile).ink is None


def test_the_batch_finds_the_same_faint_ink() -> None:
    colour = tuple(v + 30 for v in FACE)
    tiles = [
        _digit(_tile(), "1", colour),  # type: ignore[arg-type]
        _digit(_tile(), "7", colour),  # type: ignore[arg-type]
        _tile(),
        _digit(_tile(), "8", (20, 20, 20)),
    ]
    assert_batch_matches(tiles)
