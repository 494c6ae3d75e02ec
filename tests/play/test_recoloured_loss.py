"""A loss that turns the window red around the tiles is no window over a won board.

pymines (PyPI, pygame) draws its tiles 6 px apart and, as a game is lost,
paints every gap red and draws only the mine that went off. A cell's box
takes in half the gap around it, so every cell changed its look: the frame
read as a window over the board, filled in from before it added up to a
win, and 4 losses in 90 games were counted won. The faces under that
"window" are as they were: the game redrew around them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from msolver.core.board import UNKNOWN
from msolver.core.clock import FakeClock
from msolver.core.game import Status
from msolver.io.hotkeys import FakeHotkeys
from msolver.io.mouse import RecordingMouse
from msolver.play.loop import Player, _kept_face, _same_face, _won_under_cover, game_state
from msolver.play.plan import Click
from msolver.play.target import NewGame
from msolver.vision.image import read_png
from msolver.vision.learning_reader import LearningReader
from msolver.vision.profile import load_profile
from msolver.vision.reading import Reading
from tests.play.test_learn_safe import FAST
from tests.play.test_loop import make_player
from tests.support.replay import recorded
from tests.support.themes import Theme, blank_profile, themed_sim


def _play_one(seed: int, palette: int, **ends: object) -> tuple[str | None, str, list[str]]:
    """One expert game in a theme with wide gaps that turn red on a loss (and
    `ends`: other `ThemedScreen` fields): the result msolver gave, the game's
    own, and what it said."""
    theme = replace(Theme.random(palette), gap=8)
    screen = themed_sim(seed, theme, loss_backdrop=(230, 20, 20), mines_on_loss=False, **ends)
    clock = FakeClock()
    reader = LearningReader(blank_profile(screen), clock=clock)
    said: list[str] = []
    player = Player(
        reader,
        screen.capture(),
        RecordingMouse(on_click=screen.on_click, on_key=screen.on_key),
        FakeHotkeys(started=True),
        new_game=NewGame.parse("n"),
        settings=replace(FAST, games=1),
        say=said.append,
        clock=clock,
    )
    out = player.run()
    got = out.games[0].result if out.games and out.stopped is None else None
    return got, screen.game.status.value, said + ([out.stopped] if out.stopped else [])


def test_a_loss_drawn_around_the_faces_is_lost_never_won() -> None:
    lost = 0
    for seed in range(6):
        got, truth, said = _play_one(3000 + seed, 31)
        assert got == truth, (seed, got, truth, said)
        if truth == Status.LOST.value:
            lost += 1
            assert any("redrawn around its cells" in m for m in said), said
    assert lost >= 2  # the guesses that lost were told so


RECORDING = (
    Path(__file__).resolve().parents[2] / "screenshots" / "recordings" / "pymines-8x8-red-gaps-loss"
)
GUESS = 3 * 8 + 0


def test_pymines_red_gaps_show_the_faces_as_they_were_and_the_guess_shows_no_number() -> None:
    frames = recorded(RECORDING)
    (before_item, before), (after_item, after) = frames[-2], frames[-1]
    assert before_item["frame"] == 11 and after_item["frame"] == 12
    (guess,) = [c for c in before_item["clicks"] if c["button"] == "left"]
    assert (guess["row"], guess["col"], guess["p_mine"]) == (3, 0, 0.5)
    known = before.board
    # every cell reads as no tile: filled in from before, a won board
    assert after.problem and len(after.low_confidence) == known.size
    assert _won_under_cover(after, known, frozenset({GUESS})) is not None
    grid = load_profile(RECORDING / "profile.json").grid
    was = read_png(RECORDING / "frames" / "g002-f00011.png")
    now = read_png(RECORDING / "frames" / "g002-f00012.png")
    others = [i for i in range(known.size) if i != GUESS]
    face = _kept_face(grid, now, was, others)
    assert face is not None  # the tiles, 16 px of each 22 px box, are as they were
    rows, cols = face
    assert rows.stop - rows.start >= 10 and cols.stop - cols.start >= 10
    shown = [i for i in others if known.cells[i] >= 0]
    # each number's faces match one another, and the guess's matches none
    for i in shown:
        same = [j for j in shown if _same_face(grid, was, i, was, j, face)]
        assert {known.cells[j] for j in same} == {known.cells[i]}
    assert not any(_same_face(grid, now, GUESS, was, j, face) for j in shown)
    # a window's frame: the faces are not kept
    black = np.zeros_like(now)
    assert _kept_face(grid, black, was, others) is None
    assert _kept_face(grid, was, was, others) is None  # nothing drawn around them


def _last_guess(won: bool) -> tuple[str | None, list[str]]:
    """A game one safe cell from its end, a guess then sent to that cell (or to a
    mine), the game's window turning green on a win and red on a loss: what
    the player makes of the end frame."""
    theme = replace(Theme.random(31), gap=8)
    screen = themed_sim(
        3100,
        theme,
        won_backdrop=(20, 200, 20),
        loss_backdrop=(230, 20, 20),
        mines_on_loss=False,
    )
    game = screen.game
    game.open(0)
    safe = [i for i in range(game.board.size) if not game.is_mine(i)]
    for i in safe[:-1]:
        if game.board.cells[i] == UNKNOWN:
            game.open(i)
    last = safe[-1]
    assert game.status is Status.PLAYING and game.board.cells[last] == UNKNOWN
    known = game.board
    left, top, w, h = screen.grid.rect()
    before = screen.draw()[top : top + h, left : left + w].copy()
    target = last if won else next(iter(game.layout))
    game.open(target)
    assert game.status is (Status.WON if won else Status.LOST)
    after = screen.draw()[top : top + h, left : left + w].copy()
    player, said = make_player(screen)
    player._before = before
    sent = [Click("left", target, 0.5, frozenset({target}))]
    ended = player._ended_under_cover(after, Reading(known), known, sent)
    assert ended is not None
    return game_state(ended.board), said


def test_a_last_guess_showing_its_number_as_the_window_turns_green_is_won() -> None:
    got, said = _last_guess(won=True)
    assert got == "won", said
    assert any("the last safe cell: won" in m for m in said), said


def test_a_last_guess_on_a_mine_as_the_window_turns_red_is_lost() -> None:
    got, said = _last_guess(won=False)
    assert got == "lost", said
