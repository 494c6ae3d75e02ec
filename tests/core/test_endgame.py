from __future__ import annotations

from collections.abc import Iterable
from random import Random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from msolver.core.bench import apply_moves
from msolver.core.board import Board
from msolver.core.game import Game, Status
from msolver.core.solver import Solver
from msolver.core.solver.constraints import Constraints, build
from msolver.core.solver.endgame import best_move, enumerate_layouts, search
from msolver.core.solver.probability import Analysis, analyse


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


def _parts(group: Iterable[int], k: int, nbr_mask: list[int]) -> list[frozenset[int]]:
    """The layouts in which cell k is safe, grouped by the number it shows."""
    parts: dict[int, set[int]] = {}
    for lay in group:
        if not lay >> k & 1:
            parts.setdefault((lay & nbr_mask[k]).bit_count(), set()).add(lay)
    return [frozenset(p) for p in parts.values()]


def _tree_value(group: frozenset[int], nbr_mask: list[int]) -> float:
    """The game-tree value by plain recursion over every cell: no pruning."""
    if len(group) == 1:
        return 1.0
    best = 0.0
    for k in range(len(nbr_mask)):
        parts = _parts(group, k, nbr_mask)
        if not parts or parts == [group]:
            continue  # a mine in every layout, or a cell that tells nothing
        v = sum(len(p) * _tree_value(p, nbr_mask) for p in parts)
        best = max(best, v / len(group))
    return best


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 8), st.integers(2, 24), st.randoms(use_true_random=False))
def test_pruned_search_finds_the_plain_tree_value(n: int, count: int, rnd: Random) -> None:
    # Random neighbourhoods and random layouts: the pruned search must return
    # exactly the value of the plain game tree, and the cell it names must
    # reach that value.
    nbr_mask = [0] * n
    for k in range(n):
        for j in range(n):
            if j != k and rnd.random() < 0.45:
                nbr_mask[k] |= 1 << j
    layouts = sorted({rnd.getrandbits(n) for _ in range(count)})
    if len(layouts) < 2:
        return
    found = search(layouts, nbr_mask)
    assert found is not None
    value, k = found
    assert abs(value - _tree_value(frozenset(layouts), nbr_mask)) < 1e-9
    # Opening k first and then playing perfectly wins exactly that share.
    via_k = sum(len(p) * _tree_value(p, nbr_mask) for p in _parts(layouts, k, nbr_mask))
    assert abs(via_k / len(layouts) - value) < 1e-9


def test_a_position_the_last_search_valued_gets_a_new_searchs_answer() -> None:
    # After the endgame's move and the certain moves it leads to, the solver
    # answers from its last search (`Kept`): on every such position of whole
    # expert games the answer must be the one a fresh search gives, and some
    # positions must be answered so.
    from msolver.core.solver import endgame

    recalled = 0
    plain = endgame.best_move
    recall = endgame._recall

    def checked(board: Board, cs: Constraints, a: Analysis, *args: Any, **kw: Any) -> Any:
        nonlocal recalled
        kept = kw.get("kept")
        last = None if kept is None else kept.last
        if last is not None and recall(last, board, a.layouts) != endgame._MISS:
            recalled += 1
            assert plain(board, cs, a) == plain(board, cs, a, kept=kept)
        return plain(board, cs, a, *args, **kw)

    endgame.best_move = checked
    try:
        for seed in range(40):
            g = Game(30, 16, 99, seed=seed, first_click="opening")
            solver = Solver("opening", verify=False)
            while g.status is Status.PLAYING:
                d = solver.decide(g.board)
                assert d.status == "ok" and d.moves
                apply_moves(g, d.moves)
    finally:
        endgame.best_move = plain
    assert recalled > 0
