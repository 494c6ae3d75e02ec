"""The hint picture: a screenshot with the solver's view of the board drawn on it.

Every unknown cell is tinted by its mine probability on one colour scale,
green (0%) through yellow (50%) to red (100%), each square edged in dark
grey so it cannot be taken for a theme's own coloured tile; cells proven safe also get a
white ring, cells proven mines a black cross; the best move is circled in
magenta, a colour the scale never uses (its blue channel is always 0), so
neither eye nor test can take a tint for the ring. Below the picture a
caption strip says the move and its reason, with a legend bar of the scale.

Pure drawing: pixels, geometry and the solver's numbers in, an RGB array
out. Capture, files and the command line live elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from msolver.core.board import UNKNOWN, Board
from msolver.vision.geometry import Grid
from msolver.vision.image import Image, as_rgb

RING = (255, 0, 255)  # the best move
SAFE_MARK = (255, 255, 255)
MINE_MARK = (0, 0, 0)
# Dark edge around each tinted square: some themes (gnome-mines) give their
# numbers pastel green-to-red backgrounds, and the edge tells a tint apart.
OUTLINE = (24, 24, 24)
CAPTION_BG = (32, 32, 32)
CAPTION_FG = (240, 240, 240)
# How much of a tinted cell's own pixels still show through the tint: enough
# to see the tile under it, little enough that the colour reads at a glance.
TINT_ALPHA = 0.7
# The tint leaves this share of the pitch clear on each side, so the grid
# lines and the board's look stay visible around each coloured square.
INSET = 0.12
LEGEND_WIDTH = 200
_FONT = 0  # cv2.FONT_HERSHEY_SIMPLEX, spelled as its value so cv2 loads lazily


class OverlayError(ValueError):
    """Inputs that do not describe one board on the picture; one-line message."""


def scale_colour(p: float) -> tuple[int, int, int]:
    """RGB of mine probability p on the scale: green, yellow at 50%, red."""
    p = min(1.0, max(0.0, p))
    return (round(255 * min(1.0, 2 * p)), round(255 * min(1.0, 2 * (1 - p))), 0)


def scale_colours(p: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """`scale_colour` for many probabilities at once: shape (..., 3), unrounded."""
    q = np.clip(p, 0.0, 1.0)
    return np.stack([255 * np.minimum(1, 2 * q), 255 * np.minimum(1, 2 * (1 - q)), 0 * q], -1)


def probability_of(colour: Sequence[float] | npt.NDArray[Any]) -> float:
    """The probability whose scale colour is nearest `colour` (RGB); for tests and readers."""
    r, g = float(colour[0]), float(colour[1])
    # Below yellow only red moves, above it only green: read the moving channel.
    if g >= r:
        return min(0.5, max(0.0, r / 510))
    return min(1.0, max(0.5, 1 - g / 510))


def cell_inner_box(grid: Grid, row: int, col: int) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) in whole pixels of the tinted part of a cell (x1, y1 exclusive)."""
    x0, y0, px, py = grid.cell_box(row, col)
    return (
        int(np.floor(x0 + INSET * px + 0.5)),
        int(np.floor(y0 + INSET * py + 0.5)),
        int(np.floor(x0 + (1 - INSET) * px + 0.5)),
        int(np.floor(y0 + (1 - INSET) * py + 0.5)),
    )


def outline_width(grid: Grid) -> int:
    return max(1, round(min(grid.pitch) / 24))


def tint_box(grid: Grid, row: int, col: int) -> tuple[int, int, int, int]:
    """The part of `cell_inner_box` inside the tinted square's dark edge: pure tint."""
    x0, y0, x1, y1 = cell_inner_box(grid, row, col)
    t = outline_width(grid)
    return (x0 + t, y0 + t, x1 - t, y1 - t)


def cell_centre(grid: Grid, row: int, col: int) -> tuple[float, float]:
    return grid.centre_xy(row, col)


def _check(image: Image, grid: Grid, board: Board, prob: Sequence[float | None]) -> None:
    if (grid.cols, grid.rows) != (board.width, board.height):
        raise OverlayError(
            f"the grid is {grid.cols}x{grid.rows} cells "
            f"but the board is {board.width}x{board.height}"
        )
    if len(prob) != board.size:
        raise OverlayError(f"{len(prob)} probabilities for a board of {board.size} cells")
    h, w = image.shape[:2]
    ox, oy = grid.col_edge(0), grid.row_edge(0)
    right, bottom = grid.col_edge(grid.cols), grid.row_edge(grid.rows)
    if ox < -0.5 or oy < -0.5 or right > w + 0.5 or bottom > h + 0.5:
        raise OverlayError(
            f"the board ({grid.cols}x{grid.rows} cells at {ox:.0f},{oy:.0f}) "
            f"does not fit the {w}x{h} picture"
        )


