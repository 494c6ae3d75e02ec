"""A page that fades its cells in: our first click of a game is still ours.

A web clone of our own (tests/support/webmines.html, its "soft" look) fades
every change in over 150 ms, the new game's blank board too. Two grabs
inside one repaint agree, so the player reads frames mid-fade: the first
click of a new game was made on a board still fading to blank, and the next
look showed it blank again, the click not drawn yet. The reader took every
blank board for a new game and forgot the click, and when the cell's number
came in it stopped: "the board changed where we did not click" (4 of 4 runs
that reached a second game). A blank board after a blank board is the same
game.
"""

from __future__ import annotations

import itertools

import numpy as np

from msolver.core.clock import FakeClock
from msolver.core.game import Game
from msolver.io.hotkeys import FakeHotkeys
from msolver.io.mouse import Button
from msolver.play.loop import Player, Settings
from msolver.play.target import NewGame
from msolver.vision.geometry import Grid
from msolver.vision.image import Image
from msolver.vision.learning_reader import LearningReader
from tests.support.themes import Theme, ThemedScreen, blank_profile


def _fading(seed: int, alpha: float, delay: int) -> tuple[Player, ThemedScreen]:
    seeds = itertools.count(100 * seed)

    def next_game() -> Game:
        return Game(9, 9, 10, seed=next(seeds), first_click="safe")

    grid = Grid(origin=(40.0, 30.0), pitch=(30.0, 30.0), rows=9, cols=9)
    screen = ThemedScreen(
        game=next_game(), grid=grid, theme=Theme.random(seed), size=(360, 340), new_game=next_game
    )
    # As a browser draws it: every change fades in (each repaint shows the
    # page `alpha` of the way from the last one to the game's state), repaints
    # come every second grab (grabs between show the same picture), and a
    # click takes `delay` grabs to reach the game (the page is busy fading).
    shown: list[Image] = []
    pending: list[list[object]] = []
    grabs = itertools.count()
    plain_click, plain_grab = screen.on_click, screen.grab

    def click(x: int, y: int, button: Button) -> None:
        pending.append([delay, x, y, button])

    def grab() -> Image:
        for p in list(pending):
            p[0] = int(p[0]) - 1  # type: ignore[call-overload]
            if int(p[0]) < 0:  # type: ignore[call-overload]
                pending.remove(p)
                plain_click(*p[1:])  # type: ignore[arg-type]
        target = plain_grab().astype(np.float32)
        if shown and next(grabs) % 2:
            return np.round(shown[0]).astype(np.uint8)
        now = target if not shown else shown[0] + (target - shown[0]) * alpha
        shown[:] = [now]
        return np.round(now).astype(np.uint8)

    screen.on_click = click  # type: ignore[method-assign]
    screen.grab = grab  # type: ignore[method-assign]
    clock = FakeClock()
    player = Player(
        LearningReader(blank_profile(screen), clock=clock),
        screen.capture(),
        screen.mouse(),
        FakeHotkeys(started=True),
        new_game=NewGame.parse("n"),
        settings=Settings(games=4, redraw_timeout=0.3, settle=0.0, confirm=0.6),
        clock=clock,
    )
    return player, screen


def test_a_first_click_drawn_a_few_looks_late_does_not_stop_play() -> None:
    for seed in (1, 2, 3):
        player, _screen = _fading(seed, alpha=0.6, delay=1)
        outcome = player.run()
        assert outcome.stopped is None, (seed, outcome.stopped)
        assert len(outcome.games) == 4
