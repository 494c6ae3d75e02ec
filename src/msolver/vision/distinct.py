"""Distinct cells: the board image cut into cells, each distinct look sampled once.

Cells that are pixel-equal (most of a clean frame) are found on the raw
pixels with an exact hash grouping and resampled and classified once. On a
scaled board, where a cell's edge pixels blend with its neighbours' and
cells sit at sub-pixel phases, a window of each cell (its box less 1.5 px a
side, sampled at its own phase) is gathered instead: equal windows are many
fewer than equal boxes. `ReadError` is raised here when the board does not
fit the image; `classify` re-exports it with the rest of the public API.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from msolver.vision.features import F32, K, _area_kernel, _kernel_samples
from msolver.vision.image import Image, px


class ReadError(ValueError):
    """The board is not where the profile says, or the image cannot hold it."""


# A scaled board is read on a window of each cell: its box less this many
# pixels at each side. A display scaler blends the pixels at a cell's edge
# with its neighbour's (so equal cells differ there whenever their
# neighbours do); the first pixel the window touches has its centre a pixel
# in, clear of a linear scaler's reach up to 2x.
_RING = 1.5
# Sub-pixel phases of a window's start told apart: cells a 1/16 px apart are
# sampled alike (a calibrated pitch is good to ~1/1000 px a cell).
_PHASES = 16


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
