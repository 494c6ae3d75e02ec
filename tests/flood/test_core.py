"""Board text form, region graph and move replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from msolver.flood.core import FloodBoard, FloodBoardError, read_boards, simulate, winning

PC19 = Path(__file__).resolve().parent / "data" / "pc19-sample-boards.txt"


def test_parse_round_trip_and_symbols() -> None:
    b = FloodBoard.parse("121\n332\n")
    assert (b.width, b.height, b.symbols) == (3, 2, "123")
    assert b.cells == (0, 1, 0, 2, 2, 1)
    assert b.to_text() == "121\n332"


def test_one_line_square_board() -> None:
    b = FloodBoard.parse("1234")
    assert (b.width, b.height) == (2, 2)
    assert b.to_text() == "12\n34"


@pytest.mark.parametrize(
    ("text", "kwargs", "needle"),
    [
        ("123\n12\n", {}, "row 1: 2 cells, expected 3 (ragged board)"),
        ("123\n1#3\n", {}, "row 1, col 1: unknown character '#'"),
        ("120\n", {}, "row 0, col 2: unknown character '0'"),
        ("1234\n5123\n", {"max_colours": 4}, "row 1, col 0: colour '5' is one more than the 4"),
        ("", {}, "empty"),
    ],
)
def test_parse_errors_are_one_line_with_place(
    text: str, kwargs: dict[str, int], needle: str
) -> None:
    with pytest.raises(FloodBoardError) as info:
        FloodBoard.parse(text, **kwargs)
    msg = str(info.value)
    assert needle in msg
    assert "\n" not in msg


def test_play_recolours_only_the_flood() -> None:
    b = FloodBoard.parse("112\n212\n333")
    after = b.play(b.symbol_index("2"))
    assert after.to_text() == "222\n222\n333"
    assert after.play(after.symbol_index("3")).is_solved()


def test_region_replay_agrees_with_cell_replay() -> None:
    b = FloodBoard.parse("1213\n3122\n2231\n1312")
    seqs = [[1, 0, 2], [2, 1, 0, 2], [0, 1, 2, 0, 1], [1, 2, 0, 1, 2, 0]]
    for moves in seqs:
        assert winning(b, moves) == simulate(b, moves).is_solved()


def test_read_boards_line_and_block_layouts() -> None:
    boards = read_boards(PC19.read_text())
    assert len(boards) == 7
    assert all((b.width, b.height) == (14, 14) for b in boards)
    blocks = read_boards("12\n21\n\n123\n321\n")
    assert [(b.width, b.height) for b in blocks] == [(2, 2), (3, 2)]
    square_block = read_boards("1212\n2121\n1212\n2121\n")
    assert [(b.width, b.height) for b in square_block] == [(4, 4)]


def test_read_boards_error_names_line() -> None:
    # Board 2 starts on line 4; its bad row 1 (its second) is line 5.
    with pytest.raises(FloodBoardError, match=r"line 5: board 2: row 1, col 0: unknown"):
        read_boards("12\n21\n\n12\n#1\n")
