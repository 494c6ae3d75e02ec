"""Finding a board from the periodic structure of its cells.

A Minesweeper board is a block of cells repeated at one pitch. Whatever a
tile looks like (flat, bevelled, stippled, rounded, over a gradient), its
edges repeat every pitch along x and y. The finder works in four steps:

1. Pitch. Edge strength along x (|dI/dx|, summed over colour channels) is
   autocorrelated over all rows; a comb fit (peaks at k*p against the
   troughs at (k+-1/2)*p) scores each candidate pitch, which rejects both
   multiples and fractions of the true one. The same along y; cells are
   mostly square, so pitch pairs that agree within 15% are tried first, and
   oblong ones (up to twice as long one way) only when none holds a board.
2. Phase. Edges that repeat one pitch apart are folded modulo the pitch;
   the cells' boundary is the strongest of them (halfway across a gap or
   line between cells). Pitch and phase are found on the picture with
   stipples and dithers averaged out (_undither), so a checkerboard face
   is one flat colour and not a forest of edges.
3. Extent. Every lattice cell of the image is resampled to 16x16 and
   compared with the board's typical cell (normalised correlation, a smooth
   colour model across the board, and contrast); the board is the largest
   rectangle of alike cells, grown by any adjacent row or column of it of
   which a good share is alike (cells opened by a first click, a hovered
   cell), so a partly played board keeps its full size and names the cells
   that are not blank. A toolbar or a counter off the lattice or unlike the
   cells is cut off.
4. Geometry to a fraction of a pixel. Each column's (row's) place is found
   on the board's own edge profile and pitch and origin are the
   least-squares line through them, so one rule (box from origin + k*pitch)
   cuts every cell the same way. The origin rule (_boundary_shift): a box
   starts on the cell boundary, the strongest edge that repeats every
   pitch, or halfway across a gap or line between cells.

Coordinates are pixel edges: pixel i covers [i, i+1); a Grid's cell (r, c)
box is [ox + c*px, ox + (c+1)*px) x [oy + r*py, oy + (r+1)*py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from msolver.vision.geometry import FLUSH, Grid, line_of, repeat_fill
from msolver.vision.image import Image, as_rgb, resampled, sampled_at

F = npt.NDArray[np.float64]

_MIN_PITCH = 8.0
# cells are tried square first (pitches within 15%: 1 / 0.85), then oblong
# up to twice as long one way as the other
_SQUARE = 1 / 0.85
_OBLONG = 2.0
# Fewer rows or columns than this is a strip, not a board that rules out the
# oblong pairs (the smallest boards games offer are 8 or 9 cells a side).
_SLIVER = 4
_MAX_PITCH = 110.0
_N = 16  # a cell is compared at 16x16 pixels
_MIN_CELLS = 12
_NCC_ALIKE = 0.8
_NCC_BESIDE = 0.95  # a cell this alike its neighbour on the board is the board's
# A cell this alike the board's blank cells whole, at their contrast, is blank
# whatever its inside (`_alike_whole`). Measured: the npm game at 67% zoom,
# its blank cells 0.93-1.0 and 0.98-1.02; xdemineur's opened 0s (a flat face
# and a line where a blank cell has its bevel) 0.80 and 0.73.
_NCC_WHOLE = 0.9
_WHOLE_CONTRAST = (0.9, 1.1)
# A checkerboard's two shades (see _checker_cut): at least this many levels
# apart (our page's checkerboards: 5-7 lightness points, 13-18 levels), and
# each parity's cells within this share of that of their shade.
_SHADES_APART = 6.0
# A split of the cells (`_lines_within`) whose new lines hold under this share
# of the edge strength of the cells' own lines cuts faces, not a board of blocks.
_SPLIT_LINES = 0.2
# A strip beside the board whose cells correlate this well whole with its
# blank cells, with the very face of theirs inside (levels), is board (_grow).
_NCC_LOOSE = 0.5
# The shifts (px) at which a cell unlike the blank one is sampled again.
_NUDGES = tuple((dx, dy) for dx in (-0.5, 0.0, 0.5) for dy in (-0.5, 0.0, 0.5) if dx or dy)
_SAME_FACE = 3.0
_SHADE_EVEN = 0.3
_REFIT = 0.03
# A cell's contrast, as a share of the alike cells' typical, that passes for theirs.
_CONTRAST = (0.6, 1.6)
_GROW_SHARE = 0.25
# Undithering keeps about a third or more of a board's edge energy (steps
# survive it, one-pixel lines lose half); a stippled or dithered board keeps
# about a tenth (measured on the battery corpus: 0.30-0.98 against 0.05-0.11).
_DITHERED = 0.2  # a row or column beside the board with this share of alike cells is board
# A board whose cells repeat with no edge of their own: folded at the pitch,
# its strongest phase stays under this many times the mean (kmines' grass
# 1.7-2.6, the most on a whole-screen grab; lines, bevels and gaps 4.4-16;
# measured on the corpus at its truths).
_WEAK_FOLD = 3.0
_FRAME_EDGE = 1.5  # a frame line: this many times the board's 90th-percentile edge
# Cells whose mean profile along one axis varies less than this share of the
# other's, and by less than _NO_SHAPE levels, have no shape that way (see
# _one_way). Measured: the window's edge taken for cells 0.010 and 0.018
# levels; our soft look at 50% (shaded top to bottom, its 0.5 px gaps
# faint) 0.013-0.022 but 0.23-0.40 levels; of the corpus boards the least
# 0.070 (the soft look at 80%, 1.0 level).
_ONE_WAY = 0.03
_NO_SHAPE = 0.1


class LatticeError(ValueError):
    """No board, or an ambiguous one; one sentence with the reason."""


@dataclass(frozen=True, slots=True)
class Lattice:
    """A board found on the lattice: geometry, and the cells that do not look blank."""

    origin: tuple[float, float]
    pitch: tuple[float, float]
    rows: int
    cols: int
    unlike: tuple[tuple[int, int], ...]  # (row, col) of cells unlike the blank cell
    similarity: float  # median normalised correlation of the board's cells with its typical cell
    # each line's own edge, where the board goes on beyond the even lattice on
    # lines a toolkit laid a pixel or more off it (see _grow_uneven); origin
    # and pitch are then the straight line through them
    xs: tuple[float, ...] | None = None
    ys: tuple[float, ...] | None = None
    grown: int = 0  # rows and columns added on lines off the even lattice


def _edges(rgb: Image) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Edge strength at pixel edges: ex[y, j] between pixels j-1 and j; ey[i, x] likewise."""
    import cv2

    h, w = rgb.shape[:2]
    ones = np.ones((1, 3), np.float32)
    ex = np.zeros((h, w + 1), np.float32)
    ey = np.zeros((h + 1, w), np.float32)
    dx = cv2.absdiff(rgb[:, 1:], rgb[:, :-1])
    dy = cv2.absdiff(rgb[1:], rgb[:-1])
    ex[:, 1:w] = cv2.transform(dx.astype(np.float32), ones).reshape(h, w - 1)
    ey[1:h, :] = cv2.transform(dy.astype(np.float32), ones).reshape(h - 1, w)
    return ex, ey


def _autocorr(e: npt.NDArray[np.float32], max_lag: int) -> F:
    """Autocorrelation along axis 1, summed over rows, lags 0..max_lag."""
    n = e.shape[1]
    size = 1
    while size < n + max_lag + 1:
        size *= 2
    # bands of 16 rows: a board's edges line up down a band, so summing first
    # keeps them and cuts the transforms 16-fold
    bands = e.shape[0] // 16
    if bands >= 2:
        e = e[: bands * 16].reshape(bands, 16, n).sum(axis=1)
    x = e - e.mean(axis=1, keepdims=True)
    spec = np.fft.rfft(x, n=size, axis=1)
    power = (spec.real**2 + spec.imag**2).sum(axis=0)
    ac = np.fft.irfft(power, n=size)[: max_lag + 1]
    return np.asarray(ac, np.float64)


def _comb_scores(ac: F, limit: float) -> tuple[F, F]:
    """Comb-fit score of each pitch candidate (0.1 px steps), relative to the lag-0 energy."""
    lags = np.arange(len(ac), dtype=np.float64)

    def at(d: F) -> F:
        return np.interp(d, lags, ac)

    ps = np.arange(_MIN_PITCH, min(_MAX_PITCH, limit) + 1e-9, 0.1)
    scores = np.zeros(len(ps))
    top = len(ac) - 1
    for i, p in enumerate(ps):
        k = np.arange(1, max(2, int(top / p - 0.5)) + 1, dtype=np.float64)
        k = k[(k + 0.5) * p <= top]
        if len(k) == 0:
            continue
        peaks = at(k * p)
        troughs = 0.5 * (at((k - 0.5) * p) + at((k + 0.5) * p))
        scores[i] = float(np.mean(peaks - troughs))
    if ac[0] > 0:
        scores /= ac[0]
    return ps, scores


def _pitch_candidates(ac: F, limit: float, many: bool = False) -> list[tuple[float, float]]:
    """(pitch, score) of comb-fit maxima, best first: the four best, or twelve if `many`."""
    ps, scores = _comb_scores(ac, limit)
    if ac[0] <= 0:
        return []
    out: list[tuple[float, float]] = []
    for i in range(1, len(ps) - 1):
        if scores[i] > 0.01 and scores[i] >= scores[i - 1] and scores[i] >= scores[i + 1]:
            # parabolic refinement between the 0.1 px steps
            a, b, c = scores[i - 1], scores[i], scores[i + 1]
            den = a - 2 * b + c
            off = 0.5 * (a - c) / den if den < 0 else 0.0
            out.append((float(ps[i] + 0.1 * off), float(b)))
    out.sort(key=lambda t: -t[1])
    # a multiple of a pitch that scores about as well is that pitch's comb again
    keep = [
        (p, sc)
        for p, sc in out
        if not any(
            q < p and sc2 >= 0.7 * sc and round(p / q) >= 2 and abs(p / q - round(p / q)) < 0.015
            for q, sc2 in out
        )
    ]
    return keep[: 12 if many else 4]


def _across(
    ac: F, limit: float, theirs: list[tuple[float, float]], ours: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    """(pitch, score) on this axis near each of the other axis's candidates
    that this axis's own list has not (its comb's best within 3%), if it
    scores at all."""
    ps, scores = _comb_scores(ac, limit)
    out: list[tuple[float, float]] = []
    for p, _sc in theirs:
        if any(abs(q - p) <= 0.03 * p for q, _ in ours + out):
            continue
        near = np.flatnonzero(np.abs(ps - p) <= 0.03 * p)
        if near.size == 0:
            continue
        i = int(near[np.argmax(scores[near])])
        if scores[i] > 0.01:
            out.append((float(ps[i]), float(scores[i])))
    return out


def _harmonic_pitch(ac: F, p: float) -> float:
    """The pitch `p` refined on the autocorrelation's own peaks near p, 2p, 3p, ...

    The comb fit weighs every multiple of a pitch alike, out to lags far
    beyond a small board, where a background picture or a window's other
    edges put their own bumps: on a 9-cell board of 24 px it said 24.43.
    Each peak's place (to a fraction of a lag) up to the first that stands
    out less than a quarter as much as the first one gives the pitch by
    least squares through the origin.
    """
    lags = np.arange(len(ac), dtype=np.float64)
    ks: list[float] = []
    places: list[float] = []
    first = 0.0
    k = 1
    while (k + 0.5) * p < len(ac) - 2:
        lo, hi = max(1, int(np.floor((k - 0.2) * p))), int(np.ceil((k + 0.2) * p))
        i = lo + int(np.argmax(ac[lo : hi + 1]))
        if i in (lo, hi):
            break  # no peak inside the window: the lattice's echo has died out
        a, b, c = ac[i - 1], ac[i], ac[i + 1]
        den = a - 2 * b + c
        x = i + (0.5 * (a - c) / den if den < 0 else 0.0)
        trough = 0.5 * float(np.interp(x - p / 2, lags, ac) + np.interp(x + p / 2, lags, ac))
        standing = float(b) - trough
        if k == 1:
            first = standing
        if first <= 0 or standing < 0.25 * first:
            break
        ks.append(float(k))
        places.append(x)
        k += 1
    if not ks:
        return p
    karr, xarr = np.array(ks), np.array(places)
    refined = float((karr * xarr).sum() / (karr * karr).sum())
    # a refinement is a fraction of a pixel a cell; more is another lattice
    return refined if abs(refined - p) <= 0.05 * p else p


def _square_pairs(
    ex: npt.NDArray[np.float32], ey: npt.NDArray[np.float32], max_lag: int, w: int, h: int
) -> list[tuple[float, float]]:
    """Pitch pairs from the weaker comb maxima, each axis's tried on the other.

    Cells are square: a pitch that shows on one axis is looked for on the
    other within 3%. Textured tiles repeat weakly against their texture, and
    in a whole-screen grab a window's own layout can outscore them.
    """
    acx, acy = _autocorr(ex, max_lag), _autocorr(ey.T, max_lag)
    ax, ay = _pitch_candidates(acx, w / 3, many=True), _pitch_candidates(acy, h / 3, many=True)
    sx, sy = _comb_scores(acx, w / 3), _comb_scores(acy, h / 3)
    out: list[tuple[float, float, float]] = []
    last: list[tuple[float, float]] = []
    for mine, (ps, scores) in ((ay, sx), (ax, sy)):
        for i, (p, sc) in enumerate(mine):
            near = np.abs(ps - p) <= 0.03 * p
            if not near.any():
                continue
            s2 = float(scores[near].max())
            if s2 > 0:
                # the same pitch on both axes: the weak axis's own maximum may be
                # off by more than the finder's refinement can pull back
                out.append((p, p, sc * s2))
            elif i == 0:
                # A window's border against a dark screen, half a pitch off the
                # board's lines and far stronger than they are, turns the comb's
                # teeth into troughs on its axis (kmines' 30x16 at Qt's 125%:
                # -0.005 at 17.5 px across, where the rows' own lines show
                # clearly): an axis's strongest pitch is tried there all the
                # same, after every pair that shows on both axes.
                last.append((p, p))
    out.sort(key=lambda t: -t[2])
    return [(a, b) for a, b, _ in out] + last


def _fold_centre(edge: npt.NDArray[np.float32], p: float) -> float | None:
    """Centre phase (edge coords, in [0, p)) of cells along one axis, from repeating edges."""
    s = round(p)
    # edges one pitch apart: only a lattice keeps both
    blur = edge.copy()
    blur[:, 1:-1] = np.maximum(edge[:, 1:-1], np.maximum(edge[:, :-2], edge[:, 2:]) * 0.5)
    rep = np.zeros_like(edge)
    rep[:, : edge.shape[1] - s] = edge[:, : edge.shape[1] - s] * blur[:, s:]
    prof = np.sqrt(rep.sum(axis=0).astype(np.float64))
    if prof.sum() <= 0:
        return None
    nb = max(8, round(p * 2))
    pos = np.arange(len(prof), dtype=np.float64)
    bins = np.floor((pos % p) / p * nb).astype(int) % nb
    folded = np.bincount(bins, weights=prof, minlength=nb)
    # the cell boundary: the strongest repeating edge (see _boundary_shift,
    # which places it to a fraction of a pixel); the centre is half a pitch on
    step = p / nb
    w = max(1, round(1.0 / step))
    energy = np.convolve(
        np.concatenate([folded[-w:], folded, folded[:w]]), np.ones(2 * w + 1), "valid"
    )
    edge_bin = int(np.argmax(energy))
    at = (edge_bin + 0.5) * step  # bin b covers phase [b, b+1)*step
    # a gap or line between cells: the edge on its other side is as strong
    dist = np.abs((np.arange(nb) - edge_bin + nb / 2) % nb - nb / 2) * step
    rival = (dist > 1.5) & (dist <= p / 4)
    if rival.any():
        other = int(np.flatnonzero(rival)[np.argmax(energy[rival])])
        if energy[other] >= 0.8 * energy[edge_bin]:
            d = ((other - edge_bin) * step + p / 2) % p - p / 2
            at += d / 2
    return float((at + p / 2) % p)


def _cells(
    rgb: Image,
    origin: tuple[float, float],
    pitch: tuple[float, float],
    rows: int,
    cols: int,
    *,
    whole_px: bool = False,
) -> npt.NDArray[np.float32]:
    """Every cell resampled to _N x _N: array (rows, cols, _N*_N*3); with
    `whole_px`, each cut in its own box between the lattice's lines rounded
    to whole pixels."""
    import cv2

    sx, sy = _N / pitch[0], _N / pitch[1]
    k = max(1, round(1 / min(sx, sy)))
    # Cells cut by the picture's right or bottom edge (a board flush with
    # it) are completed as the board repeats: from one pitch before.
    rgb = _repeated_on(rgb, origin[0] + cols * pitch[0], origin[1] + rows * pitch[1], pitch)
    if k > 1:
        src = cv2.blur(rgb, (k, k))
    elif min(sx, sy) < 1:
        # Shrunk by a fraction, a point sample catches a 1 px line (a browser's
        # button border at 67%) in one cell and misses it in the next: each
        # sample stands for its footprint, about 1/s pixels wide.
        src = cv2.GaussianBlur(rgb, (0, 0), 0.5 / min(sx, sy))
    else:
        src = rgb
    if whole_px:
        at = []
        for o, p, n in ((origin[0], pitch[0], cols), (origin[1], pitch[1], rows)):
            lines = np.floor(o + p * np.arange(n + 1) + 0.5)
            step = (np.arange(_N) + 0.5) / _N
            at.append((lines[:-1, None] + step[None, :] * np.diff(lines)[:, None]).ravel() - 0.5)
        out = sampled_at(src, at[0], at[1], replicate=True)
    else:
        out = resampled(src, origin, (sx, sy), (cols * _N, rows * _N), replicate=True)
    return out.reshape(rows, _N, cols, _N, 3).transpose(0, 2, 1, 3, 4).reshape(rows, cols, -1)


def _repeated_on(rgb: Image, right: float, bottom: float, pitch: tuple[float, float]) -> Image:
    """`rgb` reaching to `right` and `bottom`, the pixels past its edge those one
    whole pitch before them (at most a pitch: see vision.geometry.repeat_fill)."""
    h, w = rgb.shape[:2]
    return repeat_fill(rgb, int(np.ceil(right)) + 1 - w, int(np.ceil(bottom)) + 1 - h, pitch)


def _largest_rectangle(mask: npt.NDArray[np.bool_]) -> tuple[int, int, int, int]:
    """(top, left, height, width) of the largest all-true rectangle."""
    rows, cols = mask.shape
    heights = np.zeros(cols + 1, dtype=np.int64)
    best = (0, 0, 0, 0)
    best_area = 0
    for r in range(rows):
        heights[:cols] = np.where(mask[r], heights[:cols] + 1, 0)
        stack: list[int] = []
        for c in range(cols + 1):
            while stack and heights[stack[-1]] >= heights[c]:
                h = int(heights[stack.pop()])
                left = stack[-1] + 1 if stack else 0
                area = h * (c - left)
                if area > best_area:
                    best_area = area
                    best = (r - h + 1, left, h, c - left)
            stack.append(c)
    return best


def _alike(
    desc: npt.NDArray[np.float32], seed: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.floating[Any]]]:
    """Cells alike the typical cell among `seed`; (mask, correlation)."""
    rows, cols, _d = desc.shape
    px = desc.reshape(rows * cols, -1, 3)
    zero, norm = _zero_mean(px)
    # A cell whose only shape is a smooth ramp (a gradient behind the window,
    # no cell of its own) correlates with every other such cell: only cells
    # with more than that may stand for the board.
    shaped = _shaped(px) | _cut_ramps(px, rows, cols)
    idx = np.nonzero(seed.ravel() & (norm > 1e-3) & shaped)[0]
    ncc: npt.NDArray[np.floating[Any]] = np.zeros(rows * cols)
    if len(idx) < _MIN_CELLS:
        return np.zeros((rows, cols), bool), ncc.reshape(rows, cols)
    # the typical cell: the one with most near twins among a sample of candidates
    rng = np.random.default_rng(0)
    sample = idx if len(idx) <= 150 else rng.choice(idx, 150, replace=False)
    unit = zero[sample] / norm[sample, None]
    sim = unit @ unit.T
    votes = (sim > 0.9).sum(axis=1)
    twins = sample[sim[int(np.argmax(votes))] > 0.9]
    ref = _Twins.of(zero[twins], norm[twins])
    if ref.ref_norm <= 1e-3:
        return np.zeros((rows, cols), bool), ncc.reshape(rows, cols)
    ncc = ref.ncc(zero, norm)
    ncc[norm <= 1e-3] = 0.0
    alike = ref.within(ncc, norm, _NCC_ALIKE)
    return alike.reshape(rows, cols), ncc.reshape(rows, cols)


