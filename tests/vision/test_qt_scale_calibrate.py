"""kmines under Qt's display scaling, grabbed with the whole screen around it.

Qt lays a board of fractional pitch in cells of two widths (24 and 25 px at
175%, faces 16 px apart by gaps of 1 and 2 px at 125%). Each window alone
calibrates; pasted at the top-left of a black screen (as a user's whole-screen
grab shows it) it did not: the 9x9 board at 175% came out with its first
column on the board's dark frame, its pitch 24.29 for 24.5 or as "partly
played"; the 30x16 board at 125% as "no board found", its rows' comb drowned
by the window's border half a pitch off their lines, and its last row refused
for every second cell. A board must come out whole whatever the screen's size.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from msolver.vision.grid import calibrate
from msolver.vision.image import Image, read_png
from msolver.vision.lattice import _cut, _edges, _grow_uneven, _undither

GOLDEN = Path(__file__).resolve().parent / "golden"


@dataclass(frozen=True)
class Window:
    """A recorded window and its board's truth, measured on its pixels: each cell's
    face starts at floor(face + k * pitch); a box may start anywhere from the
    gap before the face (gap: the widest) to a pixel into it, as the battery
    corpus allows (tests/vision/test_battery_corpus.py)."""

    name: str
    mines: int
    rows: int
    cols: int
    face: tuple[float, float]
    pitch: tuple[float, float]
    gap: float


WINDOWS = [
    Window("kmines-default-easy-qt175", 10, 9, 9, (277.0, 130.0), (24.5, 24.5), 4.0),
    Window("kmines-classic-hard-qt125", 99, 16, 30, (123.0, 93.0), (17.5, 17.5), 2.0),
    # Its graveyard pictures repeat every two cells: a 16x16 board of 17.503 px
    # was passed over for the 8x8 blocks of 35.007 px it splits, as 3 px^2 less
    # area (the pitches' rounding), and the blocks, half a block off, were
    # refused as "partly played" (an unseen variant of the eighteenth session).
    Window("kmines-graveyard-mayhem-medium-qt125", 40, 16, 16, (245.0, 92.5), (17.5, 17.5), 2.5),
]
SCREENS = [(1000, 700), (1280, 720), (1920, 1080)]


def on_screen(window: Image, size: tuple[int, int]) -> Image:
    """The window at the top-left of a black screen of `size` (width, height)."""
    screen = np.zeros((size[1], size[0], 3), np.uint8)
    h, w = window.shape[:2]
    screen[:h, :w] = window[:, :, :3]
    return screen


@pytest.mark.parametrize("size", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("win", WINDOWS, ids=lambda w: w.name)
def test_a_scaled_kmines_board_is_found_on_the_whole_screen(
    win: Window, size: tuple[int, int]
) -> None:
    window = read_png(GOLDEN / f"{win.name}-window.png")
    prof = calibrate(on_screen(window, size), mines=win.mines)
    assert (prof.grid.rows, prof.grid.cols) == (win.rows, win.cols)
    for axis, edges in enumerate(prof.grid.edges()):
        assert prof.grid.pitch[axis] == pytest.approx(win.pitch[axis], abs=0.05)
        for k, start in enumerate(edges[:-1]):
            face = float(np.floor(win.face[axis] + k * win.pitch[axis]))
            assert face - win.gap - 1 <= start <= face + 1, (axis, k, start, face)


def gapped_board(rows: int, cols: int) -> tuple[Image, float, float]:
    """Flat faces 16 px square between white gaps of 2 and 1 px in turn (17.5 px
    apart, as Qt lays kmines' classic look at 125%), the dark frame right after
    the last faces; (picture, first boundary x, first boundary y)."""
    face, gaps, at = 16, (2, 1), (40, 30)
    img = np.full((300, 400, 3), 230, np.uint8)
    starts: list[int] = []
    pos = 0
    for k in range(max(rows, cols)):
        pos += gaps[k % 2]
        starts.append(pos)
        pos += face
    width, height = starts[cols - 1] + face, starts[rows - 1] + face
    x0, y0 = at
    img[y0 : y0 + height, x0 : x0 + width] = 254
    for r in starts[:rows]:
        for c in starts[:cols]:
            img[y0 + r : y0 + r + face, x0 + c : x0 + c + face] = (238, 239, 242)
    img[y0 + height : y0 + height + 2, x0 : x0 + width + 2] = 85
    img[y0 : y0 + height + 2, x0 + width : x0 + width + 2] = 85
    # the boundary before the first face: the middle of its gap
    return img, x0 + gaps[0] / 2, y0 + gaps[0] / 2


@pytest.mark.parametrize("rows,cols", [(8, 13), (8, 12), (6, 9)])
def test_a_row_of_cells_of_both_kinds_grows_onto_the_board(rows: int, cols: int) -> None:
    # The board found without its last row (an odd one: its gap above is one
    # pixel) grows by it. Compared with the median of all the board's cells,
    # of the kind with two-pixel gaps on both axes where there are more of
    # those, every second cell of that row (one-pixel gaps both ways) met it at
    # 0.78 and the row was refused.
    img, bx, by = gapped_board(rows, cols)
    ex, ey = _edges(_undither(img))
    lat = _cut(img, (bx, by), (17.5, 17.5), rows - 1, cols)
    assert (lat.rows, lat.unlike) == (rows - 1, ())
    grown = _grow_uneven(img, ex, ey, lat)
    assert (grown.rows, grown.cols, grown.unlike) == (rows, cols, ())
    # the row lies where the even lattice puts it: the board stays even
    assert grown.xs is None and grown.ys is None
    assert grown.pitch == pytest.approx((17.5, 17.5), abs=0.05)
