"""Reading cells: every cell of the board image becomes a state with a confidence.

Each cell box is resampled to a small fixed grid (K x K, area averaging, the
samples of one cv2.resize of the whole board) so the same features serve any
display scale. Cells that are pixel-equal are resampled and classified once.
On a scaled board, where a cell's edge pixels blend with its neighbours' and
cells sit at sub-pixel phases, a window of each cell (its box less 1.5 px a
side, sampled at its own phase) is read instead, against tiles sampled over
the same window: equal windows are many fewer than equal boxes.
Two feature sets are compared against the profile's tiles (and copies of them
shifted by half and one pixel):

- colour: the K x K RGB samples with the ink masked out (replaced by the
  cell's background): the face, bevel and grid lines tell unopened from
  opened, a gnome-mines digit by its tile colour, 1 from an unopened bevel;
- shape: per sample, how far it is from the cell's own background colour,
  above a noise floor; inside the cell scaled to the level of the cell's own
  strokes, on the border to its strongest edge. It does not care which
  colour (or how pale) the ink is, so it survives digit recolouring, and it
  separates 3 from 7 by their strokes.

The label is the nearest tile variant. Confidence compares the best distance
with the best distance of any *other* label (1 = unambiguous, 0 = a tie), and
is zeroed when even the best is far from every tile; cells under the
threshold are reported in `low_confidence`, and their board state is UNKNOWN,
never a guess.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from msolver.core.board import UNKNOWN, Board
from msolver.vision.image import Image, ImageError, as_rgb, ink_of, px
from msolver.vision.profile import LABELS, STATE_OF_LABEL, Profile

K = 16  # samples per cell side
CONFIDENCE_THRESHOLD = 0.35
# Mean squared feature distance above which a cell matches no tile at all.
_FAR = 0.03
_SHAPE_WEIGHT = 2.0
# Per inner sample, a shape difference above this step is part of a stroke
# (in shape feature units; anti-aliased edges of a noisy recoloured digit
# move by less) ...
_STROKE_STEP = 0.5 * np.sqrt(_SHAPE_WEIGHT)
# ... and more of it than this, summed over the cell, is a stroke no tile
# of the profile has.
_UNSEEN_STROKE = 0.5 * np.sqrt(_SHAPE_WEIGHT)
_INK = 0.12  # a sample this far (0..1, any channel) from the cell background is ink
# A board where more cells than this fraction match nothing is not there.
_MAX_UNREADABLE = 0.2

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

if TYPE_CHECKING:
    from msolver.vision.geometry import Grid


class ReadError(ValueError):
    """The board is not where the profile says, or the image cannot hold it."""


@dataclass(frozen=True, eq=False)
class ReadResult:
    """A read board; `confidence` is (rows, cols) in [0, 1]."""

    board: Board
    confidence: npt.NDArray[np.float64]
    low_confidence: tuple[tuple[int, int], ...]
    labels: tuple[str, ...] = ()


# -- features ---------------------------------------------------------------------


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


@dataclass(frozen=True, eq=False)
class _Bank:
    labels: tuple[str, ...]
    variant_label: npt.NDArray[np.int64]
    starts: npt.NDArray[np.intp]  # first variant of each label (variants grouped by label)
    feats: F32
    # Distances are taken about the variants' mean: |f - b|^2 as |f|^2 +
    # |b|^2 - 2 f.b cancels in float32, and less the shorter the vectors are
    # (near-exact matches, where the confidence is a ratio of tiny distances).
    mean: F32
    norms: F32  # of the centred variants
    blocks: F32  # the centred variants as (blocks, D, variants per block): see _cross


# Cells per matrix product in _cross. OpenBLAS does a product of
# m * n * k <= 262144 on the calling thread and hands a larger one to its
# worker threads, which on a busy machine take tens of milliseconds to wake
# (measured on 2 cores under load: 30 ms for the 24 distinct cells of a clean
# expert board, against 0.8 ms single-threaded). Blocks of half that size
# keep BLAS's speed and never wait on a thread.
_BLOCK_CELLS = 8
_BLOCK_MNK = 1 << 17


def _variant_blocks(feats: F32) -> F32:
    v, dim = feats.shape
    per = max(1, _BLOCK_MNK // (_BLOCK_CELLS * dim))
    nb = -(-v // per)
    padded = np.zeros((nb * per, dim), dtype=np.float32)
    padded[:v] = feats
    return np.ascontiguousarray(padded.reshape(nb, per, dim).transpose(0, 2, 1))


def _cross(feats: F32, bank: _Bank) -> F32:
    """Centred feats @ centred bank.feats.T, as many small products (see _BLOCK_CELLS)."""
    n, dim = feats.shape
    nb = -(-n // _BLOCK_CELLS)
    padded = np.zeros((nb * _BLOCK_CELLS, dim), dtype=np.float32)
    np.subtract(feats, bank.mean, out=padded[:n])
    vb, _dim, per = bank.blocks.shape
    out = np.matmul(padded.reshape(nb, 1, _BLOCK_CELLS, dim), bank.blocks[None])
    whole = out.transpose(0, 2, 1, 3).reshape(nb * _BLOCK_CELLS, vb * per)
    cross: F32 = whole[:n, : bank.feats.shape[0]]
    return cross


# Sub-pixel shifts of every tile added when reading: a game that lays tiles
# out on a fractional pitch (gnome-mines) draws each row or column up to a
# pixel away from the lattice, anti-aliased differently. Not used to fit the
# geometry, where a shifted tile would hide a misplaced board.
_SHIFTS: tuple[tuple[float, float], ...] = (
    (0.5, 0.0),
    (-0.5, 0.0),
    (0.0, 0.5),
    (0.0, -0.5),
    (1.0, 0.0),
    (-1.0, 0.0),
    (0.0, 1.0),
    (0.0, -1.0),
)


def _shifted(tile: Image, dx: float, dy: float) -> Image:
    import cv2

    m = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]], dtype=np.float32)
    out: Image = np.asarray(
        cv2.warpAffine(
            tile,
            m,
            (tile.shape[1], tile.shape[0]),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        ),
        dtype=np.uint8,
    )
    return out


_DIGITS = frozenset("12345678")


def _full_contrast(tile: Image) -> Image:
    """The tile with its ink (inside the cell, off the background) redrawn black."""
    flat, bg, dev, peak = ink_of(tile)
    if peak < 40:
        return tile
    alpha = (dev / peak)[:, None]
    out = np.where(alpha > 0.05, bg * (1 - alpha), flat)
    result: Image = np.clip(np.rint(out), 0, 255).astype(np.uint8).reshape(tile.shape)
    return result


def _strokes(feats: F32) -> float:
    """How strongly the inner samples of one feature row show ink (0 for a flat cell)."""
    return float(feats[0, K * K * 3 :][_INNER].max())


# A scaled board is read on a window of each cell: its box less this many
# pixels at each side. A display scaler blends the pixels at a cell's edge
# with its neighbour's (so equal cells differ there whenever their
# neighbours do); the first pixel the window touches has its centre a pixel
# in, clear of a linear scaler's reach up to 2x.
_RING = 1.5
# Sub-pixel phases of a window's start told apart: cells a 1/16 px apart are
# sampled alike (a calibrated pitch is good to ~1/1000 px a cell).
_PHASES = 16


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


@lru_cache(maxsize=32)
def _bank_cached(
    key: tuple[tuple[str, int, bytes, tuple[int, ...]], ...],
    shifts: bool = False,
    window: tuple[float, float, float, float] | None = None,
) -> _Bank:
    labels: list[str] = []
    variant_label: list[int] = []
    rows: list[F32] = []
    for label, _i, raw, shape in key:
        tile = np.frombuffer(raw, dtype=np.uint8).reshape(shape)
        if label not in labels:
            labels.append(label)
        moved = [_shifted(tile, dx, dy) for dx, dy in _SHIFTS] if shifts else []
        if shifts and label in _DIGITS:
            # the digit at full contrast too: a faint digit (xdemineur's pale
            # 5) redrawn dark must still be nearer its own shape than a
            # neighbour's (its 6)
            moved.append(_full_contrast(tile))
        own = _features(_window_tile(tile, window))
        variant_label.append(labels.index(label))
        rows.append(own)
        for t in moved:
            f = _features(_window_tile(t, window))
            if _strokes(f) < 0.5 * _strokes(own):
                # a pale digit blurred by a sub-pixel shift sinks under the
                # ink floor: a blank-looking "5" would pass a 0 off as a 5
                continue
            variant_label.append(labels.index(label))
            rows.append(f)
    feats = np.concatenate(rows, axis=0)
    mean = feats.mean(axis=0, dtype=np.float64).astype(np.float32)
    centred = feats - mean
    vl = np.array(variant_label, dtype=np.int64)
    starts = np.array([int(np.argmax(vl == i)) for i in range(len(labels))], dtype=np.intp)
    return _Bank(
        tuple(labels),
        vl,
        starts,
        np.ascontiguousarray(feats),
        mean,
        (centred.astype(np.float64) ** 2).sum(axis=1).astype(np.float32),
        _variant_blocks(centred),
    )


_PROFILE_BANKS: dict[
    tuple[int, int, int, tuple[float, float, float, float] | None], tuple[object, _Bank]
] = {}


def _profile_bank(
    profile: Profile, window: tuple[float, float, float, float] | None = None
) -> _Bank:
    """The bank of a profile's tiles at its cell size, cached per tile mapping.

    Profiles derived with `with_changes` share their tile mapping, so the
    player's many small per-frame profiles reuse one bank.
    """
    w, h = profile.cell_size
    key = (id(profile.tiles), w, h, window)
    hit = _PROFILE_BANKS.get(key)
    if hit is not None and hit[0] is profile.tiles:
        return hit[1]
    bank = _bank(profile.tiles_at((w, h)), shifts=True, window=window)
    if len(_PROFILE_BANKS) > 64:
        _PROFILE_BANKS.clear()
    _PROFILE_BANKS[key] = (profile.tiles, bank)
    return bank


def _bank(
    tiles: Mapping[str, Sequence[Image]],
    *,
    shifts: bool = False,
    window: tuple[float, float, float, float] | None = None,
) -> _Bank:
    key = tuple(
        (label, i, np.ascontiguousarray(t).tobytes(), tuple(t.shape))
        for label in LABELS
        if label in tiles
        for i, t in enumerate(tiles[label])
    )
    return _bank_cached(key, shifts, window)


def _board_crop(
    rgb: Image, origin: tuple[float, float], pitch: tuple[float, float], rows: int, cols: int
) -> Image:
    x0, y0 = px(origin[0]), px(origin[1])
    x1 = px(origin[0] + cols * pitch[0])
    y1 = px(origin[1] + rows * pitch[1])
    if x0 < 0 or y0 < 0 or x1 > rgb.shape[1] or y1 > rgb.shape[0]:
        raise ReadError(
            f"board ({x0},{y0})-({x1},{y1}) lies outside the {rgb.shape[1]}x{rgb.shape[0]} image"
        )
    return rgb[y0:y1, x0:x1]


def sample_cells_u8(
    rgb: Image, origin: tuple[float, float], pitch: tuple[float, float], rows: int, cols: int
) -> Image:
    """(rows*cols, K, K, 3) uint8 samples of every cell box (image pixel coordinates)."""
    import cv2

    crop = _board_crop(rgb, origin, pitch, rows, cols)
    small = cv2.resize(crop, (cols * K, rows * K), interpolation=cv2.INTER_AREA)
    cells = small.reshape(rows, K, cols, K, 3).transpose(0, 2, 1, 3, 4)
    out: Image = np.ascontiguousarray(cells, dtype=np.uint8).reshape(rows * cols, K, K, 3)
    return out


def sample_cells(
    rgb: Image, origin: tuple[float, float], pitch: tuple[float, float], rows: int, cols: int
) -> F32:
    """(rows*cols, K, K, 3) float32 samples in 0..1 of every cell box."""
    u8 = sample_cells_u8(rgb, origin, pitch, rows, cols)
    return u8.astype(np.float32) * np.float32(1 / 255)


def _classify(samples: F32, bank: _Bank) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    best, conf, _d1 = _classify_feats(_features(samples), bank)
    return best, conf


U64 = npt.NDArray[np.uint64]
Index = npt.NDArray[np.intp]


@lru_cache(maxsize=16)
def _multipliers(width: int) -> U64:
    # a fixed seed: the grouping, and so the order rows are classified in,
    # is the same on every run
    rng = np.random.default_rng(0x6D736F6C)
    mult: U64 = rng.integers(1, 2**63, size=width, dtype=np.uint64) | np.uint64(1)
    mult.setflags(write=False)
    return mult


def _hashes(words: U64) -> U64:
    h: U64 = np.einsum("nw,w->n", words, _multipliers(words.shape[1]))
    return h


# Rows compared per step when checking a grouping: the row and its group's
# first gathered a few at a time stay in cache (twice as fast as all at once
# on a scaled board's large cells).
_CHECK_ROWS = 32


def _groups(words: U64, hashes: U64 | None = None) -> tuple[Index, Index]:
    """Byte-equal rows of `words` grouped: (first row of each group, group of every row).

    A hash (linear in the 64-bit words, wrapping) sorts the rows into
    groups; then every row is compared with its group's first in full, and
    one that differs (a hash collision) becomes a group of its own, so the
    grouping is exact whatever the hash does. Sorting 480 hashes and one
    pass over the words is far cheaper than sorting the rows themselves.
    """
    h = _hashes(words) if hashes is None else hashes
    _u, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    inverse = np.asarray(inverse, dtype=np.intp).reshape(-1)
    first = np.asarray(first, dtype=np.intp)
    rep = first[inverse]
    differ = np.empty(len(words), dtype=bool)
    for s in range(0, len(words), _CHECK_ROWS):
        e = s + _CHECK_ROWS
        differ[s:e] = (words[s:e] != words[rep[s:e]]).any(axis=1)
    if differ.any():
        extra = np.nonzero(differ)[0]
        inverse[extra] = len(first) + np.arange(len(extra))
        first = np.concatenate([first, extra])
    return first, inverse


def _padded(n: int, size: int) -> Image:
    """(n, size rounded up to 8) uint8 rows, the padding zero: rows `_groups` can hash as words."""
    padded = -(-size // 8) * 8
    buf = np.empty((n, padded), dtype=np.uint8)
    buf[:, size:] = 0
    return buf


def _whole_boxes(
    rgb: Image, origin: tuple[float, float], pitch: tuple[float, float], rows: int, cols: int
) -> tuple[Image, int, int] | None:
    """The board crop and the box width and height, when every cell box is whole pixels."""
    pw, ph = pitch
    crop = _board_crop(rgb, origin, pitch, rows, cols)
    if (
        not (float(pw).is_integer() and float(ph).is_integer())
        or crop.shape[:2] != (rows * int(ph), cols * int(pw))
        or rows * cols == 0
    ):
        return None
    return crop, int(pw), int(ph)


def _raw_cells(
    rgb: Image, origin: tuple[float, float], pitch: tuple[float, float], rows: int, cols: int
) -> tuple[Image, int, int] | None:
    """Every cell's own pixels as one padded row each, when the boxes are whole pixels."""
    boxes = _whole_boxes(rgb, origin, pitch, rows, cols)
    if boxes is None:
        return None
    crop, w, h = boxes
    buf = _padded(rows * cols, h * w * 3)
    # a view by construction (a reshape of the padded rows might copy)
    dst = np.lib.stride_tricks.as_strided(
        buf, shape=(rows, cols, h, w, 3), strides=(cols * buf.shape[1], buf.shape[1], w * 3, 3, 1)
    )
    dst[...] = crop.reshape(rows, h, cols, w, 3).transpose(0, 2, 1, 3, 4)
    return buf, w, h


