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

from msolver.core.board import EXPLODED, MINE
from msolver.vision.reading import Reading
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


def test_a_guess_that_opens_a_zero_is_no_mine_that_went_off() -> None:
    # Seed 1296 (dark green opened cells, grey raised unopened ones) with
    # `cascade=sides`, 16x16/40. A guess at (0, 3) opened a 0, a look not
    # seen yet: the rule for a loss that shows only the mine that went off
    # (sgt-mines) named it exploded, the game was logged lost in the middle,
    # and in the next game the first click's 0s read as mines gone off.
    folder = RECORDING.parent / "web-own-random1296-zero-guess-sideways-16x16"
    games: dict[int, list[Reading]] = {}
    for item, reading in recorded(folder):
        games.setdefault(item["game"], []).append(reading)
    first, second = games[1][-1].board, games[2][-1].board
    assert EXPLODED not in first.cells and first.cells[3] == 0
    assert EXPLODED not in second.cells
    assert [second.cells[0], second.cells[16]] == [0, 0]
