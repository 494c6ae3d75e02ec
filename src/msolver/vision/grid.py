"""Finding the board: origin, pitch, rows and columns, from the pixels alone.

A Minesweeper board is a lattice of identical tiles. Every unopened tile has
a flat face (one colour, inside its bevel or gap), so the faces show up as
many flat connected regions of the same size whose centres sit on a regular
lattice. We find those regions, take the most common face size, fit the
lattice (pitch and phase, least squares over all faces, so a non-integer
pitch at 125% or 150% display scale comes out right), and take the board as
the largest block of lattice points holding a cell-like flat region. No
offsets are assumed; the image can be a whole multi-monitor desktop.

Refusals carry a reason: no lattice of tiles at all, or two separate boards.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from msolver.core.board import FLAG, UNKNOWN
from msolver.core.game import LEVELS
from msolver.vision.geometry import Grid, GridError
from msolver.vision.image import Image, ImageError, as_rgb
from msolver.vision.image import px as whole_px
from msolver.vision.lattice import (
    FINE_UNEVEN,
    UNEVEN,
    Lattice,
    LatticeError,
    find_lattice,
    measure_lines,
)
from msolver.vision.profile import (
    BUILTIN_NAMES,
    Profile,
    ProfileError,
    grid_patches,
    load_profile,
)

# Faces of a tile between these many pixels across (16 px tiles at 50% up to
# 48 px tiles at 250%).
_MIN_FACE = 5
_MAX_FACE = 160
_MIN_FACES = 12  # fewer equal faces than this is not a board
_MAX_SPAN = 4  # cells one flat face may cover along an axis (see _face_grid)
_MAX_RUN = 12  # cells a face one cell wide may cover along the other (see _face_grid)
_FLAT_TOL = 6  # summed |RGB difference| between neighbours still counted as flat
_FACE_BLURS = (3, 5)  # box blurs (px) tried when no face is flat as drawn (see _face_grid)
# A known theme is taken when its tiles explain the board this well (mean
# feature distance of a cell to its nearest tile; see classify) and read
# this share of cells with confidence; else the board is a new theme.
_THEME_FIT = 0.004
_THEME_READABLE = 0.98
# The screen's unopened tile against a theme's at the same size (see
# _tile_distances; resampling at 125-200% costs a few levels): the mean level
# of each channel, the bevel profile, the median pixel of an 8x8 view.
_TILE_COLOUR = 6.0
_TILE_EDGES = 6.0
_TILE_MATCH = 6.0
# the named theme's score (worst view over its bound) is this many times
# better than the nearest tile of any other theme
_TILE_MARGIN = 2.0


class CalibrationError(ValueError):
    """No board, or an ambiguous one, in the image; one-line message with the reason."""


def _flat_components(rgb: Image) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float64]]:
    import cv2

    img = rgb.astype(np.int16)
    dx = np.abs(np.diff(img, axis=1)).sum(axis=2)
    dy = np.abs(np.diff(img, axis=0)).sum(axis=2)
    flat = np.zeros(rgb.shape[:2], dtype=np.uint8)
    flat[:-1, :-1] = (dx[:-1, :] <= _FLAT_TOL) & (dy[:, :-1] <= _FLAT_TOL)
    _n, _labels, stats, centroids = cv2.connectedComponentsWithStats(flat, connectivity=4)
    return stats.astype(np.int32), centroids.astype(np.float64)


def _one_cell_lattice(
    centres: npt.NDArray[np.float64], size: float, pitch: float, other: float
) -> tuple[float, float] | None:
    """(phase, pitch) of faces at `centres` refitted at one cell of the other
    axis's pitch, when their lattice spans two to four of those cells and
    every line of faces sits on that finer lattice; else None."""
    if round(pitch / other) < 2 or size > other:
        return None
    pos = np.sort(centres)
    splits = np.nonzero(np.diff(pos) > size / 2)[0] + 1
    lines = np.array([g.mean() for g in np.split(pos, splits)])
    k = np.round((lines - lines[0]) / other)
    if len(lines) < 2 or np.abs(lines - lines[0] - k * other).max() > 0.25 * other:
        return None
    slope, phase = np.polyfit(k, lines, 1)
    if abs(slope - other) > 0.05 * other:
        return None
    return float(phase), float(slope)


def _lattice_1d(centres: npt.NDArray[np.float64], size: float) -> tuple[float, float] | None:
    """(phase, pitch) of positions that sit on a regular 1-D lattice, or None."""
    pos = np.sort(centres)
    # cluster positions closer than half a face: one lattice line each
    splits = np.nonzero(np.diff(pos) > size / 2)[0] + 1
    lines = np.array([g.mean() for g in np.split(pos, splits)])
    if len(lines) < 2:
        return None
    diffs = np.diff(lines)
    base = float(np.min(diffs))
    near = diffs[diffs < base * 1.5]
    pitch = float(np.median(near))
    if pitch < size:
        return None
    phase = float(lines[0])
    # refine from near to far: a fractional pitch (display scaling) drifts by
    # a pixel every few cells, so fit on the lines already well explained
    for span in (4, 8, 16, 10**9):
        k = np.round((lines - phase) / pitch)
        use = k <= k.min() + span
        if use.sum() >= 2 and len(np.unique(k[use])) >= 2:
            a = np.vstack([np.ones(int(use.sum())), k[use]]).T
            (phase, pitch), *_ = np.linalg.lstsq(a, lines[use], rcond=None)
            phase, pitch = float(phase), float(pitch)
    k = np.round((lines - phase) / pitch)
    if np.max(np.abs(lines - phase - k * pitch)) > 0.25 * pitch:
        return None
    return phase, pitch


def find_grid(image: Image) -> Grid:
    """Locate the one board in `image` (RGB or BGRA, see vision.image); CalibrationError if not."""
    try:
        rgb = as_rgb(image)
    except ImageError as exc:
        raise CalibrationError(str(exc)) from exc
    try:
        lat = _find_lattice(rgb)
    except CalibrationError:
        # a game under way (few blank cells left): the flat faces may still show it
        return _uneven(rgb, _face_grid(rgb))
    return _uneven(rgb, _lattice_grid(lat))


def _blocks_of(blocks: Grid, cells: Grid) -> bool:
    """Whether each cell of `blocks` is a whole block of `cells` (2 to 4 a side),
    the blocks on the cells' lines to within a quarter of a cell (a two-colour
    checkerboard holds blocks at either phase, and a block board may take in
    a strip beside the board; lines a zoomed-out browser drops in every few
    cells repeat every 3 or 4)."""
    for axis in (0, 1):
        k = blocks.pitch[axis] / cells.pitch[axis]
        if not 1 <= round(k) <= 4 or abs(k - round(k)) > 0.03:
            return False
        shift = (blocks.origin[axis] - cells.origin[axis]) / cells.pitch[axis]
        if abs(shift - round(shift)) > 0.25:
            return False

    # one cell to a block on both axes is the same board, not blocks
    return blocks.pitch[0] * blocks.pitch[1] > 1.5 * cells.pitch[0] * cells.pitch[1]


def _lattice_grid(lat: Lattice) -> Grid:
    """The lattice's board, with the lines a toolkit laid off the even lattice where it has them."""
    return Grid(
        origin=lat.origin, pitch=lat.pitch, rows=lat.rows, cols=lat.cols, xs=lat.xs, ys=lat.ys
    )