def _box_edges(
    rgb: Image, origin: tuple[float, float], pitch: tuple[float, float], rows: int, cols: int
) -> U64 | None:
    """The top and bottom pixel rows of every whole-pixel cell box, one padded row each.

    Their ends touch the side neighbours too: on a scaled board they are
    nearly as distinct as the whole boxes, and far cheaper to gather than
    the boxes' sides.
    """
    boxes = _whole_boxes(rgb, origin, pitch, rows, cols)
    if boxes is None:
        return None
    crop, w, h = boxes
    buf = _padded(rows * cols, 2 * w * 3)
    out = buf[:, : 2 * w * 3].reshape(rows, cols, 2, w * 3)
    out[:, :, 0] = crop[0::h].reshape(rows, cols, w * 3)
    out[:, :, 1] = crop[h - 1 :: h].reshape(rows, cols, w * 3)
    words: U64 = buf.view(np.uint64)
    return words


def _resample_rows(buf: Image, first: Index, w: int, h: int) -> Image:
    """The K x K samples of the chosen padded rows, each a w x h pixel block."""
    import cv2

    stack = np.ascontiguousarray(buf[first, : h * w * 3]).reshape(len(first) * h, w, 3)
    small = cv2.resize(stack, (K, len(first) * K), interpolation=cv2.INTER_AREA)
    out: Image = np.asarray(small, dtype=np.uint8).reshape(len(first), K, K, 3)
    return out


