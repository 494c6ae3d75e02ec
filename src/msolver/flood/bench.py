"""Flood-It benchmark: solve a list of boards, check every answer by replaying it, sum up."""

from __future__ import annotations

import time
from typing import Any

from msolver.flood.core import FloodBoard, winning
from msolver.flood.solver import solve


def bench_boards(
    boards: list[FloodBoard],
    optimal: list[int] | None,
    limit: int,
    budget_s: float,
    strategy: str = "astar",
    depth: int = 4,
) -> dict[str, Any]:
    """Solve every board, check each answer by replaying it, and sum up."""
    from msolver.flood.baselines import lookahead

    total = wins = hits = proved = 0
    ms: list[float] = []
    # CPU time of this process: the cost on one core, whatever else the machine runs.
    wall0 = time.perf_counter()
    for k, board in enumerate(boards):
        t0 = time.process_time()
        if strategy == "astar":
            sol = solve(board, budget_s=budget_s)
            moves, is_optimal = sol.moves, sol.optimal
        else:
            moves = lookahead(board, 1 if strategy == "greedy" else depth)
            is_optimal = False
        ms.append((time.process_time() - t0) * 1000)
        if not winning(board, moves):
            raise AssertionError(f"board {k + 1}: the {strategy} moves do not win")  # a bug
        n = len(moves)
        total += n
        wins += n <= limit
        proved += is_optimal
        if optimal is not None:
            hits += n == optimal[k]
    count = len(boards)
    return {
        "boards": count,
        "total_moves": total,
        "mean_moves": round(total / count, 3),
        "wins": wins,
        "limit": limit,
        "optimal_hits": hits if optimal is not None else None,
        "optimal_total": sum(optimal) if optimal is not None else None,
        "proved_optimal": proved,
        "ms_per_board": round(sum(ms) / count, 1),
        "ms_max": round(max(ms), 1),
        "wall_s": round(time.perf_counter() - wall0, 1),
        "budget_s": budget_s,
        "strategy": strategy if strategy != "lookahead" else f"lookahead{depth}",
    }