def _tint(out: Image, grid: Grid, board: Board, prob: Sequence[float | None]) -> None:
    import cv2

    unknown = [i for i, s in enumerate(board.cells) if s == UNKNOWN and prob[i] is not None]
    if not unknown:
        return
    # One colour image of the board's cells, blended once: far cheaper than
    # a blend per cell on an expert board.
    h, w = out.shape[:2]
    x_lo = min(cell_inner_box(grid, 0, 0)[0], w)
    y_lo = min(cell_inner_box(grid, 0, 0)[1], h)
    x_hi = max(cell_inner_box(grid, grid.rows - 1, grid.cols - 1)[2], 0)
    y_hi = max(cell_inner_box(grid, grid.rows - 1, grid.cols - 1)[3], 0)
    x_lo, y_lo = max(x_lo, 0), max(y_lo, 0)
    x_hi, y_hi = min(x_hi, w), min(y_hi, h)
    if x_hi <= x_lo or y_hi <= y_lo:
        return
    region = out[y_lo:y_hi, x_lo:x_hi]
    paint = region.copy()
    mask = np.zeros(region.shape[:2], np.uint8)
    probs = np.array([prob[i] for i in unknown], np.float64)
    colours = scale_colours(probs)
    for i, col in zip(unknown, colours, strict=True):
        r, c = divmod(i, board.width)
        x0, y0, x1, y1 = cell_inner_box(grid, r, c)
        sl = (slice(y0 - y_lo, y1 - y_lo), slice(x0 - x_lo, x1 - x_lo))
        paint[sl] = np.round(col).astype(np.uint8)
        mask[sl] = 1
    blended = cv2.addWeighted(paint, TINT_ALPHA, region, 1 - TINT_ALPHA, 0.0)
    np.copyto(region, blended, where=mask[:, :, None].astype(bool))
    t = outline_width(grid)
    for i in unknown:
        x0, y0, x1, y1 = cell_inner_box(grid, *divmod(i, board.width))
        x0, y0, x1, y1 = x0 - x_lo, y0 - y_lo, x1 - x_lo, y1 - y_lo
        region[y0 : y0 + t, x0:x1] = OUTLINE
        region[y1 - t : y1, x0:x1] = OUTLINE
        region[y0:y1, x0 : x0 + t] = OUTLINE
        region[y0:y1, x1 - t : x1] = OUTLINE


def _marks(out: Image, grid: Grid, board: Board, prob: Sequence[float | None]) -> None:
    import cv2

    px, py = grid.pitch
    thick = max(1, round(min(px, py) / 10))
    for i, s in enumerate(board.cells):
        p = prob[i]
        if s != UNKNOWN or p is None or p not in (0.0, 1.0):
            continue
        r, c = divmod(i, board.width)
        x0, y0, x1, y1 = tint_box(grid, r, c)
        if p == 0.0:
            cx, cy = cell_centre(grid, r, c)
            radius = max(2, round(min(px, py) * 0.22))
            cv2.circle(out, (int(cx), int(cy)), radius, SAFE_MARK, thick, cv2.LINE_AA)
        else:
            cv2.line(
                out,
                (x0 + thick, y0 + thick),
                (x1 - 1 - thick, y1 - 1 - thick),
                MINE_MARK,
                thick,
                cv2.LINE_AA,
            )
            cv2.line(
                out,
                (x0 + thick, y1 - 1 - thick),
                (x1 - 1 - thick, y0 + thick),
                MINE_MARK,
                thick,
                cv2.LINE_AA,
            )


def _ring(out: Image, grid: Grid, board: Board, best: int) -> None:
    import cv2

    r, c = divmod(best, board.width)
    cx, cy = cell_centre(grid, r, c)
    px, py = grid.pitch
    thick = max(2, round(min(px, py) / 7))
    radius = round(0.5 * max(px, py) * 1.3)
    # No anti-aliasing: the ring is one exact colour a reader can find.
    cv2.circle(out, (round(cx), round(cy)), radius, RING, thick, cv2.LINE_8)


