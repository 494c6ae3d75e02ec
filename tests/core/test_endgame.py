from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from msolver.core.board import Board
from msolver.core.game import Game, Status
from msolver.core.solver import Solver
from msolver.core.solver.constraints import Constraints, build
from msolver.core.solver.endgame import best_move, enumerate_layouts
from msolver.core.solver.probability import analyse


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(4, 9))
def test_listed_layouts_match_the_exact_count(seed: int, mines: int) -> None:
    g = Game(7, 6, mines, seed=seed, first_click="opening")
    solver = Solver("opening")
    checked = 0
    while g.status is Status.PLAYING:
        board = g.board
        cs = build(board)
        assert isinstance(cs, Constraints)
        a = analyse(board, cs)
        if a.layouts <= 300:
            layouts = enumerate_layouts(cs, 300)
            assert layouts is not None and len(set(layouts)) == a.layouts
            # every listed layout holds exactly the mines left
            assert all(lay.bit_count() == cs.mines_left for lay in layouts)
            checked += 1
        for m in solver.decide(board).moves:
            (g.flag if m.kind == "flag" else g.open)(m.index)


def test_endgame_values_a_coin_flip_and_takes_one_side() -> None:
    # A lone unknown cell pinned by its numbers is certain, not an endgame; two
    # cells behind the same numbers are a pure 50/50: the search must value
    # both at 1/2 and return one of them, not crash or refuse.
    text = "0000\n0000\n0011\n001."
    board = Board.parse(text, 1)
    cs = build(board)
    assert isinstance(cs, Constraints)
    a = analyse(board, cs)
    assert a.mines == (15,)  # the 1s pin it: a certain mine, not an endgame
    board = Board.parse("01.\n01.", 1)
    cs = build(board)
    assert isinstance(cs, Constraints)
    a = analyse(board, cs)
    assert a.layouts == 2
    move = best_move(board, cs, a)
    assert move is not None and move[0] in (2, 5) and move[1] == 0.5
