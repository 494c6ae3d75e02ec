"""A board whose last lines a browser did not draw: found whole, or refused, never
found too small.

Our web page's big look at 80% zoom (9x9, 1 px lines drawn at 0.8 px):
Chromium drew no line between the last three columns and rows, and the
finder returned a 7x7 board, its last column and row laid on line-less grey
where the game has two more. A profile of the wrong size counts mines beside
cells it cannot see; a side of the found board with no boundary at all,
where its inner cells show one, is refused instead. Since a flat face that
spans two to four cells counts as those cells (`grid._face_grid`), that
board is found whole, and so is one whose faces are one cell across and up
to 12 long; one with more lines undrawn in a row is still refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from msolver.vision.grid import CalibrationError, calibrate
from msolver.vision.image import read_png
from tests.vision.synth_boards import dropped_lines

GOLDEN = Path(__file__).resolve().parent / "golden"


def test_a_board_with_its_last_three_cells_unlined_is_found_whole() -> None:
    window = read_png(GOLDEN / "web-own-big-z80-9x9-window.png")
    grid = calibrate(window, mines=10).grid
    assert (grid.rows, grid.cols) == (9, 9)
    assert grid.pitch == pytest.approx((36.0, 36.0), abs=0.05)  # 45 css px at 80%


def test_a_board_with_its_last_five_columns_unlined_is_found_whole() -> None:
    # 16x16 cells 18.75 px apart, no line between the last five columns: each
    # row's face five cells wide and one tall. A run one cell across is those
    # cells up to 12 long (a pitch a few hundredths off whole pixels draws its
    # 0.67 px lines for several cells and then none for several: our page's
    # seed 1407 at 67%); this board was refused before.
    page = dropped_lines(16, 16, 18.75, {12, 13, 14, 15}, set())
    grid = calibrate(page, mines=40).grid
    assert (grid.rows, grid.cols) == (16, 16)
    assert grid.pitch == pytest.approx((18.75, 18.75), abs=0.05)


def test_a_board_with_its_last_thirteen_columns_unlined_is_refused() -> None:
    # a face thirteen cells wide is more than a run of dropped lines explains
    page = dropped_lines(16, 16, 18.75, set(range(4, 16)), set())
    with pytest.raises(CalibrationError, match="edge shows no boundary"):
        calibrate(page, mines=40)


def test_the_same_look_with_its_lines_drawn_is_found_whole() -> None:
    window = read_png(
        Path(__file__).resolve().parents[2] / "screenshots/corpus/web-own-big-z150-9x9.png"
    )
    prof = calibrate(window, mines=10)
    assert (prof.grid.rows, prof.grid.cols) == (9, 9)


@pytest.mark.parametrize("look", ["big", "flat"])
def test_blocks_of_cells_a_browser_drew_at_half_size_are_refused(look: str) -> None:
    # Our page at 50% on the whole screen (9x9): every other 1 px line is
    # dropped, each 2x2 block of cells looks like one cell, and the board
    # was calibrated as 4x4 with its ninth row and column a half-width strip
    # of face beside it. No flat board is followed by part of a face.
    screen = read_png(GOLDEN / f"web-own-{look}-z50-9x9-screen.png")
    with pytest.raises(CalibrationError, match="part of a cell"):
        calibrate(screen, mines=10)
