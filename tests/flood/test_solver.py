"""The solver: winning sequences, optimal lengths against brute force and pc19."""

from __future__ import annotations

from collections import deque
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from msolver.flood.core import FloodBoard, simulate, winning
from msolver.flood.solver import solve

DATA = Path(__file__).resolve().parent / "data"
PC19 = DATA / "pc19-sample-boards.txt"
PC19_OPT = DATA / "pc19-sample-optimal.txt"


def brute_force_length(board: FloodBoard) -> int:
    """Breadth-first search over whole boards, cell by cell (no region graph)."""
    seen = {board.cells}
    queue = deque([(board, 0)])
    while queue:
        b, d = queue.popleft()
        if b.is_solved():
            return d
        for c in range(b.colours):
            nxt = b.play(c)
            if nxt.cells not in seen:
                seen.add(nxt.cells)
                queue.append((nxt, d + 1))
    raise AssertionError("no solution")


@st.composite
def small_boards(draw: st.DrawFn) -> FloodBoard:
    w = draw(st.integers(2, 5))
    h = draw(st.integers(2, 4))
    k = draw(st.integers(2, 4))
    cells = draw(st.lists(st.integers(0, k - 1), min_size=w * h, max_size=w * h))
    text = "\n".join("".join(str(1 + v) for v in cells[r * w : (r + 1) * w]) for r in range(h))
    return FloodBoard.parse(text)


@settings(max_examples=120, deadline=None)
@given(small_boards())
def test_optimal_on_small_boards_matches_brute_force(board: FloodBoard) -> None:
    sol = solve(board, budget_s=5.0)
    assert sol.optimal
    assert simulate(board, sol.moves).is_solved()
    assert len(sol.moves) == brute_force_length(board)


def test_solved_board_needs_no_move() -> None:
    sol = solve(FloodBoard.parse("11\n11"))
    assert sol.moves == () and sol.optimal


def test_pc19_boards_reach_the_known_optimum() -> None:
    all_boards = PC19.read_text().split()
    all_best = PC19_OPT.read_text().split()
    assert len(all_boards) == len(all_best) == 7
    for text, ref in zip(all_boards, all_best, strict=True):
        board = FloodBoard.parse(text)
        sol = solve(board, budget_s=10.0)
        assert sol.optimal
        assert simulate(board, sol.moves).is_solved()
        assert len(sol.moves) == len(ref)


def test_fallback_when_budget_runs_out_still_wins() -> None:
    # A board that needs thousands of A* expansions: a near-zero budget forces the beam.
    board = FloodBoard.parse(PC19.read_text().split()[0])
    sol = solve(board, budget_s=1e-9)
    assert winning(board, sol.moves)
    assert sol.lower_bound <= len(sol.moves)
    assert sol.optimal == (sol.lower_bound == len(sol.moves))
    assert len(sol.moves) <= 25


def region_bfs_length(board: FloodBoard) -> int:
    """Breadth-first search over flood sets on the region graph, every colour tried."""
    g = board.regions
    start = 1 << g.start
    seen = {start}
    layer = [start]
    depth = 0
    while True:
        if g.all in layer:
            return depth
        nxt = []
        for flood in layer:
            front = g.neighbours(flood)
            for mask in g.colour_mask:
                f2 = flood | (front & mask)
                if f2 not in seen:
                    seen.add(f2)
                    nxt.append(f2)
        layer = nxt
        depth += 1


def test_pruned_search_keeps_the_optimum_on_medium_boards() -> None:
    # Boards big enough for the move-order and finishing prunings to act often.
    import random

    rng = random.Random(5)
    for _ in range(40):
        w, h, k = rng.randint(5, 8), rng.randint(5, 7), rng.randint(3, 6)
        text = "\n".join("".join(str(rng.randint(1, k)) for _ in range(w)) for _ in range(h))
        board = FloodBoard.parse(text)
        sol = solve(board, budget_s=10.0)
        assert sol.optimal and winning(board, sol.moves)
        assert len(sol.moves) == region_bfs_length(board), text
