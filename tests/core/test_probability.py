"""Exact probabilities equal a brute-force enumeration of every mine layout."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from msolver.core.board import FLAG, UNKNOWN, Board
from msolver.core.game import Game
from msolver.core.solver import analyse
from msolver.core.solver.probability import CountTooLarge, count_budget, count_region


def brute(board: Board) -> tuple[int, list[float | None]]:
    unknown = [i for i, s in enumerate(board.cells) if s == UNKNOWN]
    flags = {i for i, s in enumerate(board.cells) if s == FLAG}
    left = board.mines - len(flags)
    if left < 0 or left > len(unknown):
        return 0, []
    count = 0
    per = [0] * board.size
    numbers = [(i, s) for i, s in enumerate(board.cells) if s >= 0]
    for combo in itertools.combinations(unknown, left):
        mines = flags | set(combo)
        if all(sum(j in mines for j in board.neighbours(i)) == s for i, s in numbers):
            count += 1
            for c in combo:
                per[c] += 1
    probs: list[float | None] = [None] * board.size
    for i in unknown:
        probs[i] = per[i] / count if count else None
    for i in flags:
        probs[i] = 1.0
    return count, probs


@st.composite
def positions(draw: st.DrawFn) -> Board:
    """A real game part-way through, maybe with some numbers hidden again."""
    w = draw(st.integers(3, 6))
    h = draw(st.integers(3, 5))
    mines = draw(st.integers(1, min(6, w * h // 3)))
    seed = draw(st.integers(0, 10_000))
    g = Game(w, h, mines, seed=seed, first_click="none")
    opens = draw(st.lists(st.integers(0, w * h - 1), min_size=1, max_size=6))
    for i in opens:
        if not g.is_mine(i):
            g.open(i)
    cells = list(g.board.cells)
    for i in draw(st.lists(st.integers(0, w * h - 1), max_size=3)):
        if g.is_mine(i):
            cells[i] = FLAG
    board = Board(w, h, mines, tuple(cells))
    # Sometimes lie about the mine count: the solver must notice.
    if draw(st.booleans()) and draw(st.booleans()):
        board = Board(w, h, draw(st.integers(0, mines + 3)), board.cells)
    return board


@settings(max_examples=300, deadline=None)
@given(positions())
def test_probabilities_equal_brute_force(board: Board) -> None:
    count, probs = brute(board)
    a = analyse(board)
    if count == 0:
        assert a.status == "inconsistent"
        return
    assert a.status == "ok"
    assert a.layouts == count
    for i, s in enumerate(board.cells):
        if s in (UNKNOWN, FLAG):
            p = a.prob[i]
            q = probs[i]
            assert p is not None and q is not None
            assert abs(p - q) <= 1e-9, (i, p, q, board.to_text())
        else:
            assert a.prob[i] is None
    assert set(a.safe) == {i for i, q in enumerate(probs) if q == 0.0 and board.cells[i] == UNKNOWN}
    assert set(a.mines) == {
        i for i, q in enumerate(probs) if q == 1.0 and board.cells[i] == UNKNOWN
    }


def test_long_chain_region_counts_without_blowing_up() -> None:
    # 400 boxes in a chain, each pair of neighbours sharing a "1": 2^200 layouts
    # would be listed by a backtracking solver; the DP has 2 states per step.
    n = 400
    cons = [[k, k + 1] for k in range(n - 1)]
    rc = count_region([1] * n, cons, [1] * (n - 1))
    assert rc is not None
    assert sum(rc.total) == 2  # alternating patterns
    assert all(sum(bm) == 1 for bm in rc.box_mines)  # each box holds a mine in one of the two


def test_expert_board_probabilities_are_fractions() -> None:
    g = Game(30, 16, 99, seed=5, first_click="opening")
    g.open(240)
    a = analyse(g.board)
    assert a.status == "ok"
    unknown = [p for i, p in enumerate(a.prob) if g.board.cells[i] == UNKNOWN]
    assert abs(sum(unknown) - 99) < 1e-6  # expected mines add up to the count


def test_a_count_budget_stops_a_region_past_it_and_only_inside_its_block() -> None:
    # 12 boxes of 3 cells, each number over three boxes in a ring: a region
    # whose counting holds more than a handful of states
    n = 12
    cons = [[k, (k + 1) % n, (k + 2) % n] for k in range(n)]
    plain = count_region([3] * n, cons, [3] * n)
    assert plain is not None
    with count_budget(5):
        try:
            count_region([3] * n, cons, [3] * n)
        except CountTooLarge:
            pass
        else:
            raise AssertionError("a count past its budget went on")
    # the budget is gone after its block, and a count within one is exact
    assert count_region([3] * n, cons, [3] * n) == plain
    with count_budget(1_000_000):
        assert count_region([3] * n, cons, [3] * n) == plain
