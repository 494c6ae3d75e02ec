"""A loss that opens every cell and draws its mines over our flags is no win.

Recorded on react-minesweeper 1.0.2 (npm, a React component in Chromium) at
16x16/40 on 2026-12-07, game 4 of a session on a profile calibrated that
day. The last click was an endgame guess at (12, 14), a 50/50, and the mine.
This game's loss opens every safe cell and draws every mine, over our flags
too, in one bomb picture. Only our flagged cells and two others showed it,
the guess among them: as many as the mines, nothing unopened, so the look was
named the flag (the game's own flags on a win, as sgt-mines draws them), the
loss was counted won, and the bomb was kept as a second flag look.
"""

from __future__ import annotations

from pathlib import Path

from msolver.core.board import FLAG
from tests.support.replay import recorded

RECORDING = (
    Path(__file__).resolve().parents[2]
    / "screenshots"
    / "recordings"
    / "react-minesweeper-16x16-bombs-over-flags"
)
GUESS = 12 * 16 + 14


def test_a_mine_drawn_on_the_guessed_cell_is_never_read_as_a_flag_nor_the_loss_won() -> None:
    frames = recorded(RECORDING)
    item, last = frames[-1]
    assert item["frame"] == 48 and item["clicks"] == []
    (before,) = [c for c in frames[-2][0]["clicks"] if c["button"] == "left"]
    assert (before["row"], before["col"]) == (12, 14)
    for board in last.alternatives or (last.board,):
        assert board.cells[GUESS] != FLAG
        assert board.outcome() != "won" or GUESS in last.low_confidence
    # read, not just left unread: the frames before it gave the board
    assert frames[-2][1].board.outcome() is None and not frames[-2][1].problem
