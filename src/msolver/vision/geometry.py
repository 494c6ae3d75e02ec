"""The board's geometry: one lattice of cells, the one `Grid` of msolver.

A `Grid` carries no frame of its own: its numbers are image pixels or screen
pixels, and the name of whatever holds it says which (a `Profile.grid` is in
screen pixels; `find_grid` gives image pixels). `moved(dx, dy)` takes a grid
from one frame to the other (screen = image + the image's screen origin).

Most boards put column c at origin + c * pitch. Toolkits that lay cells out
on whole pixels at a fractional window size or zoom do not: GTK spaces some
columns a pixel wider than the rest. Such a grid carries every line's own
edges (`xs`: cols + 1 box edges along x, `ys`: rows + 1 along y), and every
box, centre and hit test follows them; `origin` is then the first edge and
`pitch` the step of the straight line that fits the edges best (see
`line_of`), for messages, for sizing a cell and for comparing boards.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from msolver.vision.image import Image

# The share of a last cell that may lie past the picture's right or bottom
# edge (see Grid.flush_filled): vision.lattice counts such a cell.
FLUSH = 0.15

Rect = tuple[int, int, int, int]  # (left, top, width, height) in whole pixels
Edges = tuple[float, ...]


class GridError(ValueError):
    """Edges that do not describe a board's lines; one sentence."""


def check_edges(edges: Edges, count: int, axis: str) -> None:
    """GridError unless `edges` is count + 1 finite, increasing box edges of alike steps."""
    if count < 1:
        raise GridError(f"{axis} edges given for an empty board")
    if len(edges) != count + 1:
        raise GridError(f"{axis} edges: {len(edges)} given for {count} cells (need {count + 1})")
    if not all(math.isfinite(e) for e in edges):
        raise GridError(f"{axis} edges are not all finite numbers")
    steps = [b - a for a, b in itertools.pairwise(edges)]
    mean = (edges[-1] - edges[0]) / count
    # uneven by whole pixels of layout, not another lattice: every step
    # within a quarter of the mean one
    if mean <= 0 or any(not (0.75 * mean <= s <= 1.25 * mean) for s in steps):
        raise GridError(f"{axis} edges are not increasing by alike steps ({mean:.2f} px mean)")