def _unique_cells_u8(
    rgb: Image, origin: tuple[float, float], pitch: tuple[float, float], rows: int, cols: int
) -> tuple[Image, Index]:
    """The samples of `sample_cells_u8`, each distinct one once, and the index of every cell's.

    At a whole-pixel pitch every cell box is whole pixels wide, so each
    cell's samples come from its own pixels alone and equal those of the
    whole board resampled at once (byte for byte; the tests check it):
    equal cells (most of a clean frame) are found on the raw pixels and
    only the distinct ones resampled, instead of resampling the whole board
    at a fractional ratio, the slowest step of a read. At a fractional
    pitch the board is resampled whole and equal samples grouped after.
    """
    n = rows * cols
    raw = _raw_cells(rgb, origin, pitch, rows, cols)
    if raw is None:
        cells = sample_cells_u8(rgb, origin, pitch, rows, cols)
        first, inverse = _groups(cells.reshape(n, K * K * 3).view(np.uint64))
        return cells[first], inverse
    buf, w, h = raw
    first, inverse = _groups(buf.view(np.uint64))
    if len(first) > n // 2:
        # mostly distinct (noise, JPEG): one resize of the board is cheaper
        # than gathering and resizing a tall stack of all its cells
        return sample_cells_u8(rgb, origin, pitch, rows, cols)[first], inverse
    return _resample_rows(buf, first, w, h), inverse


