"""A mine count the board does not have: the stop names a count that fits.

minesweeper-python 0.0.4 (PyPI, Tk) places 38 mines at random squares, so
each game has 34 to 38 (its label says which); a profile's fixed count then
meets a board whose numbers fit another. The player stopped with "the board
reads inconsistent ... is the board covered or the profile for another
game?", which reads like a misread. The numbers themselves are fine: the
stop now says which count they fit, and to recalibrate with it.
"""

from __future__ import annotations

import pytest

from msolver.core.board import Board
from msolver.core.game import Game
from msolver.play.loop import _count_hint
from msolver.vision.geometry import Grid
from tests.play.test_loop import make_player
from tests.support.live import SimReader, SimScreen


def test_the_hint_names_the_nearest_count_the_numbers_fit() -> None:
    # The flag explains every number, whose other cells are safe; three cells
    # no number sees take the rest: 1 to 4 mines fit, 6 does not.
    board = Board.parse("1F1..\n111..\n.....", mines=6)
    assert _count_hint(board) == (
        " The numbers fit 4 mines, not 6: if this game lays another count, "
        "recalibrate with --mines."
    )
    # A board whose numbers contradict each other: no count helps.
    assert _count_hint(Board.parse("2F1\n111\n...", mines=2)) == ""


@pytest.mark.parametrize("told", [11, 9])
def test_a_game_with_another_count_than_the_profile_stops_naming_its_count(told: int) -> None:
    stops = 0
    for seed in range(1, 9):
        grid = Grid(origin=(40.0, 60.0), pitch=(20.0, 20.0), rows=9, cols=9)
        sim = SimScreen(game=Game(9, 9, 10, seed=seed, first_click="opening"), grid=grid)
        # the profile says one more or one less: the game has 10
        player, _ = make_player(sim, reader=SimReader(grid, told))
        outcome = player.run()
        if outcome.stopped is None:
            continue  # lost on a guess before the count showed
        stops += 1
        assert "inconsistent" in outcome.stopped, outcome.stopped
        assert f"The numbers fit 10 mines, not {told}" in outcome.stopped, outcome.stopped
    assert stops >= 3, stops
