"""Bold digits that cover half of a small cell: read against the face, not a blend.

screenshots/kmines-default/ holds a frame of a live expert game of KDE's
kmines in its default theme at 19 px cells. Its digits are bold: a 3 covers
half of the cell's inside, so the median of the box (the face the plain rule
measures ink from) lay between the grey face and the digit's colour. The 3s
and 5s then read as tinted faces without ink, and the 2s and 4s as ink on a
tinted face, inked in one cell and not in the next: a 4 once read inkless,
became a new look no number could name, and play stopped. On a smooth face
the face is now taken from the pixels nearest that median, and every digit
reads as its ink on the grey face.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from msolver.core.board import UNKNOWN, Board
from msolver.vision.image import Image, read_png
from msolver.vision.learning_reader import Content, content
from msolver.vision.profile import load_profile
from tests.support.contents import assert_batch_matches

SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "kmines-default"


def _cells() -> tuple[Board, list[tuple[int, Image]]]:
    """The frame's recorded board and every cell's box, by cell index."""
    prof = load_profile(SHOTS / "hard-profile.json")
    shot = json.loads((SHOTS / "hard-f16.json").read_text())
    board = Board.parse(shot["board"], mines=int(shot["mines"]))
    image = read_png(SHOTS / shot["png"])
    left, top, _, _ = prof.grid.rect()
    boxes = []
    for i in range(prof.rows * prof.cols):
        x, y, w, h = (round(v) for v in prof.grid.cell_box(*divmod(i, prof.cols)))
        boxes.append((i, image[y - top : y - top + h, x - left : x - left + w]))
    return board, boxes


def test_every_digit_has_ink_on_a_grey_face() -> None:
    board, boxes = _cells()
    numbers = [(board.cells[i], box) for i, box in boxes if 1 <= board.cells[i] <= 8]
    assert {n for n, _ in numbers} >= {1, 2, 3, 4, 5}
    for n, box in numbers:
        got = content(box)
        assert got.ink is not None, f"a {n} read without ink"
        # The theme's faces are grey; a face tinted by the digit is a blend.
        assert float(np.ptp(got.face)) <= 4.0, f"a {n} read on a tinted face {got.face}"


def test_one_look_per_digit_apart_from_the_others() -> None:
    board, boxes = _cells()
    first: dict[int, Content] = {}
    for i, box in boxes:
        n = board.cells[i]
        if 2 <= n <= 5 and n not in first:
            first[n] = content(box)
    looks = [first[n] for n in sorted(first)]
    for a in range(len(looks)):
        for b in range(a + 1, len(looks)):
            assert looks[a].distance(looks[b]) > 1.0


def test_the_batch_reads_heavy_digits_as_one_box_at_a_time_does() -> None:
    board, boxes = _cells()
    tiles = [box for i, box in boxes if board.cells[i] != UNKNOWN][:120]
    assert_batch_matches(tiles)