def line_of(edges: Edges) -> tuple[float, float]:
    """(first edge, step of the board's regular lines) of one axis: the least-squares
    line through the edges, less those laid a pixel or more off it, so a last row
    laid a pixel short does not tilt the step of all the others."""
    k = np.arange(len(edges), dtype=np.float64)
    e = np.asarray(edges, np.float64)
    step = 0.0
    for _ in range(3):
        if len(k) < 2:
            break
        step, start = np.polyfit(k, e, 1)
        res = np.abs(e - (start + step * k))
        keep = res <= max(0.3, 3.0 * float(np.median(res)))
        if keep.all() or keep.sum() < max(2, len(k) // 2):
            break
        k, e = k[keep], e[keep]
    return float(edges[0]), float(step)


def repeat_fill(image: Image, right: int, bottom: int, pitch: tuple[float, float]) -> Image:
    """`image` grown by `right` columns and `bottom` rows (none where a count is
    not positive), each new pixel the one a whole pitch before it (the board
    repeats every pitch; a lattice of fractional pitch is off by under half a
    pixel), or the last one where the image is narrower than a pitch."""
    out = _repeated(image, right, pitch[0], axis=1)
    return np.ascontiguousarray(_repeated(out, bottom, pitch[1], axis=0))


def _repeated(image: Image, n: int, pitch: float, axis: int) -> Image:
    if n <= 0:
        return image
    size = image.shape[axis]
    step = max(1, round(pitch))
    src = np.arange(size, size + n) - step
    src = np.where(src >= 0, src, size - 1)
    while (src >= size).any():
        src = np.where(src >= size, src - step, src)
    out: Image = np.concatenate([image, np.take(image, src, axis=axis)], axis=axis)
    return out


@dataclass(frozen=True, slots=True)
class Grid:
    """Cell (row, col) spans origin + (col, row) * pitch, one pitch wide and high;
    or, where `xs` / `ys` are given, from its own edge to the next one's."""

    origin: tuple[float, float]
    pitch: tuple[float, float]
    rows: int
    cols: int
    xs: Edges | None = None
    ys: Edges | None = None

    def __post_init__(self) -> None:
        if self.xs is not None:
            check_edges(self.xs, self.cols, "column")
        if self.ys is not None:
            check_edges(self.ys, self.rows, "row")

    @classmethod
    def from_edges(cls, xs: Edges, ys: Edges) -> Grid:
        """The grid whose box edges are xs (cols + 1) and ys (rows + 1)."""
        cols, rows = len(xs) - 1, len(ys) - 1
        if cols < 1 or rows < 1:
            raise GridError("edges: a board needs at least one cell each way")
        (ox, px), (oy, py) = line_of(xs), line_of(ys)
        return cls(
            origin=(ox, oy),
            pitch=(px, py),
            rows=rows,
            cols=cols,
            xs=tuple(float(v) for v in xs),
            ys=tuple(float(v) for v in ys),
        )

    @property
    def uniform(self) -> bool:
        """Whether every line sits at origin + k * pitch (no edges of its own)."""
        return self.xs is None and self.ys is None

    def col_edge(self, col: float) -> float:
        """Left edge of column `col` (cols: the board's right edge); fractions interpolate."""
        return _edge(self.xs, self.origin[0], self.pitch[0], col)

    def row_edge(self, row: float) -> float:
        """Top edge of row `row` (rows: the board's bottom edge); fractions interpolate."""
        return _edge(self.ys, self.origin[1], self.pitch[1], row)

    def edges(self) -> tuple[Edges, Edges]:
        """Every box edge (cols + 1 along x, rows + 1 along y), in fractional pixels."""
        return (
            tuple(self.col_edge(c) for c in range(self.cols + 1)),
            tuple(self.row_edge(r) for r in range(self.rows + 1)),
        )

    @property
    def cell_size(self) -> tuple[int, int]:
        """(width, height) of one cell box in whole pixels."""
        return (round(self.pitch[0]), round(self.pitch[1]))

    def cell_box(self, row: int, col: int) -> tuple[float, float, float, float]:
        """(left, top, width, height) of a cell's box, in fractional pixels."""
        x0, y0 = self.col_edge(col), self.row_edge(row)
        w = self.pitch[0] if self.xs is None else self.col_edge(col + 1) - x0
        h = self.pitch[1] if self.ys is None else self.row_edge(row + 1) - y0
        return (x0, y0, w, h)

    def centre_xy(self, row: int, col: int) -> tuple[float, float]:
        """The exact centre of a cell."""
        return (self.col_edge(col + 0.5), self.row_edge(row + 0.5))

    def centre(self, index: int) -> tuple[int, int]:
        """The whole pixel at the centre of cell `index` (row-major), where to click."""
        x, y = self.centre_xy(*divmod(index, self.cols))
        return (int(x), int(y))

    def rect(self) -> Rect:
        """(left, top, width, height) of the whole board, rounded outward."""
        left, top = math.floor(self.col_edge(0)), math.floor(self.row_edge(0))
        right = math.ceil(self.col_edge(self.cols))
        bottom = math.ceil(self.row_edge(self.rows))
        # a line of its own edges is cut one rounded pitch from its edge (see
        # cell_edges): the board's rectangle holds the last cut too
        w, h = self.cell_size
        if self.xs is not None:
            right = max(right, math.floor(self.xs[-2] + 0.5) + w)
        if self.ys is not None:
            bottom = max(bottom, math.floor(self.ys[-2] + 0.5) + h)
        return (left, top, right - left, bottom - top)

    def flush_filled(self, image: Image, at: tuple[int, int] = (0, 0)) -> Image | None:
        """`image` (its top-left pixel at `at` in this grid's frame) grown to hold the
        board's rectangle where the board runs up to FLUSH of a cell past its right
        or bottom edge, the missing pixels those a pitch before; the image
        itself when it holds the rectangle; None when more is missing.

        A board flush with a window grab's edge, or a window at the screen's
        edge, has its last line (the middle of the gap after its last cells)
        just past the picture; what is missing is that gap's half, or of the
        cell a sliver: filled as the board repeats (see repeat_fill), the last
        cells look as the others do.
        """
        left, top, width, height = self.rect()
        short_x = left + width - (at[0] + image.shape[1])
        short_y = top + height - (at[1] + image.shape[0])
        if short_x <= 0 and short_y <= 0:
            return image
        if short_x > FLUSH * self.pitch[0] or short_y > FLUSH * self.pitch[1]:
            return None
        return repeat_fill(image, short_x, short_y, self.pitch)

    def inside(self, x: float, y: float) -> bool:
        left, top, width, height = self.rect()
        return left <= x < left + width and top <= y < top + height

    def cell_at(self, x: float, y: float) -> int | None:
        """Index (row-major) of the cell under point (x, y), or None off the board."""
        col = _line_at(self.xs, self.origin[0], self.pitch[0], x)
        row = _line_at(self.ys, self.origin[1], self.pitch[1], y)
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return row * self.cols + col
        return None

    def cell_edges(self) -> tuple[list[int], list[int]]:
        """Whole-pixel left edges of every column (and the board's right edge), and the
        same for rows: where a cell is cut out of an image, rounding halves up."""
        xs, ys = self.edges()
        return [math.floor(v + 0.5) for v in xs], [math.floor(v + 0.5) for v in ys]

    def moved(self, dx: float, dy: float) -> Grid:
        """The same lattice (dx, dy) pixels on: to another place, or into another frame."""
        return Grid(
            (self.origin[0] + dx, self.origin[1] + dy),
            self.pitch,
            self.rows,
            self.cols,
            None if self.xs is None else tuple(v + dx for v in self.xs),
            None if self.ys is None else tuple(v + dy for v in self.ys),
        )

    def moved_to(self, origin: tuple[float, float]) -> Grid:
        """The same lattice with its first cell's corner at `origin` (exactly there)."""
        dx, dy = origin[0] - self.origin[0], origin[1] - self.origin[1]
        return Grid(
            (origin[0], origin[1]),
            self.pitch,
            self.rows,
            self.cols,
            None if self.xs is None else tuple(v + dx for v in self.xs),
            None if self.ys is None else tuple(v + dy for v in self.ys),
        )

    def restitched(self, image: Image, margin: int = 0) -> tuple[Image, Grid]:
        """The board cut cell by cell onto an even lattice, and that lattice.

        Each cell's box is cut from its own whole-pixel edge, one rounded
        pitch wide and high (so every cell is cut the same way however its
        line was laid out), and the boxes are laid side by side `margin`
        pixels in from the picture's corner; the margin repeats the board's
        outer pixels. A uniform grid comes back as it is, with the image.
        """
        if self.uniform:
            return image, self
        w, h = self.cell_size
        xs, ys = self.cell_edges()
        height, width = image.shape[:2]
        # column and row of the source picture for every pixel of the result
        sx = np.clip(np.array([x + i for x in xs[:-1] for i in range(w)]), 0, width - 1)
        sy = np.clip(np.array([y + i for y in ys[:-1] for i in range(h)]), 0, height - 1)
        if margin:
            sx = np.concatenate([np.full(margin, sx[0]), sx, np.full(margin, sx[-1])])
            sy = np.concatenate([np.full(margin, sy[0]), sy, np.full(margin, sy[-1])])
        out: Image = np.ascontiguousarray(image[sy[:, None], sx[None, :]])
        return out, Grid((float(margin), float(margin)), (float(w), float(h)), self.rows, self.cols)


def _edge(edges: Edges | None, origin: float, pitch: float, k: float) -> float:
    if edges is None:
        return origin + k * pitch
    i = min(max(math.floor(k), 0), len(edges) - 2)
    return edges[i] + (k - i) * (edges[i + 1] - edges[i])


def _line_at(edges: Edges | None, origin: float, pitch: float, v: float) -> int:
    if edges is None:
        return math.floor((v - origin) / pitch)
    if v < edges[0]:
        return -1
    # bisect: the last edge at or before v
    lo, hi = 0, len(edges) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if edges[mid] <= v:
            lo = mid
        else:
            hi = mid - 1
    return lo
