"""An opened 0 that differs from its blank look only in its bevel stays opened.

A stock Tk button drawn sunken (opened) instead of raised changes only its
bevel, which a cell's cut can leave on two touching edges, the way a sliver
of an opened neighbour shows (`LearningReader._still_now`). Recorded: the Tk
clone's 0 at (0, 0) read opened on the frame its click showed, and unopened
on the next (its look not named yet, its click no longer the last batch):
"opened cells changed their look", and the player stopped.
"""

from __future__ import annotations

from pathlib import Path

from msolver.core.board import UNKNOWN
from tests.support.replay import recorded

RECORDING = Path(__file__).resolve().parents[2] / "screenshots" / "recordings" / "tk-c22-xp-16x16"


def test_a_sunken_zero_read_opened_stays_opened_on_the_next_frame() -> None:
    readings = [reading for _item, reading in recorded(RECORDING)]
    assert len(readings) == 4
    for reading in readings:
        assert not reading.problem
    # (0, 0) opened by the second click: a 0 in every reading the board allows
    for reading in readings[2:]:
        for board in reading.alternatives or (reading.board,):
            assert board.cells[0] == 0
    assert readings[3].board.cells[3] != UNKNOWN  # the 2 the last click opened


OPENING = RECORDING.with_name("tk-text-xp-30x16-opening-zeros")
# game 2, frame 6 as it shows ('.': unopened, 'F': our flags)
SHOWN = """
..............................
..............................
..............................
..............................
..............................
..............................
..............................
..............................
..............................
..............................
...........................2..
..........................FF21
..........................F410
........................F3F200
.........................31100
.........................10000
"""


def test_sunken_zeros_whose_pixels_did_not_change_stay_opened() -> None:
    # Recorded by a random sweep (Tk text buttons, 30x16, Windows XP's first
    # click): the 0s of game 2's first opening read opened on the frame the
    # opening showed; on the next, with the batch's clicks elsewhere and not a
    # pixel of them changed, they read unopened, and play stopped on "opened
    # cells changed their look (9, first at row 12, col 29)".
    items = recorded(OPENING)
    item, reading = items[-1]
    assert (item["game"], item["frame"]) == (2, 6)
    assert not reading.problem
    shown = [ch for line in SHOWN.split() for ch in line]
    for i, ch in enumerate(shown):
        want = UNKNOWN if ch in ".F" else int(ch)
        if ch == "F":
            continue
        assert reading.board.cells[i] == want, divmod(i, 30)


BOX = RECORDING.with_name("tk-text-dialog-xp-30x16-box-pieces")


def test_pieces_of_the_games_box_over_a_lost_board_are_no_tiles_of_the_next_game() -> None:
    # Recorded by a random sweep (Tk text buttons, 30x16, XP's first click,
    # a "You lose" box over the board): the lost board, read as nothing
    # (mines where we did not click), made looks of the box's flat pieces.
    # In game 2 the 0s of the first opening matched one by content, lay
    # nearer their blank look than that piece, and read as half drawn frame
    # after frame: play stopped on "cells nearer their blank look than any
    # tile". Looks never named nor read in a clean read end with their game.
    readings = [(item, reading) for item, reading in recorded(BOX)]
    item, last = readings[-1]
    assert (item["game"], item["frame"]) == (2, 5)
    assert not last.problem, last.problem
    shown = {12: "21", 13: "10", 14: "10", 15: "10"}  # cols 28 and 29, as the frame shows
    truth = {
        row * 30 + col: int(ch)
        for row, pair in shown.items()
        for col, ch in zip((28, 29), pair, strict=True)
    }
    # Looks not named yet may be read several ways; the truth is one of them,
    # and every cell read for sure is read right.
    boards = last.alternatives or (last.board,)
    assert any(all(b.cells[i] == v for i, v in truth.items()) for b in boards)
    for board in boards:
        for i, v in truth.items():
            assert i in last.unsure or board.cells[i] == v, divmod(i, 30)
    # all that game 2's opening shows; nothing else read opened
    opened = {i for i, s in enumerate(last.board.cells) if s != UNKNOWN}
    assert opened == {row * 30 + col for row in shown for col in (28, 29)}
