"""Mines drawn too faint to see are no reason to call 0s mines.

Recorded on the test page's seed 1265 (a near-black opened face, each
number in its own bright colour; a mine a blob 14 levels darker than the
face, under the faint rule's 16), 30x16/99 at 90%. Game 1 was lost on a
guess at (3, 1): the page drew its mines, which read as the opened face with
no ink. Those cells and the red one that went off were named the loss, the
inkless look "mine"; game 2's first click opened 0s at (0, 0) and (1, 0),
which read as mines, and play stopped on "the 1 cannot hold: it has 2
flagged neighbours". A look that draws nothing on the face numbers are drawn
on is what a 0 looks like, and is never named a mine.
"""

from __future__ import annotations

from pathlib import Path

from msolver.core.board import MINE
from tests.support.replay import recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "web-own-random1265-dark-mines-30x16"
)


def test_the_next_games_zeros_read_as_zeros() -> None:
    readings = [(item, r) for item, r in recorded(RECORDING)]
    second = [r for item, r in readings if item["game"] == 2]
    assert second and not any(r.problem for r in second)
    last = second[-1].board
    assert [last.cells[i * 30 : i * 30 + 2] for i in range(3)] == [(0, 1), (0, 1), (1, 2)]
    assert MINE not in last.cells
