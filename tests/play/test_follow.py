"""Following a calibrated board to where it is on screen now (`msolver play --profile`).

Recorded: the test page, a look drawn from seed 1362 (rounded faces on a
dark page), 9x9 at 80%: the gaps between cells are one or two pixels wide.
The tile classifier judges a learned profile by its one unopened tile (the
median cell), which most cells of such a board are unlike; the board, in
place and blank, was taken to have moved, followed a pixel up, and the
reader then saw cells unlike the blank board and stopped before any click.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from msolver.play.follow import follow
from msolver.vision.grid import calibrate
from msolver.vision.image import as_rgb, read_png

SHOT = (
    Path(__file__).resolve().parents[1]
    / "vision"
    / "golden"
    / "web-own-random1362-z80-9x9-screen.png"
)


def test_a_blank_board_in_place_is_not_moved() -> None:
    rgb = as_rgb(read_png(SHOT))
    prof = calibrate(rgb, mines=10)
    said: list[str] = []
    got = follow(rgb, prof, "t", (0, 0), said.append)
    assert got.origin == prof.origin
    assert said == []


def test_a_moved_board_is_followed_by_its_move() -> None:
    rgb = as_rgb(read_png(SHOT))
    prof = calibrate(rgb, mines=10)
    # the window moved 7 px right and 3 down (the page's colour fills in)
    moved = np.empty_like(rgb)
    moved[...] = rgb[0, -1]
    moved[3:, 7:] = rgb[:-3, :-7]
    said: list[str] = []
    got = follow(moved, prof, "t", (0, 0), said.append)
    assert got.origin == (prof.origin[0] + 7, prof.origin[1] + 3)
    assert any("moved by (+7, +3)" in s for s in said)
