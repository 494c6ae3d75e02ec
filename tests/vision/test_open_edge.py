"""A board whose last lines a browser did not draw is refused, not found too small.

Our web page's big look at 80% zoom (9x9, 1 px lines drawn at 0.8 px):
Chromium drew no line between the last three columns and rows, and the
finder returned a 7x7 board, its last column and row laid on line-less grey
where the game has two more. A profile of the wrong size counts mines beside
cells it cannot see; a side of the found board with no boundary at all,
where its inner cells show one, is refused instead.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from msolver.vision.grid import CalibrationError, calibrate
from msolver.vision.image import read_png

GOLDEN = Path(__file__).resolve().parent / "golden"


def test_a_board_with_its_last_lines_undrawn_is_refused() -> None:
    window = read_png(GOLDEN / "web-own-big-z80-9x9-window.png")
    with pytest.raises(CalibrationError, match="edge shows no boundary"):
        calibrate(window, mines=10)


def test_the_same_look_with_its_lines_drawn_is_found_whole() -> None:
    window = read_png(
        Path(__file__).resolve().parents[2] / "screenshots/corpus/web-own-big-z150-9x9.png"
    )
    prof = calibrate(window, mines=10)
    assert (prof.grid.rows, prof.grid.cols) == (9, 9)
