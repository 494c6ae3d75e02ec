"""The tile bank: a profile's tiles as feature rows, and a cell's distance to each.

A bank holds every tile of a tile set as features (see `features`), plus, for
reading, copies shifted by half and one pixel and each digit at full
contrast; variants are grouped by label. Banks are cached per tile set, cell
size and sampling window, so the player's many per-frame profiles share one.
`_cross` takes the products of cells with every variant in blocks small
enough that BLAS never hands them to its worker threads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from msolver.vision.features import F32, _features, _strokes, _window_tile
from msolver.vision.image import Image, ink_of, resampled
from msolver.vision.profile import LABELS, Profile


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
    # (not cv2.warpAffine: its builds round half-pixel shifts apart)
    out: Image = resampled(
        tile, (-dx, -dy), (1.0, 1.0), (tile.shape[1], tile.shape[0]), replicate=True
    ).astype(np.uint8)
    if tile.ndim == 2:
        return out[:, :, 0]
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
