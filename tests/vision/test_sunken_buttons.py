"""A board of toolkit buttons that open by being drawn sunken (Tk): read as they open.

screenshots/tk-mines/ holds the first game of a live run on the hobby tkinter
clone (tests/support/tkmines.py): its learned profile and five frames, each
with the clicks sent after it. An opened 0 there differs from an unopened cell
only in its bevel (sunken instead of raised), which the cut leaves along two
touching edges of the patch, where a sliver of a neighbour also shows.
Before, the guessed cell that opened as a 0 read unopened, the numbers its
0 opened "changed where we did not click", and play stopped; one run even
took the new look for the mine that went off and abandoned a live game.
"""

from __future__ import annotations

import json
from pathlib import Path

from msolver.core.board import UNKNOWN, Board
from msolver.core.clock import FakeClock
from msolver.vision.image import read_png
from msolver.vision.learning_reader import HOLD, LearningReader
from msolver.vision.profile import load_profile
from msolver.vision.reading import Reading

SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "tk-mines"


def _replay() -> list[Reading]:
    """The last read of each frame, frames fed as the player fed them."""
    prof = load_profile(SHOTS / "profile.json")
    clock = FakeClock()
    reader = LearningReader(prof, clock=clock)
    reads = []
    for frame in json.loads((SHOTS / "frames.json").read_text()):
        image = read_png(SHOTS / frame["png"])
        # read until a new look has held still long enough to be named
        for _ in range(int(HOLD / 0.1) + 3):
            got = reader.read(image)
            clock.sleep(0.1)
        reads.append(got)
        clicks = frame["clicks"]
        cols = prof.cols
        reader.sent(
            frozenset(),
            frozenset(c["row"] * cols + c["col"] for c in clicks if c["p_mine"] > 0),
            frozenset(j for c in clicks for j in c["opens"]),
        )
    return reads


def test_a_guess_that_opens_a_sunken_zero_reads_as_a_zero_with_what_it_opened() -> None:
    reads = _replay()
    last = reads[-1]
    assert not last.problem, last.problem
    assert not last.low_confidence
    expect = Board.parse(
        "1.2.101.........\n....212.........\n" + "................\n" * 14, mines=40
    )
    assert last.board == expect


def test_raised_cells_beside_opened_ones_stay_unopened() -> None:
    # The cells between the clicked ones were never opened: their neighbours'
    # change along the shared edge is no opening of theirs.
    for got in _replay():
        assert not got.problem, got.problem
        for i in (1, 3):
            assert got.board.cells[i] == UNKNOWN
