"""A digit drawn at a half-pixel phase is the same number (`learning_reader._blended`).

gnome-mines at a 1100x650 window lays its 30 columns in two steps (30 px,
then 29): in the narrower cells the 1's one-pixel stem falls across two
pixel columns, and its ink measures as a mix of the ink and the face.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from msolver.vision.learning_reader import Content, _redrawn
from msolver.vision.profile import load_profile
from tests.support.replay import recorded

RECORDING = (
    Path(__file__).resolve().parents[2] / "screenshots" / "recordings" / "gnome-mines-1100x650"
)

FACE = np.array([221.0, 250.0, 195.0])
SHAPE = np.zeros(16)


def _look(ink: tuple[float, float, float], face: np.ndarray = FACE) -> Content:
    return Content(face, np.array(ink), SHAPE, 0.0)


def test_an_ink_blended_into_its_face_is_that_ink_and_another_colour_is_not() -> None:
    full = _look((46.0, 52.0, 54.0))
    # measured on the recording: the 1 at 29 px
    assert _redrawn(_look((130.0, 147.0, 121.0)), full)
    assert _redrawn(full, _look((130.0, 147.0, 121.0)))
    # a red digit is no mix of a dark one and the face
    assert not _redrawn(_look((200.0, 40.0, 40.0)), full)
    # nor a trace of ink next to the face (under _BLEND_MIN of the way)
    assert not _redrawn(_look((200.0, 226.0, 178.0)), full)


def test_the_recorded_uneven_board_reads_to_its_end_and_reads_right() -> None:
    profile = load_profile(RECORDING / "profile.json")
    assert not profile.grid.uniform  # the two steps, 30 and 29 px
    last = None
    for _item, reading in recorded(RECORDING):
        assert not reading.problem, _item["png"]
        last = reading
    assert last is not None
    # the last frame, checked by eye against its picture: the 1s right of
    # column 19 are in 29 px cells, the ones left of it in 30 px cells
    rows = last.board.to_text().splitlines()
    assert rows[0] == "F100113F3F10002F.1001.1000001."
    assert rows[3] == "110013F31002FFF32FF3121101...."
    assert not last.low_confidence