@dataclass(frozen=True, eq=False)
class _Windows:
    """Every cell's window pixels (see _RING) as one padded row each, with its phases."""

    buf: Image  # (n, padded): the pixels, then the phase pair, then zeros
    w: int
    h: int
    phase_x: Index  # (n,) in 0.._PHASES-1
    phase_y: Index
    kx: F32  # (_PHASES, K, w) area kernel of each phase
    ky: F32


def _axis(start: float, pitch: float, count: int) -> tuple[Index, Index, F32, int]:
    """Per cell along one axis: first window pixel and phase; the phase kernels; pixels."""
    length = pitch - 2 * _RING
    # A calibrated pitch is a few 1/1000 px off the drawn one (41.2461 for
    # 41.25): the drift would move far cells across a phase boundary and
    # split equal cells in two. Snapped to the phase step where that moves
    # no cell by more than two steps (1/8 px).
    step = round(pitch * _PHASES) / _PHASES
    if abs(step - pitch) * count <= 2 / _PHASES:
        pitch = step
    at = start + np.arange(count) * pitch + _RING
    first = np.floor(at).astype(np.intp)
    phase = np.rint((at - first) * _PHASES).astype(np.intp)
    first[phase == _PHASES] += 1
    phase[phase == _PHASES] = 0
    pixels = int(np.ceil(length)) + 1
    kernels = np.stack([_area_kernel(q / _PHASES, length, pixels) for q in range(_PHASES)])
    return first, phase, kernels, pixels