def _fit_text(text: str, width: int, scale: float) -> tuple[str, float]:
    """The text at a font scale that fits `width` pixels; shrunk, then cut with '...'."""
    import cv2

    def size(t: str, s: float) -> int:
        return int(cv2.getTextSize(t, _FONT, s, 1)[0][0])

    while scale > 0.35 and size(text, scale) > width:
        scale -= 0.05
    if size(text, scale) <= width:
        return text, scale
    while len(text) > 4 and size(text + "...", scale) > width:
        text = text[:-1]
    return text + "...", scale


_LINE_H = 24  # caption line height; the legend line sits under it
_SMALL = 0.45  # font scale of the legend's words


def _legend_layout(width: int) -> tuple[bool, int, int, int, int]:
    """(show the label, x of "0%", x of the bar, bar width, x of "100%") for a strip this wide."""
    import cv2

    (lw, _), _ = cv2.getTextSize("mine chance", _FONT, _SMALL, 1)
    (zw, _), _ = cv2.getTextSize("0%", _FONT, _SMALL, 1)
    (hw, _), _ = cv2.getTextSize("100%", _FONT, _SMALL, 1)
    label = width >= lw + 110
    x_zero = 6 + (lw + 8 if label else 0)
    x_bar = x_zero + zw + 4
    bar_w = max(10, min(LEGEND_WIDTH, width - x_bar - hw - 14))
    return label, x_zero, x_bar, bar_w, x_bar + bar_w + 4


def _caption(width: int, caption: str) -> Image:
    """The strip under the picture: the caption line, then the legend bar."""
    import cv2

    strip = np.empty((2 * _LINE_H + 12, width, 3), np.uint8)
    strip[:] = CAPTION_BG
    text, scale = _fit_text(caption, width - 12, 0.55)
    cv2.putText(strip, text, (6, 18), _FONT, scale, CAPTION_FG, 1, cv2.LINE_AA)
    label, x_zero, x_bar, bar_w, x_full = _legend_layout(width)
    y = _LINE_H + 8
    if label:
        cv2.putText(strip, "mine chance", (6, y + 13), _FONT, _SMALL, CAPTION_FG, 1, cv2.LINE_AA)
    cv2.putText(strip, "0%", (x_zero, y + 13), _FONT, _SMALL, CAPTION_FG, 1, cv2.LINE_AA)
    bar = np.round(scale_colours(np.linspace(0.0, 1.0, bar_w))).astype(np.uint8)
    strip[y : y + 16, x_bar : x_bar + bar_w] = bar[None, :, :]
    cv2.putText(strip, "100%", (x_full, y + 13), _FONT, _SMALL, CAPTION_FG, 1, cv2.LINE_AA)
    return strip


def legend_box(picture_height: int, width: int) -> tuple[int, int, int, int]:
    """Where `render` puts the legend bar: (x0, y0, x1, y1), x1 and y1 exclusive.

    `picture_height` is the height of the picture above the strip.
    """
    _label, _x_zero, x_bar, bar_w, _x_full = _legend_layout(width)
    y = picture_height + _LINE_H + 8
    return (x_bar, y, x_bar + bar_w, y + 16)


def render(
    image: Image,
    grid: Grid,
    board: Board,
    prob: Sequence[float | None],
    best: int | None,
    reason: str,
    *,
    action: str = "open",
) -> Image:
    """The hint picture: `image` with the board's probabilities drawn on it, and a caption.

    image: RGB (H, W, 3) or BGRA (H, W, 4) as mss grabs it; grid: where the
    board is on it (image pixels); prob: each cell's mine probability (None
    for an opened cell), as `analyse` gives them; best: the cell to ring, or
    None; reason: the sentence for the caption; action: "open" or "flag".
    Returns RGB (H + caption strip, W, 3); `image` is left as it was.
    """
    rgb = as_rgb(image)
    _check(rgb, grid, board, prob)
    h, w = rgb.shape[:2]
    if best is not None:
        r, c = divmod(best, board.width)
        caption = f"{action} ({r},{c}): {reason}"
    else:
        caption = reason
    strip = _caption(w, caption)
    out = np.empty((h + strip.shape[0], w, 3), np.uint8)
    out[:h] = rgb
    out[h:] = strip
    pic = out[:h]
    _tint(pic, grid, board, prob)
    _marks(pic, grid, board, prob)
    if best is not None:
        _ring(pic, grid, board, best)
    return out
