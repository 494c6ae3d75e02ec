"""A board flush with the screen's right and bottom edges calibrates and plays.

A window grab of a Tk game ends at its last cells (the grid of buttons
fills the window), and so does a screen with the game's window in its
corner: the board's last line, the middle of the gap after its last cells,
lies just past the picture. The finder counted only cells wholly inside,
and calibrated 29x16 of a 30x16 board (or 15x16 of 16x16) with all of its
mines: no board to play. A last cell cut by up to vision.geometry.FLUSH of a
pitch counts, and its missing sliver repeats the picture's last pixels in
calibration and in every grab alike.
"""

from __future__ import annotations

import pytest

from msolver.core.clock import FakeClock
from msolver.core.game import Game
from msolver.io.hotkeys import FakeHotkeys
from msolver.play.loop import Player, Settings
from msolver.vision.geometry import Grid
from msolver.vision.grid import calibrate
from msolver.vision.learning_reader import LearningReader
from tests.support.themes import Theme, ThemedScreen


def _flush(seed: int, cols: int, rows: int, mines: int) -> ThemedScreen:
    grid = Grid(origin=(20.0, 30.0), pitch=(32.0, 32.0), rows=rows, cols=cols)
    game = Game(cols, rows, mines, seed=seed, first_click="safe")
    theme = Theme.random(seed)
    # the screen ends where the last cells' faces end: the half gap after them is off it
    size = (20 + cols * 32 - theme.gap // 2, 30 + rows * 32 - theme.gap // 2)
    return ThemedScreen(game=game, grid=grid, theme=theme, size=size)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_board_flush_with_the_screens_far_edges_calibrates_whole(seed: int) -> None:
    screen = _flush(seed, 16, 16, 40)
    prof = calibrate(screen.draw(), mines=40)
    assert (prof.grid.rows, prof.grid.cols) == (16, 16)
    assert prof.grid.pitch == pytest.approx((32.0, 32.0), abs=0.05)


def test_a_board_flush_with_the_screens_far_edges_plays() -> None:
    played = 0
    for seed in (1, 2):
        screen = _flush(seed, 16, 16, 40)
        prof = calibrate(screen.draw(), mines=40)
        clock = FakeClock()
        player = Player(
            LearningReader(prof, clock=clock),
            screen.capture(),
            screen.mouse(),
            FakeHotkeys(started=True),
            settings=Settings(games=1, redraw_timeout=0.3, settle=0.0, confirm=0.6),
            clock=clock,
        )
        outcome = player.run()
        assert outcome.stopped is None, (seed, outcome.stopped)
        played += len(outcome.games)
        # every click landed inside the screen, on the board
        for x, y, _button in screen.clicks:
            assert 0 <= x < screen.size[0] and 0 <= y < screen.size[1]
    assert played == 2