def _uneven(rgb: Image, grid: Grid, tolerance: float = UNEVEN) -> Grid:
    """The grid with each line's own edges where a toolkit laid its lines out unevenly
    (further than `tolerance` pixels off the even lattice)."""
    try:
        return measure_lines(rgb, grid, tolerance)
    except GridError:
        return grid  # measured lines that are no board's: the even lattice stands


def _within(grid: Grid) -> Grid:
    """The grid with a first line just before the picture's edge moved onto it.

    A board flush with the picture's top or left edge (a window in the
    screen's corner, a screenshot cut to the board) puts its first cells'
    boundary (the middle of the gap before them, see vision.lattice) up to a
    few pixels before it, where there are no pixels to grab: play would stop
    at once. Those cells are cut from the edge instead, as the grown strips
    of `lattice._grow_uneven` are. (A last line past the far edge stays: a
    cell is cut one pitch from its own first line, so moving that line would
    not bring the cut back in.) A line further out than _OUTSIDE of a pitch
    is left for the checks that refuse a board not wholly shown.
    """
    xs, ys = (list(e) for e in grid.edges())
    moved = False
    for edges, pitch in ((xs, grid.pitch[0]), (ys, grid.pitch[1])):
        if -_OUTSIDE * pitch <= edges[0] < 0:
            edges[0], moved = 0.0, True
    return Grid.from_edges(tuple(xs), tuple(ys)) if moved else grid


# how far before the picture's edge (a share of the pitch) a first line may be
# moved onto it
_OUTSIDE = 0.15


def _find_lattice(image: Image) -> Lattice:
    # the board from its cells' periodic structure: see vision.lattice
    try:
        return find_lattice(image)
    except (LatticeError, ImageError) as exc:
        raise CalibrationError(str(exc)) from exc


def _face_grid(image: Image, textured: bool = False) -> Grid:
    """The board from its flat tile faces (the finder before vision.lattice).

    Kept as a second starting geometry for fitting a built-in theme: its box
    edges are where the built-in tiles were recorded. With `textured`, faces
    flat only once blurred count too (see below).
    """
    import cv2

    rgb = as_rgb(image)
    try:
        return _faces_of(rgb)
    except CalibrationError as plain:
        if not textured:
            raise
        # Faces with a faint texture of their own (hatching a few levels
        # deep) are flat nowhere, pixel to pixel. Where a zoomed-out browser
        # drops some of the 1 px lines between them, no lattice of alike
        # cells holds either: a cell with its line and one without differ
        # in their rims. Blurred over a few pixels the texture goes and the
        # lines stay, and the faces are flat again (our page's seeds 2378
        # and 2382 at 75%). A blur shrinks each face evenly on both
        # sides, so their centres and pitch stay where they were. Asked only
        # when no lattice holds a board: a blurred look found beside one
        # (a board found a cell short of its edge) took the lattice's place
        # and its reason for refusal. The plain picture's reason is the one
        # given when neither finds a board.
        for k in _FACE_BLURS:
            try:
                return _faces_of(np.asarray(cv2.blur(rgb, (k, k)), dtype=np.uint8))
            except CalibrationError:
                continue
        raise plain


