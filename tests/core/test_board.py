from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from msolver.core.board import (
    FLAG,
    UNKNOWN,
    Board,
    BoardError,
    neighbours_table,
    side_neighbours_table,
    trusted_board,
    zero_beside_unknown,
)
from msolver.core.game import Game

CHARS = ".F012345678*XW"


@st.composite
def board_texts(draw: st.DrawFn) -> str:
    w = draw(st.integers(3, 8))
    h = draw(st.integers(3, 8))
    rows = []
    for r in range(h):
        row = ""
        for c in range(w):
            nb = len(Board.blank(w, h, 0).neighbours(r * w + c))
            row += draw(st.sampled_from([ch for ch in CHARS if not ch.isdigit() or int(ch) <= nb]))
        rows.append(row)
    return "\n".join(rows)


@given(board_texts())
def test_text_round_trips(text: str) -> None:
    board = Board.parse(text, 0)
    assert board.to_text() == text
    assert Board.parse(board.to_text(), 0) == board


def test_question_mark_reads_as_unknown() -> None:
    board = Board.parse("?F\n12", 1)
    assert board.at(0, 0) == UNKNOWN
    assert board.at(0, 1) == FLAG
    assert board.to_text() == ".F\n12"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("...\n..\n", "row 1 has 2 cells, row 0 has 3"),
        ("..a\n...\n", "row 0, col 2: unknown character 'a'"),
        ("4..\n...\n", "row 0, col 0: number 4 exceeds its 3 neighbours"),
        ("", "board text is empty"),
    ],
)
def test_malformed_text_names_the_place(text: str, message: str) -> None:
    with pytest.raises(BoardError) as err:
        Board.parse(text, 1)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_impossible_mine_counts() -> None:
    with pytest.raises(BoardError, match="negative"):
        Board.parse("..\n..", -1)
    with pytest.raises(BoardError, match="exceeds"):
        Board.parse("..\n..", 5)


def test_neighbours_of_corner_edge_and_inside() -> None:
    b = Board.blank(4, 3, 1)
    assert sorted(b.neighbours(0)) == [1, 4, 5]
    assert len(b.neighbours(1)) == 5
    assert len(b.neighbours(5)) == 8


def test_a_trusted_board_is_the_board_made_with_checks() -> None:
    game = Game(9, 9, 10, seed=3, first_click="safe")
    for i in (40, 0, 80, 8, 72):
        game.open(i)
        board = game.board
        checked = Board(board.width, board.height, board.mines, board.cells, board.since)
        assert board == checked and board.since == checked.since
        assert repr(board) == repr(checked) and hash(board) == hash(checked)
    made = trusted_board(3, 2, 1, (UNKNOWN,) * 6)
    assert made == Board.blank(3, 2, 1) and made.since is None


def test_a_zero_beside_an_unknown_cell_is_found_by_the_game_s_cascade() -> None:
    # row 0: a 0 whose right neighbour is unopened; row 1 corner to corner only
    board = Board.parse("0.\n10\n.0", mines=1)
    every = neighbours_table(2, 3)
    sides = side_neighbours_table(2, 3)
    assert zero_beside_unknown(board.cells, every) == 0
    # reading cells not known yet (None) are no unknown cell
    cells: list[int | None] = [0, None, 1, 0, UNKNOWN, 0]
    assert zero_beside_unknown(cells, sides) == 5
    assert zero_beside_unknown([0, None, 1, 0, 1, 0], every) is None
