"""Reading cells: every cell of the board image becomes a state with a confidence.

Each cell box is resampled to a small fixed grid (K x K, area averaging, one
cv2.resize for the whole board) so the same features serve any display scale.
Two feature sets are compared against the profile's tiles, for all cells at
once (one matrix product):

- colour: the K x K RGB samples themselves; tells unopened from opened,
  separates digits by colour;
- shape: per sample, how far it is from the cell's own background colour
  (the median of the cell), scaled to the cell's strongest contrast. It does
  not care which colour a digit is drawn in, so it survives digit recolouring,
  and it separates 3 from 7, 1 from an unopened bevel, by their strokes.

The label is the nearest tile variant. Confidence compares the best distance
with the best distance of any *other* label (1 = unambiguous, 0 = a tie), and
is zeroed when even the best is far from every tile; cells under the
threshold are reported in `low_confidence`, and their board state is UNKNOWN,
never a guess.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from msolver.core.board import UNKNOWN, Board
from msolver.vision.image import Image, ImageError, as_rgb, px
from msolver.vision.profile import LABELS, STATE_OF_LABEL, Profile

K = 16  # samples per cell side
CONFIDENCE_THRESHOLD = 0.35
# Mean squared feature distance above which a cell matches no tile at all.
_FAR = 0.03
_SHAPE_WEIGHT = 2.0
# A board where more cells than this fraction match nothing is not there.
_MAX_UNREADABLE = 0.2

F32 = npt.NDArray[np.float32]

if TYPE_CHECKING:
    from msolver.vision.grid import Grid


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
    flat = samples.reshape(n, K * K, 3)
    bg = np.median(flat, axis=1, keepdims=True)
    dev = np.abs(flat - bg).max(axis=2)
    peak = dev.max(axis=1, keepdims=True)
    # scale contrast to the strongest stroke, but leave near-flat cells flat
    shape = dev / np.maximum(peak, 0.25)
    colour = flat.reshape(n, K * K * 3)
    return np.concatenate([colour / np.sqrt(3.0), shape * np.sqrt(_SHAPE_WEIGHT)], axis=1).astype(
        np.float32
    )


def _resample_tile(tile: Image) -> F32:
    import cv2

    out = cv2.resize(tile, (K, K), interpolation=cv2.INTER_AREA)
    return (out.astype(np.float32) / 255.0).reshape(1, K, K, 3)


@dataclass(frozen=True, eq=False)
class _Bank:
    labels: tuple[str, ...]
    variant_label: npt.NDArray[np.int64]
    feats: F32
    norms: F32


@lru_cache(maxsize=32)
def _bank_cached(key: tuple[tuple[str, int, bytes, tuple[int, ...]], ...]) -> _Bank:
    labels: list[str] = []
    variant_label: list[int] = []
    rows: list[F32] = []
    for label, _i, raw, shape in key:
        tile = np.frombuffer(raw, dtype=np.uint8).reshape(shape)
        if label not in labels:
            labels.append(label)
        variant_label.append(labels.index(label))
        rows.append(_features(_resample_tile(tile)))
    feats = np.concatenate(rows, axis=0)
    return _Bank(
        tuple(labels),
        np.array(variant_label, dtype=np.int64),
        feats,
        (feats**2).sum(axis=1).astype(np.float32),
    )


def _bank(tiles: Mapping[str, Sequence[Image]]) -> _Bank:
    key = tuple(
        (label, i, np.ascontiguousarray(t).tobytes(), tuple(t.shape))
        for label in LABELS
        if label in tiles
        for i, t in enumerate(tiles[label])
    )
    return _bank_cached(key)


def sample_cells(
    rgb: Image, origin: tuple[float, float], pitch: tuple[float, float], rows: int, cols: int
) -> F32:
    """(rows*cols, K, K, 3) float32 samples of every cell box (image pixel coordinates)."""
    import cv2

    x0, y0 = px(origin[0]), px(origin[1])
    x1 = px(origin[0] + cols * pitch[0])
    y1 = px(origin[1] + rows * pitch[1])
    if x0 < 0 or y0 < 0 or x1 > rgb.shape[1] or y1 > rgb.shape[0]:
        raise ReadError(
            f"board ({x0},{y0})-({x1},{y1}) lies outside the {rgb.shape[1]}x{rgb.shape[0]} image"
        )
    crop = rgb[y0:y1, x0:x1]
    small = cv2.resize(crop, (cols * K, rows * K), interpolation=cv2.INTER_AREA)
    cells = small.reshape(rows, K, cols, K, 3).transpose(0, 2, 1, 3, 4)
    return (cells.reshape(rows * cols, K, K, 3).astype(np.float32)) * np.float32(1 / 255)


def _classify(samples: F32, bank: _Bank) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    feats = _features(samples)
    dim = feats.shape[1]
    d = (feats**2).sum(axis=1)[:, None] + bank.norms[None, :] - 2.0 * feats @ bank.feats.T
    d = np.maximum(d, 0.0) / dim
    nl = len(bank.labels)
    per_label = np.full((d.shape[0], nl), np.inf, dtype=np.float32)
    for li in range(nl):
        per_label[:, li] = d[:, bank.variant_label == li].min(axis=1)
    order = np.argsort(per_label, axis=1)
    best = order[:, 0]
    d1 = per_label[np.arange(len(best)), best].astype(np.float64)
    if nl > 1:
        d2 = per_label[np.arange(len(best)), order[:, 1]].astype(np.float64)
        conf = 1.0 - d1 / np.maximum(d2, 1e-9)
    else:
        conf = np.ones_like(d1)
    conf = np.where(d1 > _FAR, 0.0, np.clip(conf, 0.0, 1.0))
    return best.astype(np.int64), conf


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
    samples = sample_cells(rgb, origin, profile.pitch, profile.rows, profile.cols)
    bank = _bank(profile.tiles)
    best, conf = _classify(samples, bank)
    unreadable = float(np.mean(conf == 0.0))
    if unreadable > _MAX_UNREADABLE:
        raise ReadError(
            f"{unreadable:.0%} of cells match no tile of profile {profile.name!r}: the board "
            "is not there (moved, covered, or another game)"
        )
    labels = tuple(bank.labels[i] for i in best)
    low = conf < threshold
    cells = tuple(
        UNKNOWN if lo else STATE_OF_LABEL[lab] for lab, lo in zip(labels, low, strict=True)
    )
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
    origin, pitch, rows, cols = grid.origin, grid.pitch, grid.rows, grid.cols
    w, h = round(pitch[0]), round(pitch[1])
    stack = []
    for r in range(rows):
        for c in range(cols):
            x = px(origin[0] + c * pitch[0])
            y = px(origin[1] + r * pitch[1])
            tile = rgb[y : y + h, x : x + w]
            if tile.shape[:2] == (h, w):
                stack.append(tile)
    arr = np.stack(stack)
    out: Image = np.median(arr, axis=0).astype(np.uint8)
    return out


def tile_distance(a: Image, b: Image) -> float:
    fa = _features(_resample_tile(a))
    fb = _features(_resample_tile(b))
    return float(((fa - fb) ** 2).mean())


def match_theme(unknown: Image, candidates: Sequence[Profile]) -> Profile | None:
    """The built-in profile whose unopened tile looks like `unknown`, if one does."""
    best: tuple[float, Profile] | None = None
    for prof in candidates:
        for tile in prof.tiles.get("unknown", ()):
            d = tile_distance(unknown, tile)
            if best is None or d < best[0]:
                best = (d, prof)
    if best is not None and best[0] < _FAR / 3:
        return best[1]
    return None


def rescale_tiles(
    tiles: Mapping[str, Sequence[Image]], size: tuple[int, int]
) -> dict[str, tuple[Image, ...]]:
    """Tiles resized to (width, height) pixels."""
    import cv2

    out: dict[str, tuple[Image, ...]] = {}
    for label, variants in tiles.items():
        scaled = []
        for t in variants:
            if (t.shape[1], t.shape[0]) == size:
                scaled.append(t)
            else:
                interp = cv2.INTER_AREA if t.shape[1] > size[0] else cv2.INTER_LINEAR
                scaled.append(np.asarray(cv2.resize(t, size, interpolation=interp), np.uint8))
        out[label] = tuple(scaled)
    return out
