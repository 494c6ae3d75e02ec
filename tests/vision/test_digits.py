"""Which digit a glyph looks like, whatever its font (`vision.digits`): a prior
for guesses among readings only."""

from __future__ import annotations

import numpy as np
import pytest

from msolver.vision import digits
from msolver.vision.learning_reader import content
from msolver.vision.profile import builtin_dirs, load_profile


def _gaps(tile: np.ndarray) -> dict[int, float]:
    c = content(tile)
    assert c.ink is not None
    box = digits.glyph_box(tile, c.face, c.ink)
    assert box is not None
    return digits.digit_gaps(box[0])


def _xdemineur() -> dict[str, np.ndarray]:
    prof = load_profile(builtin_dirs()[0] / "xdemineur.json")
    return {label: tiles[0] for label, tiles in prof.tiles.items()}


@pytest.mark.parametrize("number", range(1, 9))
def test_a_font_no_reference_came_from_reads_as_its_own_digit(number: int) -> None:
    # xdemineur's Windows-classic digits: no recording of it gave a reference
    # (its theme is built in, so it is never learned in play)
    gaps = _gaps(_xdemineur()[str(number)])
    assert min(gaps, key=gaps.__getitem__) == number
    assert digits.digit_strain(gaps, number) == 0.0


@pytest.mark.parametrize("number", [1, 2, 3, 4, 7])
def test_a_clear_digit_strains_every_other_number_by_a_sure_margin(number: int) -> None:
    gaps = _gaps(_xdemineur()[str(number)])
    assert all(digits.digit_strain(gaps, v) >= 1.0 for v in range(1, 9) if v != number)


@pytest.mark.parametrize("label", ["flag", "mine", "exploded"])
def test_a_picture_is_no_digit_and_favours_no_number(label: str) -> None:
    gaps = _gaps(_xdemineur()[label])
    assert min(gaps.values()) > digits.FAR
    assert all(digits.digit_strain(gaps, v) == 0.0 for v in range(0, 9))


def test_a_number_outside_one_to_eight_has_no_strain() -> None:
    gaps = _gaps(_xdemineur()["3"])
    assert digits.digit_strain(gaps, 0) == 0.0


def _drawn(text: str, size: int, thick: int, face: int, ink: int) -> np.ndarray:
    import cv2

    img = np.full((size, size, 3), face, np.uint8)
    scale = size / 22
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_PLAIN, scale, thick)
    org = ((size - tw) // 2, (size + th) // 2)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_PLAIN, scale, (ink,) * 3, thick, cv2.LINE_AA)
    return img


def test_the_glyph_is_the_colour_the_ring_lacks_even_when_it_is_the_commoner() -> None:
    # a bold digit over most of the inside: its own colour is the commoner one,
    # so which colour is "face" must not decide what the glyph is
    tile = _drawn("8", 24, 5, 200, 30)
    face, ink = np.full(3, 200.0), np.full(3, 30.0)
    one = digits.glyph_box(tile, face, ink)
    swapped = digits.glyph_box(tile, ink, face)
    assert one is not None and swapped is not None
    assert np.array_equal(one[0], swapped[0])
    assert one[0].max() > 0.9 and one[0][0, 0] < 0.5  # ink inside, face at the corner


@pytest.mark.parametrize("number", [1, 2, 4, 7])
def test_a_font_not_among_the_references_at_small_sizes(number: int) -> None:
    # OpenCV's "plain" font (the references use its four others) at 18 px
    gaps = _gaps(_drawn(str(number), 18, 1, 230, 40))
    assert min(gaps, key=gaps.__getitem__) == number


def test_an_empty_tile_has_no_glyph() -> None:
    tile = np.full((20, 20, 3), 180, np.uint8)
    assert digits.glyph_box(tile, np.full(3, 180.0), np.full(3, 20.0)) is None


# A 3x5 pixel font (none of the references is drawn on so small a grid).
_TINY = {
    1: "##. .#. .#. .#. ###",
    2: "### ..# ### #.. ###",
    3: "### ..# .## ..# ###",
    4: "#.# #.# ### ..# ..#",
    5: "### #.. ### ..# ###",
    6: "### #.. ### #.# ###",
    7: "### ..# ..# ..# ..#",
    8: "### #.# ### #.# ###",
}


@pytest.mark.parametrize("block", [3, 7])
@pytest.mark.parametrize("number", range(1, 9))
def test_a_pixel_font_not_among_the_references_reads_as_its_own_digit(
    number: int, block: int
) -> None:
    # light ink on a dark face, each font pixel a block of screen pixels
    bits = np.array([[ch == "#" for ch in row] for row in _TINY[number].split()])
    big = np.kron(bits, np.ones((block, block), bool))
    side = max(big.shape) + 4 * block
    tile = np.full((side, side, 3), 30, np.uint8)
    y0, x0 = (side - big.shape[0]) // 2, (side - big.shape[1]) // 2
    tile[y0 : y0 + big.shape[0], x0 : x0 + big.shape[1]][big] = (250, 250, 90)
    box = digits.glyph_box(tile, np.full(3, 30.0), np.array([250.0, 250.0, 90.0]))
    assert box is not None
    gaps = digits.digit_gaps(box[0])
    assert min(gaps, key=gaps.__getitem__) == number
    assert min(gaps.values()) <= digits.FAR


def test_opencvs_digits_are_shipped_not_drawn_by_the_installed_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each OpenCV build draws its fonts its own way (5.1's are 8% wider than
    # 5.0's): drawn at run time, the digit prior would weigh a guess one way
    # on one user's install and another way on the next.
    import cv2

    assert digits.FONT_REFS.exists()

    def no_drawing(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a reference digit drawn by the installed OpenCV")

    monkeypatch.setattr(cv2, "putText", no_drawing)
    shipped = digits._font_references()
    # eight digits in four fonts at four weights
    assert sorted({d for d, _ in shipped}) == list(range(1, 9))
    assert len(shipped) == 128
    assert all(b.shape == (digits.BOX_H, digits.BOX_W) for _, b in shipped)
