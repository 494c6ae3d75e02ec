"""A window that lays its board out anew mid-game is no game won.

mfranceschi-minesweeper (PyPI, Tk) sizes its grid of buttons to their text:
the first click puts digits on some buttons, the window grows and every
column moves (34 px cells become 37). Nothing on the frame read as any
look of the board. The player judged the end of a game under a cover from
it: the cells the first click opened "hidden", a cascade under them fits
a win, and it reported "won" after one click. Nothing covers such a board
and nothing in it reads: it is no win, and play stops saying so.
"""

from __future__ import annotations

from msolver.core.clock import FakeClock
from msolver.core.game import Game
from msolver.io.hotkeys import FakeHotkeys
from msolver.io.mouse import Button, RecordingMouse
from msolver.play.loop import Player, Settings
from msolver.vision.geometry import Grid
from msolver.vision.learning_reader import LearningReader
from tests.support.themes import Theme, ThemedScreen, blank_profile


def _regrown(seed: int, wider: float) -> tuple[Player, RecordingMouse]:
    grid = Grid(origin=(40.0, 30.0), pitch=(34.0, 31.0), rows=8, cols=8)
    game = Game(8, 8, 10, seed=seed, first_click="opening")
    screen = ThemedScreen(game=game, grid=grid, theme=Theme.random(seed), size=(400, 320))
    profile = blank_profile(screen)

    def click(x: int, y: int, button: Button) -> None:
        screen.on_click(x, y, button)
        # the window lays its buttons out again around their new text
        screen.grid = Grid(grid.origin, (grid.pitch[0] * wider, grid.pitch[1]), 8, 8)
        screen._tiles.clear()

    mouse = RecordingMouse(on_click=click)
    clock = FakeClock()
    player = Player(
        LearningReader(profile, clock=clock),
        screen.capture(),
        mouse,
        FakeHotkeys(started=True),
        # the game's first click opens an opening, as the Tk game's does
        settings=Settings(
            games=1, first_click="opening", redraw_timeout=0.3, settle=0.0, confirm=0.6
        ),
        clock=clock,
    )
    return player, mouse


def test_a_board_laid_out_anew_after_the_first_click_stops_play_and_wins_nothing() -> None:
    for seed in (1, 2, 3):
        player, mouse = _regrown(seed, wider=37 / 34)
        outcome = player.run()
        assert outcome.games == (), (seed, outcome.games)
        assert outcome.stopped is not None
        # the first click was made, and nothing after it
        assert [a.kind for a in mouse.actions].count("click") == 1, (seed, mouse.actions)
