"""3BV on hand-counted boards, and against a perfect no-flag player in the simulator."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msolver.core.bbbv import (
    bbbv,
    bbbv_per_s,
    efficiency,
    figures,
    numbers,
    parts,
    solved_bbbv,
    solved_parts,
)
from msolver.core.board import UNKNOWN
from msolver.core.game import Game, Status


def layout_of(text: str) -> tuple[int, int, frozenset[int]]:
    """`*` a mine, `.` a safe cell; one line per row."""
    rows = [r.strip() for r in text.strip().splitlines()]
    width = len(rows[0])
    mines = frozenset(
        r * width + c for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "*"
    )
    return width, len(rows), mines


# (board, 3BV, how it was counted by hand)
HAND_COUNTED = [
    # no mines: every cell is a zero, one opening
    ("...\n...\n...", 1),
    # mine in the middle: eight 1s, no zero anywhere, each needs its own click
    ("...\n.*.\n...", 8),
    # 0 1 * 1 0: two openings, each with its 1 as border
    ("..*..", 2),
    # the lone safe corner is a 3 and needs its own click
    (".**\n***\n***", 1),
    # 0 1 * 2 * 1 0: two openings; the 2 between the mines borders no zero
    ("..*.*..", 3),
    # corner mine on 5x5: the three 1s all border the one big opening
    ("*....\n.....\n.....\n.....\n.....", 1),
    # numbers
    #   * 1 0 0
    #   1 1 0 0
    #   0 0 1 1
    #   0 0 1 *
    # the zeros at (1,2) and (2,1) touch diagonally: one opening, all numbers on its border
    ("*...\n....\n....\n...*", 1),
    # numbers 3 * 3 / * * * / 2 3 2: no zero, five lone numbers
    (".*.\n***\n...", 5),
    # numbers
    #   0 1 * 1 0
    #   0 1 1 1 0
    #   0 0 0 0 0
    #   1 1 0 0 0
    #   * 1 0 0 0
    # the zeros go round the bottom-left mine's numbers: one opening holds all
    ("..*..\n.....\n.....\n.....\n*....", 1),
    # numbers
    #   1 * 2 * 1
    #   1 1 2 1 1
    #   0 0 0 0 0
    # one opening (row 3) whose border is row 2; the top 1s and 2 border no zero: 3 lone
    (".*.*.\n.....\n.....", 4),
]


@pytest.mark.parametrize(("text", "expected"), HAND_COUNTED)
def test_hand_counted_boards(text: str, expected: int) -> None:
    width, height, mines = layout_of(text)
    assert bbbv(width, height, mines) == expected


def test_numbers_are_the_mine_counts_around_each_cell() -> None:
    width, height, mines = layout_of("..*..")
    assert numbers(width, height, mines) == (0, 1, -1, 1, 0)


def test_the_parts_of_a_board_name_its_openings_and_lone_numbers() -> None:
    width, height, mines = layout_of("..*.*..")
    p = parts(width, height, mines)
    assert sorted(sorted(o) for o in p.openings) == [[0, 1], [5, 6]]
    assert p.lone == frozenset({3})


def test_solved_bbbv_counts_only_whole_openings_and_opened_lone_numbers() -> None:
    width, height, mines = layout_of("..*.*..")
    assert solved_bbbv(width, height, mines, []) == 0
    # the left opening wholly open; the right one only half
    assert solved_bbbv(width, height, mines, [0, 1, 6]) == 1
    assert solved_bbbv(width, height, mines, [0, 1, 3, 6]) == 2
    assert solved_bbbv(width, height, mines, [0, 1, 3, 5, 6]) == 3


def test_efficiency_and_rate() -> None:
    assert efficiency(30, 40) == pytest.approx(0.75)
    assert efficiency(30, 0) is None
    assert bbbv_per_s(30, 12.0) == pytest.approx(2.5)
    assert bbbv_per_s(30, 0.0) is None


def perfect_no_flag_clicks(width: int, height: int, mines: frozenset[int]) -> int:
    """Clicks of a player who knows the layout: one per opening, then each cell left."""
    game = Game(width, height, len(mines), layout=mines, first_click="none")
    clicks = 0
    # The simulator floods, so which zeros are one opening is the game's
    # business here, not the 3BV code's.
    zeros = [
        i
        for i in range(width * height)
        if i not in mines and not any(j in mines for j in game.board.neighbours(i))
    ]
    for i in zeros:
        if game.board.cells[i] == UNKNOWN:
            game.open(i)
            clicks += 1
    for i in range(width * height):
        if i not in mines and game.board.cells[i] == UNKNOWN:
            game.open(i)
            clicks += 1
    assert game.status is Status.WON or not clicks
    return clicks


@st.composite
def layouts(draw: st.DrawFn) -> tuple[int, int, frozenset[int]]:
    width = draw(st.integers(1, 12))
    height = draw(st.integers(1, 10))
    cells = width * height
    mines = draw(st.sets(st.integers(0, cells - 1), max_size=cells - 1))
    return width, height, frozenset(mines)


@settings(max_examples=300, deadline=None)
@given(layouts())
def test_bbbv_is_the_clicks_of_a_perfect_no_flag_player(
    case: tuple[int, int, frozenset[int]],
) -> None:
    width, height, mines = case
    assert bbbv(width, height, mines) == perfect_no_flag_clicks(width, height, mines)


@settings(max_examples=100, deadline=None)
@given(layouts())
def test_a_won_board_solved_all_its_bbbv(case: tuple[int, int, frozenset[int]]) -> None:
    width, height, mines = case
    safe = [i for i in range(width * height) if i not in mines]
    assert solved_bbbv(width, height, mines, safe) == bbbv(width, height, mines)


@settings(max_examples=300, deadline=None)
@given(layouts(), st.data())
def test_figures_are_the_parts_counted(
    case: tuple[int, int, frozenset[int]], data: st.DataObject
) -> None:
    # Any cells shown, mines included and openings half open: the same two
    # figures as listing the parts.
    width, height, mines = case
    num = numbers(width, height, mines)
    shown = data.draw(
        st.lists(st.integers(-5, 8), min_size=width * height, max_size=width * height)
    )
    split = parts(width, height, mines)
    opened = [i for i, s in enumerate(shown) if s >= 0]
    assert figures(width, height, num) == (split.bbbv, split.bbbv)
    assert figures(width, height, num, shown) == (split.bbbv, solved_parts(split, opened))
    for o in split.openings[::2]:
        for i in o:
            shown[i] = 0
    opened = [i for i, s in enumerate(shown) if s >= 0]
    assert figures(width, height, list(num), shown) == (split.bbbv, solved_parts(split, opened))


def test_the_game_counts_its_numbers_as_bbbv_does() -> None:
    for seed in range(30):
        game = Game(9, 9, 10, seed=seed, first_click="safe")
        assert game.numbers() == [0] * 81  # no mines before the first click
        game.open(seed % 81)
        assert tuple(game.numbers()) == numbers(9, 9, game.layout)
