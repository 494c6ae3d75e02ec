"""A won board completed from what a window over it leaves in sight (core.hidden)."""

from __future__ import annotations

from msolver.core.board import Board
from msolver.core.hidden import won_beneath


def _cover(board: Board, first_col: int) -> set[int]:
    """The cells from column `first_col` rightwards: a dialog over the board's right side."""
    return {i for i in range(board.size) if i % board.width >= first_col}


def _won(
    before_text: str, screen_text: str, mines: int, first_col: int, click: int
) -> Board | None:
    """won_beneath for a dialog over the columns from `first_col` rightwards,
    after one click on the cell numbered `click` (row by row from 0).

    The player has the screen outside the cover, the board before under it.
    """
    before = Board.parse(before_text, mines)
    screen = Board.parse(screen_text, mines)
    hidden = _cover(before, first_col)
    seen = [before.cells[i] if i in hidden else s for i, s in enumerate(screen.cells)]
    return won_beneath(seen, hidden, [click], before)


def test_cells_a_clicked_zero_opened_under_the_cover_complete_the_win() -> None:
    # The last click (row 1, col 3) is a 0: its cascade opens every cell under
    # the dialog, so fewer cells read open than the board has safe cells, and
    # only the cascade explains the win.
    won = _won(".1...\n11...\n.....", ".1...\n11...\n00...", 1, 2, click=8)
    assert won is not None
    assert won.to_text() == ".1000\n11000\n00000"
    assert won.outcome() == "won"


def test_a_cascade_from_a_click_in_sight_runs_on_under_the_cover() -> None:
    # The last click (row 2, col 0) is in sight; its 0s open column 2 in sight,
    # whose 0s open everything under the dialog over columns 3-4.
    won = _won(".1...\n11...\n.....", ".10..\n110..\n000..", 1, 3, click=10)
    assert won is not None and won.to_text() == ".1000\n11000\n00000"


def test_an_unknown_cell_in_sight_that_cannot_be_a_mine_is_no_win() -> None:
    # Row 2, col 0 still unopened beside the cover: with one mine on the board
    # already in the corner, it is a safe cell left, and the game goes on.
    assert _won(".1...\n11...\n.....", ".1...\n11...\n.0...", 1, 2, click=8) is None


def test_hidden_cells_no_cascade_reaches_are_not_called_open() -> None:
    # The clicked cell shows a 1 under every layout the numbers allow, so it
    # opened nothing else; the other hidden cells cannot all be open.
    board = ".10..\n110..\n000.."
    assert _won(board, board, 2, 3, click=8) is None


def test_a_mine_in_sight_is_no_win() -> None:
    assert _won(".1...\n11...\n.....", "*1...\n11...\n00...", 1, 2, click=8) is None


def test_every_safe_cell_in_sight_needs_no_cascade() -> None:
    # The exact case: the batch's one click was the last safe cell; it is
    # under the cover and its number follows from the mines around it.
    board = ".1000\n11000\n0000."
    won = _won(board, board, 1, 4, click=14)
    assert won is not None and won.to_text() == ".1000\n11000\n00000"


def test_a_large_board_hidden_whole_is_refused_not_searched() -> None:
    # 2,500 hidden unknown cells: no search (it would recurse past Python's
    # limit), no win.
    before = Board.blank(50, 50, 10)
    assert won_beneath(list(before.cells), range(before.size), [0], before) is None


def test_a_number_read_unsurely_binds_nothing_and_the_won_board_counts_it() -> None:
    # minesweeper-mvc: a 3 not named yet read (unsure) as a 2 before its win
    # under the end screen; taken at its word, no won board fitted and play
    # stopped. Here the 1 at row 1, col 1 was read as a 2.
    before = Board.parse(".1...\n12...\n.....", 1)
    hidden = _cover(before, 2)
    seen = [before.cells[i] if i in hidden else s for i, s in enumerate(before.cells)]
    seen[10] = seen[11] = 0  # row 2: the last click's 0s in sight
    assert won_beneath(seen, hidden, [10], before) is None
    won = won_beneath(seen, hidden, [10], before, unsure=[6])
    assert won is not None and won.to_text() == ".1000\n11000\n00000"
    assert won_beneath(seen, hidden, [10], before, unsure=[7]) is None  # (an unopened cell)