def _faces_of(rgb: Image) -> Grid:
    import cv2

    stats, _centroids = _flat_components(rgb)
    x, y, w, h, area = (stats[1:, i] for i in range(5))
    cx, cy = x + w / 2.0, y + h / 2.0
    squareish = (
        (w >= _MIN_FACE)
        & (h >= _MIN_FACE)
        & (w <= _MAX_FACE)
        & (h <= _MAX_FACE)
        & (area >= 0.6 * w * h)
        & (w <= 1.35 * h)
        & (h <= 1.35 * w)
    )
    idx = np.nonzero(squareish)[0]
    if len(idx) < _MIN_FACES:
        raise CalibrationError("no board found: no lattice of equal tiles in the image")
    # the most common face size, +-1 px (scaled tiles vary by a pixel)
    sizes = np.stack([w[idx], h[idx]], axis=1)
    uniq, counts = np.unique(sizes, axis=0, return_counts=True)
    near_counts = [
        int(counts[(np.abs(uniq[:, 0] - u[0]) <= 1) & (np.abs(uniq[:, 1] - u[1]) <= 1)].sum())
        for u in uniq
    ]
    best = uniq[int(np.argmax(near_counts))]
    face = idx[(np.abs(w[idx] - best[0]) <= 1) & (np.abs(h[idx] - best[1]) <= 1)]
    if len(face) < _MIN_FACES:
        raise CalibrationError(
            f"no board found: only {len(face)} equal tiles ({best[0]}x{best[1]} px) in the image"
        )
    lx = _lattice_1d(cx[face], float(best[0]))
    ly = _lattice_1d(cy[face], float(best[1]))
    if lx is None or ly is None:
        raise CalibrationError(
            "no board found: equal tiles are not on one regular lattice (two boards out of step?)"
        )
    (phx, px), (phy, py) = lx, ly
    # Cells are about square. Lines dropped on both axes (a browser at 67%
    # drops a 1 px line in every two or three) leave single faces only in
    # some rows, three or five cells apart (our page's seed 1355: rows 40,
    # 67 and 40 px apart on 13.4 px cells): one axis's lattice is then a
    # whole multiple of the other's, its faces no bigger than on the other.
    if (fx := _one_cell_lattice(cx[face], float(best[0]), px, py)) is not None:
        phx, px = fx
    elif (fy := _one_cell_lattice(cy[face], float(best[1]), py, px)) is not None:
        phy, py = fy
    # every flat region centred on a lattice point and cell-sized marks a cell
    # (unopened faces, and opened cells where the theme draws cell lines)
    ki = np.round((cx - phx) / px)
    kj = np.round((cy - phy) / py)
    # A flat region is a cell when it is cell-sized and centred on a lattice
    # point. One two to four cells long on an axis, on the lattice points it
    # spans, is those cells: the lines between them were not drawn (a browser
    # zoomed out draws a 1 px line at 0.67-0.75 px and drops one in every
    # few; at 67% up to three in a row). Longer runs are refused (a flat
    # stretch of a window may fit a long span by chance) but for a run one
    # cell wide: a pitch a few hundredths off whole pixels draws its 0.67 px
    # lines for several cells and then none for several (our page's seed
    # 1407: 12.06 px cells, no line across the last seven rows; found as 16x9).
    span_x, span_y = np.round(w / px).clip(1, None), np.round(h / py).clip(1, None)
    long_run = ((span_x == 1) & (span_y <= _MAX_RUN)) | ((span_y == 1) & (span_x <= _MAX_RUN))
    span_x = np.where(long_run, span_x, span_x.clip(1, _MAX_SPAN))
    span_y = np.where(long_run, span_y, span_y.clip(1, _MAX_SPAN))
    first_i = np.round((cx - phx) / px - (span_x - 1) / 2)
    first_j = np.round((cy - phy) / py - (span_y - 1) / 2)
    on_lattice = np.nonzero(
        (np.abs(cx - phx - (first_i + (span_x - 1) / 2) * px) <= 0.2 * px)
        & (np.abs(cy - phy - (first_j + (span_y - 1) / 2) * py) <= 0.2 * py)
        & (w >= (span_x - 0.65) * px)
        & (h >= (span_y - 0.65) * py)
        & (w <= (span_x + 0.05) * px)
        & (h <= (span_y + 0.05) * py)
        & (area >= 0.5 * w * h)
    )[0]
    if len(on_lattice) < _MIN_FACES:
        # the equal faces that gave the lattice are not cell-sized on it
        raise CalibrationError("no board found: no block of cells on the lattice")
    off = face[
        (np.abs(cx[face] - phx - ki[face] * px) > 0.2 * px)
        | (np.abs(cy[face] - phy - kj[face] * py) > 0.2 * py)
    ]
    if len(off) >= _MIN_FACES:
        raise CalibrationError("two boards found: tiles on two lattices; show only one board")
    if (span_x[on_lattice] * span_y[on_lattice] > 1).any():
        # Lines dropped leave few single faces to fit the pitch on (whole
        # pixels each, at 67% seven columns of sixteen, 0.02 px a cell off):
        # every face's two edges, a whole number of cells apart, fit it.
        px, phx = _edge_fit(x[on_lattice], w[on_lattice], first_i[on_lattice], span_x[on_lattice])
        py, phy = _edge_fit(y[on_lattice], h[on_lattice], first_j[on_lattice], span_y[on_lattice])
    last_i, last_j = first_i + span_x - 1, first_j + span_y - 1
    i0, j0 = int(first_i[on_lattice].min()), int(first_j[on_lattice].min())
    occ = np.zeros(
        (int(last_j[on_lattice].max()) - j0 + 1, int(last_i[on_lattice].max()) - i0 + 1),
        dtype=np.uint8,
    )
    for f in on_lattice:
        a, b = int(first_j[f]) - j0, int(first_i[f]) - i0
        occ[a : a + int(span_y[f]), b : b + int(span_x[f])] = 1
    # holes (a hovered or pressed cell) must not split a board in two
    closed = cv2.morphologyEx(occ, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    n, _lab, bstats, _ = cv2.connectedComponentsWithStats(closed, connectivity=4)
    if n <= 1:
        raise CalibrationError("no board found: no block of cells on the lattice")
    order = np.argsort(-bstats[1:, cv2.CC_STAT_AREA]) + 1
    main = order[0]
    big = [b for b in order if bstats[b, cv2.CC_STAT_AREA] >= max(16, 0.25 * bstats[main, 4])]
    if len(big) > 1:
        raise CalibrationError(f"{len(big)} boards found: show only one board")
    bx, by, bw, bh, barea = (int(v) for v in bstats[main])
    if bw < 2 or bh < 2 or barea < _MIN_FACES:
        raise CalibrationError(f"no board found: the largest block of cells is {bw}x{bh}")
    fill = occ[by : by + bh, bx : bx + bw].mean()
    if fill < 0.5:
        raise CalibrationError(
            f"no board found: only {fill:.0%} of the lattice block looks like cells"
        )
    origin = (phx + (bx + i0 - 0.5) * px, phy + (by + j0 - 0.5) * py)
    return Grid(origin=(float(origin[0]), float(origin[1])), pitch=(px, py), rows=bh, cols=bw)


def _edge_fit(
    start: npt.NDArray[np.int32],
    size: npt.NDArray[np.int32],
    first: npt.NDArray[np.float64],
    span: npt.NDArray[np.float64],
) -> tuple[float, float]:
    """(pitch, centre of a one-cell face at lattice point 0) along one axis,
    from the faces' first and last pixels: a face from lattice point k over n
    cells starts at a + k * pitch and ends at b + (k + n) * pitch."""
    m = len(start)
    a = np.zeros((2 * m, 3))
    a[:m, 0] = 1.0
    a[m:, 1] = 1.0
    a[:m, 2] = first
    a[m:, 2] = first + span
    lo = start.astype(np.float64)
    (left, right, pitch), *_ = np.linalg.lstsq(a, np.concatenate([lo, lo + size]), rcond=None)
    return float(pitch), float((left + right + pitch) / 2)


def _face_offset(tile: Image) -> tuple[float, float]:
    """Where the flat face of an unopened tile is centred, from the centre of its box.

    find_grid places boxes around the faces' centres; a bevel that is wider
    on one side moves the face off the box's centre by this much.
    """
    stats, _c = _flat_components(as_rgb(tile))
    if len(stats) <= 1:
        return (0.0, 0.0)
    k = 1 + int(np.argmax(stats[1:, 4]))
    x, y, w, h = (float(v) for v in stats[k, :4])
    return (x + w / 2 - tile.shape[1] / 2, y + h / 2 - tile.shape[0] / 2)


def _tile_distances(seen: Image, tile: Image) -> tuple[float, float, float]:
    """How far a theme's unopened tile is from the screen's, on three views at one size.

    (colour, edges, pixels): the largest difference of mean level of one
    channel over the whole tile; the mean difference along the bevel
    profile (mean grey level of each of 12 bands across the tile, in x and
    in y: light top-left and dark bottom-right edges, or flat faces with a
    gap); and the median over an 8x8 view of the mean |RGB difference|.
    """
    import cv2

    def coarse(t: Image) -> npt.NDArray[np.int16]:
        # 8x8: colours and bevels count, a sub-pixel cut at 125-175% does not
        return np.asarray(cv2.resize(t, (8, 8), interpolation=cv2.INTER_AREA), np.int16)

    # the median pixel: a thin line drawn across a pixel boundary does not
    # decide, a face or bevel in another colour does
    pixels = float(np.median(np.abs(coarse(seen) - coarse(tile)).mean(axis=2)))
    a = np.asarray(seen, np.float64)
    b = np.asarray(
        cv2.resize(tile, (a.shape[1], a.shape[0]), interpolation=cv2.INTER_AREA), np.float64
    )
    colour = float(np.max(np.abs(a.mean(axis=(0, 1)) - b.mean(axis=(0, 1)))))

    def bands(t: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        grey = np.ascontiguousarray(t.mean(axis=2))
        along_x = cv2.resize(grey.mean(axis=0)[None, :], (12, 1), interpolation=cv2.INTER_AREA)
        along_y = cv2.resize(grey.mean(axis=1)[None, :], (12, 1), interpolation=cv2.INTER_AREA)
        return np.concatenate([np.ravel(along_x), np.ravel(along_y)])

    # mean over the bands: a bevel edge cut a pixel differently when scaled
    # moves one band, a bevel of another width or shade moves several
    edges = float(np.mean(np.abs(bands(a) - bands(b))))
    return colour, edges, pixels


def _theme_matches(
    rgb: Image,
    grid: Grid,
    sets: list[tuple[Profile, dict[str, tuple[Image, ...]]]],
    chosen: int,
    origin: tuple[float, float],
    pitch: tuple[float, float],
) -> bool:
    """Whether the blank cells of the board are the chosen theme's unopened tile, and no other's.

    A theme that reads the board well is not enough: a recoloured game or a
    look-alike reads an untouched board as unopened tiles of the wrong
    colour. The chosen theme's unopened tile must be what the screen shows
    (up to resampling at a scaled size) on every view of _tile_distances,
    and it must be clearly nearer than the nearest tile of any other theme.
    """
    from msolver.vision.classify import observed_unknown_tile

    at = Grid(origin=origin, pitch=pitch, rows=grid.rows, cols=grid.cols)
    seen = observed_unknown_tile(rgb, at)

    def score(tiles: dict[str, tuple[Image, ...]]) -> tuple[float, float, float]:
        found = [_tile_distances(seen, t) for t in tiles.get("unknown", ())]
        # each view relative to its bound: the worst view decides
        return min(found, key=_tile_score, default=(np.inf, np.inf, np.inf))

    best = score(sets[chosen][1])
    if not (best[0] <= _TILE_COLOUR and best[1] <= _TILE_EDGES and best[2] <= _TILE_MATCH):
        return False
    theme = sets[chosen][0].theme
    others = [_tile_score(score(t)) for p, t in sets if p.theme != theme]
    return all(o >= _TILE_MARGIN * _tile_score(best) for o in others)


def _tile_score(d: tuple[float, float, float]) -> float:
    return max(d[0] / _TILE_COLOUR, d[1] / _TILE_EDGES, d[2] / _TILE_MATCH)


def _standard(rows: int, cols: int, mines: int | None) -> bool:
    """Whether rows x cols is a standard level (with its mine count, when known)."""
    return any(
        (lv.height, lv.width) == (rows, cols) and mines in (None, lv.mines)
        for lv in LEVELS.values()
    )


def _whole_blank_board(lat: Lattice, faces: Grid, mines: int | None) -> bool:
    """Whether the lattice's board is the whole board, not the blank part of one under way.

    Flat faces beyond an all-blank board are a toolbar, counters or buttons
    (a header of tile-like buttons looks like more rows), not opened cells:
    kept as the board's unless the lattice's size is no standard level and
    the faces' size is one.
    """
    if lat.unlike:
        return False
    return _standard(lat.rows, lat.cols, mines) or not _standard(faces.rows, faces.cols, mines)


def calibrate(
    image: Image,
    *,
    mines: int | None = None,
    screen_origin: tuple[int, int] = (0, 0),
    name: str = "custom",
    new_game: str | None = None,
    theme: str | None = None,
) -> Profile:
    """Profile from a screenshot showing one blank (or barely started) board.

    image: RGB (H, W, 3) or BGRA (H, W, 4) as mss grabs it. screen_origin: the
    screen position of the image's top-left pixel (mss monitor 0's left/top
    for a whole-desktop grab), so the profile is in screen coordinates.
    mines: the board's mine count; guessed from the standard levels when the
    size is one of them, otherwise required. theme: the theme (profile name)
    whose tiles to use, refused when they do not explain the board; by
    default the built-in theme and recorded tile size that explain it best,
    if any does (otherwise the profile knows only the unopened tile; see
    vision.learn). The board may be blank or a game under way.
    """
    try:
        rgb = as_rgb(image)
    except ImageError as exc:
        raise CalibrationError(str(exc)) from exc
    # The lattice of alike cells finds a blank board; a built-in theme can
    # also be fitted on a game under way, whose flat faces still show its
    # extent (the finder before vision.lattice).
    lat: Lattice | None = None
    missing: CalibrationError | None = None
    try:
        lat = _find_lattice(rgb)
    except CalibrationError as exc:
        missing = exc
    try:
        faces: Grid | None = _face_grid(rgb, textured=lat is None)
    except CalibrationError:
        faces = None
    if lat is not None:
        grid = _lattice_grid(lat)
        if (
            faces is not None
            and faces.rows * faces.cols > grid.rows * grid.cols
            and (abs(faces.pitch[0] - grid.pitch[0]) < 0.1 * grid.pitch[0])
            and not _whole_blank_board(lat, faces, mines)
        ):
            grid, lat = faces, None  # blank cells are only part of a board under way
        elif faces is not None and _blocks_of(faces, grid) and _flat_blank(rgb, faces):
            # Flat faces cut in parts: faces lit from above have no lines
            # inside for the lattice to see, and their halves, each a ramp,
            # are as alike as the cells (our page's seed 1378 at 150%: 60x31
            # half-cells for a 30x16 board). The faces are the cells.
            grid, lat = faces, None
        elif faces is not None and _blocks_of(grid, faces) and _flat_blank(rgb, faces):
            # Flat borderless cells in two shades alternating (Google's look):
            # the lattice finds no cell of theirs (a flat cell has nothing to
            # correlate) but, cut so that each holds a few, blocks of them
            # alike; the faces are the cells. So too flat cells whose lines a
            # zoomed-out browser drops in every few (blocks of 4 at 75%).
            grid, lat = faces, None
        elif lat.xs is not None or lat.ys is not None:
            # grown by lines laid off the lattice: found again below on the
            # board cut onto an even lattice, as any unevenly laid board
            lat = None
    elif faces is not None and missing is not None:
        grid = faces
    else:
        assert missing is not None
        raise missing
    if mines is None:
        for level in LEVELS.values():
            if (level.width, level.height) == (grid.cols, grid.rows):
                mines = level.mines
                break
        else:
            raise CalibrationError(
                f"board is {grid.cols}x{grid.rows}, not a standard level: give the mine count"
            )
    if not 0 < mines < grid.rows * grid.cols:
        raise CalibrationError(f"{mines} mines do not fit a {grid.cols}x{grid.rows} board")
    grid = _within(_uneven(rgb, grid))
    # A board flush with the picture's right or bottom edge: its last cells
    # are cut, and the player's grabs filled (see Grid.flush_filled), alike.
    filled = grid.flush_filled(rgb)
    if filled is not None:
        rgb = filled
    # Themes are fitted on the board cut cell by cell onto an even lattice
    # (the picture itself when its lines are even): every cell is cut the
    # same way, whatever pixel its line starts on.
    size = grid.cell_size
    work, even = grid.restitched(rgb, margin=max(size))
    if lat is None and not grid.uniform:
        # The lattice finder needs even lines; on the board cut onto an even
        # lattice it tells whether every cell is blank, as on any other board.
        try:
            cut: Lattice | None = find_lattice(work)
        except (LatticeError, ImageError):
            cut = None
        if cut is not None and (cut.rows, cut.cols) == (grid.rows, grid.cols):
            lat = cut
    from msolver.vision.classify import fit_tilesets, observed_unknown_tile
    from msolver.vision.tiles import rescale_tiles

    if theme == "custom":
        themes = []  # --theme custom: learn the board's own looks, whatever it resembles
    elif theme is not None:
        try:
            themes = [load_profile(theme)]
        except ProfileError as exc:
            raise CalibrationError(str(exc)) from exc
    else:
        themes = []
        for b in BUILTIN_NAMES:
            try:
                themes.append(load_profile(b))
            except ProfileError:
                continue
    # one candidate tile set per theme and recorded tile size, all at this board's size
    sets: list[tuple[Profile, dict[str, tuple[Image, ...]]]] = []
    for prof_ in themes:
        for src in prof_.tile_sizes():
            sets.append((prof_, rescale_tiles(prof_.tiles_at(src), size)))
    fit = None
    if lat is not None or not grid.uniform:
        fit = fit_tilesets(
            work, even.origin, even.pitch, grid.rows, grid.cols, [t for _, t in sets]
        )
    if sets and grid.uniform:
        # The lattice centres boxes on each tile's centre of symmetry; a
        # theme's recorded box can sit up to a pixel off it (a bevel wider on
        # one side): try the geometry of the theme's faces too.
        try:
            faces = _face_grid(rgb)
        except CalibrationError:
            faces = None
        if faces is not None and (faces.rows, faces.cols) == (grid.rows, grid.cols):
            again = fit_tilesets(
                rgb,
                faces.origin,
                faces.pitch,
                grid.rows,
                grid.cols,
                [t for _, t in sets],
                [_face_offset(t["unknown"][0]) if "unknown" in t else (0.0, 0.0) for _, t in sets],
            )
            if again is not None and (fit is None or again.mean_distance <= fit.mean_distance):
                fit = again
    base: Profile | None = None
    blank: Image | None = None
    origin, pitch = grid.origin, grid.pitch
    if (
        fit is not None
        and fit.mean_distance <= _THEME_FIT
        and fit.readable >= _THEME_READABLE
        and (lat is None or _theme_matches(work, even, sets, fit.index, fit.origin, fit.pitch))
    ):
        base, tiles = sets[fit.index]
        tiles = {k: tuple(v) for k, v in tiles.items()}
        # At a size no recording has (display scaling), a blank board cannot
        # tell which recorded size scales best, and sizes draw digits
        # differently: keep every size of this theme that fits about as well.
        for (other, more), score in zip(sets, fit.per_set, strict=True):
            close = score <= max(2 * fit.mean_distance, fit.mean_distance + 5e-4)
            if other is base and more is not sets[fit.index][1] and close:
                for label, variants in more.items():
                    tiles[label] = (*tiles.get(label, ()), *variants)
        pitch = fit.pitch
        # a whole pitch means the game draws on whole pixels: so does the board's edge
        origin = tuple(  # type: ignore[assignment]
            float(whole_px(o)) if float(p).is_integer() else o
            for o, p in zip(fit.origin, pitch, strict=True)
        )
        if not grid.uniform:
            # the fit's shift of the even cut moves every line's own edge alike
            grid = grid.moved(fit.origin[0] - even.origin[0], fit.origin[1] - even.origin[1])
            whole = all(float(p).is_integer() for p in pitch)
            origin, pitch = grid.origin, grid.pitch
            if whole:
                xs, ys = (tuple(float(whole_px(v)) for v in e) for e in grid.edges())
                grid = Grid.from_edges(xs, ys)
                origin, pitch = grid.origin, grid.pitch
        theme_name = base.theme
    elif theme is not None and theme != "custom":
        raise CalibrationError(
            f"the board does not look like theme {theme!r} "
            f"({0 if fit is None else fit.readable:.0%} of cells match its tiles)"
        )
    else:
        two = missing is not None and "boards found" in str(missing)
        if two and lat is None and not _board_beside(rgb, grid):
            # the lattice's boards were pieces of this one, cut apart where a
            # zoomed-out browser dropped its lines (the faces span them)
            two = False
        if lat is None and (two or not _flat_blank(rgb, grid)):
            raise missing or CalibrationError(
                "the board is partly played, covered or cut off by its window (fewer of "
                "its cells look blank than it has): show a new, unplayed board, all of it"
            )
        if lat is not None and lat.unlike:
            r, c = lat.unlike[0]
            raise CalibrationError(
                f"the board is partly played, covered or cut off by its window "
                f"({len(lat.unlike)} of its cells, first at row {r}, col {c}, do not look "
                "like a blank cell): show a new, unplayed board, all of it"
            )
        if grid.uniform:
            # Its looks are learned by comparing cells pixel for pixel: a line
            # a toolkit laid a pixel off the even lattice is cut by its own edge.
            grid = _within(_uneven(rgb, grid, FINE_UNEVEN))
        tiles = {"unknown": (observed_unknown_tile(rgb, grid),)}
        theme_name = "custom"
        # Each cell's own blank look: a gradient or texture behind the tiles
        # makes cells of one kind differ, and only a cell's own look says it
        # is still unopened.
        blank = grid_patches(rgb, grid.moved(*screen_origin), offset=screen_origin)
    if grid.uniform:
        placed = Grid(origin=origin, pitch=pitch, rows=grid.rows, cols=grid.cols)
    else:
        placed = grid
    prof = Profile(
        name=name,
        theme=theme_name,
        grid=placed.moved(*screen_origin),
        mines=mines,
        tiles=tiles,
        new_game=new_game if new_game is not None else (base.new_game if base else None),
        blank=blank,
    )
    prof.validate()
    side = _open_side(rgb, placed)
    if side is not None:
        raise CalibrationError(
            f"the board's {side} edge shows no boundary where its inner cells show one: "
            "the board may go on past what was found (grid lines a page zoom dropped?); "
            "show it at 100% zoom, or another size"
        )
    side = _part_cell_beyond(rgb, placed)
    if side is not None:
        raise CalibrationError(
            f"past the board's {side} edge its cells' face goes on for part of a cell: "
            "the board may be finer than what was found (grid lines a page zoom dropped?); "
            "show it at 100% zoom, or another size"
        )
    axis = _half_cells(rgb, placed)
    if axis is not None:
        raise CalibrationError(
            f"the cells found repeat within themselves at half their {axis}: the board "
            "may be finer than what was found (grid lines a page zoom dropped?); "
            "show it at 100% zoom, or another size"
        )
    _refuse_cut_off(rgb, placed)
    if base is not None and theme is None and not _reads_right(rgb, prof, screen_origin, lat):
        # A grey bevelled button of another toolkit can be nearer a theme's
        # unopened tile than any other theme's, and nearer still to that
        # theme's opened 0: chosen, the theme would read this untouched board
        # as opened. A board found as a lattice of alike blank cells must
        # read as all unopened; one under way must keep room for its mines.
        # Any other read, and the board is a look of its own.
        return calibrate(
            image,
            mines=mines,
            screen_origin=screen_origin,
            name=name,
            new_game=new_game,
            theme="custom",
        )
    return prof


# An outer edge whose step across it is under this share of the inner lines'
# median shows no boundary at all (a browser at 80% zoom drew no line between
# a 9x9 board's last three columns: 0.0; the corpus' weakest outer edge is
# kmines classic's, white cells beside its light frame, at 0.16).
_OPEN_EDGE = 0.05
# Inner lines weaker than this (levels, mean step) are no lines to compare
# with (kmines' seamless grass: 4).
_LINE_MIN = 8.0


def _step(grey: npt.NDArray[np.float32], at: float, lo: int, hi: int, axis: int, win: int) -> float:
    """The strongest mean step across a line near `at` (within `win` px), over lo..hi
    along it; axis 0: a vertical line at x = at, 1: a horizontal one at y = at."""
    size = grey.shape[1 - axis]
    best = 0.0
    for d in range(-win, win + 1):
        x = round(at) + d
        if x - 1 < 0 or x + 1 >= size:
            continue
        if axis == 0:
            s = float(np.abs(grey[lo:hi, x + 1] - grey[lo:hi, x - 1]).mean())
        else:
            s = float(np.abs(grey[x + 1, lo:hi] - grey[x - 1, lo:hi]).mean())
        best = max(best, s)
    return best


def _open_side(rgb: Image, grid: Grid) -> str | None:
    """The side of the found board that shows no boundary where its inner lines
    show one, if any: the board goes on past it with its lines undrawn (a page
    zoom whose 0.8 px lines vanish), and a profile of the wrong size would count
    mines beside cells it cannot see. A side at the picture's edge is not judged."""
    if grid.rows < 3 or grid.cols < 3:
        return None
    grey = rgb[:, :, :3].astype(np.float32).mean(axis=2)
    height, width = grey.shape
    xs, ys = grid.edges()
    win = max(2, int(min(grid.pitch) / 4))
    y0, y1 = max(0, int(ys[0]) + 1), min(height, int(ys[-1]) - 1)
    x0, x1 = max(0, int(xs[0]) + 1), min(width, int(xs[-1]) - 1)
    if y1 - y0 < 4 or x1 - x0 < 4:
        return None
    inner = [_step(grey, x, y0, y1, 0, win) for x in xs[1:-1]]
    inner += [_step(grey, y, x0, x1, 1, win) for y in ys[1:-1]]
    typical = float(np.median(inner))
    if typical < _LINE_MIN:
        return None
    sides = (
        ("left", xs[0], 0, width, y0, y1),
        ("right", xs[-1], 0, width, y0, y1),
        ("top", ys[0], 1, height, x0, x1),
        ("bottom", ys[-1], 1, height, x0, x1),
    )
    for name, at, axis, size, lo, hi in sides:
        if at - win - 2 < 0 or at + win + 2 >= size:
            continue  # flush with the picture: nothing beyond to judge by
        if _step(grey, at, lo, hi, axis, win) < _OPEN_EDGE * typical:
            return name
    return None


def _part_cell_beyond(rgb: Image, grid: Grid) -> str | None:
    """The side past which the cells' flat face goes on for a fifth to four
    fifths of a cell and then stops, if any.

    At 50% a browser drops every other 1 px line: each 2x2 block of cells is
    drawn as one cell, a consistent lattice of them, and a 9x9 board is found
    as 4x4, its ninth row and column a half-width strip of face beside it. A
    board of flat cells (no bevel: the face runs from line to line) is never
    followed by a part of a face; a window's margin in the face's colour runs
    on past a cell, and a bevelled cell's face does not reach its line.
    """
    if grid.rows < 2 or grid.cols < 2:
        return None
    px3 = rgb[:, :, :3].astype(np.int16)
    height, width = px3.shape[:2]
    xs, ys = (np.round(e).astype(int) for e in grid.edges())
    if xs[0] < 0 or ys[0] < 0 or xs[-1] >= width or ys[-1] >= height:
        return None
    x0, x1, y0, y1 = int(xs[0]), int(xs[-1]), int(ys[0]), int(ys[-1])
    face = np.median(px3[y0:y1, x0:x1].reshape(-1, 3), axis=0)
    is_face = np.abs(px3 - face).max(axis=2) <= 8
    p = min(grid.pitch)
    lo, hi = int(0.15 * p), int(np.ceil(0.85 * p))
    # the board's own cells: face from a little past one line to before the next
    if is_face[y0:y1, x0 + lo : x0 + hi].mean() < 0.95:
        return None
    if is_face[y0 + lo : y0 + hi, x0:x1].mean() < 0.95:
        return None
    cut = slice(y0 + lo, y1 - lo)
    across = slice(x0 + lo, x1 - lo)
    strips = {
        "right": [is_face[cut, x].mean() for x in range(x1, min(width, x1 + int(p) + 2))],
        "left": [is_face[cut, x].mean() for x in range(x0 - 1, max(-1, x0 - int(p) - 3), -1)],
        "bottom": [is_face[y, across].mean() for y in range(y1, min(height, y1 + int(p) + 2))],
        "top": [is_face[y, across].mean() for y in range(y0 - 1, max(-1, y0 - int(p) - 3), -1)],
    }
    for side, share in strips.items():
        # past the boundary line (a few pixels), a run of face that then stops
        start = next((d for d in range(min(4, len(share))) if share[d] >= 0.9), None)
        if start is None:
            continue
        run = start
        while run < len(share) and share[run] >= 0.9:
            run += 1
        if run < len(share) and share[run] < 0.5 and 0.2 * p <= run - start <= 0.8 * p:
            return side
    return None


# A cell that is two cells: the board's mean profile across an axis repeats at
# half the pitch found (its 80th percentile difference within _HALF_SAME
# levels) but not at a quarter (_HALF_APART or more: stripes repeat at every
# fraction) while it varies by _HALF_SPREAD or more (a flat face repeats at any
# shift). Our page's seed 2149 at 75%: faces lit from above, 13.5 px, the zoom
# dropping every other line each way, found as 8x7 cells of 27 px of its
# 16x16 and saved. On the corpus of 101 boards the most alike half-cells
# differ by 9.7 levels (kmines classic).
_HALF_SAME = 3.0
_HALF_APART = 8.0
_HALF_SPREAD = 8.0


def _half_cells(rgb: Image, grid: Grid) -> str | None:
    """'height' or 'width' when the found cells repeat at half their pitch that
    way (see _HALF_SAME), else None."""
    xs, ys = (np.round(e).astype(int) for e in grid.edges())
    height, width = rgb.shape[:2]
    x0, x1, y0, y1 = int(xs[0]), int(xs[-1]), int(ys[0]), int(ys[-1])
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height or grid.rows < 2 or grid.cols < 2:
        return None
    board = rgb[y0:y1, x0:x1, :3].astype(np.float64)
    for name, along, pitch in (("height", 1, grid.pitch[1]), ("width", 0, grid.pitch[0])):
        profile = board.mean(axis=along)

        def apart(shift: float, profile: npt.NDArray[np.float64] = profile) -> float:
            lo, hi = int(np.floor(shift)), int(np.ceil(shift))
            n = len(profile) - hi
            if lo < 1 or n < 2:
                return 0.0
            d = np.minimum(
                np.abs(profile[:n] - profile[lo : lo + n]).max(axis=1),
                np.abs(profile[:n] - profile[hi : hi + n]).max(axis=1),
            )
            return float(np.percentile(d, 80))

        spread = np.abs(profile - np.median(profile, axis=0)).max(axis=1)
        if float(np.percentile(spread, 90)) < _HALF_SPREAD or pitch < 8:
            continue
        if apart(pitch / 2) <= _HALF_SAME and apart(pitch / 4) >= _HALF_APART:
            return name
    return None


# A column (or row) of pixels past the board repeats the board's last cells
# when over this share of its pixels lie within _REPEAT levels of theirs at
# the same place in the cell; the repeat counts as cells when it runs over
# _CUT_FACE of a cell's face. Cells cut off repeat every pixel (0.99-1.0 on
# the test page at 150%, within a level or two); a window's plain margin in
# the face's grey, with a frame's light edge, repeated Tk's raised cells but
# where their rows meet (0.96), and past them the picture ended: no cells;
# a page 19 levels from a dull face repeated it at 24 levels (seeds 1285
# and 1298: boards refused as cut off). A cell cut by a window's edge can
# show little of its face under a deep bevel: seed 2065 at 200% (70 px
# cells) showed 10 rows of face (0.14) below its bevel, and was found as
# 16x13 of its 16x16.
_REPEATS = 0.98
_REPEAT = 8
_CUT_FACE = 0.1


def _refuse_cut_off(rgb: Image, grid: Grid) -> None:
    """Refuse a board whose cells go on past a side, cut off (`_cells_cut_off`)."""
    found = _cells_cut_off(rgb, grid)
    if found is None:
        return
    side, whole = found
    if whole:
        raise CalibrationError(
            f"past the board's {side} edge its cells go on for a whole cell or more: "
            "the board is bigger than what was found (grid lines a page zoom dropped?); "
            "show it at 100% zoom, or another size"
        )
    raise CalibrationError(
        f"past the board's {side} edge its cells go on and are cut off "
        "(by the window's or the screen's edge, or a scroll bar): "
        "show the whole board, or zoom out"
    )


def _cells_cut_off(rgb: Image, grid: Grid) -> tuple[str, bool] | None:
    """The side past which the board's cells go on and stop in the middle of a
    cell's face (cut by a window's edge or a scroll bar), or go on for a whole
    cell, if any, and which of the two (True: a whole cell).

    A board wider than its window shows whole cells and then part of one: a
    lattice finds the whole ones, and a profile of the wrong size would count
    mines beside cells it cannot see (the test page at 150%, 30x16 with 63 px
    cells, was found as 29x15). Past the found board's edge, each column of
    pixels is compared with the same column of the last cells: cells go on
    while they match. Where the board ends, the match stops at once, or within
    the gap between cells, or at the next cell's line (a page of the face's
    colour around a flat board), or as a shaded face drifts from the page
    around it; a cut cell stops in its face, where what lies past it changes
    at once. A board found short of its cells repeats a whole cell past its
    edge.
    """
    px3 = rgb[:, :, :3].astype(np.int16)
    height, width = px3.shape[:2]
    xs, ys = (np.round(e).astype(int) for e in grid.edges())
    if grid.rows < 2 or grid.cols < 2:
        return None
    x0, x1, y0, y1 = int(xs[0]), int(xs[-1]), int(ys[0]), int(ys[-1])
    if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
        return None
    # A face is judged against the last cells' own, not one colour: a face lit
    # from above (a ramp top to bottom) is the colour of the board's median in
    # one row of four (our page's seed 1388 at 150%, 30x16 in a window that
    # cut its last column and row: found as 29x15), and of the cells' middle
    # in a few rows only (seed 2002, see _face_line).
    sides = (
        ("right", 1, x1, int(xs[-2]), 1, width),
        ("left", 1, x0 - 1, int(xs[1]) - 1, -1, width),
        ("bottom", 0, y1, int(ys[-2]), 1, height),
        ("top", 0, y0 - 1, int(ys[1]) - 1, -1, height),
    )
    for side, vertical, at, ref, step, size in sides:
        pitch = grid.pitch[0] if vertical else grid.pitch[1]
        back = step * round(pitch)
        span = (y0, y1) if vertical else (x0, x1)
        if _last_cells_cut(px3, vertical, ref, step, pitch, span):
            return side, False
        face = _face_line(px3, vertical, ref, step, pitch, span)
        faces = 0
        before: npt.NDArray[np.int16] | None = None
        for d in range(int(np.ceil(pitch))):
            a, r = at + step * d, ref + step * d
            seen = _line(px3, vertical, span, r)
            on_face = _on_face(seen, face(d))
            past = _line(px3, vertical, span, a) if 0 <= a < size else None
            repeats = past is not None and _repeats_near(px3, vertical, span, past, r, back)
            if not repeats:
                # cut: what lies past changes at once (a scroll bar, the
                # picture's edge), not slowly away from a shaded face
                cut = past is None or (
                    before is not None
                    and float((np.abs(past - before).max(axis=1) > _REPEAT).mean()) >= 0.5
                )
                if cut and on_face and faces >= _CUT_FACE * pitch:
                    return side, False
                break
            faces += on_face
            before = past
        if _whole_cell_beyond(px3, vertical, at, ref, step, pitch, span):
            return side, True
    return None


def _on_face(seen: npt.NDArray[np.int16], line: npt.NDArray[np.float64]) -> bool:
    """Whether a line of pixels is the cells' face (`_face_line`'s `line`): half
    its pixels within _REPEAT / 2 levels of it, or its mean so (a textured face:
    stripes, hatching)."""
    return (
        float((np.abs(seen - line).max(axis=1) <= _REPEAT // 2).mean()) >= 0.5
        # our page's seed 2176 at 150%, hatched faces 63 px, the window's edge
        # 19 px into the last row (found as 16x15 of 16x16)
        or float(np.abs(seen.mean(axis=0) - line.mean(axis=0)).max()) <= _REPEAT // 2
    )


def _last_cells_cut(
    px3: npt.NDArray[np.int16],
    vertical: int,
    ref: int,
    step: int,
    pitch: float,
    span: tuple[int, int],
) -> bool:
    """Whether the board's last cells (from line `ref`, going `step`) are cut
    inside the board found: they repeat the cells before them, line to line,
    over _CUT_FACE of a cell or more, then stop at once (what they show changes
    from one line to the next) and for good (the next three lines do not
    repeat either) where the cells before still show their face for two
    lines. A board's own end differs from the cells before it only
    past its face (a frame where they have a gap). Our page's seed 2225 at
    175% (68 px cells), the window's edge 54 px into the 14th row, was found
    as 16x14 of its 16x16: the lattice took the cut row whole."""
    size = px3.shape[1 if vertical else 0]
    back = step * round(pitch)
    face = _face_line(px3, vertical, ref - back, step, pitch, span)

    def line(k: int) -> npt.NDArray[np.int16]:
        return _line(px3, vertical, span, k)

    n = int(pitch)
    if not (0 <= ref - back < size and 0 <= ref + step * (n - 1) < size):
        return False
    held = 0
    for d in range(n - 1):
        r = ref + step * d
        seen = line(r)
        if _repeats_near(px3, vertical, span, seen, r - back, back):
            held += 1
            continue
        if held < _CUT_FACE * pitch:
            return False
        before = line(r - step)
        sudden = float((np.abs(seen - before).max(axis=1) > _REPEAT).mean()) >= 0.5
        # and the repeat does not come back: a line at a half-pixel phase
        # (a bevel's edge under a 150% scale) matches neither neighbour
        gone = not any(
            _repeats_near(px3, vertical, span, line(k), k - back, back)
            for k in (ref + step * e for e in range(d + 1, min(n, d + 4)))
        )
        return (
            sudden
            and gone
            and _on_face(line(r - back), face(d))
            and _on_face(line(r - back + step), face(d + 1))
        )
    return False


def _line(
    px3: npt.NDArray[np.int16], vertical: int, span: tuple[int, int], k: int
) -> npt.NDArray[np.int16]:
    """The line of pixels at k across a side, over `span` (vertical: the column
    x = k from y = span[0] to span[1]; else the row y = k)."""
    lo, hi = span
    return px3[lo:hi, k] if vertical else px3[k, lo:hi]


def _whole_cell_beyond(
    px3: npt.NDArray[np.int16],
    vertical: int,
    at: int,
    ref: int,
    step: int,
    pitch: float,
    span: tuple[int, int],
) -> bool:
    """Whether a whole cell past the board's edge repeats its last cells, line to
    line, within a pixel either way (a fractional pitch drifts): the board goes
    on. Our page's seed 2023 at 90% (35.1 px, lines a zoom thinned, stripes on
    the faces) was found as 15x15 of its 16x16."""
    size = px3.shape[1 if vertical else 0]
    n = int(np.ceil(pitch))
    back = step * round(pitch)
    for shift in (-1, 0, 1):
        held = 0
        for d in range(n):
            a = at + step * (d + shift)
            if not 0 <= a < size:
                break
            past = _line(px3, vertical, span, a)
            held += _repeats_near(px3, vertical, span, past, ref + step * d, back)
        if held >= 0.9 * n:
            return True
    return False


def _repeats_near(
    px3: npt.NDArray[np.int16],
    vertical: int,
    span: tuple[int, int],
    past: npt.NDArray[np.int16],
    r: int,
    back: int = 0,
) -> bool:
    """Whether the line `past` repeats line r of the board's last cells, or one a
    pixel either side of it (a pitch of fractional pixels draws its lines a
    pixel either way): over _REPEATS of its pixels within _REPEAT levels. Or
    line r - back of the cells before the last (`back`: a cell's pitch, signed
    as the side's step): a checkerboard's cells repeat every other cell, and
    our page's seed 2127 at 175%, cut by its window half a row past 13, was
    found as 16x13 of its 16x16 (the row past read as the other shade)."""
    size = px3.shape[1 if vertical else 0]

    def line(k: int) -> npt.NDArray[np.int16]:
        return _line(px3, vertical, span, k)

    def alike(a: npt.NDArray[np.int16], b: npt.NDArray[np.int16]) -> bool:
        return float((np.abs(a - b).max(axis=1) <= _REPEAT).mean()) >= _REPEATS

    refs = [r]
    if back and 0 <= r - back < size and 0 <= r < size and not alike(line(r), line(r - back)):
        # only where the last two cells differ (a checkerboard's shades): where
        # they are alike, the cell before would only widen the pixel's slack
        # (kmines' classic tiles at Qt's 150%, 28.5 px, matched its frame)
        refs.append(r - back)
    return any(alike(past, line(k)) for c in refs for k in (c - 1, c, c + 1) if 0 <= k < size)


def _face_line(
    px3: npt.NDArray[np.int16],
    vertical: int,
    ref: int,
    step: int,
    pitch: float,
    span: tuple[int, int],
) -> Callable[[int], npt.NDArray[np.float64]]:
    """The last cells' face, d pixels in from the board's edge: per pixel
    across the side, the straight line through the middle of the cells (a
    flat face is one colour; a face lit from one side, a ramp, is its ramp:
    our page's seed 2002 at 150%, the top 13 px of its last row left by the
    window's scroll bar were matched against the middle row, 10-15 levels
    darker, and the board was found as 28x14 of its 30x16)."""
    lo, hi = span
    ds = np.arange(int(0.3 * pitch), int(0.7 * pitch) + 1)
    at = ref + step * ds
    at = at[(at >= 0) & (at < px3.shape[1 if vertical else 0])]
    ds = ds[: len(at)]
    lines = (px3[lo:hi, at].transpose(1, 0, 2) if vertical else px3[at, lo:hi]).astype(np.float64)
    if len(ds) < 2:
        mean = lines.mean(axis=0)
        return lambda d: mean
    dm = ds - ds.mean()
    slope = np.tensordot(dm, lines, axes=1) / float(dm @ dm)
    mean = lines.mean(axis=0)
    centre = float(ds.mean())
    return lambda d: mean + slope * (d - centre)


# A flat cell: its box within this many levels of its own median, per channel
# (95th percentile: a stray pixel of a neighbour's edge aside).
_FLAT_CELL = 6.0
# Cells of one shade: within this many levels of their shade's median colour.
_SHADE_SPREAD = 4.0


def _lit_residual(box: Image) -> float:
    """How far a face strays from a plane per channel (95th percentile, levels):
    a face lit from one side (a ramp across it, our page's lit looks: seeds
    1259, 1266, 1345 and 1378) is flat but for its light; a glyph is not."""
    h, w = box.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    a = np.stack([xx.ravel(), yy.ravel(), np.ones(h * w)], axis=1).astype(np.float64)
    v = box.reshape(-1, 3).astype(np.float64)
    coef, *_ = np.linalg.lstsq(a, v, rcond=None)
    return float(np.percentile(np.abs(v - a @ coef).max(axis=1), 95))


def _board_beside(rgb: Image, grid: Grid) -> bool:
    """Whether the picture holds a board outside `grid`'s box (and half a
    cell around it), the box painted over in the colour around it."""
    xs, ys = grid.cell_edges()
    h, w = rgb.shape[:2]
    mx, my = grid.pitch[0] / 2, grid.pitch[1] / 2
    x0, x1 = max(int(xs[0] - mx), 0), min(int(np.ceil(xs[-1] + mx)), w)
    y0, y1 = max(int(ys[0] - my), 0), min(int(np.ceil(ys[-1] + my)), h)
    ring = np.concatenate(
        [
            rgb[max(y0 - 2, 0) : y0, x0:x1, :3].reshape(-1, 3),
            rgb[y1 : y1 + 2, x0:x1, :3].reshape(-1, 3),
            rgb[y0:y1, max(x0 - 2, 0) : x0, :3].reshape(-1, 3),
            rgb[y0:y1, x1 : x1 + 2, :3].reshape(-1, 3),
        ]
    )
    rest = np.array(rgb[:, :, :3], copy=True)
    rest[y0:y1, x0:x1] = np.median(ring, axis=0) if len(ring) else 0
    try:
        find_lattice(rest)
    except LatticeError as exc:
        return "boards found" in str(exc)
    return True


def _flat_blank(rgb: Image, grid: Grid) -> bool:
    """Whether the faces' board is blank cells with no structure but their colour.

    Borderless flat cells in one colour, or two alternating as a
    checkerboard (Google's Minesweeper and its clones: two greens), have
    nothing inside a cell for the lattice of alike cells to correlate: it
    finds no board, and only the flat faces show it. Blank, then, is every
    cell flat and every cell of a parity (row + column even or odd) of one
    shade; an opened cell (a number, or the opened cells' other colour) is
    out of its shade.
    """
    if grid.rows < 2 or grid.cols < 2:
        return False
    xs, ys = grid.cell_edges()
    height, width = rgb.shape[:2]
    if xs[0] < 0 or ys[0] < 0 or xs[-1] > width or ys[-1] > height:
        return False
    means = np.zeros((grid.rows, grid.cols, 3))
    # the whole box but its outer pixel: a bevel, line or gap is structure; on
    # cells 10 px or more, two (a line laid at a fractional place may be
    # rounded either way, half a pixel off the fitted lattice; a browser at
    # 67% draws a bevel's 1.5 px as one pixel or two: our page's seeds 1245,
    # 1275, 1281 and 1305 at 10.7-13.4 px)
    mx, my = (1 if p < 10 else 2 for p in grid.pitch)
    for r in range(grid.rows):
        for c in range(grid.cols):
            x0, x1, y0, y1 = xs[c], xs[c + 1], ys[r], ys[r + 1]
            cell = rgb[y0 + my : y1 - my, x0 + mx : x1 - mx, :3].reshape(-1, 3).astype(np.float64)
            if cell.size == 0:
                return False
            med = np.median(cell, axis=0)
            if float(np.percentile(np.abs(cell - med).max(axis=1), 95)) > _FLAT_CELL and (
                _lit_residual(rgb[y0 + my : y1 - my, x0 + mx : x1 - mx, :3]) > _FLAT_CELL
            ):
                return False
            means[r, c] = med
    parity = (np.add.outer(np.arange(grid.rows), np.arange(grid.cols)) % 2).astype(bool)
    for shade in (parity, ~parity):
        group = means[shade]
        if float(np.abs(group - np.median(group, axis=0)).max()) > _SHADE_SPREAD:
            return False
    return True


def _reads_right(
    rgb: Image, prof: Profile, screen_origin: tuple[int, int], lat: Lattice | None
) -> bool:
    """Whether the profile reads the calibration picture as the board it was found to be."""
    from msolver.vision.classify import read_board

    try:
        got = read_board(rgb, prof, image_origin=screen_origin)
    except ValueError:  # ReadError: most cells match no tile
        return False
    if got.low_confidence:
        return False
    cells = got.board.cells
    if lat is not None and not lat.unlike:
        return all(s == UNKNOWN for s in cells)
    hidden = sum(1 for s in cells if s in (UNKNOWN, FLAG))
    return hidden >= prof.mines