def _alike_beside(
    desc: npt.NDArray[np.float32], block: npt.NDArray[np.bool_], steps: int = 2
) -> npt.NDArray[np.bool_]:
    """`block` with the cells beside it that are alike their neighbour in it.

    A gradient behind the gaps between cells (a web page's) turns them from
    one colour to another across the board: the cells at one end no longer
    correlate with the typical cell, but each still does with the one beside
    it. What lies around a board (a menu, a frame) is unlike its edge cells.
    """
    if not block.any():
        return block.copy()
    # only cells within `steps` of the block can join it
    rr, cc = np.nonzero(block)
    r0, c0 = max(int(rr.min()) - steps, 0), max(int(cc.min()) - steps, 0)
    r1, c1 = int(rr.max()) + steps + 1, int(cc.max()) + steps + 1
    near = desc[r0:r1, c0:c1]
    rows, cols, _d = near.shape
    px = near.reshape(rows, cols, -1, 3)
    zero = (px - px.mean(axis=2, keepdims=True)).reshape(rows, cols, -1)
    norm = np.sqrt(np.einsum("rcd,rcd->rc", zero, zero))

    def twins(a: slice, b: slice, c: slice, d: slice) -> npt.NDArray[np.bool_]:
        # each cell of [a, c] against its neighbour of [b, d]: shape and contrast
        na, nb = norm[a, c], norm[b, d]
        both = (na > 1e-3) & (nb > 1e-3)
        ncc = np.einsum("rcd,rcd->rc", zero[a, c], zero[b, d]) / np.where(both, na * nb, 1.0)
        ratio = na / np.where(both, nb, 1.0)
        out: npt.NDArray[np.bool_] = both & (ncc >= _NCC_BESIDE) & (ratio > 0.8) & (ratio < 1.25)
        return out

    every = slice(None)
    down = twins(slice(None, -1), slice(1, None), every, every)  # (r, c) with (r + 1, c)
    across = twins(every, every, slice(None, -1), slice(1, None))  # (r, c) with (r, c + 1)
    out = block[r0:r1, c0:c1].copy()
    for _ in range(steps):
        grown = out.copy()
        grown[:-1] |= down & out[1:]
        grown[1:] |= down & out[:-1]
        grown[:, :-1] |= across & out[:, 1:]
        grown[:, 1:] |= across & out[:, :-1]
        if (grown == out).all():
            break
        out = grown
    whole = block.copy()
    whole[r0:r1, c0:c1] = out
    return whole


