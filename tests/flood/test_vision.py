"""Grid finding, palette learning and reading on drawn and recorded screens."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from msolver.flood.core import FloodBoard
from msolver.flood.vision import FloodProfile, FloodVisionError, calibrate, find_grid, read_board
from msolver.vision.image import read_png
from tests.flood.render import draw, random_board, sgt_board

SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "sgt-flood"


def hue_palette(k: int, offset: float) -> tuple[tuple[int, int, int], ...]:
    out = []
    for i in range(k):
        hue = (offset + 360.0 * i / k) % 360.0
        x = 1 - abs((hue / 60.0) % 2 - 1)
        sector = int(hue // 60)
        r, g, b = [(1, x, 0), (x, 1, 0), (0, 1, x), (0, x, 1), (x, 0, 1), (1, 0, x)][sector]
        out.append((round(255 * r), round(255 * g), round(255 * b)))
    return tuple(out)


def same_colouring(a: FloodBoard, b: FloodBoard) -> bool:
    """Equal up to renaming colours (one-to-one)."""
    if (a.width, a.height) != (b.width, b.height):
        return False
    fwd: dict[int, int] = {}
    back: dict[int, int] = {}
    for x, y in zip(a.cells, b.cells, strict=True):
        if fwd.setdefault(x, y) != y or back.setdefault(y, x) != x:
            return False
    return True


@pytest.mark.parametrize(
    ("w", "h", "k", "tile", "sep", "origin"),
    [
        (12, 12, 6, 32, 1, (16, 40)),
        (14, 14, 6, 24, 1, (300, 200)),
        (8, 5, 4, 20, 0, (5, 9)),
        (10, 7, 8, 30, 2, (50, 60)),
    ],
)
def test_calibrate_and_read_drawn_boards(
    w: int, h: int, k: int, tile: int, sep: int, origin: tuple[int, int]
) -> None:
    rng = np.random.default_rng(w * 100 + h)
    board = random_board(rng, w, h, k)
    # A palette of our own (evenly spaced hues): nothing may depend on sgt-flood's colours.
    palette = hue_palette(k, offset=float(rng.uniform(0, 360)))
    assert len(set(palette)) == k
    img = draw(board, palette, tile=tile, sep=sep, origin=origin, size=(900, 700))
    prof = calibrate(img)
    g = prof.grid
    assert (g.cols, g.rows) == (w, h)
    assert abs(g.pitch[0] - tile) < 0.5 and abs(g.pitch[1] - tile) < 0.5
    assert abs(g.origin[0] - origin[0]) <= 1 and abs(g.origin[1] - origin[1]) <= 1
    assert len(prof.palette) == len(set(board.cells))
    read = read_board(img, prof)
    assert read.board is not None, read.reason
    assert same_colouring(read.board, board)
    # After a move the same profile reads the new board.
    moved = board.play(board.cells[1] if board.cells[1] != board.cells[0] else board.cells[w])
    img2 = draw(moved, palette, tile=tile, sep=sep, origin=origin, size=(900, 700))
    read2 = read_board(img2, prof)
    assert read2.board is not None and same_colouring(read2.board, moved)


def test_screen_without_a_board_is_refused() -> None:
    rng = np.random.default_rng(1)
    grey = np.full((400, 600, 3), 200, dtype=np.uint8)
    with pytest.raises(FloodVisionError, match="no Flood-It board"):
        find_grid(grey)
    noise = rng.integers(0, 256, size=(300, 300, 3), dtype=np.uint8)
    with pytest.raises(FloodVisionError, match="no Flood-It board"):
        calibrate(noise)
    photo = np.zeros((300, 300, 3), dtype=np.uint8)
    yy, xx = np.mgrid[0:300, 0:300]
    photo[..., 0] = (xx * 255 // 299).astype(np.uint8)  # a smooth gradient, no cells
    photo[..., 2] = (yy * 255 // 299).astype(np.uint8)
    with pytest.raises(FloodVisionError, match="no Flood-It board"):
        calibrate(photo)


def test_unknown_colour_and_defeat_flash_are_not_boards() -> None:
    rng = np.random.default_rng(7)
    board = random_board(rng, 12, 12, 6)
    img = draw(board)
    prof = calibrate(img)
    black = read_board(draw(board, black=True), prof)
    assert black.board is None and black.dark
    odd = img.copy()
    odd[40 + 5 * 32 + 4 : 40 + 6 * 32 - 4, 16 + 3 * 32 + 4 : 16 + 4 * 32 - 4] = (0, 200, 200)
    r = read_board(odd, prof)
    assert r.board is None and "row 5, col 3" in r.reason and "palette" in r.reason


def test_profile_round_trip_and_bad_profile(tmp_path: Path) -> None:
    board = random_board(np.random.default_rng(3), 6, 6, 3)
    prof = calibrate(draw(board))
    path = tmp_path / "flood.json"
    prof.save(path)
    assert FloodProfile.load(path) == prof
    path.write_text('{"kind": "mines"}')
    with pytest.raises(FloodVisionError, match="not a Flood-It profile"):
        FloodProfile.load(path)


@pytest.mark.parametrize("name", sorted(p.stem for p in SHOTS.glob("*.png")))
def test_recorded_sgt_flood_screens(name: str) -> None:
    img = read_png(SHOTS / f"{name}.png")
    truth, _limit = sgt_board((SHOTS / f"{name}.id").read_text())
    prof = calibrate(img)
    read = read_board(img, prof)
    assert read.board is not None, read.reason
    assert same_colouring(read.board, truth)
