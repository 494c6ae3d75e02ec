"""Pixels -> Flood-It board: find the grid, learn the palette, read cells.

Nothing here knows the mouse. Images are RGB uint8 (H, W, 3).

Finding the grid: the cells are flat, saturated colours, and neighbouring
cells of different colours are split by thin dark lines (sgt-flood: 2 px of
black) or at least by a colour step. The board is the biggest blob of
saturated pixels once those lines are bridged. Its column count is the
largest n for which every one of the n-1 evenly spaced inner boundaries shows
an edge in a good share of the rows: a wrong, larger n puts some boundary
inside cells (no edges there), a smaller n is a divisor and loses to n.

Palette: cell-centre colours clustered with a tolerance; nothing about the
game's colours is hard-coded. Reading a frame maps each centre to the nearest
learned colour and refuses (with the cell) when it is far from all of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from msolver.files import atomic_open
from msolver.flood.core import FloodBoard
from msolver.vision.geometry import Grid
from msolver.vision.image import Image, as_rgb

SYMBOLS = "123456789abcdefg"
# Saturation (max - min channel) above which a pixel is a cell colour.
_SAT = 60
# Colours closer than this (sum of channel differences) are one palette entry.
_SAME = 60
# A centre farther than this from every palette entry is not a known colour.
_FAR = 90
_MIN_PITCH = 8


class FloodVisionError(ValueError):
    """No Flood-It board in the image, or a frame that does not read as one."""


def cell_centre(grid: Grid, row: int, col: int) -> tuple[int, int]:
    """The nearest whole pixel to a cell's centre: where Flood-It is sampled and clicked."""
    x, y = grid.centre_xy(row, col)
    return (round(x), round(y))


