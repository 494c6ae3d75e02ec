"""Synthetic Minesweeper boards drawn in numpy, with their true geometry.

Each board is a window (background, optional toolbar of tile-like buttons,
the board) in a random palette, resized as a display at 100-200% would show
it, pasted on a desktop. The truth follows vision.lattice's convention: a
cell's box is centred on its tile, pixel edges as coordinates, so a resize by
s maps an edge u to s * u exactly (cv2.resize samples pixel centres).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from msolver.vision.image import Image


@dataclass(frozen=True)
class Spec:
    rows: int = 16
    cols: int = 30
    tile: int = 20  # tile size at 100%, px
    gap: int = 0  # px between tiles (0: tiles touch, a 1 px line when lines)
    style: str = "bevel"  # bevel, flat, rounded, lines
    texture: bool = False  # stippled (dithered) unopened tiles
    gradient: bool = False  # vertical gradient behind semi-transparent tiles
    toolbar: bool = False  # a row of tile-like buttons above the board
    scale: float = 1.0
    area: bool = False  # resize with INTER_AREA instead of INTER_LINEAR
    opened: int = 0  # cells opened in the top-left corner (a game under way)
    seed: int = 0
    at: tuple[int, int] = (40, 30)  # where the window goes on the desktop
    # the first `wide` rows and columns a pixel bigger, as a toolkit lays out
    # cells of a fractional size (GTK: 10 columns of 37 px, then 20 of 36)
    wide: int = 0
    # cells this many times wider than tall (buttons sized in text units, a
    # page's CSS): the picture enlarged by this along x (or by its inverse
    # along y, below 1), never shrunk, so that no cell is aliased
    stretch: float = 1.0


@dataclass(frozen=True)
class Truth:
    rows: int
    cols: int
    origin: tuple[float, float]
    pitch: tuple[float, float]
    # every cell box's edges (cols + 1, rows + 1), where the lines are uneven
    xs: tuple[float, ...] | None = None
    ys: tuple[float, ...] | None = None


def _colour(rng: np.random.Generator) -> np.ndarray:
    return rng.integers(40, 216, 3).astype(np.float64)


def _tile(spec: Spec, face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One unopened tile (tile x tile x 4: RGB and alpha in 0..1)."""
    t = spec.tile
    img = np.zeros((t, t, 4))
    img[:, :, :3] = face
    img[:, :, 3] = 1.0
    if spec.texture:
        yy, xx = np.mgrid[0:t, 0:t]
        img[(yy + xx) % 2 == 0, :3] = np.clip(face + 45, 0, 255)
    if spec.style == "bevel":
        b = max(2, t // 8)
        hi, lo = np.clip(face + 60, 0, 255), np.clip(face - 60, 0, 255)
        for i in range(b):
            img[i, i : t - i, :3] = hi
            img[i : t - i, i, :3] = hi
            img[t - 1 - i, i : t - i, :3] = lo
            img[i : t - i, t - 1 - i, :3] = lo
    elif spec.style == "rounded":
        r = max(3, t // 4)
        yy, xx = np.mgrid[0:t, 0:t] + 0.5
        for cy, cx in ((r, r), (r, t - r), (t - r, r), (t - r, t - r)):
            out = (np.abs(yy - cy) > 0) & ((yy < r) | (yy > t - r)) & ((xx < r) | (xx > t - r))
            corner = out & ((yy - cy) ** 2 + (xx - cx) ** 2 > r * r)
            corner &= (np.abs(yy - cy) <= r) & (np.abs(xx - cx) <= r)
            img[corner, 3] = 0.0
    return img


def render(spec: Spec, desktop: tuple[int, int] = (1920, 1080)) -> tuple[Image, Truth]:
    """The desktop picture and the board's true geometry on it."""
    import cv2

    rng = np.random.default_rng(spec.seed)
    bg = _colour(rng)
    face = _colour(rng)
    while np.abs(face - bg).sum() < 90:
        face = _colour(rng)
    opened_face = np.clip(face + rng.choice([-50.0, 50.0]), 0, 255)
    line = np.clip(bg - 70, 0, 255) if spec.style == "lines" else bg
    gap = 1 if spec.style == "lines" else spec.gap
    pitch = spec.tile + gap
    top_pad = 3 * spec.tile + 20 if spec.toolbar else 20
    x0, y0 = 20 + gap, top_pad + gap
    h = y0 + spec.rows * pitch + spec.wide + 20
    w = x0 + spec.cols * pitch + spec.wide + 20
    win = np.empty((h, w, 3))
    if spec.gradient:
        ramp = np.linspace(0.0, 1.0, h)[:, None, None]
        win[:] = bg * (1 - ramp) + _colour(rng) * ramp
    else:
        win[:] = bg
    # the board's lines or gaps (behind the tiles)
    win[y0 - gap : y0 + spec.rows * pitch, x0 - gap : x0 + spec.cols * pitch] = (
        line
        if spec.style == "lines"
        else win[y0 - gap : y0 + spec.rows * pitch, x0 - gap : x0 + spec.cols * pitch]
    )
    tile = _tile(spec, face, rng)
    alpha = 0.8 if spec.gradient else 1.0
    for r in range(spec.rows):
        for c in range(spec.cols):
            ty, tx = y0 + r * pitch + min(r, spec.wide), x0 + c * pitch + min(c, spec.wide)
            size = (spec.tile + (c < spec.wide), spec.tile + (r < spec.wide))
            cell = tile if size == (spec.tile, spec.tile) else _stretch(tile, size)
            cell = cell.copy()
            if spec.opened and r < spec.opened and c < spec.opened:
                cell[:, :, :3] = opened_face
                if (r + c) % 3 == 0 and not spec.wide:
                    k = spec.tile // 3
                    cell[k : spec.tile - k, spec.tile // 2 - 1 : spec.tile // 2 + 2, :3] = (
                        0,
                        0,
                        200,
                    )
            a = cell[:, :, 3:4] * alpha
            dst = win[ty : ty + size[1], tx : tx + size[0]]
            dst[:] = dst * (1 - a) + cell[:, :, :3] * a
    if spec.toolbar:
        # buttons like tiles but wider and spaced otherwise, plus a counter
        bw = int(spec.tile * 1.6)
        for i in range(5):
            bx = x0 + i * (bw + 7)
            sub = cv2.resize(tile, (bw, spec.tile), interpolation=cv2.INTER_NEAREST)
            by = 10
            a = sub[:, :, 3:4]
            dst = win[by : by + spec.tile, bx : bx + bw]
            dst[:] = dst * (1 - a) + sub[:, :, :3] * a
        win[12 : 12 + spec.tile - 4, w - 80 : w - 30] = (20, 20, 20)
    img = np.clip(np.round(win), 0, 255).astype(np.uint8)
    s = spec.scale
    sx, sy = s * max(spec.stretch, 1.0), s / min(spec.stretch, 1.0)
    if (sx, sy) != (1.0, 1.0):
        interp = cv2.INTER_AREA if spec.area else cv2.INTER_LINEAR
        img = np.asarray(cv2.resize(img, None, fx=sx, fy=sy, interpolation=interp), np.uint8)
    dw = max(desktop[0], spec.at[0] + img.shape[1] + 10)
    dh = max(desktop[1], spec.at[1] + img.shape[0] + 10)
    out = np.empty((dh, dw, 3), np.uint8)
    out[:] = (48, 64, 96)
    out[spec.at[1] : spec.at[1] + img.shape[0], spec.at[0] : spec.at[0] + img.shape[1]] = img
    origin = (spec.at[0] + sx * (x0 - gap / 2), spec.at[1] + sy * (y0 - gap / 2))
    if not spec.wide:
        return out, Truth(spec.rows, spec.cols, origin, (sx * pitch, sy * pitch))
    assert spec.stretch == 1.0, "uneven lines are drawn square"

    def lines(o: float, n: int) -> tuple[float, ...]:
        return tuple(o + s * (k * pitch + min(k, spec.wide)) for k in range(n + 1))

    xs, ys = lines(origin[0], spec.cols), lines(origin[1], spec.rows)
    mean = ((xs[-1] - xs[0]) / spec.cols, (ys[-1] - ys[0]) / spec.rows)
    return out, Truth(spec.rows, spec.cols, origin, mean, xs, ys)


def _stretch(tile: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The tile at (width, height): its middle row and column drawn twice, bevels kept."""
    out = tile
    if size[0] > tile.shape[1]:
        m = tile.shape[1] // 2
        out = np.concatenate([out[:, : m + 1], out[:, m:]], axis=1)
    if size[1] > tile.shape[0]:
        m = tile.shape[0] // 2
        out = np.concatenate([out[: m + 1], out[m:]], axis=0)
    return out


def dropped_lines(
    cols: int, rows: int, pitch: float, drop_cols: set[int], drop_rows: set[int]
) -> Image:
    """A flat grey board of 1 px dark lines on a light page, as a browser zoomed
    out draws it: line k at round(k * pitch) from (30, 50), the inner lines
    in `drop_cols` (`drop_rows`) not drawn, so some faces span several cells."""
    page = np.full((int(rows * pitch) + 90, int(cols * pitch) + 70, 3), 243, np.uint8)
    x0, y0 = 30, 50
    w, h = round(cols * pitch), round(rows * pitch)
    page[y0 : y0 + h + 1, x0 : x0 + w + 1] = 201
    for k in range(cols + 1):
        if k not in drop_cols or k in (0, cols):
            page[y0 : y0 + h + 1, x0 + round(k * pitch)] = 142
    for k in range(rows + 1):
        if k not in drop_rows or k in (0, rows):
            page[y0 + round(k * pitch), x0 : x0 + w + 1] = 142
    return page
