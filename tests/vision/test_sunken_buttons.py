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

from pathlib import Path

from msolver.core.board import UNKNOWN, Board
from msolver.vision.reading import Reading
from tests.support.replay import replay

SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "tk-mines"


def _replay() -> list[Reading]:
    return replay(SHOTS)


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