def _inner(desc: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Cells without their outer ring: what the frame or a neighbour beside them cannot touch."""
    rows, cols, _d = desc.shape
    m = _N // 8
    cells = desc.reshape(rows, cols, _N, _N, 3)[:, :, m : _N - m, m : _N - m]
    return np.ascontiguousarray(cells).reshape(rows, cols, -1)


def _coarse(inner: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """`_inner` cells averaged over blocks of 2x2 of their samples (a sixth of
    the cell each way): a texture finer than that is gone."""
    rows, cols, d = inner.shape
    n = round((d // 3) ** 0.5)
    k = n // 2
    cells = inner.reshape(rows, cols, k, 2, k, 2, 3).mean(axis=(3, 5))
    return np.ascontiguousarray(cells, dtype=np.float32).reshape(rows, cols, -1)


def _ramp_basis() -> F:
    """An orthonormal basis of the smooth ramps (constant, along x, along y) of one
    channel of a cell at _N x _N: (_N*_N, 3)."""
    g = (np.arange(_N) - (_N - 1) / 2) / _N
    y, x = np.meshgrid(g, g, indexing="ij")
    q, _ = np.linalg.qr(np.stack([np.ones(_N * _N), x.ravel(), y.ravel()], axis=1))
    return np.asarray(q, np.float64)


_RAMP = _ramp_basis()


def _shaped(px: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
    """Which cells (px: (n, _N*_N, 3)) hold more than a smooth ramp in any
    channel, by more than a flat face's stray (_flat_norm) left over."""
    # _RAMP's columns are orthonormal: what is left beyond the ramp has the
    # cell's squared norm less its ramp coefficients' (no fitted ramp drawn)
    x = px.astype(np.float64)
    coef = np.tensordot(x, _RAMP, axes=([1], [0]))  # (n, 3 channels, 3 terms)
    rest = (x * x).sum(axis=(1, 2)) - (coef * coef).sum(axis=(1, 2))
    flat = _flat_norm(px.shape[1] * px.shape[2])
    out: npt.NDArray[np.bool_] = np.sqrt(np.maximum(rest, 0.0)) > flat
    return out


def _cut_ramps(px: npt.NDArray[np.float32], rows: int, cols: int) -> npt.NDArray[np.bool_]:
    """Which cells (px: (rows * cols, _N*_N, 3)) are a ramp that breaks at both
    its ends: a face lit from above drawn afresh in each cell (a lineless board
    of shaded cells), where a gradient behind a window runs on from one window
    into the next, and half a cell breaks at one end only."""
    g = px.reshape(rows, cols, _N, _N, 3).astype(np.float64).mean(axis=4)
    coef = np.tensordot(g.reshape(rows, cols, -1), _RAMP[:, 1:], axes=([2], [0]))
    flat = _flat_norm(_N * _N)
    along_x, along_y = np.abs(coef[..., 0]) > flat, np.abs(coef[..., 1]) > flat
    # The step one sample makes along the ramp inside a cell; across a
    # boundary, how far the next cell's second sample lies off the ramp
    # carried on from this cell's last but one (the samples by the boundary
    # blend both cells).
    sy = np.diff(g, axis=2).mean(axis=(2, 3))
    sx = np.diff(g, axis=3).mean(axis=(2, 3))
    down = np.abs(
        g[1:, :, 1, :].mean(axis=2) - g[:-1, :, -2, :].mean(axis=2) - 1.5 * (sy[1:] + sy[:-1])
    )
    across = np.abs(
        g[:, 1:, :, 1].mean(axis=2) - g[:, :-1, :, -2].mean(axis=2) - 1.5 * (sx[:, 1:] + sx[:, :-1])
    )
    sy, sx = np.abs(sy), np.abs(sx)
    # a boundary with no cell beyond (the picture's edge) breaks
    top, bottom = np.ones((rows, cols), bool), np.ones((rows, cols), bool)
    brk = down > np.maximum(_BREAK, _BREAK_STEPS * np.maximum(sy[1:], sy[:-1]))
    top[1:], bottom[:-1] = brk, brk
    left, right = np.ones((rows, cols), bool), np.ones((rows, cols), bool)
    brk = across > np.maximum(_BREAK, _BREAK_STEPS * np.maximum(sx[:, 1:], sx[:, :-1]))
    left[:, 1:], right[:, :-1] = brk, brk
    cut = (along_x | along_y) & (~along_y | (top & bottom)) & (~along_x | (left & right))
    out: npt.NDArray[np.bool_] = cut.ravel()
    return out


# A ramp breaks at a boundary when the next cell starts over _BREAK levels off
# the ramp carried on, and over _BREAK_STEPS of the ramp's own step per sample
# on either side.
_BREAK = 4.0
_BREAK_STEPS = 2.0


def _flat_norm(d: int) -> float:
    """The most a flat face's d values stray from their mean, as a norm: about
    3 levels per value."""
    return 3.0 * float(np.sqrt(d))


def _alike_to(
    desc: npt.NDArray[np.float32],
    twins: npt.NDArray[np.bool_],
    *,
    flat_ok: bool = True,
    ncc_min: float = _NCC_ALIKE,
    contrast: tuple[float, float] = _CONTRAST,
) -> npt.NDArray[np.bool_]:
    """Cells alike the median of the `twins` cells (shape by correlation, within
    `contrast` of theirs; flat ones by flatness)."""
    rows, cols = desc.shape[:2]
    n = rows * cols
    zero, norm = _zero_mean(desc.reshape(n, -1, 3))
    tw = twins.ravel()
    if tw.sum() < 3:
        return np.zeros((rows, cols), bool)
    ref = _Twins.of(zero[tw], norm[tw])
    if ref.flat:
        if not flat_ok:  # a flat face is no evidence: the window around may be as flat
            return np.zeros((rows, cols), bool)
        flat: npt.NDArray[np.bool_] = (norm < max(3 * ref.typical, ref.noise)).reshape(rows, cols)
        return flat
    return ref.alike(zero, norm, ncc_min, contrast).reshape(rows, cols)


def _zero_mean(
    px: npt.NDArray[np.float32],
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Cells (px: (n, samples, 3)) less their mean colour, flattened, and their norms."""
    n = len(px)
    zero = (px - px.mean(axis=1)[:, None, :]).reshape(n, -1)
    return zero, np.sqrt((zero * zero).sum(axis=1))


@dataclass(frozen=True, slots=True)
class _Twins:
    """What cells are compared against in `_alike_to`: the median shape of a set of
    cells known to be alike, its norm, and their typical contrast. Kept apart so
    that many cells met one at a time (`_grow_uneven`) share one median."""

    ref: npt.NDArray[np.float32]
    ref_norm: float
    typical: float
    noise: float

    @classmethod
    def of(cls, zero: npt.NDArray[np.float32], norm: npt.NDArray[np.float32]) -> _Twins:
        ref = np.median(zero, axis=0)
        return cls(
            ref,
            float(np.sqrt((ref * ref).sum())),
            float(np.median(norm)),
            _flat_norm(zero.shape[1]),
        )

    @property
    def flat(self) -> bool:
        return self.typical < self.noise or self.ref_norm < self.noise

    def ncc(
        self, zero: npt.NDArray[np.float32], norm: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.floating[Any]]:
        """Each cell's correlation with the reference shape."""
        out: npt.NDArray[np.floating[Any]] = (
            (zero @ self.ref) / np.maximum(norm, 1e-3) / self.ref_norm
        )
        return out

    def alike(
        self,
        zero: npt.NDArray[np.float32],
        norm: npt.NDArray[np.float32],
        ncc_min: float,
        contrast: tuple[float, float] = _CONTRAST,
    ) -> npt.NDArray[np.bool_]:
        return self.within(self.ncc(zero, norm), norm, ncc_min, contrast)

    def within(
        self,
        ncc: npt.NDArray[np.floating[Any]],
        norm: npt.NDArray[np.float32],
        ncc_min: float,
        contrast: tuple[float, float] = _CONTRAST,
    ) -> npt.NDArray[np.bool_]:
        """Cells of correlation `ncc` whose shape and contrast (a share of the
        twins' typical, strictly between the two bounds) pass for the twins'."""
        share = norm / self.typical
        out: npt.NDArray[np.bool_] = (
            (ncc >= ncc_min) & (share > contrast[0]) & (share < contrast[1])
        )
        return out


def _colour_outliers(
    desc: npt.NDArray[np.float32], block: tuple[int, int, int, int], alike: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """Cells of the block whose mean colour is off a smooth (planar) colour model of the board."""
    top, left, h, w = block
    sub = desc[top : top + h, left : left + w].reshape(h, w, -1, 3).mean(axis=2).reshape(h * w, 3)
    rr, cc = np.mgrid[0:h, 0:w]
    a = np.stack([np.ones(h * w), rr.ravel(), cc.ravel()], axis=1).astype(np.float64)
    use = alike[top : top + h, left : left + w].ravel().copy()
    out = np.zeros(h * w, bool)
    for _ in range(2):
        if use.sum() < 3:
            break
        coef, *_ = np.linalg.lstsq(a[use], sub[use], rcond=None)
        res = np.abs(sub - a @ coef).max(axis=1)
        spread = float(np.median(res[use]))
        out = res > max(10.0, 6.0 * spread)
        use = use & ~out
    return out.reshape(h, w)


def _grow(
    alike: npt.NDArray[np.bool_],
    near: npt.NDArray[np.bool_],
    colour: npt.NDArray[np.float32],
    rect: tuple[int, int, int, int],
    facing: dict[str, npt.NDArray[np.bool_]] | None = None,
    loose: npt.NDArray[np.bool_] | None = None,
) -> tuple[int, int, int, int]:
    """The rectangle grown by every row or column beside it that belongs to the board.

    A strip belongs when a good share of it is alike (a board under way, a
    hovered cell) or nearly all of it is alike inside the outer ring and of
    the colour of the cells next to it (the board's outer cells, whose ring
    shows the frame instead of a neighbour), or nearly all of it is alike
    on the half that faces the board (`facing`, by the side the strip is on:
    flat cells whose line to the next cell is their only mark, and whose
    other side shows the frame). Last, a strip with more of the board
    beyond it belongs when nearly all of it is loosely shaped as the cells
    are (`loose`) with the very face of the cells next to it inside
    (_SAME_FACE): a browser zoomed out blends a bevel into every cell at its
    own phase, and a column in every few correlates at 0.6-0.75 (our page's
    seed 1174 at 67%: two columns of nine, the board found 4 wide and saved
    so). Only between parts of the board: on a lattice that drifts off a
    toolkit's uneven lines, a strip of the window beside the board can pass
    so (gnome-mines at 1300x750).
    """
    top, left, h, w = rect
    rows, cols = alike.shape

    def board(
        out: tuple[slice | int, slice | int], inside: tuple[slice | int, slice | int], side: str
    ) -> bool:
        if alike[out].mean() >= _GROW_SHARE:
            return True
        step = np.abs(colour[out] - colour[inside]).max(axis=-1)
        if (near[out] & (step <= 24)).mean() >= 0.8:
            return True
        same = step <= 24
        return facing is not None and bool((facing[side][out] & same).mean() >= 0.8)

    def bridge(
        out: tuple[slice | int, slice | int],
        inside: tuple[slice | int, slice | int],
        beyond: tuple[slice | int, slice | int],
    ) -> bool:
        # a strip between the board and more of it, shaped loosely as its
        # cells with their very face inside
        if loose is None or alike[beyond].mean() < _GROW_SHARE:
            return False
        step = np.abs(colour[out] - colour[inside]).max(axis=-1)
        return bool((loose[out] & (step <= _SAME_FACE)).mean() >= 0.8)

    changed = True
    while changed:
        changed = False
        cs, rs = slice(left, left + w), slice(top, top + h)
        if top > 0 and board((top - 1, cs), (top, cs), "top"):
            top, h, changed = top - 1, h + 1, True
        elif top + h < rows and board((top + h, cs), (top + h - 1, cs), "bottom"):
            h, changed = h + 1, True
        elif left > 0 and board((rs, left - 1), (rs, left), "left"):
            left, w, changed = left - 1, w + 1, True
        elif left + w < cols and board((rs, left + w), (rs, left + w - 1), "right"):
            w, changed = w + 1, True
        elif top > 1 and bridge((top - 1, cs), (top, cs), (top - 2, cs)):
            top, h, changed = top - 1, h + 1, True
        elif top + h < rows - 1 and bridge((top + h, cs), (top + h - 1, cs), (top + h + 1, cs)):
            h, changed = h + 1, True
        elif left > 1 and bridge((rs, left - 1), (rs, left), (rs, left - 2)):
            left, w, changed = left - 1, w + 1, True
        elif left + w < cols - 1 and bridge((rs, left + w), (rs, left + w - 1), (rs, left + w + 1)):
            w, changed = w + 1, True
    return top, left, h, w


def _facing(
    desc: npt.NDArray[np.float32], twins: npt.NDArray[np.bool_]
) -> dict[str, npt.NDArray[np.bool_]]:
    """Cells alike the twins on one half, by the side of the board a strip of them lies on
    (a strip above the board is judged on its cells' lower halves, and so on)."""
    rows, cols, _d = desc.shape
    cells = desc.reshape(rows, cols, _N, _N, 3)
    m = _N // 2
    halves = {
        "top": cells[:, :, m:],
        "bottom": cells[:, :, :m],
        "left": cells[:, :, :, m:],
        "right": cells[:, :, :, :m],
    }
    return {
        side: _alike_to(
            np.ascontiguousarray(half).reshape(rows, cols, -1), twins, flat_ok=False, ncc_min=0.9
        )
        for side, half in halves.items()
    }


def _refine(
    edge: npt.NDArray[np.float32],
    level: F,
    centre0: float,
    p: float,
    n: int,
    fixed: bool = False,
) -> tuple[float, float]:
    """(first centre, pitch) along one axis, by least squares over every cell's own edges.

    Each cell's edge profile is aligned to the board's mean cell profile (a
    shift to a quarter pixel, then a parabola); the centres are fitted by a
    line, and the mean profile's own mirror centre fixes the phase. `fixed`
    keeps the pitch p and fits the phase alone.
    """
    prof = edge.sum(axis=0).astype(np.float64)
    pos = np.arange(len(prof), dtype=np.float64)
    # inside the box only: the board's outer cells have no neighbour beyond it
    u = np.arange(-p / 2 + 1, p / 2 - 1 + 1e-9, 0.25)
    shifts = np.arange(-2.0, 2.0 + 1e-9, 0.25)
    c0, pp = centre0, p
    for _ in range(4):
        ks = np.arange(n, dtype=np.float64)
        at = (c0 + ks * pp)[:, None] + u[None, :]
        segs = np.interp(at, pos, prof, 0.0, 0.0)
        tmpl = segs.mean(axis=0)
        # every cell's profile at every shift in one call (np.interp is pointwise)
        shifted = np.interp(at[:, None, :] + shifts[None, :, None], pos, prof, 0.0, 0.0)
        cs, kk = [], []
        for k in range(n):
            sc = np.array([float(np.dot(row, tmpl)) for row in shifted[k]])
            i = int(np.argmax(sc))
            if sc[i] <= 0:
                continue
            d = float(shifts[i])
            if 0 < i < len(shifts) - 1:
                a, b, e = sc[i - 1], sc[i], sc[i + 1]
                den = a - 2 * b + e
                if den < 0:
                    d += 0.25 * 0.5 * (a - e) / den
            cs.append(c0 + k * pp + d)
            kk.append(float(k))
        if len(kk) < 2:
            return centre0, p
        karr, carr = np.array(kk), np.array(cs)
        # The outer cells have the board's frame beyond them, not a neighbour:
        # its strong edges can pull one by two pixels (kmines at Qt's 175%, a
        # pitch 24.29 for 24.5), and, fitted with the others, it tilts the line
        # so far that it no longer stands out. The line is fitted through the
        # inner cells first; an outer cell that lies on it joins them.
        use = (karr > 0) & (karr < n - 1)
        if use.sum() < 3:
            use = np.ones(len(karr), bool)
        for _drop in range(3):
            if fixed:
                f0, fp = float(np.median(carr[use] - p * karr[use])), p
            else:
                am = np.stack([np.ones(int(use.sum())), karr[use]], axis=1)
                (f0, fp), *_ = np.linalg.lstsq(am, carr[use], rcond=None)
            # a row or column the toolkit laid a pixel off (GTK rounds each
            # one) must not tilt the line through all the others
            res = np.abs(carr - (f0 + fp * karr))
            keep = res <= max(0.3, 3.0 * float(np.median(res[use])))
            if (keep == use).all() or keep.sum() < max(2, len(karr) // 2):
                break
            use = keep
        c0, pp = float(f0), float(fp)
    return c0 + _boundary_shift(pos, prof, level, c0, pp, n), pp


def _frame_fit(
    ex: npt.NDArray[np.float32],
    ey: npt.NDArray[np.float32],
    origin: tuple[float, float],
    pitch: tuple[float, float],
    rows: int,
    cols: int,
    *,
    seamless: bool = True,
) -> tuple[tuple[float, float], int, int] | None:
    """(origin, rows, cols) of the board between its frame lines (`_framed`, each
    axis; an axis with no frame keeps its own), or None when neither axis has one."""
    (ox, oy), (px, py) = origin, pitch
    fx = _framed(ex[int(oy) : int(oy + rows * py), :], ox, px, cols, seamless=seamless)
    fy = _framed(ey[:, int(ox) : int(ox + cols * px)].T, oy, py, rows, seamless=seamless)
    if fx is None and fy is None:
        return None
    ox, cols = fx if fx is not None else (ox, cols)
    oy, rows = fy if fy is not None else (oy, rows)
    return (ox, oy), rows, cols


def _seamless(prof: F, start: float, p: float, n: int) -> bool:
    """Whether n cells from `start` at pitch p show no boundary of their own along
    `prof` (edge strength per pixel boundary): folded at the pitch, the
    strongest phase is under _WEAK_FOLD times the mean."""
    a, b = max(0, int(start)), min(len(prof), int(start + n * p))
    if b - a < 2 * p:
        return False
    nb = max(8, round(p))
    bins = np.floor(((np.arange(a, b) - start) % p) / p * nb).astype(int) % nb
    folded = np.bincount(bins, weights=prof[a:b], minlength=nb)
    return bool(folded.max() < _WEAK_FOLD * max(float(folded.mean()), 1e-9))


def _framed(
    edge: npt.NDArray[np.float32], start: float, p: float, n: int, *, seamless: bool = True
) -> tuple[float, int] | None:
    """(start, count) of the cells between the board's frame lines along one axis, where
    the cells show no boundary of their own (their repeating edges are weak:
    folded at the pitch, the strongest phase is under _WEAK_FOLD times the mean;
    not asked with seamless=False); None otherwise. edge: edge strength, one row
    per line across the board."""
    if edge.shape[0] == 0 or edge.shape[1] == 0:
        return None  # a lattice reaching past the picture's edge: nothing to see
    prof = edge.mean(axis=0).astype(np.float64)
    a, b = max(0, int(start)), min(len(prof), int(start + n * p))
    if b - a < 2 * p:
        return None
    inside = prof[a:b]
    if seamless and not _seamless(prof, start, p, n):
        return None
    strong = _FRAME_EDGE * float(np.percentile(inside, 90))
    lo = np.arange(max(0, int(start - p)), min(len(prof), int(start + p / 2) + 1))
    if len(lo) == 0:
        return None
    # a frame drawn as a thin line has a strong edge on each side: the cells
    # start after the inner one and end before the inner one on the far side
    lo_top = float(prof[lo].max())
    if lo_top < strong:
        return None
    left = int(lo[prof[lo] >= 0.5 * lo_top].max())
    # The far frame is sought n or n + 1 pitches past the near one, not past
    # `start`: the fold's phase is arbitrary here, and one that cut the first
    # row across the frame (kmines' grass at Qt's 125%, 4 px early) leaves
    # the far frame more than n + 1 pitches past it.
    hi = np.arange(
        max(0, int(left + n * p - p / 2)), min(len(prof), int(left + (n + 1) * p + p / 2) + 1)
    )
    if len(hi) == 0:
        return None
    hi_top = float(prof[hi].max())
    if hi_top < strong:
        return None
    right = int(hi[prof[hi] >= 0.5 * hi_top].min())
    k = (right - left) / p
    m = round(k)
    if m not in (n, n + 1) or abs(k - m) * p > 1.0:
        return None
    # edge index j lies between pixels j-1 and j: the first cell starts at pixel j
    return float(left), m


def _boundary_shift(pos: F, prof: F, level: F, c0: float, pp: float, n: int) -> float:
    """How far to move the first cell's centre c0 so that its box starts on the cell boundary.

    The one origin rule of msolver (finder, built-in profiles, corpus
    truths): a cell's box starts at the strongest edge that repeats every
    pitch, the boundary between two cells (a light bevel after a dark one, a
    face after the frame's line). Where a game leaves a gap or draws a line
    between cells, the edges on its two sides are about as strong and the
    box starts halfway between them. No symmetry is assumed: a bevel wider
    on one side does not move the boundary. `level` is the grey level of
    pixel i (centred at i + 0.5) along the axis, in the same frame as prof.
    """
    step = 0.25
    u = np.arange(-pp / 2, pp / 2, step)
    # inner cells have a neighbour on both sides: the board's frame is no boundary of theirs
    inner = range(1, n - 1) if n > 2 else range(n)
    tmpl = np.mean([np.interp(c0 + k * pp + u, pos, prof, 0.0, 0.0) for k in inner], axis=0)
    lpos = np.arange(len(level), dtype=np.float64) + 0.5
    m = len(tmpl)
    if m < 4 or float(tmpl.max()) <= 0:
        return 0.0

    def local_max(i: int) -> int:
        w = round(1.0 / step)
        near = np.arange(i - w, i + w + 1)
        return int(near[np.argmax(tmpl[near % m])]) % m

    def strength(i: int) -> float:
        # the energy within 3/4 pixel: one edge spread over two pixels by
        # scaling counts whole, an edge two pixels on does not
        h = round(0.75 / step)
        return float(tmpl[np.arange(i - h, i + h + 1) % m].sum())

    def centroid(i: int) -> float:
        h = round(1.0 / step)
        idx = np.arange(i - h, i + h + 1)
        vals = tmpl[idx % m]
        tot = float(vals.sum())
        return float(u[i] + (step * float((vals * (idx - i)).sum()) / tot if tot > 0 else 0.0))

    peaks = [i for i in range(m) if tmpl[i] > 0 and local_max(i) == i]
    if not peaks:
        return 0.0
    i1 = max(peaks, key=strength)
    b = centroid(i1)
    dist = np.abs((u - u[i1] + pp / 2) % pp - pp / 2)
    rivals = [i for i in peaks if 1.5 < dist[i] <= pp / 4]
    if rivals:
        i2 = max(rivals, key=strength)
        if strength(i2) >= 0.8 * strength(i1):
            b2 = centroid(i2)
            d = (b2 - b + pp / 2) % pp - pp / 2
            mid = b + d / 2
            # a gap or a line looks the same from both sides (mirror
            # symmetric grey levels about its middle); two edges of a bevel
            # (dark band, then light band) do not
            t = np.arange(0.5, abs(d) / 2 + 2.0, 0.5)
            sides = np.concatenate([mid - t, mid + t])
            grey = np.mean([np.interp(c0 + k * pp + sides, lpos, level) for k in inner], axis=0)
            diff = float(np.mean(np.abs(grey[: len(t)] - grey[len(t) :])))
            if diff <= 0.35 * max(float(np.ptp(grey)), 1e-6):
                b = mid
    # the box start nearest the current one (-pp/2): the cell keeps its index
    start = b + pp * round((-pp / 2 - b) / pp)
    return float(start + pp / 2)


def _board_at(
    rgb: Image,
    ex: npt.NDArray[np.float32],
    ey: npt.NDArray[np.float32],
    pitch: tuple[float, float],
    fine: tuple[Image, npt.NDArray[np.float32], npt.NDArray[np.float32]] | None = None,
) -> tuple[Lattice, int] | None:
    """The board on the lattice of this pitch, and how many other big alike blocks there are.

    rgb, ex, ey: the picture (undithered) and its edges, for finding the
    board; fine: the picture as grabbed and its edges, for its geometry to a
    fraction of a pixel (the same as rgb, ex, ey if None).
    """
    import cv2

    h, w = rgb.shape[:2]
    cx = _fold_centre(ex, pitch[0])
    cy = _fold_centre(ey.T, pitch[1])
    if cx is None or cy is None:
        return None
    ox = (cx - pitch[0] / 2) % pitch[0]
    oy = (cy - pitch[1] / 2) % pitch[1]
    # A last cell cut by the picture's edge by no more than FLUSH of a pitch
    # counts (a board flush with a window grab's edge: its last line, the
    # middle of the gap after it, lies just past the last pixel).
    cols = int((w - ox) / pitch[0] + FLUSH)
    rows = int((h - oy) / pitch[1] + FLUSH)
    if rows < 2 or cols < 2:
        return None
    desc = _cells(rgb, (ox, oy), pitch, rows, cols)
    alike, _ncc = _alike(desc, np.ones((rows, cols), bool))
    if alike.sum() < _MIN_CELLS:
        return None
    # separate boards: blocks of alike cells apart from each other
    _n, lab, stats, _ = cv2.connectedComponentsWithStats(
        cv2.morphologyEx(alike.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)),
        connectivity=4,
    )
    areas = stats[1:, cv2.CC_STAT_AREA]
    main = 1 + int(np.argmax(areas))
    big = [1 + j for j in np.nonzero(areas >= max(16, 0.25 * areas.max()))[0] if 1 + j != main]
    block = _alike_beside(desc, alike & (lab == main))
    rect = _largest_rectangle(block)
    if rect[2] < 2 or rect[3] < 2 or rect[2] * rect[3] < _MIN_CELLS:
        return None
    if _one_way(desc[rect[0] : rect[0] + rect[2], rect[1] : rect[1] + rect[3]]):
        return None
    inner = _inner(desc)
    near = _alike_to(inner, block, flat_ok=False, ncc_min=0.95)
    colour = inner.reshape(rows, cols, -1, 3).mean(axis=2)
    facing = _facing(desc, block)
    # the board's own face, whole cells shaped about as its cells are
    loose = _alike_to(desc, block, flat_ok=False, ncc_min=_NCC_LOOSE)
    top, left, bh, bw = _grow(block, near, colour, rect, facing, loose)
    # geometry to a fraction of a pixel, from the edges of the board's blank cells
    y0, y1 = int(oy + top * pitch[1]), min(int(np.ceil(oy + (top + bh) * pitch[1])), h - 1)
    x0, x1 = int(ox + left * pitch[0]), min(int(np.ceil(ox + (left + bw) * pitch[0])), w - 1)
    blank = block[top : top + bh, left : left + bw]
    rr = np.clip(((np.arange(y0, y1) + 0.5 - oy) // pitch[1]).astype(int) - top, 0, bh - 1)
    cc = np.clip(((np.arange(x0, x1 + 1) + 0.5 - ox) // pitch[0]).astype(int) - left, 0, bw - 1)
    wx = blank[rr][:, cc].astype(np.float32)
    f_rgb, f_ex, f_ey = fine if fine is not None else (rgb, ex, ey)
    raw = float(f_ex[y0:y1, x0:x1].sum() + f_ey[y0:y1, x0:x1].sum())
    kept = float(ex[y0:y1, x0:x1].sum() + ey[y0:y1, x0:x1].sum())
    if kept < _DITHERED * raw:
        # a dithered or stippled face: its pixel-to-pixel edges outweigh the
        # cells' own, so the board is measured on the undithered picture too
        f_ex, f_ey = ex, ey
    grey = f_rgb[y0:y1, x0:x1].astype(np.float64).mean(axis=2)
    c0x, px = _refine(
        f_ex[y0:y1, x0 : x1 + 1] * wx,
        grey.mean(axis=0),
        ox + (left + 0.5) * pitch[0] - x0,
        pitch[0],
        bw,
    )
    c0x += x0
    col_edges = (f_ex[y0:y1, x0 : x1 + 1] * wx, grey.mean(axis=0), x0)
    rr = np.clip(((np.arange(y0, y1 + 1) + 0.5 - oy) // pitch[1]).astype(int) - top, 0, bh - 1)
    cc = np.clip(((np.arange(x0, x1) + 0.5 - ox) // pitch[0]).astype(int) - left, 0, bw - 1)
    wy = blank[rr][:, cc].astype(np.float32)
    first_y = oy + (top + 0.5) * pitch[1] - y0
    c0y, py = _refine((f_ey[y0 : y1 + 1, x0:x1] * wy).T, grey.mean(axis=1), first_y, pitch[1], bh)
    c0y += y0
    origin = (c0x - px / 2, c0y - py / 2)
    # A seamless texture (kmines' grass) has no edge between its cells: any
    # phase cuts alike cells and the one the fold found is arbitrary. The
    # board's frame is the only boundary then: two strong edges a whole number
    # of pitches apart, each within a pitch of the board's ends.
    framed = _frame_fit(f_ex, f_ey, origin, (px, py), bh, bw)
    if framed is not None:
        origin, bh, bw = framed
    lat = _cut(rgb, origin, (px, py), bh, bw)
    if lat.unlike:
        # Cells with a strong texture of their own (minegauler's grass) can
        # pull the edge fit off by a few tenths of a pixel a cell, and the far
        # column is then cut across its neighbour. The cut at the comb's own
        # pitch and fold is kept when it leaves fewer cells unlike the rest.
        # Its phase is fitted on the same edges, at that pitch.
        edge_x, level_x, at_x = col_edges
        fx0, _ = _refine(
            edge_x, level_x, ox + (left + 0.5) * pitch[0] - at_x, pitch[0], bw, fixed=True
        )
        fy0, _ = _refine(
            (f_ey[y0 : y1 + 1, x0:x1] * wy).T,
            grey.mean(axis=1),
            first_y,
            pitch[1],
            bh,
            fixed=True,
        )
        start = (fx0 + at_x - pitch[0] / 2, fy0 + y0 - pitch[1] / 2)
        plain = _cut(rgb, start, pitch, bh, bw)
        if len(plain.unlike) < len(lat.unlike):
            lat = plain
    if lat.unlike:
        # A texture scaled by whole pixels (kmines' grass at Qt's 150%) grows
        # edges of its own that repeat every cell: the fold takes one of them
        # for the cells' boundary and cuts a row or column of cells across
        # the frame. The frame's two lines, a whole number of pitches apart,
        # say where the cells are; that cut is kept when it leaves fewer
        # cells unlike the rest.
        at_frame = _frame_fit(f_ex, f_ey, lat.origin, lat.pitch, lat.rows, lat.cols, seamless=False)
        if at_frame is not None:
            framed_cut = _cut(rgb, at_frame[0], lat.pitch, at_frame[1], at_frame[2])
            if len(framed_cut.unlike) < len(lat.unlike):
                lat = framed_cut
    if (lat.rows, lat.cols) == (bh, bw):
        lat = _trim_grown(
            rgb,
            lat,
            (
                rect[0] - top,
                top + bh - rect[0] - rect[2],
                rect[1] - left,
                left + bw - rect[1] - rect[3],
            ),
        )
    lat = _grow_uneven(rgb, ex, ey, lat)
    # a block of alike cells that the board grown on its own lines takes in is
    # part of it, cut off on the even lattice where the lines drift off it
    board = _box(lat)
    others = 0
    for j in big:
        x, y, bw_, bh_ = (int(v) for v in stats[j, :4])
        blk = (
            ox + x * pitch[0],
            oy + y * pitch[1],
            ox + (x + bw_) * pitch[0],
            oy + (y + bh_) * pitch[1],
        )
        if _box_overlap(blk, board) < 0.5 * (blk[2] - blk[0]) * (blk[3] - blk[1]):
            others += 1
    return lat, others


def _one_way(desc: npt.NDArray[np.float32]) -> bool:
    """Whether the cells (rows, cols, _N*_N*3) have shape along one axis only.

    A window's straight edge cut at any pitch gives a row of alike cells
    (our checker look at 75% on a whole screen: 23x2 "cells" of the page's
    bottom edge, no cell of its own): a board's cells have edges both ways.
    Cells in two shades alternating as a checkerboard have them in the
    alternation itself, which the typical cell averages away: a lineless
    checkerboard of faces lit from above (our page's seed 1512 at 125%) is a
    ramp top to bottom and flat across, and was refused at its own pitch
    (then found as 40x2 "cells" of another).
    """
    rows, cols = desc.shape[:2]
    if rows >= 2 and cols >= 2:
        parity = (np.add.outer(np.arange(rows), np.arange(cols)) % 2).astype(bool)
        shades = [np.median(desc[p].mean(axis=1)) for p in (parity, ~parity)]
        if abs(float(shades[0] - shades[1])) >= _SHADES_APART:
            return False
    typical = np.median(desc.reshape(-1, _N, _N, 3), axis=0)

    def one_way(along_x: float, along_y: float) -> bool:
        least, most = sorted((along_x, along_y))
        return most > 0.5 and least < _ONE_WAY * most and least < _NO_SHAPE

    # How the columns and the rows differ on the mean, and within each row
    # and each column. A 2x2 block of a lit checkerboard (two cells a shade
    # apart side by side, swapped below) has columns alike on the mean: 0.06
    # to 0.08 across, as the resampling rounded a level either way, either
    # side of the bar, and the board was found or not. Within a row it
    # changes by the shade.
    return one_way(
        float(typical.mean(axis=(0, 2)).std()), float(typical.mean(axis=(1, 2)).std())
    ) and one_way(
        float(np.sqrt(typical.var(axis=1).mean())), float(np.sqrt(typical.var(axis=0).mean()))
    )


def _trim_grown(rgb: Image, lat: Lattice, grown: tuple[int, int, int, int]) -> Lattice:
    """`lat` less the strips `_grow` added (top, bottom, left, right: how many)
    whose outermost holds no blank cell at all.

    A strip is grown on by its colour and the half of it that faces the
    board; the page's margin below a board of shaded buttons passed for a row
    of cells (our soft look at 80%: 17 rows of 16, the last all unlike). A
    strip of the board itself has blank cells in it, or is the board's own
    played row, which the cut then shows as played too.
    """
    top, bottom, left, right = grown
    while True:
        unlike = set(lat.unlike)
        rows, cols = lat.rows, lat.cols
        (ox, oy), (px, py) = lat.origin, lat.pitch
        if top and all((0, c) in unlike for c in range(cols)):
            top, rows, oy = top - 1, rows - 1, oy + py
        elif bottom and all((rows - 1, c) in unlike for c in range(cols)):
            bottom, rows = bottom - 1, rows - 1
        elif left and all((r, 0) in unlike for r in range(rows)):
            left, cols, ox = left - 1, cols - 1, ox + px
        elif right and all((r, cols - 1) in unlike for r in range(rows)):
            right, cols = right - 1, cols - 1
        else:
            return lat
        if rows < 2 or cols < 2:
            return lat
        lat = _cut(rgb, (ox, oy), (px, py), rows, cols)


# A strip of margin: its pixels (95%) and the strip past it within this many
# levels of its median colour, and the two medians so.
_MARGIN_SAME = 4.0


def _trim_outside(rgb: Image, lat: Lattice) -> Lattice:
    """`lat` less an outer row or column that holds no blank cell and is no
    part of the board: it runs past the picture's edge (no board's cells lie
    outside the picture), or it is one flat colour, the colour of the strip
    just past it (the margin the board lies on). Taken off only when the
    board cut again without it (plainly, or as a checkerboard: `_checker_at`)
    leaves no cell unlike the rest. Our page's lineless checkerboards: seed
    2257 at 125% 20 px from the picture's left edge, the lattice took a
    column at x = -3.6; seed 2280 at 200%, a row below the board over the
    page's margin. All their cells unlike, both boards were refused as
    partly played. A board cut by the picture's edge keeps its cut line (its
    cells look blank), and the cut-off checks refuse it; a played row shows
    its numbers on the opened face, no margin's one flat colour."""
    if not lat.unlike or lat.xs is not None or lat.ys is not None:
        return lat
    height, width = rgb.shape[:2]
    unlike = set(lat.unlike)
    rows, cols = lat.rows, lat.cols
    (ox, oy), (px, py) = lat.origin, lat.pitch

    def margin(x0: float, y0: float, x1: float, y1: float, dx: float, dy: float) -> bool:
        """Whether the box is off the picture, or flat and alike the box (dx, dy) on."""
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            return True
        a0, b0, a1, b1 = x0 + dx, y0 + dy, x1 + dx, y1 + dy
        if a0 < 0 or b0 < 0 or a1 > width or b1 > height:
            return False
        here = rgb[round(y0) : round(y1), round(x0) : round(x1), :3].reshape(-1, 3)
        past = rgb[round(b0) : round(b1), round(a0) : round(a1), :3].reshape(-1, 3)
        med_here, med_past = np.median(here, axis=0), np.median(past, axis=0)
        return (
            float(np.abs(med_here - med_past).max()) <= _MARGIN_SAME
            and float(np.percentile(np.abs(here - med_here).max(axis=1), 95)) <= _MARGIN_SAME
            and float(np.percentile(np.abs(past - med_past).max(axis=1), 95)) <= _MARGIN_SAME
        )

    def along(x0: float, y0: float, x1: float, y1: float) -> bool:
        """Whether the strip is the same all along its length, across the lines
        where its cells would meet: a window's frame and what lies past it
        (Tk's lineless checkerboard: 1 px of white, 7 of grey, then the black
        screen, in a column 24 px wide), not a row or column of cells."""
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            return False
        box = rgb[round(y0) : round(y1), round(x0) : round(x1), :3].astype(np.int16)
        lines = box if x1 - x0 < y1 - y0 else box.transpose(1, 0, 2)
        if lines.shape[0] < 2 * min(px, py):
            return False
        typical = np.median(lines, axis=0)
        off = np.abs(lines - typical).max(axis=2).max(axis=1)
        return bool(off.max() <= _MARGIN_SAME)

    right, bottom = ox + cols * px, oy + rows * py
    if all((r, 0) in unlike for r in range(rows)) and (
        margin(ox, oy, ox + px, bottom, -px, 0) or along(ox, oy, ox + px, bottom)
    ):
        cols, ox = cols - 1, ox + px
    elif all((r, cols - 1) in unlike for r in range(rows)) and (
        margin(right - px, oy, right, bottom, px, 0) or along(right - px, oy, right, bottom)
    ):
        cols -= 1
    elif all((0, c) in unlike for c in range(cols)) and (
        margin(ox, oy, right, oy + py, 0, -py) or along(ox, oy, right, oy + py)
    ):
        rows, oy = rows - 1, oy + py
    elif all((rows - 1, c) in unlike for c in range(cols)) and (
        margin(ox, bottom - py, right, bottom, 0, py) or along(ox, bottom - py, right, bottom)
    ):
        rows -= 1
    else:
        return lat
    if rows < 2 or cols < 2:
        return lat
    for cut in (
        _cut(rgb, (ox, oy), (px, py), rows, cols),
        _checker_at(rgb, (ox, oy), (px, py), rows, cols, lat.similarity),
    ):
        if cut is not None and not cut.unlike:
            return cut
    return lat


def _cut(
    rgb: Image, origin: tuple[float, float], pitch: tuple[float, float], rows: int, cols: int
) -> Lattice:
    """The board of this geometry, with the cells that do not look blank."""
    desc = _cells(rgb, origin, pitch, rows, cols)
    whole, ncc = _alike(desc, np.ones((rows, cols), bool))
    # blank or not is judged inside the outer ring, so the board's edge cells
    # count (the frame beside them is in their whole box)
    alike = _alike_to(_inner(desc), whole)
    # A cell as alike the rest whole as they are alike each other is blank
    # too. A face flat inside holds its structure at the rim (a bevel), and
    # drawn at a fractional zoom with edges blended at each cell's phase, its
    # inside keeps bits of bevel in one cell and none in the next: the npm
    # game at 67% (26.79 px cells) had every fifth row and column unlike inside.
    alike |= _alike_whole(desc, whole)
    if not alike.all():
        # Cut half a pixel either way: a board at a fractional zoom draws
        # its cells 15 or 16 px wide, and where the lattice's phase drifts
        # from the drawn lines blank cells sampled at the other phase are
        # unlike the rest (the test page at 80%, 15.15 px bevelled cells:
        # whole, 0.85-0.89 against 0.9; inside, nearly flat, 0.4-0.7; 8
        # cells, the board refused as played; nudged, 0.93 or more). A cell
        # opened or flagged is unlike a blank one at any phase.
        for dx, dy in _NUDGES:
            if alike.all():
                break
            moved = _cells(rgb, (origin[0] + dx, origin[1] + dy), pitch, rows, cols)
            # the cells found blank stand as they were cut; the others, moved
            mixed = np.where(alike[:, :, None], desc, moved)
            alike |= _alike_to(_inner(mixed), whole) | _alike_whole(mixed, whole)
        if not alike.all():
            # A browser rounds each cell's place to whole pixels, so at 67%
            # cells 14.74 px apart are drawn 14 or 15 px wide, and a bevelled
            # 14 px cell cut at 14.74 takes in 0.7 px of its neighbour's
            # bevel at any phase (our page's seed 2364: its two 14 px rows
            # and columns unlike the rest, the board refused as played). Cut
            # between the lattice's lines rounded to whole pixels, each cell
            # is its own size.
            moved = _cells(rgb, origin, pitch, rows, cols, whole_px=True)
            mixed = np.where(alike[:, :, None], desc, moved)
            alike |= _alike_to(_inner(mixed), whole) | _alike_whole(mixed, whole)
    off = _colour_outliers(_inner(desc), (0, 0, rows, cols), alike)
    good = alike & ~off
    return Lattice(
        origin=(float(origin[0]), float(origin[1])),
        pitch=(float(pitch[0]), float(pitch[1])),
        rows=rows,
        cols=cols,
        unlike=tuple((int(r), int(c)) for r, c in zip(*np.nonzero(~good), strict=True)),
        similarity=float(np.median(ncc)),
    )


def _checker_cut(
    rgb: Image, coarse: Lattice, edges: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]
) -> Lattice | None:
    """The board of `coarse`'s blocks of 2x2 cells when its cells are two shades
    alternating as a checkerboard; else None.

    Google's look and its clones draw the blank cells in two shades by
    parity. Shaded or bevelled as well, and drawn at a fractional zoom, each
    cell's rim blends in its neighbours' shade, the other parity's: the two
    parities' cells differ in shape whole, and only a 2x2 block repeats, so
    the lattice finds the board in blocks. Cut at half the pitch, such a
    board is two shades, each even over its parity and apart from the
    other's, and every cell inside its rim alike its parity's own (or flat,
    as a flat face is). A board of one look cut so is not: a cell's quarters
    are not two even shades (a face lit from above: the top quarters
    lighter, one of each parity).
    """
    if coarse.xs is not None or coarse.ys is not None:
        return None
    q = (coarse.pitch[0] / 2, coarse.pitch[1] / 2)
    if min(q) < _MIN_PITCH:
        return None
    rows, cols = 2 * coarse.rows, 2 * coarse.cols
    # the cut at the blocks' own geometry and fitted on the cells' edges
    # (`_refit`): the one that leaves more cells alike wins, and of two
    # alike, the one whose lines sit on the stronger edges (a Tk checkerboard
    # found at 64.01 px blocks cuts right at 32.005; a fit on its steps,
    # a pixel of relief beside some, drifted to 32.14)
    got = [
        _checker_at(rgb, origin, pitch, rows, cols, coarse.similarity)
        for origin, pitch in (
            _refit(rgb, edges, coarse.origin, q, rows, cols),
            (coarse.origin, q),
        )
    ]
    kept = [lat for lat in got if lat is not None]
    if not kept:
        return None
    return max(kept, key=lambda lat: (lat.rows * lat.cols - len(lat.unlike), _on_edges(edges, lat)))


def _on_edges(
    edges: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]], lat: Lattice
) -> float:
    """The mean edge strength at the lattice's lines, at the pixel each falls on."""
    total = 0.0
    for prof, o, p, n in _edge_profiles(*edges, lat):
        at = [round(o + i * p) for i in range(n + 1)]
        total += float(np.mean([prof[j] for j in at if 0 <= j < len(prof)] or [0.0]))
    return total


def _checker_at(
    rgb: Image,
    origin: tuple[float, float],
    q: tuple[float, float],
    rows: int,
    cols: int,
    similarity: float,
) -> Lattice | None:
    """The board of `_checker_cut` at this geometry, or None."""
    # Cells a block beyond the blocks on every side are judged too: blocks
    # that start on the wrong parity leave a strip of the board outside
    # (our page's seed 1192 at 80%: 8x7 blocks, the top row of cells cut off).
    m = 2
    at = (origin[0] - m * q[0], origin[1] - m * q[1])
    rows_x, cols_x = rows + 2 * m, cols + 2 * m
    inner = _inner(_cells(rgb, at, q, rows_x, cols_x))
    colour = inner.reshape(rows_x, cols_x, -1, 3).mean(axis=2)
    parity = (np.add.outer(np.arange(rows_x), np.arange(cols_x)) % 2).astype(bool)
    core = np.zeros((rows_x, cols_x), bool)
    core[m : m + rows, m : m + cols] = True
    shades = [np.median(colour[side & core], axis=0) for side in (parity, ~parity)]
    apart = float(np.abs(shades[0] - shades[1]).max())
    good = np.zeros((rows_x, cols_x), bool)
    smooth: npt.NDArray[np.float32] | None = None
    for side, shade in zip((parity, ~parity), shades, strict=True):
        off = np.abs(colour - shade).max(axis=2)
        own = side & core
        if apart < _SHADES_APART or float(np.percentile(off[own], 90)) > _SHADE_EVEN * apart:
            return None
        alike = _alike_to(inner, own)
        if not alike[own].all():
            # A fine texture on the faces (hatching a few pixels a stripe)
            # sampled at a fractional pitch falls on each cell at its own
            # phase, and a cell whose phase is half a stripe off correlates
            # badly with the rest (our page's seed 2345 at 90%: one cell in
            # ten of the hatched parity, r + c = 8 mod 10). Averaged over
            # blocks of a sixth of the cell, inside its rim, the stripes are
            # gone and a mark on a face (a flag, a digit) is not: a cell
            # alike so with the cells alike at full detail is blank too.
            if smooth is None:
                smooth = _coarse(inner)
            alike |= _alike_to(smooth, alike & own)
        if (alike & own).sum() < 0.9 * own.sum():
            return None
        good |= side & alike & (off <= _SHADE_EVEN * apart)
    top, left, bottom, right = _grow_strips(good, (m, m, m + rows, m + cols), rgb.shape[:2], at, q)
    board = good[top:bottom, left:right]
    return Lattice(
        origin=(at[0] + left * q[0], at[1] + top * q[1]),
        pitch=q,
        rows=bottom - top,
        cols=right - left,
        unlike=tuple((int(r), int(c)) for r, c in zip(*np.nonzero(~board), strict=True)),
        similarity=similarity,
    )


def _grow_strips(
    good: npt.NDArray[np.bool_],
    box: tuple[int, int, int, int],
    size: tuple[int, ...],
    at: tuple[float, float],
    q: tuple[float, float],
) -> tuple[int, int, int, int]:
    """`box` (top, left, bottom, right: cells of `good`) grown by each row or
    column beside it of which nine in ten cells are good and lie inside the
    picture (`size`: its height and width; `at`: where cell (0, 0) starts)."""
    top, left, bottom, right = box
    h, w = size[0], size[1]

    def inside(r0: int, c0: int, r1: int, c1: int) -> bool:
        return (
            at[0] + c0 * q[0] >= -FLUSH * q[0]
            and at[1] + r0 * q[1] >= -FLUSH * q[1]
            and at[0] + c1 * q[0] <= w + FLUSH * q[0]
            and at[1] + r1 * q[1] <= h + FLUSH * q[1]
        )

    def fits(r0: int, c0: int, r1: int, c1: int) -> bool:
        return inside(r0, c0, r1, c1) and float(good[r0:r1, c0:c1].mean()) >= 0.9

    grown = True
    while grown:
        grown = False
        if top > 0 and fits(top - 1, left, top, right):
            top, grown = top - 1, True
        if bottom < good.shape[0] and fits(bottom, left, bottom + 1, right):
            bottom, grown = bottom + 1, True
        if left > 0 and fits(top, left - 1, bottom, left):
            left, grown = left - 1, True
        if right < good.shape[1] and fits(top, right, bottom, right + 1):
            right, grown = right + 1, True
    return top, left, bottom, right


def _refit(
    rgb: Image,
    edges: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]],
    origin: tuple[float, float],
    pitch: tuple[float, float],
    rows: int,
    cols: int,
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Origin and pitch through the strongest edge near each of the lattice's lines.

    A board found in blocks of cells at an exact repeat of the picture
    carries that repeat's whole pixels: 50 px blocks of cells 25.2 px apart
    (our page's 28 px cells at 90%), 3 px off by the board's far end. A
    checkerboard's cells meet in a step of shade on every line; each line
    is placed on its own step (within a quarter pitch), and the lattice is
    the straight line through the steps that stand out (a third of the
    median step). A fit further than _REFIT off the pitch it started from is
    no better guess.
    """
    ex, ey = edges
    h, w = rgb.shape[:2]
    (ox, oy), (px, py) = origin, pitch
    x0, x1 = max(int(ox), 0), min(int(np.ceil(ox + cols * px)) + 1, w)
    y0, y1 = max(int(oy), 0), min(int(np.ceil(oy + rows * py)) + 1, h)
    if x1 - x0 < 2 * px or y1 - y0 < 2 * py:
        return origin, pitch
    fitted = []
    for prof, o, p, n in (
        (ex[y0:y1].sum(axis=0), ox, px, cols),
        (ey[:, x0:x1].sum(axis=1), oy, py, rows),
    ):
        at, peak = [], []
        for i in range(n + 1):
            lo, hi = max(round(o + i * p - p / 4), 1), min(round(o + i * p + p / 4) + 1, len(prof))
            if hi <= lo:
                continue
            j = lo + int(np.argmax(prof[lo:hi]))
            at.append((float(i), float(j)))
            peak.append(float(prof[j]))
        if len(at) < 3:
            return origin, pitch
        keep = np.array(peak) >= float(np.median(peak)) / 3
        ks, xs = np.array(at)[keep].T
        if len(ks) < 3:
            return origin, pitch
        fp, f0 = np.polyfit(ks, xs, 1)
        if abs(fp - p) > _REFIT * p:
            return origin, pitch
        fitted.append((float(f0), float(fp)))
    (fx0, fpx), (fy0, fpy) = fitted
    return (fx0, fy0), (fpx, fpy)


def _alike_whole(
    desc: npt.NDArray[np.float32], whole: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """Cells as alike the board's inner cells that are alike whole as those are
    alike each other: correlation _NCC_WHOLE, contrast within _WHOLE_CONTRAST."""
    twins = whole.copy()
    twins[[0, -1], :] = False
    twins[:, [0, -1]] = False
    # a flat face is nothing whole to tell a blank cell by
    return _alike_to(desc, twins, flat_ok=False, ncc_min=_NCC_WHOLE, contrast=_WHOLE_CONTRAST)


def _undither(rgb: Image) -> Image:
    """The picture with stipples and checkerboard dithers averaged out.

    A 1-2-1 filter on each axis cancels a pattern that alternates every
    pixel (a dithered or stippled face) and keeps edges where they were (it
    is symmetric): the face reads as its mean colour, like any flat one.
    """
    import cv2

    out: Image = np.asarray(
        cv2.GaussianBlur(rgb, (3, 3), 0, borderType=cv2.BORDER_REPLICATE), np.uint8
    )
    return out


def find_lattice(image: Image) -> Lattice:
    """The one board in `image` (RGB, or BGRA as mss grabs it); LatticeError if none or two."""
    rgb = as_rgb(image)
    h, w = rgb.shape[:2]
    if h < 3 * _MIN_PITCH or w < 3 * _MIN_PITCH:
        raise LatticeError("no board found: the image is too small to hold a board")
    # the board is found on the undithered picture, and measured on the grabbed one
    fine = (rgb, *_edges(rgb))
    ex, ey = _edges(_undither(rgb))
    max_lag = int(min(_MAX_PITCH * 4, w - 1, h - 1))
    ac_x, ac_y = _autocorr(ex, max_lag), _autocorr(ey.T, max_lag)
    cand_x = _pitch_candidates(ac_x, w / 3)
    cand_y = _pitch_candidates(ac_y, h / 3)
    # Cells are about square: a pitch strong on one axis is looked for on the
    # other too, where a finer comb may have hidden it (a bevelled button's
    # two edges make a half-pitch comb, and a window on a dark screen can tip
    # it past the cells' own).
    cand_x, cand_y = (
        cand_x + _across(ac_x, w / 3, cand_y, cand_x),
        cand_y + _across(ac_y, h / 3, cand_x, cand_y),
    )
    pairs = sorted(
        ((px, py, sx * sy) for px, sx in cand_x for py, sy in cand_y if _about_square(px, py)),
        key=lambda t: -t[2],
    )[:4]
    found: list[tuple[Lattice, int]] = []
    tried: set[tuple[int, int]] = set()
    for i, (px, py, sc) in enumerate(pairs):
        # beyond the two best, only a lattice nearly as strong: a second
        # board of another tile size, not a harmonic of the first
        if i >= 2 and sc < 0.5 * pairs[0][2]:
            break
        tried.add((round(2 * px), round(2 * py)))
        got = _board_at(rgb, ex, ey, (px, py), fine)
        sharp = (_harmonic_pitch(ac_x, px), _harmonic_pitch(ac_y, py))
        if max(abs(sharp[0] - px), abs(sharp[1] - py)) > 0.01:
            # the comb's pitch can be off by a few tenths on a small board
            # (see _harmonic_pitch): the board at the sharper pitch, if bigger
            other = _board_at(rgb, ex, ey, sharp, fine)
            if other is not None and (got is None or _cells_of(other) > _cells_of(got)):
                got = other
        if got is not None:
            found.append(_at_own_pitch(rgb, ex, ey, got, fine))
    pairs_found = bool(found)

    def fallback(pairs: list[tuple[float, float]]) -> None:
        """Each pair not tried yet, any board it holds kept."""
        for px, py in pairs:
            if (round(2 * px), round(2 * py)) in tried:
                continue
            tried.add((round(2 * px), round(2 * py)))
            got = _board_at(rgb, ex, ey, (px, py), fine)
            if got is not None:
                found.append(got)

    again: list[float] | None = None  # the picture's exact repeats, once asked for
    if not found:
        # only when the strong combs hold no board: each try costs a pass (a
        # weak pair passed over above is still a candidate here)
        # A board drawn at whole pixels repeats its cells' pixels exactly: the
        # first candidate where a picture behind the board drowns the combs
        # (kmines' garden behind a 9x9 board of grass)
        again = _repeat_pitches(rgb, ex, ey)
        fallback([(a, a) for a in again[:1]] + _square_pairs(ex, ey, max_lag, w, h))
        if not found:
            fallback([(a, a) for a in again[1:]])
        if not found:
            # a board at a fractional pitch repeats exactly only every few
            # cells (16.5 px: every 33): the lag's half and third too
            local = _local_repeat_pitches(rgb, ex, ey)
            fallback([(a / k, a / k) for a in local for k in (1, 2, 3) if a / k >= _MIN_PITCH])
    if not found or all(min(g[0].rows, g[0].cols) < _SLIVER for g in found):
        # Oblong cells (see _oblong_pairs): only when no pair of about one
        # pitch holds a board. Tried before the searches above, an oblong
        # pair cut a square board the combs miss (kmines' grass on a whole
        # screen) into blocks, split back into 9x7 of its 9x9 cells. A
        # sliver is no board either: Tk's 66 x 48 px buttons on a whole
        # screen held a strip of 2x15 "cells" 45.5 x 48 px at a square pair,
        # and the oblong pair that holds all 16x16 was never tried.
        oblongs = _oblong_pairs(cand_x, cand_y)
    elif (bool(cand_x and cand_y) and not _about_square(cand_x[0][0], cand_y[0][0])) or all(
        g[1] > 0 for g in found
    ):
        # The two axes' strongest combs oblong, or every board found beside
        # others: a square pair held at best a beat of oblong cells (the same
        # Tk buttons, the window lower down: 15x9 "cells" 49.6 x 48 px,
        # refused as cut off; flush with the screen's corner, stripes of
        # columns alike: "3 boards found"). Oblong pairs are tried too, and
        # the board covering the most wins below; but not one pitch a whole
        # multiple of the other, square cells in blocks (our page's seed
        # 2149 at 75%, its zoom dropping every other line: 16x8 "cells" 27 x
        # 13.5 px, where a square pair's 8x7 was refused as cells in halves).
        oblongs = [
            (px, py)
            for px, py in _oblong_pairs(cand_x, cand_y)
            if abs(max(px, py) / min(px, py) - round(max(px, py) / min(px, py))) > 0.05
        ]
    else:
        oblongs = []
    if oblongs:
        fallback(oblongs)
        # Cells whose faces change along one axis only (a checkerboard of
        # faces lit from above, no lines: our page's seed 1142 at 80%) are
        # as alike cut in halves across the other: 12 x 24 px "cells" of a
        # board of 24 px ones, whose square pitch the combs had not offered.
        # Cells are about square: the square of the long side, holding the
        # board as well, is its cells.
        for g in list(found):
            long = max(g[0].pitch)
            if long > _SQUARE * min(g[0].pitch):
                square = _board_at(rgb, ex, ey, (long, long), fine)
                if square is not None and _area(square[0]) >= 0.9 * _area(g[0]):
                    found[found.index(g)] = square
    if found and not pairs_found:
        # a multiple of the cells' pitch covers the board as well, in blocks
        # of cells: the finest lattice that covers about the most
        most = max(_area(g[0]) for g in found)
        wide = [g for g in found if _area(g[0]) >= 0.9 * most]
        finest = min(_pitch_of(g) for g in wide)
        # Lattices a few tenths of a pixel apart are the same cells, one of
        # them cutting across more of their boundaries: the one whose lines
        # lie on the strongest edges. Our page's seed 2345 at 90%, a lineless
        # checkerboard of hatched faces 28.8 px apart, was offered blocks of
        # 56.4, 57.0 and 58.2 px; the finest, refined to 56.79, lost 4 px at
        # one end and 3 at the other, and the board was refused as cut off.
        found = [
            max(
                (g for g in wide if _pitch_of(g) <= 1.05 * finest),
                key=lambda g: _on_lines(ex, ey, g[0]),
            )
        ]
    # A picture in the cells that repeats every few cells (kmines' graveyard
    # tiles) can outscore the cells' own pitch: a board found at a multiple
    # of the pitch is looked for again at a half and a third of it, and the
    # board covering the most wins below.
    # (keyed to a tenth of a pixel: a comb's pair 0.2 px off the cells' pitch,
    # 16.7 and 16.6 for kmines' 16.5 px cells at 150%, holds no board, and the
    # half of a block lattice found after must still be tried)
    seen = {(round(10 * a), round(10 * b)) for a, b, _ in pairs}
    for g in list(found):
        gx, gy = g[0].pitch
        # an oblong board may be square cells in blocks along its long side
        splits = [(k, k) for k in (2, 3, 4)]
        if max(gx, gy) > _SQUARE * min(gx, gy):
            splits += [(k, 1) if gx > gy else (1, k) for k in (2, 3)]
        for kx, ky in splits:
            q = (gx / kx, gy / ky)
            key = (round(10 * q[0]), round(10 * q[1]))
            if q[0] < _MIN_PITCH or q[1] < _MIN_PITCH or key in seen:
                continue
            seen.add(key)
            got = _board_at(rgb, ex, ey, q, fine)
            # A block's pitch split by 4 carries a quarter of its error to every
            # cell: a row or column at the far end drifts off (minegauler's
            # grass at 22 px, its picture repeating every 4 cells: blocks
            # 88.5 x 86.7 px, cut at 21.7 px a row, held 14 of the 16 rows).
            got = None if got is None else _at_own_pitch(rgb, ex, ey, got, fine)
            # the finer board holds the coarse one and more (not a strip of
            # part-cells across a board under way), counted in cells: the
            # areas of the two differ by the pitches' rounding (kmines'
            # graveyard at Qt's 125%, 16x16 at 17.503 px against 8x8 at
            # 35.007 px, fell 3 px^2 short). Blocks of k cells may start at
            # any of the k cells: the coarse board less k-1 fine cells along
            # each axis is what the finer one must hold (kmines' classic at
            # 150%, blocks of two 16.5 px cells a cell off the board's corner)
            inner = (g[0].cols * gx - (kx - 1) * q[0]) * (g[0].rows * gy - (ky - 1) * q[1])
            if (
                got is not None
                and got[0].rows * got[0].cols >= kx * ky * g[0].rows * g[0].cols
                and _overlap(got[0], g[0]) >= 0.9 * inner
                and min(got[0].rows, got[0].cols) >= 4
            ):
                found.append(got)
    if found and max(found, key=lambda g: _blank_area(g[0]))[0].grown:
        # The board found covering the most needed lines grown off its
        # lattice: its pitch may be a few tenths off the cells' own (a
        # browser's 9x9 buttons at 50% on a whole screen: the combs said 15.8
        # for cells exactly 16 apart). The picture's exact repeat, when that
        # near, is tried as well. (Asked only when every board found was
        # grown, a sliver of 8x9 at another pitch, found or not as the
        # resampling rounded a level, decided whether the 16 was tried.)
        if again is None:
            again = _repeat_pitches(rgb, ex, ey)
        for a in again[:1]:
            near = any(abs(a - p) <= 0.03 * p for g in found for p in g[0].pitch)
            if near and (round(10 * a), round(10 * a)) not in seen:
                got = _board_at(rgb, ex, ey, (a, a), fine)
                if got is not None:
                    found.append(got)
    # a board of blocks of two looks alternating (see _checker_cut), however
    # its blocks were found: at a pitch or split from a multiple of it
    for g in list(found):
        checker = _checker_cut(rgb, g[0], fine[1:])
        if checker is not None:
            found.append((checker, g[1]))
    if not found:
        raise LatticeError("no board found: no block of alike cells on a regular lattice")
    # a multiple of the pitch can hold a board of blocks of cells over the same
    # area: the finest lattice that covers about the most with blank cells (a
    # block lattice that also takes in the window around the board has more
    # area, but of cells unlike the rest)
    top = max(found, key=lambda g: _blank_area(g[0]))
    most = _blank_area(top[0])
    # Only a lattice whose cells tile the top board's by whole numbers is
    # the same board in blocks: a pitch a tenth off along one axis cuts across
    # its cells, and shaded faces alike along rows (our soft look at 80%, on
    # a dark screen: 21.5 px for cells 24 apart) can still pass for a board.
    covering = [g for g in found if _blank_area(g[0]) >= 0.9 * most and _tiles(top[0], g[0])]
    # a finer lattice is the cells only where their lines run inside the
    # coarser one's cells (see _lines_within)
    coarsest = max(covering, key=_pitch_of)[0]
    covering = [
        g
        for g in covering
        if g[0] is coarsest
        or _lines_within(
            ex,
            ey,
            coarsest,
            round(coarsest.pitch[0] / g[0].pitch[0]),
            round(coarsest.pitch[1] / g[0].pitch[1]),
        )
        >= _SPLIT_LINES
    ]
    finest = min(_pitch_of(g) for g in covering)
    # at the finest pitch, the board the lattice itself holds most of: lines
    # grown off it (_grow_uneven) from a sliver of the board carry its error
    best = min((g for g in covering if _pitch_of(g) <= 1.05 * finest), key=lambda g: g[0].grown)
    lat, others = best
    # a blank board of another pitch elsewhere in the picture is a second
    # board (two games side by side at different tile sizes); a strip of
    # half-cells beside the board or a toolbar of unlike buttons is not
    others += sum(1 for g in found if g is not best and _second_board(g[0], lat))
    if others == 0:
        others = _other_boards(rgb, ex, ey, lat)
    if others > 0:
        raise LatticeError(f"{others + 1} boards found: show only one board")
    return _trim_outside(rgb, lat)


def _about_square(px: float, py: float) -> bool:
    """Whether pitches px and py are a pair of about square cells (within 15%)."""
    return abs(px - py) <= (1 - 1 / _SQUARE) * max(px, py)


def _on_lines(ex: npt.NDArray[np.float32], ey: npt.NDArray[np.float32], lat: Lattice) -> float:
    """How strong the edges under a lattice's inner lines are, against the mean
    across its board (the weaker axis): on the cells' boundaries, every line is
    an edge; a pitch a little off drifts its lines onto the faces."""
    xs, ys = _lines(lat)
    x0, x1, y0, y1 = int(xs[0]), int(np.ceil(xs[-1])), int(ys[0]), int(np.ceil(ys[-1]))
    worst = np.inf
    for prof, lines, a, b in (
        (ex[max(0, y0) : y1].sum(axis=0), xs[1:-1], x0, x1),
        (ey[:, max(0, x0) : x1].sum(axis=1), ys[1:-1], y0, y1),
    ):
        inside = prof[max(0, a) : b]
        if len(lines) == 0 or len(inside) == 0 or float(inside.mean()) <= 0:
            return 0.0
        at = np.interp(np.array(lines), np.arange(len(prof), dtype=np.float64), prof)
        worst = min(worst, float(at.mean()) / float(inside.mean()))
    return float(worst)


def _oblong_pairs(
    cand_x: list[tuple[float, float]], cand_y: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    """Pitch pairs of cells wider than tall or taller than wide, strongest first.

    Most games draw square cells, and a lattice of one pitch on one axis and
    a multiple of it on the other holds a square board too (in blocks of
    cells), so these come last, and only from the two strongest pitches of
    each axis: a toolkit's stock buttons sized in characters and lines of
    text (Tk's width=4, height=2: 66 x 48 px) or a page's CSS make oblong
    cells.
    """
    out = [
        (px, py, sx * sy)
        for px, sx in cand_x[:2]
        for py, sy in cand_y[:2]
        if _SQUARE * min(px, py) < max(px, py) <= _OBLONG * min(px, py)
    ]
    out.sort(key=lambda t: -t[2])
    return [(px, py) for px, py, _ in out]


def _at_own_pitch(
    rgb: Image,
    ex: npt.NDArray[np.float32],
    ey: npt.NDArray[np.float32],
    got: tuple[Lattice, int],
    fine: tuple[Image, npt.NDArray[np.float32], npt.NDArray[np.float32]],
) -> tuple[Lattice, int]:
    """The board found again at the pitch measured on its own cells, if that finds more.

    The comb fit's pitch comes from the whole picture: off by 0.03 px, the
    cut drifts half a pixel over 16 cells and a row or column at the far
    end no longer looks alike (a Tk board of stock buttons lost its first
    row and column so). The pitch refined on the board's cells has no such
    error; a board it finds no bigger, or bigger only by cells unlike the
    rest (the picture around it), is kept as it was.
    """
    lat = got[0]
    again = _board_at(rgb, ex, ey, lat.pitch, fine)
    # as many cells, and fewer of them on lines grown off the lattice, is better too
    if (
        again is not None
        and (_cells_of(again), -again[0].grown) > (_cells_of(got), -lat.grown)
        and len(again[0].unlike) <= len(lat.unlike)
    ):
        return again
    return got


def _cells_of(got: tuple[Lattice, int]) -> int:
    """Cells of a found board that look blank."""
    lat = got[0]
    return lat.rows * lat.cols - len(lat.unlike)


def _repeat_pitches(
    rgb: Image, ex: npt.NDArray[np.float32], ey: npt.NDArray[np.float32]
) -> list[float]:
    """The whole-pixel lags at which the picture's edged pixels repeat exactly along
    both axes (every cell the same pixels), best first: up to _REPEAT_TRIES.

    Scored on every second row (x lags) and column (y lags): the share of
    edge strength on pixels equal to the pixel a lag on, times the same along
    y. A multiple of the pitch repeats too: the smallest lag near the best.
    Under a fractional scale the cells repeat only in part (28.75 px: 29, 29,
    28, 29) and smooth areas beside the board (a sky) score at short lags
    about as well: kmines' grass at 125% scored 0.140 at 29 px and 0.143 at 8
    px with its window on a dark screen. So the next peaks are tried too.
    """
    scored = _repeat_scores(rgb, ex, ey)
    if scored is None:
        return []
    lags, score = scored
    best = int(np.argmax(score))
    first = float(lags[best])
    for i in range(best + 1):
        ratio = lags[best] / lags[i]
        if score[i] >= 0.8 * score[best] and abs(ratio - round(ratio)) < 0.02:
            first = float(lags[i])
            break
    out = [first]
    # the other peaks (a lag scoring above both neighbours), best first
    peaks = [
        i
        for i in range(1, len(lags) - 1)
        if score[i] > score[i - 1] and score[i] >= score[i + 1] and score[i] > 0
    ]
    for i in sorted(peaks, key=lambda i: -score[i]):
        if len(out) >= _REPEAT_TRIES:
            break
        if float(lags[i]) not in out:
            out.append(float(lags[i]))
    return out


# Repeat lags tried in all (`_repeat_pitches`): each costs a pass of the board search.
_REPEAT_TRIES = 3
# `_local_repeat_pitches`: a lag is a board's when some square of the picture,
# LOCAL_SPAN lags wide (LOCAL_MIN px at least: a resize grip's dots repeat
# every few pixels over 20), with LOCAL_EDGES of its pixels on edges across
# each axis, repeats at it on LOCAL_SAME of them along both axes.
_LOCAL_SPAN = 3
_LOCAL_MIN = 48
_LOCAL_EDGES = 0.05
_LOCAL_SAME = 0.95


def _local_repeat_pitches(
    rgb: Image, ex: npt.NDArray[np.float32], ey: npt.NDArray[np.float32]
) -> list[float]:
    """Whole-pixel lags at which some part of the picture repeats exactly along both
    axes, best first, multiples of a lag kept out: up to _REPEAT_TRIES.

    `_repeat_pitches` scores the whole picture, and a small pale board in a
    window on a big screen is a few per cent of its edges: kmines' classic
    look at Qt's 150% (16.5 px cells, lines 15 levels off the face, exact
    every 33 px) scored 0.26 at 33 px against 0.29 at 8 px, where the
    toolbar's flat areas repeat, and no comb showed its pitch. Scored here
    square by square: in each, the share of the pixels on an edge across x
    (a change along x) equal to the pixel a lag along x, times the same
    along y. Edges along the lag's own axis are left out: a long line
    repeats along itself at any lag."""
    import cv2

    h, w = rgb.shape[:2]
    bx, by = ex[:h, :w] > 0, ey[:h, :w] > 0
    box = _edged_box(ex[:, :w] + ey[:h, :])
    if box is None:
        return []
    y0, y1, x0, x1 = box
    g = rgb[y0:y1, x0:x1, :3].astype(np.int16)
    fx = bx[y0:y1, x0:x1].astype(np.float32)
    fy = by[y0:y1, x0:x1].astype(np.float32)
    h, w = g.shape[:2]
    top = int(min(_MAX_PITCH, w / 3, h / 3))
    scored: list[tuple[float, int]] = []
    for d in range(int(_MIN_PITCH), top + 1):
        same_x = (np.abs(g[:, d:] - g[:, :-d]).sum(axis=2) <= 6)[: h - d]
        same_y = (np.abs(g[d:] - g[:-d]).sum(axis=2) <= 6)[:, : w - d]
        wx, wy = fx[: h - d, : w - d], fy[: h - d, : w - d]
        k = max(_LOCAL_SPAN * d, _LOCAL_MIN)
        nx, dx = cv2.blur(wx * same_x, (k, k)), cv2.blur(wx, (k, k))
        ny, dy = cv2.blur(wy * same_y, (k, k)), cv2.blur(wy, (k, k))
        ok = (dx >= _LOCAL_EDGES) & (dy >= _LOCAL_EDGES)
        if ok.any():
            scored.append((float((nx[ok] / dx[ok] * ny[ok] / dy[ok]).max()), d))
    out: list[float] = []
    for score, d in sorted(scored, key=lambda t: (-t[0], t[1])):
        if score < _LOCAL_SAME or len(out) >= _REPEAT_TRIES:
            break
        if all(d % round(a) for a in out):
            out.append(float(d))
    return out


def _edged_box(wt: npt.NDArray[np.float32]) -> tuple[int, int, int, int] | None:
    """(y0, y1, x0, x1) of the rows and columns with any edge (`wt`: edge strength
    at each pixel), or None: only there is anything to repeat (a grab of a whole
    screen is mostly an empty desktop)."""
    ys, xs = np.nonzero(wt.max(axis=1) > 0)[0], np.nonzero(wt.max(axis=0) > 0)[0]
    if len(ys) == 0:
        return None
    return int(ys[0]), int(ys[-1]) + 1, int(xs[0]), int(xs[-1]) + 1


def _repeat_scores(
    rgb: Image, ex: npt.NDArray[np.float32], ey: npt.NDArray[np.float32]
) -> tuple[npt.NDArray[np.int64], F] | None:
    """(lags, score per lag) for `_repeat_pitches`, or None with nothing to repeat."""
    h, w = rgb.shape[:2]
    wt = (ex[:, :w] + ey[:h, :]).astype(np.float32)
    box = _edged_box(wt)
    if box is None:
        return None
    y0, y1, x0, x1 = box
    g = rgb[y0:y1, x0:x1].astype(np.int16)
    wt = wt[y0:y1, x0:x1]
    h, w = g.shape[:2]
    top = int(min(_MAX_PITCH, w / 3, h / 3))
    if top <= _MIN_PITCH:
        return None
    rows, cols = g[::2], g[:, ::2]
    wr, wc = wt[::2], wt[:, ::2]
    lags = np.arange(int(_MIN_PITCH), top + 1)
    score = np.zeros(len(lags))
    for i, d in enumerate(lags):
        same_x = np.abs(rows[:, d:] - rows[:, :-d]).sum(axis=2) <= 6
        same_y = np.abs(cols[d:] - cols[:-d]).sum(axis=2) <= 6
        tx, ty = float(wr[:, :-d].sum()), float(wc[:-d].sum())
        if tx <= 0 or ty <= 0:
            return None
        score[i] = float((wr[:, :-d] * same_x).sum()) / tx * float((wc[:-d] * same_y).sum()) / ty
    return lags, score


def _edge_profiles(
    ex: npt.NDArray[np.float32], ey: npt.NDArray[np.float32], lat: Lattice
) -> tuple[tuple[npt.NDArray[np.float32], float, float, int], ...]:
    """Per axis (x, then y): the edge strength across the lattice's box summed
    along the other axis, with the axis' origin, pitch and number of cells."""
    (ox, oy), (px, py) = lat.origin, lat.pitch
    y0, y1 = max(int(oy), 0), min(int(oy + lat.rows * py), ex.shape[0])
    x0, x1 = max(int(ox), 0), min(int(ox + lat.cols * px), ex.shape[1])
    return (
        (ex[y0:y1].sum(axis=0), ox, px, lat.cols),
        (ey[:, x0:x1].sum(axis=1), oy, py, lat.rows),
    )


def _lines_within(
    ex: npt.NDArray[np.float32], ey: npt.NDArray[np.float32], coarse: Lattice, kx: int, ky: int
) -> float:
    """How strong the edges are where `coarse`'s cells would be split into kx by ky,
    as a share of those at its own lines (the weaker axis).

    Faces lit from above with no lines (our page's seed 1142 at 80%, a
    checkerboard) are a ramp top to bottom: cut in halves each way, every
    quarter is as alike the others as the cells are, and a board four times
    as fine passed for the cells. Cells that are blocks of finer ones have
    the finer ones' boundaries inside them (kmines' graveyard, tiles of a
    picture three cells wide; a zoomed-out page that dropped some lines
    keeps the others).
    """
    shares = []
    for k, (prof, o, p, n) in zip((kx, ky), _edge_profiles(ex, ey, coarse), strict=True):
        if k < 2:
            continue

        def at(u: float, prof: npt.NDArray[np.float32] = prof) -> float:
            lo, hi = max(round(u) - 1, 0), min(round(u) + 2, len(prof))
            return float(prof[lo:hi].max()) if hi > lo else 0.0

        own = [at(o + i * p) for i in range(1, n)]
        split = [at(o + (i + j / k) * p) for i in range(n) for j in range(1, k)]
        if not own or not split or max(own) <= 0:
            continue
        shares.append(float(np.mean(split)) / float(np.mean(own)))
    return min(shares, default=1.0)


def _tiles(coarse: Lattice, fine: Lattice) -> bool:
    """Whether along each axis one lattice's pitch is a whole number of the
    other's (to 5%)."""
    for a, b in zip(coarse.pitch, fine.pitch, strict=True):
        r = max(a, b) / min(a, b)
        if abs(r - round(r)) > 0.05 * round(r):
            return False
    return True


def _pitch_of(got: tuple[Lattice, int]) -> float:
    """How fine the lattice is (the side of a square cell of its cells' area)."""
    px, py = got[0].pitch
    return float(np.sqrt(px * py))


def _blank_area(lat: Lattice) -> float:
    """The area of the board's cells that look blank."""
    n = lat.rows * lat.cols
    return _area(lat) * (n - len(lat.unlike)) / n


def _area(lat: Lattice) -> float:
    x0, y0, x1, y1 = _box(lat)
    return (x1 - x0) * (y1 - y0)


def _box(lat: Lattice) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the board's cells."""
    xs, ys = _lines(lat)
    return xs[0], ys[0], xs[-1], ys[-1]


def _second_board(other: Lattice, lat: Lattice) -> bool:
    n = other.rows * other.cols
    ratio = max(other.pitch[0], lat.pitch[0]) / min(other.pitch[0], lat.pitch[0])
    return (
        min(other.rows, other.cols) >= 4
        and n >= max(16, lat.rows * lat.cols // 4)
        and len(other.unlike) <= 0.1 * n
        and abs(ratio - round(ratio)) > 0.05
        and _overlap(other, lat) < 0.1 * min(_area(other), _area(lat))
    )


def _overlap(a: Lattice, b: Lattice) -> float:
    """Area in pixels shared by the boxes of two boards."""
    return _box_overlap(_box(a), _box(b))


def _box_overlap(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float]
) -> float:
    """Area shared by two (left, top, right, bottom) boxes."""
    ov = 1.0
    for i in (0, 1):
        ov *= max(0.0, min(a[i + 2], b[i + 2]) - max(a[i], b[i]))
    return ov


def _other_boards(
    rgb: Image, ex: npt.NDArray[np.float32], ey: npt.NDArray[np.float32], lat: Lattice
) -> int:
    """1 if a second board of this pitch shows once the first is blanked out (at any phase)."""
    (px, py), (left, top, right, bottom) = lat.pitch, _box(lat)
    x0, y0 = max(0, int(left - px)), max(0, int(top - py))
    x1, y1 = int(right + px) + 1, int(bottom + py) + 1
    rest = rgb.copy()
    rest[y0:y1, x0:x1] = np.median(rgb[y0:y1, x0:x1].reshape(-1, 3), axis=0).astype(np.uint8)
    ex2, ey2 = ex.copy(), ey.copy()
    ex2[y0:y1, x0 : x1 + 1] = 0
    ey2[y0 : y1 + 1, x0:x1] = 0
    got = _board_at(rest, ex2, ey2, lat.pitch)
    if got is None:
        return 0
    second = got[0]
    # a picture behind the board (a smooth gradient, a fog) cut at the pitch
    # is alike cell to cell but has next to no edges: a board has about as
    # many as the first (kmines' backgrounds: 0.03 of the board's; a second
    # game window: 0.8-1.2)
    if _edge_density(ex, ey, second) < 0.25 * _edge_density(ex, ey, lat):
        return 0
    return int(second.rows * second.cols >= max(16, lat.rows * lat.cols // 4))


def _edge_density(ex: npt.NDArray[np.float32], ey: npt.NDArray[np.float32], lat: Lattice) -> float:
    """Mean edge strength over the board's box."""
    left, top, right, bottom = _box(lat)
    x0, y0 = max(0, int(left)), max(0, int(top))
    x1, y1 = int(right), int(bottom)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    return float(ex[y0:y1, x0:x1].mean() + ey[y0:y1, x0:x1].mean())


def cell_offset(tile: Image) -> tuple[float, float]:
    """Where find_lattice would put the centre of this tile's box, from the centre of the
    tile's own box, in pixels (x, y): zero when the tile was cut by the same origin rule.
    """
    rgb = as_rgb(tile, "tile")
    h, w = rgb.shape[:2]
    # five copies side by side give the middle ones their neighbours
    row = np.ascontiguousarray(np.tile(rgb, (1, 5, 1)))
    col = np.ascontiguousarray(np.tile(rgb, (5, 1, 1)))
    ex, _ = _edges(row)
    _, ey = _edges(col)
    cx, _px = _refine(ex, row.astype(np.float64).mean(axis=(0, 2)), w / 2, float(w), 5)
    cy, _py = _refine(ey.T, col.astype(np.float64).mean(axis=(1, 2)), h / 2, float(h), 5)
    return (cx - w / 2, cy - h / 2)


# A line laid out further than this from the best straight line through all
# of them is cut by its own edge (GTK at a fractional size: steps of 27 and
# 26 px); within it the one origin + k * pitch rule cuts every cell alike.
UNEVEN = 1.0
# The same for a board whose looks are learned (no built-in theme's tiles,
# fitted to a fraction of a pixel, to read it by): its cells are compared
# with each other, pixel for pixel. Cells rounded to whole pixels at a
# fractional pitch put no line further than half a pixel off the straight
# line; a toolkit's second step puts one a whole pixel off where it starts,
# which the line's fit halves at worst (GTK's last two rows a pixel short:
# 0.76 px; cut evenly, each of those cells takes in a pixel of its
# neighbour, and sharp dark gaps then read as a look half drawn).
FINE_UNEVEN = 0.5


def measure_lines(image: Image, grid: Grid, tolerance: float = UNEVEN) -> Grid:
    """The grid with each column's and row's own edges where the lines are laid unevenly.

    Every boundary between two cells is found near where the grid puts it
    (within a quarter pitch) by aligning its edge profile to the board's
    mean boundary profile, three times over as the mean sharpens; the
    boundary itself is then placed by the one origin rule on that sharp
    mean (the strongest repeating edge, or the middle of a gap or line).
    An axis whose measured lines all sit within `tolerance` (pixels) of one
    straight line keeps the grid's origin and pitch unchanged.
    """
    rgb = as_rgb(image)
    ex, ey = _edges(rgb)
    left, top, width, height = grid.rect()
    h, w = rgb.shape[:2]
    x0, x1 = max(0, left), min(w, left + width)
    y0, y1 = max(0, top), min(h, top + height)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return grid
    src, smooth = rgb, _undither(rgb)
    raw = float(ex[y0:y1, x0:x1].sum() + ey[y0:y1, x0:x1].sum())
    sx, sy = _edges(smooth)
    if float(sx[y0:y1, x0:x1].sum() + sy[y0:y1, x0:x1].sum()) < _DITHERED * raw:
        # a stippled face: its own pixel edges would drown the cells'
        ex, ey, src = sx, sy, smooth
    grey = src.astype(np.float64).mean(axis=2)
    xs, ys = grid.edges()
    col_prof = ex[y0:y1].sum(axis=0).astype(np.float64)
    row_prof = ey[:, x0:x1].sum(axis=1).astype(np.float64)
    # Cells with no boundary of their own (a seamless texture: kmines' grass)
    # have no lines to measure: aligned to each other, the texture's own edges
    # pull them off the frame's phase (at Qt's 125%, 6 px).
    mx = (
        None
        if _seamless(col_prof, grid.origin[0], grid.pitch[0], grid.cols)
        else _line_edges(col_prof, grey[y0:y1].mean(axis=0), xs, grid.pitch[0], tolerance)
    )
    my = (
        None
        if _seamless(row_prof, grid.origin[1], grid.pitch[1], grid.rows)
        else _line_edges(row_prof, grey[:, x0:x1].mean(axis=1), ys, grid.pitch[1], tolerance)
    )
    if mx is None and my is None:
        return grid
    if mx is None:
        mx = xs if grid.xs is not None else None
    if my is None:
        my = ys if grid.ys is not None else None
    ox, px = line_of(mx) if mx is not None else (grid.origin[0], grid.pitch[0])
    oy, py = line_of(my) if my is not None else (grid.origin[1], grid.pitch[1])
    return Grid(
        origin=(ox, oy),
        pitch=(px, py),
        rows=grid.rows,
        cols=grid.cols,
        xs=mx,
        ys=my,
    )


def _line_edges(
    prof_in: npt.NDArray[np.float32],
    level: F,
    edges: tuple[float, ...],
    p: float,
    tolerance: float = UNEVEN,
) -> tuple[float, ...] | None:
    """Measured box edges along one axis, or None when the lines are even (see measure_lines).

    prof_in[j]: edge strength between pixels j-1 and j; level[i]: grey of pixel i.
    """
    prof = np.asarray(prof_in, np.float64)
    n = len(edges) - 1
    if n < 3 or prof.sum() <= 0:
        return None
    pos = np.arange(len(prof), dtype=np.float64)
    step = 0.25
    u = np.arange(-p / 2, p / 2, step)
    reach = p / 4
    shifts = np.arange(-reach, reach + 1e-9, step)
    pred = np.asarray(edges, np.float64)
    at = pred.copy()
    inner = np.arange(1, n)
    best = np.zeros(n + 1)
    for _ in range(3):
        tmpl = np.mean([np.interp(at[k] + u, pos, prof, 0.0, 0.0) for k in inner], axis=0)
        if float(tmpl.max()) <= 0:
            return None
        for k in inner:
            sc = np.array(
                [float(np.dot(np.interp(at[k] + u + d, pos, prof, 0.0, 0.0), tmpl)) for d in shifts]
            )
            ok = np.abs(at[k] + shifts - pred[k]) <= reach
            if not ok.any():
                continue
            sc[~ok] = -np.inf
            i = int(np.argmax(sc))
            best[k] = sc[i] if np.isfinite(sc[i]) else 0.0
            if not np.isfinite(sc[i]) or sc[i] <= 0:
                continue
            d = float(shifts[i])
            if 0 < i < len(shifts) - 1 and np.isfinite(sc[i - 1]) and np.isfinite(sc[i + 1]):
                a, b, c = sc[i - 1], sc[i], sc[i + 1]
                den = a - 2 * b + c
                if den < 0:
                    d += step * 0.5 * (a - c) / den
            at[k] += d
    # A line a zoomed-out browser dropped (Chromium draws a 0.8 px line on one
    # pixel or none) has no edge of its own: the search took whatever lay
    # near. It sits where the measured lines beside it put it.
    drawn = best[inner] >= _NO_LINE * float(np.median(best[inner]))
    if int(drawn.sum()) < 2:
        drawn[:] = True  # too few lines to place the rest by
    elif not drawn.all():
        off = at[inner][drawn] - pred[inner][drawn]
        at[inner[~drawn]] = pred[inner[~drawn]] + np.interp(inner[~drawn], inner[drawn], off)
    tmpl = np.mean([np.interp(at[k] + u, pos, prof, 0.0, 0.0) for k in inner[drawn]], axis=0)
    lpos = np.arange(len(level), dtype=np.float64) + 0.5

    def grey_at(offsets: F) -> F:
        return np.asarray(
            np.mean([np.interp(at[k] + offsets, lpos, level) for k in inner[drawn]], axis=0),
            np.float64,
        )

    at += _snap(tmpl, u, p, grey_at)
    ks = inner[drawn].astype(np.float64)
    am = np.stack([np.ones(len(ks)), ks], axis=1)
    (f0, fp), *_ = np.linalg.lstsq(am, at[inner[drawn]], rcond=None)
    if float(np.max(np.abs(at[inner[drawn]] - (f0 + fp * ks)))) <= tolerance:
        return None
    # the board's first and last edges have no neighbour beyond the frame
    # (whose own lines would pull them): each takes the step next to it when
    # the two steps there agree, as a toolkit lays its wider cells side by
    # side (GTK: 37, 37, ..., 36); where they do not, the lines were rounded
    # one by one to whole pixels (a browser's 26.1 px cells: 27, 26, 26, 27)
    # and the mean pitch is the better guess (the step beside the first edge,
    # 27, put it a pixel and a half before the board)
    at[0] = at[1] - _edge_step(at[2] - at[1], at[3] - at[2], float(fp))
    at[n] = at[n - 1] + _edge_step(at[n - 1] - at[n - 2], at[n - 2] - at[n - 3], float(fp))
    return tuple(float(v) for v in at)


def _edge_step(step: float, next_step: float, pitch: float) -> float:
    """The step to an outer edge from the two steps beside it and the mean pitch."""
    return float(step) if abs(step - next_step) <= 0.25 else pitch


# A line whose best match to the mean boundary scores under this share of the
# median line's has no edge of its own (random look 30 at 80%: a dropped
# line's step 0.2 levels among 45).
_NO_LINE = 0.2


def _snap(tmpl: F, u: F, p: float, grey_at: Callable[[F], F]) -> float:
    """Where the boundary sits in a boundary-centred mean edge profile: the origin rule
    of _boundary_shift (the strongest edge; the middle of a gap or line between cells)."""
    step = float(u[1] - u[0])
    m = len(tmpl)
    near = np.abs(u) <= p / 3

    def strength(i: int) -> float:
        hw = round(0.75 / step)
        return float(tmpl[max(0, i - hw) : i + hw + 1].sum())

    def centroid(i: int) -> float:
        hw = round(1.0 / step)
        idx = np.arange(max(0, i - hw), min(m, i + hw + 1))
        vals = tmpl[idx]
        tot = float(vals.sum())
        return float(u[i] + (step * float((vals * (idx - i)).sum()) / tot if tot > 0 else 0.0))

    hw = round(1.0 / step)
    peaks = [
        i
        for i in range(m)
        if near[i] and tmpl[i] > 0 and tmpl[i] >= tmpl[max(0, i - hw) : i + hw + 1].max()
    ]
    if not peaks:
        return 0.0
    i1 = max(peaks, key=strength)
    b = centroid(i1)
    rivals = [i for i in peaks if 1.5 < abs(u[i] - u[i1]) <= p / 4]
    if rivals:
        i2 = max(rivals, key=strength)
        if strength(i2) >= 0.8 * strength(i1):
            mid = (b + centroid(i2)) / 2
            t = np.arange(0.5, abs(centroid(i2) - b) / 2 + 2.0, 0.5)
            g = grey_at(np.concatenate([mid - t, mid + t]))
            diff = float(np.mean(np.abs(g[: len(t)] - g[len(t) :])))
            if diff <= 0.35 * max(float(np.ptp(g)), 1e-6):
                b = mid
    return b


# A line laid off the even lattice by up to this share of the pitch is looked
# for beyond the board (GTK at 1300x750: a 30-column board laid as 10 columns
# of 37 px and 20 of 36, the lattice at 36 px drifting 10 px off the first).
_GROW_REACH = 0.15
# A row or column beyond the board is the board's when this share of its cells
# look like the board's blank cells (a header or a toolbar has fewer).
_GROW_UNEVEN = 0.8
# The board's blank cell is learned from at most this many of its cells.
_GROW_SAMPLE = 64
# A cell beyond the board is compared with at most this many of its line's.
_GROW_LINE = 16


def _grow_uneven(
    rgb: Image, ex: npt.NDArray[np.float32], ey: npt.NDArray[np.float32], lat: Lattice
) -> Lattice:
    """The board grown by every row or column of blank cells just beyond it on its own line.

    A toolkit that rounds each cell to whole pixels lays a board out in
    steps of two sizes: the lattice of one pitch then holds only the part
    laid at that step, and the rows and columns beyond it drift off it by a
    pixel more each. Beside each side of the board the next line is looked
    for within _GROW_REACH of a pitch of where the outer cell's own size
    puts it, where the edges across the board's lines line up with theirs;
    the row or column is the board's when nearly all of it is alike the
    board's blank cells of its own line across (see alike below) in shape
    (correlation, contrast) and colour. Cells are compared whole (a flat
    face's only marks are its bevel and the gap to the next cell) but for
    the side facing away from the board, where a frame may show. The
    lattice comes back as it was when nothing grows, else with the new
    cells that are not alike among `unlike` and every line's own edge (xs,
    ys), the outermost of each side placed by its neighbour's step; or with
    none when every line lies on the even lattice.
    """
    import cv2

    xs, ys = (list(e) for e in _lines(lat))
    given = (xs[0], xs[-1]), (ys[0], ys[-1])
    k = max(1, round(min(lat.pitch) / _N))
    src = cv2.blur(rgb, (k, k)) if k > 1 else rgb
    ring = _N // 8
    keep = {
        "top": (slice(ring, _N), slice(0, _N)),
        "bottom": (slice(0, _N - ring), slice(0, _N)),
        "left": (slice(0, _N), slice(ring, _N)),
        "right": (slice(0, _N), slice(0, _N - ring)),
        "whole": (slice(0, _N), slice(0, _N)),
    }

    def cells(boxes: list[tuple[float, float, float, float]], side: str) -> npt.NDArray[np.float32]:
        out = []
        for x0, x1, y0, y1 in boxes:
            scale = _N / (x1 - x0), _N / (y1 - y0)
            img = resampled(src, (x0, y0), scale, (_N, _N), replicate=False)
            out.append(img[keep[side]].reshape(-1, 3))
        return np.stack(out)

    skip = set(lat.unlike)
    blank = [
        (xs[c], xs[c + 1], ys[r], ys[r + 1])
        for r in range(lat.rows)
        for c in range(lat.cols)
        if (r, c) not in skip
    ]
    if len(blank) < _MIN_CELLS:
        return lat
    blank = blank[:: max(1, len(blank) // _GROW_SAMPLE)]
    # per side: the sampled board cells and their median colour
    refs: dict[str, tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]] = {}
    for side in keep:
        px = cells(blank, side)
        if not _alike_to(
            px.reshape(1, len(px), -1), np.ones((1, len(px)), bool), flat_ok=False
        ).any():
            return lat  # flat cells: no shape to align a shifted line on
        refs[side] = (px, np.median(px.mean(axis=1), axis=0))

    line_refs: dict[tuple[str, tuple[tuple[float, float, float, float], ...]], _Twins] = {}
    # each board cell's shape, once a side: the lines it stands in are asked
    # again with other samples as the board grows
    shapes: dict[
        tuple[str, tuple[float, float, float, float]],
        tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]],
    ] = {}

    def line_ref(side: str, boxes: tuple[tuple[float, float, float, float], ...]) -> _Twins:
        todo = [b for b in boxes if (side, b) not in shapes]
        if todo:
            zero, norm = _zero_mean(cells(todo, side))
            for j, b in enumerate(todo):
                shapes[side, b] = (zero[j], norm[j])
        got = [shapes[side, b] for b in boxes]
        return _Twins.of(np.stack([z for z, _ in got]), np.array([v for _, v in got]))

    def alike(
        boxes: list[tuple[float, float, float, float]], side: str, along_x: bool
    ) -> npt.NDArray[np.bool_]:
        """Which cells of a strip look like the board's blank cells, in shape and in colour.

        Each cell is compared with the blank cells of its own line across the
        board (its column for a row beyond the board): a toolkit that lays
        cells of two widths, or gaps of one and two pixels, makes cells of
        two kinds on each axis, and the median of them all is one kind on
        both, which a cell of the other kind on both meets at 0.78 (kmines'
        30x16 at Qt's 125%, every second cell of its last row). A line holds
        cells of the strip's kind across it and of both kinds along it, and
        the cells beside a frame see that frame as the strip's cell does.
        """
        board, colour = refs[side]
        px = cells(boxes, side)
        zero, norm = _zero_mean(px)
        shape = np.zeros(len(px), bool)
        for i in range(len(px)):
            # a column beyond the board holds rows (along_x): row i is its line across
            line = (
                [(i, c) for c in range(len(xs) - 1)]
                if along_x
                else [(r, i) for r in range(len(ys) - 1)]
            )
            mine = [(xs[c], xs[c + 1], ys[r], ys[r + 1]) for r, c in line if (r, c) not in unlike]
            if len(mine) < 3:
                key: tuple[str, tuple[tuple[float, float, float, float], ...]] = (side, ())
                if key not in line_refs:
                    line_refs[key] = _Twins.of(*_zero_mean(board))
            else:
                # a side that did not grow is asked again of the same lines
                key = (side, tuple(mine[:: -(-len(mine) // _GROW_LINE)]))
                if key not in line_refs:
                    line_refs[key] = line_ref(side, key[1])
            ref = line_refs[key]
            if not ref.flat:
                shape[i] = ref.alike(zero[i : i + 1], norm[i : i + 1], _NCC_ALIKE)[0]
        same = np.abs(px.mean(axis=1) - colour).max(axis=1) <= 24
        out: npt.NDArray[np.bool_] = shape & same
        return out

    profiles: dict[tuple[bool, int, int], F] = {}

    def next_line(edges: list[float], at_start: bool, along_x: bool) -> float | None:
        """Where the strip beyond one end ends: the outer cell's size give or take
        _GROW_REACH, at the shift where the edges across the board's lines line up
        with theirs (a cell's edges, not what it looks like inside)."""
        # the edges summed across the board: the same until the board grows across
        span = ys if along_x else xs
        key = (along_x, max(0, int(span[0])), int(np.ceil(span[-1])))
        if key not in profiles:
            a, b = key[1:]
            e = ex[a:b].sum(axis=0) if along_x else ey[:, a:b].sum(axis=1)
            profiles[key] = np.asarray(e, np.float64)
        prof = profiles[key]
        step = edges[1] - edges[0] if at_start else edges[-1] - edges[-2]
        pitch = (edges[-1] - edges[0]) / (len(edges) - 1)
        pos = np.arange(len(prof), dtype=np.float64)
        u = np.arange(-pitch / 2, pitch / 2, 0.25)
        inner = edges[1:-1] if len(edges) > 2 else edges
        tmpl = np.mean([np.interp(e + u, pos, prof, 0.0, 0.0) for e in inner], axis=0)
        if float(tmpl.max()) < _WEAK_FOLD * max(float(tmpl.mean()), 1e-9):
            return None  # cells with no edge of their own (a seamless texture): no line to find
        reach = max(1.0, _GROW_REACH * step)
        # A board flush with the picture's edge (a window in the screen's
        # corner, a screenshot cut to the board) may have its outer line just
        # past it: the strip then ends at the edge, not on some edge within it.
        end = float(len(prof) - 1)
        expect = edges[0] - step if at_start else edges[-1] + step
        if -reach <= expect < 0 or end < expect <= end + reach:
            return min(max(expect, 0.0), end)
        d = np.arange(-reach, reach + 1e-9, 0.25)
        far = edges[0] - step - d if at_start else edges[-1] + step + d
        far = far[(far >= 0) & (far <= len(prof) - 1)]
        if len(far) == 0:
            return None
        sc = np.interp(far[:, None] + u[None, :], pos, prof, 0.0, 0.0) @ tmpl
        i = int(np.argmax(sc))
        return None if sc[i] <= 0 else float(far[i])

    def strip(
        edges: list[float], far: float, at_start: bool, along_x: bool
    ) -> list[tuple[float, float, float, float]]:
        """The boxes of the strip between the outer line of `edges` and `far`."""
        lo, hi = (far, edges[0]) if at_start else (edges[-1], far)
        if along_x:
            return [(lo, hi, ys[r], ys[r + 1]) for r in range(len(ys) - 1)]
        return [(xs[c], xs[c + 1], lo, hi) for c in range(len(xs) - 1)]

    unlike = set(lat.unlike)
    grown = False
    changed = True
    retried: set[tuple[str, float]] = set()
    while changed:
        changed = False
        for side in ("top", "bottom", "left", "right"):
            along_x = side in ("left", "right")
            at_start = side in ("top", "left")
            edges = xs if along_x else ys
            far = next_line(edges, at_start, along_x)
            if far is None:
                continue
            ok = alike(strip(edges, far, at_start, along_x), side, along_x)
            end = 0 if at_start else -1
            if ok.mean() < _GROW_UNEVEN and len(edges) >= 3 and (side, edges[end]) not in retried:
                # The outer line may itself have drifted: a lattice at the
                # pitch of most cells reaches a few cells into a part laid at
                # the other step (gnome-mines at 829 px: 20 columns 21 px
                # apart, then 10 at 20), its last line 2.5 px past their gap,
                # and the strip beyond it, cut from there, is unlike by that
                # much. That line found again from its neighbour, the strip
                # is asked once more (once a side and outer line: a side that
                # ends there fails again each time another side grows).
                retried.add((side, edges[end]))
                rest = edges[1:] if at_start else edges[:-1]
                moved = next_line(rest, at_start, along_x)
                if moved is not None and abs(moved - edges[end]) > 0.5:
                    trial = [moved, *rest] if at_start else [*rest, moved]
                    far2 = next_line(trial, at_start, along_x)
                    if far2 is not None:
                        ok2 = alike(strip(trial, far2, at_start, along_x), side, along_x)
                        if ok2.mean() >= _GROW_UNEVEN:
                            edges[end], far, ok = moved, far2, ok2
            if ok.mean() < _GROW_UNEVEN:
                continue
            # the new strip's index: 0 at the start (every cell after it moves on one)
            at = 0 if at_start else len(edges) - 1
            if at_start:
                edges.insert(0, far)
                unlike = {(r + (not along_x), c + along_x) for r, c in unlike}
            else:
                edges.append(far)
            unlike |= {(i, at) if along_x else (at, i) for i in np.nonzero(~ok)[0].tolist()}
            grown = changed = True
    if not grown:
        return lat
    # The last line grown on a side has the board's frame beyond it, not a
    # cell: the frame's strong edges (a dark band a few pixels from the gap)
    # outscore the gap's own and pull the line onto them (a first column 26.3
    # px wide among 24.5, GTK's 23 among 27). It takes the step next to it, as
    # measure_lines places the board's outer edges; a strip cut at the
    # picture's edge (a board flush with it) stays cut there. A line so
    # placed repeats its neighbour's step and says nothing of the pitch.
    h, w = rgb.shape[:2]
    steps: list[float] = []
    for edges, (first, last), end in ((xs, given[0], w), (ys, given[1], h)):
        lo, hi = 0, len(edges)
        if len(edges) >= 3 and edges[0] != first and edges[0] > 0:
            edges[0] = edges[1] - (edges[2] - edges[1])
            lo = 1
        if len(edges) >= 3 and edges[-1] != last and edges[-1] < end:
            edges[-1] = edges[-2] + (edges[-2] - edges[-3])
            hi -= 1
        steps.append(line_of(tuple(edges[lo:hi] if hi - lo >= 2 else edges))[1])
    step_x, step_y = steps
    grown_by = len(xs) + len(ys) - lat.cols - lat.rows - 2
    if unlike:
        # A strip joins the board by its cells' whole look; blank or not is
        # then judged as `_cut` judges it, inside the outer ring. A line a
        # zoomed-out browser dropped beside a cell (Chromium at 90%) leaves
        # its ring unlike its line's and its inside blank.
        rows_, cols_ = len(ys) - 1, len(xs) - 1
        boxes = [(xs[c], xs[c + 1], ys[r], ys[r + 1]) for r in range(rows_) for c in range(cols_)]
        inside = _inner(cells(boxes, "whole").reshape(rows_, cols_, -1))
        blank_ = np.ones((rows_, cols_), bool)
        for r, c in unlike:
            blank_[r, c] = False
        alike_ = _alike_to(inside, blank_)
        off = _colour_outliers(inside, (0, 0, rows_, cols_), alike_)
        unlike = {(r, c) for r, c in unlike if not alike_[r, c] or off[r, c]}
    # Lines grown where the even lattice puts them (a frame beside the board
    # hid the outer cells from the lattice's blocks) make a bigger even board:
    # cut by each line's own edge instead, a board of a fractional pitch
    # would be cut onto whole pixels (Grid.restitched) in cells of two kinds.
    even = all(
        float(np.max(np.abs(np.asarray(e) - (e[0] + st * np.arange(len(e)))))) <= UNEVEN
        for e, st in ((xs, step_x), (ys, step_y))
    )
    return Lattice(
        origin=(xs[0], ys[0]),
        pitch=(step_x, step_y),
        rows=len(ys) - 1,
        cols=len(xs) - 1,
        unlike=tuple(sorted(unlike)),
        similarity=lat.similarity,
        xs=None if even else tuple(xs),
        ys=None if even else tuple(ys),
        grown=grown_by,
    )


def _lines(lat: Lattice) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Every line of the board (cols + 1 along x, rows + 1 along y)."""
    xs = lat.xs or tuple(lat.origin[0] + k * lat.pitch[0] for k in range(lat.cols + 1))
    ys = lat.ys or tuple(lat.origin[1] + k * lat.pitch[1] for k in range(lat.rows + 1))
    return xs, ys