def _period(first: Index) -> tuple[int, int] | None:
    """(cells, pixels) after which the windows along an axis repeat, if within _PHASES cells."""
    n = len(first)
    for p in range(1, min(_PHASES, n) + 1):
        step = int(first[p] - first[0]) if p < n else 0
        if p == n or bool(np.all(first[p:] - first[:-p] == step)):
            return p, step
    return None


def _inner_cells(
    rgb: Image, origin: tuple[float, float], pitch: tuple[float, float], rows: int, cols: int
) -> _Windows | None:
    """The cells' windows, or None when a window is too small or leaves the image."""
    n = rows * cols
    if min(pitch) - 2 * _RING < K or n == 0:
        return None
    # from the board's first whole pixel, as `sample_cells_u8` crops it:
    # a calibrated origin may be a few tenths of a pixel off the drawn edge
    xs, qx, kx, w = _axis(px(origin[0]), pitch[0], cols)
    ys, qy, ky, h = _axis(px(origin[1]), pitch[1], rows)
    x0, x1 = int(xs[0]), int(xs[-1]) + w
    if x0 < 0 or ys[0] < 0 or x1 > rgb.shape[1] or int(ys[-1]) + h > rgb.shape[0]:
        return None
    # equal windows have equal middle rows (bar the last pixel, zeroed at
    # some phases below): a board whose middle rows are mostly distinct
    # (noise, JPEG) is known not to group without gathering the windows
    mid = rgb[ys + h // 2, x0:x1].reshape(rows, -1)
    cut = mid[:, ((xs - x0) * 3)[:, None] + np.arange((w - 1) * 3)]
    mid_words = _padded(n, (w - 1) * 3)
    mid_words[:, : (w - 1) * 3] = cut.reshape(n, -1)
    if len(np.unique(_hashes(mid_words.view(np.uint64)))) > n // 2:
        return None
    size = h * w * 3
    buf = _padded(n, size + 2)
    dst = np.lib.stride_tricks.as_strided(
        buf, shape=(rows, cols, h, w * 3), strides=(cols * buf.shape[1], buf.shape[1], w * 3, 1)
    )
    px_x, px_y = _period(xs), _period(ys)
    if px_x is not None and px_y is not None and rgb.strides[1:] == (3, 1):
        # the windows repeat every few cells by whole pixels (a pitch of
        # 57.75 every 4, at 231 px): each phase class is one strided view of
        # the image, copied in one pass
        (nx, sx), (ny, sy) = px_x, px_y
        rs = rgb.strides[0]
        for j in range(ny):
            for i in range(nx):
                src = np.lib.stride_tricks.as_strided(
                    rgb[ys[j] :, xs[i] :],
                    shape=(len(range(j, rows, ny)), len(range(i, cols, nx)), h, w * 3),
                    strides=(sy * rs, sx * 3, rs, 1),
                    writeable=False,
                )
                dst[j::ny, i::nx] = src
    else:
        strips = rgb[(ys[:, None] + np.arange(h)).reshape(-1), x0:x1].reshape(rows, h, -1)
        for c, x in enumerate((xs - x0).tolist()):
            dst[:, c] = strips[:, :, x * 3 : (x + w) * 3]
    # a window's last pixel is outside its box at some phases: zeroed there,
    # so that whatever the neighbour blends into it keeps no cells apart
    x_spare = kx[:, :, -1].max(axis=1) == 0
    y_spare = ky[:, :, -1].max(axis=1) == 0
    for c in np.nonzero(x_spare[qx])[0].tolist():
        dst[:, c, :, (w - 1) * 3 :] = 0
    for r in np.nonzero(y_spare[qy])[0].tolist():
        dst[r, :, h - 1] = 0
    phase_x = np.broadcast_to(qx[None, :], (rows, cols)).reshape(n)
    phase_y = np.broadcast_to(qy[:, None], (rows, cols)).reshape(n)
    # equal pixels at another phase sample differently: the phases are part of the key
    buf[:, size] = phase_x
    buf[:, size + 1] = phase_y
    return _Windows(buf, w, h, phase_x, phase_y, kx, ky)


def _window_samples(win: _Windows, first: Index) -> Image:
    pixels = win.buf[first, : win.h * win.w * 3].reshape(len(first), win.h, win.w, 3)
    return _kernel_samples(pixels, win.ky[win.phase_y[first]], win.kx[win.phase_x[first]])


def _read_cells(
    rgb: Image, origin: tuple[float, float], pitch: tuple[float, float], rows: int, cols: int
) -> tuple[Image, Index, bool]:
    """Distinct samples, every cell's index into them, and whether they are of windows.

    The samples are of the whole cell box (`_unique_cells_u8`'s
    samples): a board drawn at the profile's own pixels has few distinct
    cells, and reads as ever. A scaled board has few distinct cell
    *windows* (`_RING`) where its whole boxes are mostly distinct, by
    their blended edges and their sub-pixel phases; it is read on the
    windows, against tiles cut to the same window. A board mostly distinct
    either way (noise, JPEG) is resampled whole.
    """
    n = rows * cols
    edges = _box_edges(rgb, origin, pitch, rows, cols)
    # equal cells have equal edges: more distinct edges than this and the
    # whole boxes are too, known without gathering them (a scaled board's
    # edges are blended with its neighbours')
    skip = edges is not None and len(np.unique(_hashes(edges))) > n // 4
    raw = None if skip else _raw_cells(rgb, origin, pitch, rows, cols)
    full: tuple[Index, Index] | None = None
    if raw is not None:
        words = raw[0].view(np.uint64)
        h = _hashes(words)
        # equal rows hash alike, so there are at least as many distinct
        # cells as hashes: a scaled board is known mostly distinct without
        # the full comparison
        if len(np.unique(h)) <= n // 4:
            full = _groups(words, h)
            if len(full[0]) <= n // 4:
                return _resample_rows(raw[0], full[0], raw[1], raw[2]), full[1], False
    inner = _inner_cells(rgb, origin, pitch, rows, cols)
    if inner is not None:
        first, inverse = _groups(inner.buf.view(np.uint64))
        if len(first) <= n // 2 and (full is None or len(first) < len(full[0])):
            return _window_samples(inner, first), inverse, True
    if raw is None and skip:
        raw = _raw_cells(rgb, origin, pitch, rows, cols)
    if raw is not None:
        if full is None:
            full = _groups(raw[0].view(np.uint64))
        if len(full[0]) <= n // 2:
            return _resample_rows(raw[0], full[0], raw[1], raw[2]), full[1], False
        return sample_cells_u8(rgb, origin, pitch, rows, cols)[full[0]], full[1], False
    cells = sample_cells_u8(rgb, origin, pitch, rows, cols)
    first, inverse = _groups(cells.reshape(n, K * K * 3).view(np.uint64))
    return cells[first], inverse, False


def _classify_unique(
    uniq: Image, inverse: Index, bank: _Bank
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Classify distinct uint8 cell samples once each and spread the results to every cell."""
    best, conf, d1 = _classify_feats(_features(uniq.astype(np.float32) * np.float32(1 / 255)), bank)
    return best[inverse], conf[inverse], d1[inverse]


def _classify_feats(
    feats: F32, bank: _Bank
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Best label, confidence and best distance of every feature row."""
    dim = feats.shape[1]
    cross = _cross(feats, bank)
    centred = feats - bank.mean
    sq = np.einsum("ij,ij->i", centred, centred)
    d = sq[:, None] + bank.norms[None, :] - 2.0 * cross
    d = np.maximum(d, 0.0) / dim
    nl = len(bank.labels)
    # variants are grouped by label, so a per-label minimum is one reduceat
    per_label = np.minimum.reduceat(d, bank.starts, axis=1)
    order = np.argsort(per_label, axis=1)
    best = order[:, 0]
    d1 = per_label[np.arange(len(best)), best].astype(np.float64)
    if nl > 1:
        d2 = per_label[np.arange(len(best)), order[:, 1]].astype(np.float64)
        # on distances, not squared ones: a tile half one label, half another
        # must come out unsure, not 75% sure
        conf = 1.0 - np.sqrt(d1 / np.maximum(d2, 1e-9))
    else:
        conf = np.ones_like(d1)
    # A stroke the nearest tile does not have (or lacks one it has) is a tile
    # the profile has never seen: a 6 where only 5s were learned is near a 5
    # on the whole, but not stroke by stroke. Noise and recolouring move a
    # sample's shape a little; a stroke moves it all the way.
    kk3 = K * K * 3
    v1 = np.argmin(d, axis=1)
    cell = feats[:, kk3:][:, _INNER]
    tile = bank.feats[v1, kk3:][:, _INNER]
    excess = np.maximum(np.abs(cell - tile) - _STROKE_STEP, 0.0).sum(axis=1)
    unseen = excess > _UNSEEN_STROKE
    conf = np.where((d1 > _FAR) | unseen, 0.0, np.clip(conf, 0.0, 1.0))
    return best.astype(np.int64), conf, d1


# Per-label lookups, so turning 480 label indices into names and states is
# two array indexings, not a Python loop per cell.
@lru_cache(maxsize=32)
def _label_names(labels: tuple[str, ...]) -> npt.NDArray[np.object_]:
    return np.array(labels, dtype=object)


@lru_cache(maxsize=32)
def _label_states(labels: tuple[str, ...]) -> npt.NDArray[np.int64]:
    return np.array([STATE_OF_LABEL[lab] for lab in labels], dtype=np.int64)


def _tile_window(profile: Profile) -> tuple[float, float, float, float]:
    """The cell window (see _RING) in the pixels of the profile's tiles at its cell size."""
    out: list[float] = []
    for pitch, size in zip(profile.pitch, profile.cell_size, strict=True):
        scale = size / pitch
        # rounded, so a bank is cached per window, not per float wobble
        out += [_quantise(_RING * scale), _quantise((pitch - 2 * _RING) * scale)]
    return (out[0], out[1], out[2], out[3])


def read_board(
    image: Image,
    profile: Profile,
    *,
    image_origin: tuple[int, int] = (0, 0),
    threshold: float = CONFIDENCE_THRESHOLD,
) -> ReadResult:
    """Read the board the profile describes from `image`.

    image: RGB (H, W, 3) or BGRA (H, W, 4) as mss grabs it; a whole-screen
    grab or any crop containing the board. image_origin: the screen
    position of the image's top-left pixel (a crop's left/top; mss monitor
    0's left/top for a whole-desktop grab), since the profile is in screen
    coordinates. Raises ReadError when the board is not (or no longer) where
    the profile says: outside the image, or most cells match no tile.
    """
    try:
        rgb = as_rgb(image)
    except ImageError as exc:
        raise ReadError(str(exc)) from exc
    origin = (profile.origin[0] - image_origin[0], profile.origin[1] - image_origin[1])
    pitch = profile.pitch
    uniq, inverse, windowed = _read_cells(rgb, origin, pitch, profile.rows, profile.cols)
    bank = _profile_bank(profile, _tile_window(profile) if windowed else None)
    best, conf, _d1 = _classify_unique(uniq, inverse, bank)
    unreadable = float(np.mean(conf == 0.0))
    if unreadable > _MAX_UNREADABLE:
        raise ReadError(
            f"{unreadable:.0%} of cells match no tile of profile {profile.name!r}: the board "
            "is not there (moved, covered, or another game)"
        )
    labels = tuple(_label_names(bank.labels)[best].tolist())
    low = conf < threshold
    cells = tuple(np.where(low, UNKNOWN, _label_states(bank.labels)[best]).tolist())
    board = Board(profile.cols, profile.rows, profile.mines, cells)
    low_idx = np.nonzero(low)[0]
    return ReadResult(
        board=board,
        confidence=conf.reshape(profile.rows, profile.cols),
        low_confidence=tuple((int(i) // profile.cols, int(i) % profile.cols) for i in low_idx),
        labels=labels,
    )


def board_visible(
    image: Image, profile: Profile, *, image_origin: tuple[int, int] = (0, 0)
) -> str | None:
    """None when the profile's board is in the image as expected, else the reason."""
    try:
        res = read_board(image, profile, image_origin=image_origin)
    except ReadError as exc:
        return str(exc)
    if len(res.low_confidence) > _MAX_UNREADABLE * profile.rows * profile.cols:
        return f"{len(res.low_confidence)} cells are unclear: the board may be covered"
    return None


# -- helpers for calibration ---------------------------------------------------------


def observed_unknown_tile(rgb: Image, grid: Grid) -> Image:
    """The typical unopened tile of a (mostly blank) board: per-pixel median of all cells."""
    w, h = grid.cell_size
    xs, ys = grid.cell_edges()
    stack = []
    for y in ys[:-1]:
        for x in xs[:-1]:
            tile = rgb[y : y + h, x : x + w]
            if tile.shape[:2] == (h, w):
                stack.append(tile)
    arr = np.stack(stack)
    out: Image = np.median(arr, axis=0).astype(np.uint8)
    return out


@dataclass(frozen=True)
class Fit:
    """How well one tile set explains a board: the set, the refined geometry, the score."""

    index: int
    origin: tuple[float, float]
    pitch: tuple[float, float]
    mean_distance: float
    readable: float  # fraction of cells read with confidence
    per_set: tuple[float, ...] = ()  # every set's mean distance at its own best geometry


_EXACT = 1e-4  # mean feature distance of a board drawn with exactly the profile's tiles


def _quantise(v: float) -> float:
    """To 1/256 px: an origin of 23.4999999 and one of 23.5 must round alike everywhere."""
    return round(v * 256) / 256


def fit_tilesets(
    rgb: Image,
    origin: tuple[float, float],
    pitch: tuple[float, float],
    rows: int,
    cols: int,
    tilesets: Sequence[Mapping[str, Sequence[Image]]],
    face_offsets: Sequence[tuple[float, float]] | None = None,
) -> Fit | None:
    """The tile set and the geometry (within a pixel or so of the given one) that read best.

    origin comes from the lattice of flat tile faces, which sit off the
    centre of their boxes by the bevel: face_offsets gives, per set, where
    its unopened tile's face centre sits from the box centre, so each set
    starts from its own estimate of the edge. Around it whole-pixel shifts
    and the pitch as found or rounded are tried; the score is the mean
    distance of every cell to its nearest tile. Only an exact match (the
    game's own pixels at their recorded size) may move the edge off a set's
    estimate: at a scaled size no set fits exactly, and a blank board fits a
    misplaced edge almost as well as the right one.
    """
    if not tilesets:
        return None
    banks = [_bank(ts) for ts in tilesets]
    offsets = list(face_offsets) if face_offsets is not None else [(0.0, 0.0)] * len(banks)
    pitches = [pitch]
    snapped = (float(round(pitch[0])), float(round(pitch[1])))
    if snapped != pitch and all(abs(a - b) < 0.15 for a, b in zip(pitch, snapped, strict=True)):
        pitches.insert(0, snapped)
    cache: dict[tuple[float, float, float, float], tuple[Image, Index] | None] = {}

    def cells_at(o: tuple[float, float], p: tuple[float, float]) -> tuple[Image, Index] | None:
        key = (o[0], o[1], p[0], p[1])
        if key not in cache:
            try:
                cache[key] = _unique_cells_u8(rgb, o, p, rows, cols)
            except ReadError:
                cache[key] = None
        return cache[key]

    def evaluate(i: int, o: tuple[float, float], p: tuple[float, float]) -> Fit | None:
        cells = cells_at(o, p)
        if cells is None:
            return None
        _best, conf, d1 = _classify_unique(cells[0], cells[1], banks[i])
        readable = float(np.mean(conf >= CONFIDENCE_THRESHOLD))
        return Fit(i, o, p, float(d1.mean()), readable)

    chosen: list[Fit] = []
    for i in range(len(banks)):
        home_o = (_quantise(origin[0] - offsets[i][0]), _quantise(origin[1] - offsets[i][1]))
        fits = []
        for p in pitches:
            for dy in (-1.0, 0.0, 1.0):
                for dx in (-1.0, 0.0, 1.0):
                    f = evaluate(i, (home_o[0] + dx, home_o[1] + dy), p)
                    if f is not None:
                        fits.append(f)
        if not fits:
            continue
        best = min(fits, key=lambda f: f.mean_distance)
        homes = [f for f in fits if f.origin == home_o]
        if homes and best.mean_distance > _EXACT:
            best = min(homes, key=lambda f: f.mean_distance)
        chosen.append(best)
    if not chosen:
        return None
    winner = min(chosen, key=lambda f: f.mean_distance)
    per_set = [np.inf] * len(banks)
    for f in chosen:
        per_set[f.index] = f.mean_distance
    return replace(winner, per_set=tuple(per_set))
