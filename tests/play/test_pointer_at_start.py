"""The player starts with the pointer off the board.

A user presses the start key with the pointer wherever it was, often over
the board, and many games light the cell under it (Tk's stock buttons,
web games). Before, the first frame of play showed that lit cell, which
no blank board shows, and the player stopped at once: "cells look unlike
the blank board before any click". It now rests the pointer beside the
board before its first look, as it does after every batch.
"""

from __future__ import annotations

import numpy as np

from msolver.core.board import UNKNOWN
from msolver.core.clock import FakeClock
from msolver.io.hotkeys import FakeHotkeys
from msolver.io.mouse import RecordingMouse
from msolver.play.loop import Player, Settings
from msolver.vision.image import Image
from msolver.vision.learning_reader import LearningReader
from tests.support.themes import Theme, blank_profile, themed_sim


def _hovered(seed: int) -> tuple[Player, RecordingMouse]:
    screen = themed_sim(seed, Theme.random(seed), first_click="safe")
    mouse = RecordingMouse(on_click=screen.on_click)
    # the pointer where the user left it: over a cell in the board's middle
    mouse._pos = screen.grid.centre(8 * 30 + 15)
    plain = screen.draw

    def draw() -> Image:
        img = plain().copy()
        i = screen.grid.cell_at(*mouse.position())
        if i is not None and screen.game.board.cells[i] == UNKNOWN:
            left, top = (int(v) + 3 for v in screen.grid.centre_xy(*divmod(i, 30)))
            half = int(screen.grid.pitch[0] / 2) - 4
            box = img[top - 2 * half : top, left - 2 * half : left].astype(np.int16)
            img[top - 2 * half : top, left - 2 * half : left] = np.clip(box + 30, 0, 255)
        return img

    screen.draw = draw  # type: ignore[method-assign]
    clock = FakeClock()
    player = Player(
        LearningReader(blank_profile(screen), clock=clock),
        screen.capture(),
        mouse,
        FakeHotkeys(started=True),
        settings=Settings(games=1, redraw_timeout=0.3, settle=0.0, confirm=0.6),
        clock=clock,
    )
    return player, mouse


def test_a_cell_lit_under_the_pointer_at_the_start_does_not_stop_play() -> None:
    for seed in (1, 2):
        player, mouse = _hovered(seed)
        outcome = player.run()
        assert outcome.stopped is None, outcome.stopped
        assert len(outcome.games) == 1
        # the first thing the player did with the mouse: rest it off the board
        first = mouse.actions[0]
        assert first.kind == "move" and (first.x, first.y) == player.park
