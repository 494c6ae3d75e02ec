"""Reading cells: every cell of the board image becomes a state with a confidence.

This is the public API of the built-in reader (`read_board`, `ReadResult`,
`ReadError`, `board_visible`, and for calibration `fit_tilesets`,
`observed_unknown_tile`). The work is split by concern: `features` (a
cell's samples as colour and shape features), `tilebank` (the profile's
tiles, and copies shifted by half and one pixel, as features), `distinct`
(the cells cut from the image, each distinct one sampled once, on a scaled
board by windows read against tiles sampled over the same window).

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
from msolver.vision.distinct import (
    _RING,
    Index,
    ReadError,
    _read_cells,
    _unique_cells_u8,
)
from msolver.vision.features import _INNER, _SHAPE_WEIGHT, F32, K, _features
from msolver.vision.image import Image, ImageError, as_rgb
from msolver.vision.profile import STATE_OF_LABEL, Profile
from msolver.vision.tilebank import _Bank, _bank, _cross, _profile_bank

__all__ = [
    "CONFIDENCE_THRESHOLD",
    "Fit",
    "ReadError",
    "ReadResult",
    "board_visible",
    "fit_tilesets",
    "observed_unknown_tile",
    "read_board",
]


CONFIDENCE_THRESHOLD = 0.35
# Mean squared feature distance above which a cell matches no tile at all.
_FAR = 0.03
# Per inner sample, a shape difference above this step is part of a stroke
# (in shape feature units; anti-aliased edges of a noisy recoloured digit
# move by less) ...
_STROKE_STEP = 0.5 * np.sqrt(_SHAPE_WEIGHT)
# ... and more of it than this, summed over the cell, is a stroke no tile
# of the profile has.
_UNSEEN_STROKE = 0.5 * np.sqrt(_SHAPE_WEIGHT)
# A board where more cells than this fraction match nothing is not there.
_MAX_UNREADABLE = 0.2


if TYPE_CHECKING:
    from msolver.vision.geometry import Grid


@dataclass(frozen=True, eq=False)
class ReadResult:
    """A read board; `confidence` is (rows, cols) in [0, 1]."""

    board: Board
    confidence: npt.NDArray[np.float64]
    low_confidence: tuple[tuple[int, int], ...]
    labels: tuple[str, ...] = ()


def _classify(samples: F32, bank: _Bank) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    best, conf, _d1 = _classify_feats(_features(samples), bank)
    return best, conf


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


def _tile_window(
    profile: Profile, pitches: tuple[float, float] | None = None
) -> tuple[float, float, float, float]:
    """The cell window (see _RING) in the pixels of the profile's tiles at its cell size
    (cells `pitches` apart; default the profile's pitch)."""
    out: list[float] = []
    for pitch, size in zip(pitches or profile.pitch, profile.cell_size, strict=True):
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
    if not profile.grid.uniform:
        # lines laid out unevenly: each cell cut from its own edges onto an even lattice
        local = profile.grid.moved(-image_origin[0], -image_origin[1])
        (x0, x1), (y0, y1) = ((e[0], e[-1]) for e in local.cell_edges())
        if x0 < 0 or y0 < 0 or x1 > rgb.shape[1] or y1 > rgb.shape[0]:
            size = f"{rgb.shape[1]}x{rgb.shape[0]}"
            raise ReadError(f"board ({x0},{y0})-({x1},{y1}) lies outside the {size} image")
        rgb, even = local.restitched(rgb)
        origin, pitch = even.origin, even.pitch
    uniq, inverse, windowed = _read_cells(rgb, origin, pitch, profile.rows, profile.cols)
    bank = _profile_bank(profile, _tile_window(profile, pitch) if windowed else None)
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