@dataclass(frozen=True, slots=True)
class FloodProfile:
    """A calibration: where the grid is (screen pixels) and the learned colours."""

    grid: Grid  # screen pixels
    palette: tuple[tuple[int, int, int], ...]

    def to_json(self) -> dict[str, Any]:
        g = self.grid
        return {
            "kind": "flood",
            "grid": {
                "left": g.origin[0],
                "top": g.origin[1],
                "pitch_x": g.pitch[0],
                "pitch_y": g.pitch[1],
                "cols": g.cols,
                "rows": g.rows,
            },
            "palette": [list(c) for c in self.palette],
        }

    @staticmethod
    def from_json(data: Any, where: str = "profile") -> FloodProfile:
        try:
            if data.get("kind") != "flood":
                raise FloodVisionError(f"{where}: not a Flood-It profile (kind != 'flood')")
            g = data["grid"]
            grid = Grid(
                (float(g["left"]), float(g["top"])),
                (float(g["pitch_x"]), float(g["pitch_y"])),
                rows=int(g["rows"]),
                cols=int(g["cols"]),
            )
            palette = tuple((int(c[0]), int(c[1]), int(c[2])) for c in data["palette"])
        except (AttributeError, KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, FloodVisionError):
                raise
            raise FloodVisionError(f"{where}: malformed Flood-It profile ({exc!r})") from exc
        if grid.cols < 2 or grid.rows < 2 or grid.pitch[0] < 1 or grid.pitch[1] < 1:
            raise FloodVisionError(f"{where}: grid {grid} is not a usable board")
        if not 2 <= len(palette) <= len(SYMBOLS):
            raise FloodVisionError(f"{where}: palette has {len(palette)} colours")
        return FloodProfile(grid, palette)

    def save(self, path: str | Path) -> None:
        """Write atomically (temp file + replace): a crash never leaves half a profile."""
        with atomic_open(path) as fh:
            json.dump(self.to_json(), fh, indent=1)
            fh.write("\n")

    @staticmethod
    def load(path: str | Path) -> FloodProfile:
        p = Path(path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise FloodVisionError(f"{p}: cannot read profile ({exc})") from exc
        return FloodProfile.from_json(data, str(p))


def _edges_1d(rgb16: npt.NDArray[np.int16], axis: int) -> npt.NDArray[np.float64]:
    """Share of lines with a colour step between pixel i and i+1 along `axis`."""
    if axis == 1:
        step = np.abs(np.diff(rgb16, axis=1)).sum(axis=2) > _SAT
        return np.asarray(step.mean(axis=0), dtype=np.float64)
    step = np.abs(np.diff(rgb16, axis=0)).sum(axis=2) > _SAT
    return np.asarray(step.mean(axis=1), dtype=np.float64)


def _count_cells(edges: npt.NDArray[np.float64], span: float, sep: float, lines: int) -> int | None:
    """The n that explains the edges best (see module doc), or None.

    No edge may lie away from the n-1 evenly spaced inner boundaries (cells
    are flat): that rules out every n that is not a multiple of the true one.
    Among the rest, the n whose boundaries most often show an edge wins (a
    multiple puts boundaries inside cells, where there are none); ties go to
    the smaller n. A true boundary may show no edge at all when both sides
    have one colour in every line, which is why a share, not all, is asked.
    """
    hits = edges >= 0.5 / lines
    size = len(edges)
    best: tuple[float, int] | None = None
    for n in range(2, int(span // _MIN_PITCH) + 1):
        pitch = span / n
        covered = np.zeros(size, dtype=bool)
        shown = 0
        for k in range(1, n):
            x = -sep + k * pitch
            seen = False
            # the separator's two edges: between pixels x-sep-1|x-sep and x+sep-1|x+sep
            for e in (x - sep - 1, x + sep - 1):
                lo = max(0, int(np.floor(e - 1)))
                hi = min(size, int(np.ceil(e + 1)) + 1)
                if hi > lo:
                    covered[lo:hi] = True
                    seen = seen or bool(hits[lo:hi].any())
            shown += seen
        if (hits & ~covered).any():
            continue
        share = shown / (n - 1)
        if share >= 0.5 and (best is None or share > best[0]):
            best = (share, n)
    return None if best is None else best[1]


def find_grid(image: Image) -> Grid:
    """Locate the board; FloodVisionError with the reason when there is none."""
    import cv2

    rgb = as_rgb(image)
    rgb16 = rgb.astype(np.int16)
    sat = (rgb16.max(axis=2) - rgb16.min(axis=2)) > _SAT
    if sat.sum() < 4 * _MIN_PITCH * _MIN_PITCH:
        raise FloodVisionError("no Flood-It board: hardly any coloured pixels on the screen")
    bridged = cv2.dilate(sat.astype(np.uint8), np.ones((5, 5), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(bridged, connectivity=4)
    if count < 2:
        raise FloodVisionError("no Flood-It board: no coloured area")
    big = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    ys, xs = np.nonzero(sat & (labels == big))
    x0, x1, y0, y1 = int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max())
    w, h = x1 - x0 + 1, y1 - y0 + 1
    fill = float(sat[y0 : y1 + 1, x0 : x1 + 1].mean())
    if w < 2 * _MIN_PITCH or h < 2 * _MIN_PITCH or fill < 0.4:
        raise FloodVisionError(
            f"no Flood-It board: the biggest coloured area ({w}x{h} at {x0},{y0}) "
            f"is not a grid of flat colours (fill {fill:.2f})"
        )
    # Half the width of the dark frame just outside the coloured area is the
    # separator each cell draws on its own edge (0 for themes without lines).
    dark = rgb16.max(axis=2) < 60
    run = 0
    while x0 - run - 1 >= 0 and dark[y0 : y1 + 1, x0 - run - 1].mean() > 0.8 and run < 8:
        run += 1
    sep = run / 2
    box = rgb16[y0 : y1 + 1, x0 : x1 + 1]
    span_x, span_y = w + 2 * sep, h + 2 * sep
    cols = _count_cells(_edges_1d(box, 1), span_x, sep, h)
    rows = _count_cells(_edges_1d(box, 0), span_y, sep, w)
    if cols is None or rows is None:
        raise FloodVisionError(
            f"no Flood-It board: no regular cell boundaries in the {w}x{h} area at {x0},{y0}"
        )
    grid = Grid((x0 - sep, y0 - sep), (span_x / cols, span_y / rows), rows=rows, cols=cols)
    _check_flat(rgb16, grid)
    return grid


def _centres(rgb16: npt.NDArray[np.int16], grid: Grid) -> npt.NDArray[np.int16]:
    """Median colour of a small patch at each cell centre, (rows, cols, 3)."""
    r = max(1, int(min(grid.pitch) // 6))
    out = np.zeros((grid.rows, grid.cols, 3), dtype=np.int16)
    for row in range(grid.rows):
        for col in range(grid.cols):
            cx, cy = cell_centre(grid, row, col)
            patch = rgb16[cy - r : cy + r + 1, cx - r : cx + r + 1].reshape(-1, 3)
            if patch.shape[0] == 0:
                raise FloodVisionError(f"row {row}, col {col}: cell lies off the image")
            out[row, col] = np.median(patch, axis=0)
    return out


def _check_flat(rgb16: npt.NDArray[np.int16], grid: Grid) -> None:
    r = max(1, int(min(grid.pitch) // 4))
    for row in range(grid.rows):
        for col in range(grid.cols):
            cx, cy = cell_centre(grid, row, col)
            patch = rgb16[cy - r : cy + r + 1, cx - r : cx + r + 1].reshape(-1, 3)
            spread = int((patch.max(axis=0) - patch.min(axis=0)).max())
            if spread > 40:
                raise FloodVisionError(
                    f"no Flood-It board: cell row {row}, col {col} of the "
                    f"{grid.cols}x{grid.rows} grid is not one flat colour"
                )


def learn_palette(
    image: Image, grid: Grid, known: tuple[tuple[int, int, int], ...] = ()
) -> tuple[tuple[int, int, int], ...]:
    """`known` plus every new cell colour, new ones sorted (stable across sessions)."""
    cells = _centres(as_rgb(image).astype(np.int16), grid).reshape(-1, 3)
    palette = [np.array(c, dtype=np.int16) for c in known]
    fresh: list[npt.NDArray[np.int16]] = []
    for c in cells:
        if int(c.max() - c.min()) <= _SAT:
            raise FloodVisionError(
                f"cell colour {tuple(int(v) for v in c)} is grey or black, not a Flood-It colour"
            )
        if any(int(np.abs(c - p).sum()) <= _SAME for p in palette + fresh):
            continue
        fresh.append(c)
    fresh.sort(key=lambda c: tuple(int(v) for v in c))
    out = tuple(known) + tuple((int(c[0]), int(c[1]), int(c[2])) for c in fresh)
    if len(out) > len(SYMBOLS):
        raise FloodVisionError(f"{len(out)} colours on the board; at most {len(SYMBOLS)} allowed")
    return out


def calibrate(image: Image) -> FloodProfile:
    grid = find_grid(image)
    palette = learn_palette(image, grid)
    if len(palette) < 2:
        raise FloodVisionError("the board shows a single colour: start a new game to calibrate")
    return FloodProfile(grid, palette)


@dataclass(frozen=True, slots=True)
class FloodRead:
    """A frame's reading: the board, or why there is none."""

    board: FloodBoard | None
    reason: str = ""
    dark: bool = False  # every cell dark: sgt-flood's defeat flash


def read_board(image: Image, profile: FloodProfile, offset: tuple[int, int] = (0, 0)) -> FloodRead:
    """Read the cells of `image`, whose top-left pixel is screen point `offset`."""
    rgb16 = as_rgb(image).astype(np.int16)
    grid = profile.grid.moved(-offset[0], -offset[1])
    try:
        cells = _centres(rgb16, grid)
    except FloodVisionError as exc:
        return FloodRead(None, str(exc))
    if int(cells.max()) < 60:
        return FloodRead(None, "every cell is dark (a defeat flash?)", dark=True)
    pal = np.array(profile.palette, dtype=np.int16)
    dist = np.abs(cells[:, :, None, :] - pal[None, None, :, :]).sum(axis=3)
    idx = dist.argmin(axis=2)
    best = dist.min(axis=2)
    if int(best.max()) > _FAR:
        r, c = np.unravel_index(int(best.argmax()), best.shape)
        col = tuple(int(v) for v in cells[r, c])
        return FloodRead(None, f"row {r}, col {c}: colour {col} is not in the palette")
    symbols = SYMBOLS[: len(profile.palette)]
    flat = tuple(int(v) for v in idx.reshape(-1))
    return FloodRead(FloodBoard(grid.cols, grid.rows, flat, symbols))
