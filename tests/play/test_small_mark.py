"""A mark small against its cell is a change: a flag drawn as a text "F" on a big button.

Stock Tk buttons sized in text units (4 characters by 2 lines: 66 x 48 px)
with a flag drawn as a red "F" on the raised button: against the cell's
blank look the "F" moves the mean of its patch by less than SAME, so the
flag at (8, 2) read as an unopened cell, the player flagged it again (which
took the flag off), and stopped: "a right click at row 8, col 2 changed
nothing twice". A sample inside the rim that differs by SPOT or more now
says the cell is not blank (`LearningReader._still_now`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from msolver.core.board import FLAG, UNKNOWN
from msolver.core.clock import FakeClock
from msolver.play.readers import reader_for
from msolver.vision.learning_reader import SAME, SPOT, LearningReader
from msolver.vision.profile import load_profile
from tests.support.replay import recorded

RECORDING = Path(__file__).resolve().parents[2] / "screenshots" / "recordings" / "tk-stock-9x9"


def test_a_text_flag_on_a_big_button_reads_as_the_flag() -> None:
    readings = [reading for _item, reading in recorded(RECORDING)]
    assert len(readings) == 4
    flags = [r * 9 + c for r, c in ((2, 4), (2, 7), (6, 4), (6, 5), (8, 2))]
    # the frame after the batch that placed five flags shows all five
    third = readings[2]
    assert not third.problem and not third.low_confidence
    assert [third.board.cells[i] for i in flags] == [FLAG] * 5
    # the last frame is the one after the live player (before the fix) clicked
    # the flag off again: a flag that goes after our second right click on it
    # is the cell unflagged by us (`LearningReader._flag_clicked_off`), read
    # as it is now; before that rule, a cell that changed its look
    last = readings[3]
    assert not last.problem and not last.low_confidence
    assert last.board.cells[8 * 9 + 2] == UNKNOWN


def test_a_small_mark_inside_the_rim_is_not_blank() -> None:
    profile = load_profile(RECORDING / "profile.json")
    reader = reader_for(profile, clock=FakeClock())
    assert isinstance(reader, LearningReader)
    blank = reader._blank[[0, 1, 2]].astype(np.uint8)
    got = blank.copy()
    # cell 1: one sample inside the rim off by SPOT on one channel (a few
    # glyph pixels in an 8 x 6 px block); the patch's mean is far under SAME
    got[1, 4, 3, 1] = np.clip(int(got[1, 4, 3, 1]) - SPOT, 0, 255)
    # cell 2: the same change on the rim (a sliver of a neighbour) is not a mark
    got[2, 0, 3, 1] = np.clip(int(got[2, 0, 3, 1]) - SPOT, 0, 255)
    d = ((got.astype(np.float32) - blank) / 255.0) ** 2
    assert float(d[1].mean()) < SAME
    assert reader._still_now(got, [0, 1, 2]).tolist() == [True, False, True]
