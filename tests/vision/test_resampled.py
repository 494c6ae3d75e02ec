"""The one bilinear resampler the lattice and the reader's shifted tiles use.

It replaced cv2.warpAffine, whose builds disagree by a level here and there
(5.1 against 5.0 and 4.x): these tests pin its values by hand, so the same
picture reads the same whichever OpenCV a user's pip installed.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msolver.vision.image import resampled


def test_a_half_pixel_shift_averages_neighbours_halves_up() -> None:
    row = np.array([[[0, 0, 0], [1, 1, 1], [4, 4, 4], [9, 9, 9]]], np.uint8)
    # output pixel i reads the source at i + 0.5: between i and i + 1, the
    # last one past the edge repeating it
    out = resampled(row, (0.5, 0.0), (1.0, 1.0), (4, 1), replicate=True)
    assert out[0, :, 0].tolist() == [1.0, 3.0, 7.0, 9.0]  # 0.5, 2.5, 6.5 go up


def test_past_the_edge_is_the_edge_pixel_or_black() -> None:
    img = np.full((2, 2, 3), 200, np.uint8)
    kept = resampled(img, (-1.0, 0.0), (1.0, 1.0), (3, 2), replicate=True)
    black = resampled(img, (-1.0, 0.0), (1.0, 1.0), (3, 2), replicate=False)
    assert kept[:, :, 0].tolist() == [[200.0] * 3] * 2
    assert black[:, :, 0].tolist() == [[0.0, 200.0, 200.0]] * 2
    half = resampled(img, (-0.5, 0.0), (1.0, 1.0), (3, 2), replicate=False)
    assert half[0, :, 0].tolist() == [100.0, 200.0, 100.0]


def test_a_shrink_reads_each_output_pixel_at_its_centre() -> None:
    # 4 source pixels to 1: output pixel 0's centre is at source 2.0 (between
    # pixels 1 and 2, centred at 1.5 and 2.5)
    ramp = np.arange(8, dtype=np.uint8).reshape(1, 8, 1).repeat(3, axis=2) * 10
    out = resampled(ramp, (0.0, 0.0), (0.25, 1.0), (2, 1), replicate=True)
    assert out[0, :, 0].tolist() == [15.0, 55.0]


def _by_hand(
    img: np.ndarray, origin: tuple[float, float], scale: float, w: int, h: int
) -> np.ndarray:
    """Bilinear, one pixel at a time in float64, the edge pixel repeated;
    not rounded."""
    out = np.zeros((h, w, img.shape[2]))
    for i in range(h):
        for j in range(w):
            x = origin[0] + (j + 0.5) / scale - 0.5
            y = origin[1] + (i + 0.5) / scale - 0.5
            x0, y0 = int(np.floor(x)), int(np.floor(y))
            fx, fy = x - x0, y - y0
            acc = np.zeros(img.shape[2])
            for dy, wy in ((0, 1 - fy), (1, fy)):
                for dx, wx in ((0, 1 - fx), (1, fx)):
                    yy = min(max(y0 + dy, 0), img.shape[0] - 1)
                    xx = min(max(x0 + dx, 0), img.shape[1] - 1)
                    acc += wy * wx * img[yy, xx]
            out[i, j] = acc
    return out


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    scale=st.floats(0.3, 2.5),
    ox=st.floats(-3.0, 20.0),
    oy=st.floats(-3.0, 20.0),
)
def test_it_reads_as_bilinear_weights_worked_by_hand(
    seed: int, scale: float, ox: float, oy: float
) -> None:
    img = np.random.default_rng(seed).integers(0, 256, (30, 40, 3), dtype=np.uint8)
    exact = _by_hand(img, (ox, oy), scale, 16, 12)
    got = resampled(img, (ox, oy), (scale, scale), (16, 12), replicate=True)
    assert got.dtype == np.float32 and got.shape == (12, 16, 3)
    # the exact value to the nearest level, halves up, but where it lies
    # within float32's error of a half (cv2.warpAffine, placing its samples
    # to 1/32 px, is a level off on noise here and there on 5.x, and up to 6
    # on 4.13)
    off = got != np.floor(exact + 0.5)
    assert np.all(np.abs(got - exact) <= 0.5 + 1e-3)
    assert np.all(np.abs(exact[off] % 1 - 0.5) < 1e-3)


@pytest.mark.parametrize("channels", [None, 1, 3, 4])
def test_any_number_of_channels(channels: int | None) -> None:
    shape = (5, 6) if channels is None else (5, 6, channels)
    img = np.full(shape, 77, np.uint8)
    out = resampled(img, (0.3, 0.7), (1.3, 0.8), (4, 3), replicate=True)
    assert out.shape == (3, 4, channels or 1)
    assert np.all(out == 77)
