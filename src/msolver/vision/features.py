"""Cell features: a cell's K x K samples become one row of numbers to compare.

Each cell box (or tile) is resampled to a small fixed grid (K x K, area
averaging) so the same features serve any display scale. Two feature sets
are taken from the samples:

- colour: the K x K RGB samples with the ink masked out (replaced by the
  cell's background): the face, bevel and grid lines tell unopened from
  opened, a gnome-mines digit by its tile colour, 1 from an unopened bevel;
- shape: per sample, how far it is from the cell's own background colour,
  above a noise floor; inside the cell scaled to the level of the cell's own
  strokes, on the border to its strongest edge. It does not care which
  colour (or how pale) the ink is, so it survives digit recolouring, and it
  separates 3 from 7 by their strokes.

Also here: the area kernels that sample a sub-pixel window of a cell or a
tile (see `distinct` for where the windows come from).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from msolver.vision.image import Image

K = 16  # samples per cell side
_SHAPE_WEIGHT = 2.0
_INK = 0.12  # a sample this far (0..1, any channel) from the cell background is ink

F32 = npt.NDArray[np.float32]

_BG_SAMPLES = np.array(
    [r * K + c for r in range(2, K - 2) for c in (2, K // 3, K - 1 - K // 3, K - 3)],
    dtype=np.intp,
)

# Samples inside the cell, off its border lines and bevel.
_INNER = np.array(
    [r * K + c for r in range(K // 8, K - K // 8) for c in range(K // 8, K - K // 8)],
    dtype=np.intp,
)
# The middle of the cell, where every digit has strokes and no border line
# reaches even in a tile shifted by a pixel or two: the strokes' level is
# measured here.
_CORE = np.array(
    [r * K + c for r in range(K // 4, K - K // 4) for c in range(K // 4, K - K // 4)],
    dtype=np.intp,
)
_FLAT = 0.1  # a core peak under this (above the ink floor) is no stroke
_EDGE_SCALE = 0.5  # deviation (above the floor) of a full-strength border line


def _features(samples: F32) -> F32:
    """(n, K, K, 3) float samples in 0..1 -> (n, D) feature rows."""
    n = samples.shape[0]
    kk = K * K
    flat = samples.reshape(n, kk, 3)
    # background: the median of a few samples inside the border lines and off
    # the middle columns where the bars of 1, 4 and 7 run; robust while ink
    # covers less than half of them, and 15x cheaper than a full median
    sub = flat[:, _BG_SAMPLES]
    mid = len(_BG_SAMPLES) // 2
    bg = np.partition(sub, mid, axis=1)[:, mid : mid + 1]
    d = np.abs(flat - bg)
    dev = np.maximum(np.maximum(d[:, :, 0], d[:, :, 1]), d[:, :, 2])
    # deviations under _INK are pixel noise (JPEG, sensor), not strokes
    dev = np.maximum(dev - np.float32(_INK), np.float32(0.0))
    # The border lines and bevel keep their own contrast (on a fixed scale):
    # they tell one theme's tiles from another's, and scaled to the digit
    # they would change with a recolouring, or, where the digit is the only
    # strong thing in the cell, swell with every JPEG ripple. Inner samples
    # are scaled to the level of the cell's own strokes when it has any:
    # scaled to a black grid line, a pale digit (xdemineur's 5) would be a
    # faint 5, nearer a bold 6 than its own tile. That level is the mean of
    # the strong core samples, not their maximum, which noise lifts more the
    # paler the digit. Near-flat cells stay flat.
    core = dev[:, _CORE]
    top = core.max(axis=1, keepdims=True)
    strong = core >= np.float32(0.6) * top
    level = (core * strong).sum(axis=1, keepdims=True) / np.maximum(
        strong.sum(axis=1, keepdims=True), 1
    )
    level = np.where(top >= np.float32(_FLAT), level, np.float32(_EDGE_SCALE))
    shape = np.minimum(dev / np.float32(_EDGE_SCALE), np.float32(1.0))
    shape[:, _INNER] = np.minimum(dev[:, _INNER] / level, np.float32(1.0))
    out = np.empty((n, kk * 4), dtype=np.float32)
    # colour of everything but the ink: a digit's colour may be shifted at
    # random (as a contest server did), its place on the face may not
    # (with a one-sample margin: resampling blends the ink into its neighbours)
    ink = (dev > 0).reshape(n, K, K)
    near = ink.copy()
    near[:, 1:] |= ink[:, :-1]
    near[:, :-1] |= ink[:, 1:]
    near[:, :, 1:] |= near[:, :, :-1].copy()
    near[:, :, :-1] |= near[:, :, 1:].copy()
    colour = np.where(near.reshape(n, kk, 1), bg, flat)
    out[:, : kk * 3] = colour.reshape(n, kk * 3)
    out[:, : kk * 3] *= np.float32(1 / np.sqrt(3.0))
    out[:, kk * 3 :] = shape
    out[:, kk * 3 :] *= np.float32(np.sqrt(_SHAPE_WEIGHT))
    return out


def _resample_tile(tile: Image) -> F32:
    import cv2

    out = cv2.resize(tile, (K, K), interpolation=cv2.INTER_AREA)
    return (out.astype(np.float32) / 255.0).reshape(1, K, K, 3)


def _strokes(feats: F32) -> float:
    """How strongly the inner samples of one feature row show ink (0 for a flat cell)."""
    return float(feats[0, K * K * 3 :][_INNER].max())


@lru_cache(maxsize=64)
def _area_kernel(start: float, length: float, pixels: int) -> F32:
    """(K, pixels) weights averaging [start, start + length) of a pixel row into K bins."""
    edges = start + length * np.arange(K + 1, dtype=np.float64) / K
    p = np.arange(pixels, dtype=np.float64)
    lo = np.maximum(edges[:-1, None], p[None, :])
    hi = np.minimum(edges[1:, None], p[None, :] + 1.0)
    k: F32 = (np.maximum(hi - lo, 0.0) * (K / length)).astype(np.float32)
    k.setflags(write=False)
    return k


def _kernel_samples(pixels: Image, ky: F32, kx: F32) -> Image:
    """(m, K, K, 3) uint8 area samples of (m, h, w, 3) pixels by per-row (m, K, h), (m, K, w)."""
    x = pixels.astype(np.float32)
    s = np.einsum("miy,myxc,mjx->mijc", ky, x, kx, optimize=True)
    out: Image = np.clip(np.rint(s), 0, 255).astype(np.uint8)
    return out


def _window_tile(tile: Image, window: tuple[float, float, float, float] | None) -> F32:
    """A tile's samples: of the whole tile, or of `window` (x, width, y, height in its pixels)."""
    if window is None:
        return _resample_tile(tile)
    x0, lw, y0, lh = window
    ky = _area_kernel(y0, lh, tile.shape[0])[None]
    kx = _area_kernel(x0, lw, tile.shape[1])[None]
    return _kernel_samples(tile[None], ky, kx).astype(np.float32) / 255.0
