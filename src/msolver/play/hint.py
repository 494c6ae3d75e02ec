"""`play --hint`: the best move and every hidden cell's mine probability, as text.

For a person playing: nothing is clicked. Hidden cells show their mine
probability in percent (`.` for certainly safe, `##` for a certain mine),
opened cells their number, so the grid lines up with the board on screen.
"""

from __future__ import annotations

from msolver.core.board import UNKNOWN, Board, state_char
from msolver.core.solver import Solver, analyse
from msolver.core.solver.reason import explain


def _cell(board: Board, i: int, p: float | None) -> str:
    s = board.cells[i]
    if s != UNKNOWN or p is None:
        return state_char(s).rjust(3)
    if p == 0.0:
        return "  ."
    if p == 1.0:
        return " ##"
    return f"{min(99, max(1, round(p * 100))):3d}"


def render_hint(board: Board, solver: Solver | None = None) -> str:
    solver = solver or Solver()
    decision = solver.decide(board)
    if decision.status == "inconsistent":
        return f"the board reads inconsistent: {decision.reason}"
    if decision.status == "done":
        return "no hidden cell left"
    # the solver counted the board already unless a cheap rule answered
    # before it verified (verify off) or nothing was opened yet
    a = decision.analysis or analyse(board)
    w = board.width
    lines = []
    for m in decision.moves[:1]:
        r, c = divmod(m.index, w)
        what = "open" if m.kind == "open" else "flag"
        sure = "certain" if decision.certain else f"guess, {m.p_mine:.0%} mine"
        more = len(decision.moves) - 1
        extra = f" (+{more} more certain moves)" if more > 0 else ""
        lines.append(f"best move: {what} row {r}, col {c} ({sure}){extra}")
        lines.append(f"why: {explain(board, decision, m)}")
    header = "    " + "".join(f"{c + 1:3d}" for c in range(w))
    lines.append(header)
    for r in range(board.height):
        row = "".join(_cell(board, r * w + c, a.prob[r * w + c]) for c in range(w))
        lines.append(f"{r + 1:3d} {row}")
    return "\n".join(lines)
