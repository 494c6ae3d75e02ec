"""A game that draws each batch cell by cell, slower than a settle.

Seen on a web game that asks its server for every cell (NiceGUI): 30 flag
clicks took 2.4 s to show, in about 49 steps, and an opening spread as
slowly. The grabs after a surprise then read differently each time, by the
cells drawn since, and the player stopped ("the board read differently in
each of 3 grabs") on a board that was fine. Grabs that differ only by cells
drawn further do not count; one that changes a cell already read does.
"""

from __future__ import annotations

import numpy as np

from msolver.core.board import UNKNOWN
from msolver.core.clock import FakeClock
from msolver.core.game import Game
from msolver.io.capture import RecordedCapture
from msolver.io.hotkeys import FakeHotkeys
from msolver.play.loop import Player, Settings
from msolver.vision.geometry import Grid
from msolver.vision.image import Image
from tests.support.live import SimReader, SimScreen, colour_of

STEP = 0.2  # seconds a cell takes to show
SEED = 3


class CellByCell:
    """The sim's screen as a slow game shows it: a changed cell appears only
    STEP after the one before it, in reading order. `flicker`: from the third
    batch on, one opened cell changes its colour on every grab (something
    moving over the board)."""

    def __init__(self, sim: SimScreen, clock: FakeClock, flicker: bool = False) -> None:
        self.sim, self.clock, self.flicker = sim, clock, flicker
        self.shown: Image | None = None
        self.next_at = 0.0
        self.grabs = 0
        self.steps = 0
        self._true: tuple[int, Image] | None = None

    def _box(self, i: int) -> tuple[slice, slice]:
        x, y, w, h = self.sim.grid.cell_box(*divmod(i, self.sim.grid.cols))
        return slice(int(y), int(y + h)), slice(int(x), int(x + w))

    def grab(self) -> Image:
        # The game's own picture changes only with a click: drawn once a click.
        if self._true is None or self._true[0] != len(self.sim.clicks):
            self._true = (len(self.sim.clicks), self.sim.grab())
        true = self._true[1]
        if self.shown is None:
            self.shown = true.copy()
        self.grabs += 1
        now = self.clock.monotonic()
        if now >= self.next_at:
            for i in range(self.sim.game.board.width * self.sim.game.board.height):
                box = self._box(i)
                if not np.array_equal(self.shown[box], true[box]):
                    self.shown[box] = true[box]
                    self.steps += 1
                    self.next_at = now + STEP
                    break
        out = self.shown.copy()
        if self.flicker and len(self.sim.clicks) > 3:
            opened = [i for i, s in enumerate(self.sim.game.board.cells) if s >= 1]
            box = self._box(opened[0])
            state = self.sim.game.board.cells[opened[0]]
            out[box] = colour_of(state if self.grabs % 2 else (state % 8) + 1)
        return out


def _sim(seed: int) -> SimScreen:
    grid = Grid(origin=(40.0, 60.0), pitch=(20.0, 20.0), rows=9, cols=9)
    return SimScreen(game=Game(9, 9, 10, seed=seed, first_click="opening"), grid=grid)


def _player(sim: SimScreen, screen: CellByCell, clock: FakeClock) -> Player:
    return Player(
        SimReader(sim.grid, sim.game.mines),
        RecordedCapture(screen.grab),
        sim.mouse(),
        FakeHotkeys(started=True),
        settings=Settings(games=1, chord=False, settle=0.0, first_click="opening"),
        say=lambda _s: None,
        clock=clock,
    )


def test_a_game_drawing_cell_by_cell_is_waited_for_and_played() -> None:
    clock = FakeClock()
    sim = _sim(SEED)
    screen = CellByCell(sim, clock)
    outcome = _player(sim, screen, clock).run()
    assert outcome.stopped is None, outcome.stopped
    assert len(outcome.games) == 1
    assert screen.steps > 60  # the game did draw cell by cell, for 5 s and more
    # no click was sent twice (a second toggle takes a flag off; a second
    # left click on a number chords in many games): each batch was waited
    # for while the game drew it
    cells = [sim.grid.cell_at(x, y) for x, y, _b in sim.clicks]
    assert len(cells) == len(set(cells))
    assert UNKNOWN not in sim.game.board.cells or outcome.games[0].result == "lost"


def test_a_drawn_cell_that_keeps_changing_still_stops() -> None:
    clock = FakeClock()
    sim = _sim(SEED)
    screen = CellByCell(sim, clock, flicker=True)
    outcome = _player(sim, screen, clock).run()
    assert not outcome.games
    assert outcome.stopped is not None
