"""The board's geometry: one lattice of cells, the one `Grid` of msolver.

A `Grid` carries no frame of its own: its numbers are image pixels or screen
pixels, and the name of whatever holds it says which (a `Profile.grid` is in
screen pixels; `find_grid` gives image pixels). `moved(dx, dy)` takes a grid
from one frame to the other (screen = image + the image's screen origin).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Rect = tuple[int, int, int, int]  # (left, top, width, height) in whole pixels


@dataclass(frozen=True, slots=True)
class Grid:
    """Cell (row, col) spans origin + (col, row) * pitch, one pitch wide and high."""

    origin: tuple[float, float]
    pitch: tuple[float, float]
    rows: int
    cols: int

    @property
    def cell_size(self) -> tuple[int, int]:
        """(width, height) of one cell box in whole pixels."""
        return (round(self.pitch[0]), round(self.pitch[1]))

    def cell_box(self, row: int, col: int) -> tuple[float, float, float, float]:
        """(left, top, width, height) of a cell's box, in fractional pixels."""
        return (
            self.origin[0] + col * self.pitch[0],
            self.origin[1] + row * self.pitch[1],
            self.pitch[0],
            self.pitch[1],
        )

    def centre_xy(self, row: int, col: int) -> tuple[float, float]:
        """The exact centre of a cell."""
        return (
            self.origin[0] + (col + 0.5) * self.pitch[0],
            self.origin[1] + (row + 0.5) * self.pitch[1],
        )

    def centre(self, index: int) -> tuple[int, int]:
        """The whole pixel at the centre of cell `index` (row-major), where to click."""
        x, y = self.centre_xy(*divmod(index, self.cols))
        return (int(x), int(y))

    def rect(self) -> Rect:
        """(left, top, width, height) of the whole board, rounded outward."""
        left, top = math.floor(self.origin[0]), math.floor(self.origin[1])
        right = math.ceil(self.origin[0] + self.cols * self.pitch[0])
        bottom = math.ceil(self.origin[1] + self.rows * self.pitch[1])
        return (left, top, right - left, bottom - top)

    def inside(self, x: float, y: float) -> bool:
        left, top, width, height = self.rect()
        return left <= x < left + width and top <= y < top + height

    def cell_at(self, x: float, y: float) -> int | None:
        """Index (row-major) of the cell under point (x, y), or None off the board."""
        col = math.floor((x - self.origin[0]) / self.pitch[0])
        row = math.floor((y - self.origin[1]) / self.pitch[1])
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return row * self.cols + col
        return None

    def cell_edges(self) -> tuple[list[int], list[int]]:
        """Whole-pixel left edges of every column (and the board's right edge), and the
        same for rows: where a cell is cut out of an image, rounding halves up."""
        xs = [math.floor(self.origin[0] + c * self.pitch[0] + 0.5) for c in range(self.cols + 1)]
        ys = [math.floor(self.origin[1] + r * self.pitch[1] + 0.5) for r in range(self.rows + 1)]
        return xs, ys

    def moved(self, dx: float, dy: float) -> Grid:
        """The same lattice (dx, dy) pixels on: to another place, or into another frame."""
        return Grid((self.origin[0] + dx, self.origin[1] + dy), self.pitch, self.rows, self.cols)
