"""Rule: when few layouts remain, play the move that wins most of them.

Near the end, the safest cell is not always the best: a slightly riskier
cell may tell the remaining layouts apart. With few enough layouts we list
them all and search the game tree exactly. A position is a set of layouts
still possible; its value is the share of them we can win:

- one layout left: won;
- a cell safe in every layout whose number would tell layouts apart is
  opened for free (certain information never hurts);
- otherwise the value is the best, over cells, of the sum over the numbers
  the cell may show of (share of layouts showing it) x (value of that part).

A cell can win at most the share of layouts it is safe in, so cells are
tried safest first and the search stops once none left can beat the best:
the answer stays exact and most of the tree is never visited.

A zero would also open its neighbours in the real game; we ignore that, so
the value is a lower bound and never promises more than the game gives.
The search has a work budget (layouts looked at, which is what its time
grows with): past it, the guess tier decides instead. The budget is counted,
not timed, so a game replays the same on any machine.
"""

from __future__ import annotations

from itertools import combinations

from msolver.core.board import Board
from tests.core.reference_solver.constraints import Constraints
from tests.core.reference_solver.probability import Analysis

# Listing layouts costs time; beyond this many the guess tier decides.
# Measured on expert (opening, 2,000 paired games): 300 wins 0.3% more games
# than 40, and 600 about 0.85% more.
MAX_LAYOUTS = 600
# Layout visits the search may make before it gives up (about 0.1 us each
# in CPython, 0.3 us on a busy machine: a bound on one move, well under a second).
WORK_BUDGET = 1_000_000


class _OutOfBudget(Exception):
    pass


def enumerate_layouts(cs: Constraints, limit: int) -> list[int] | None:
    """Every fitting layout as a bitmask over `cs.unknown`; None if more than `limit`."""
    pos = {c: k for k, c in enumerate(cs.unknown)}
    frontier = sorted(cs.frontier, key=lambda c: pos[c])
    off = [pos[c] for c in cs.unknown if c not in cs.frontier]
    need = [con.need for con in cs.constraints]
    left_cells = [len(con.cells) for con in cs.constraints]
    cons_of: dict[int, list[int]] = {}
    for k, con in enumerate(cs.constraints):
        for c in con.cells:
            cons_of.setdefault(c, []).append(k)
    out: list[int] = []
    total = cs.mines_left

    def rec(i: int, mask: int, used: int) -> None:
        if len(out) > limit:
            raise _OutOfBudget
        if i == len(frontier):
            rest = total - used
            if 0 <= rest <= len(off):
                for combo in combinations(off, rest):
                    m = mask
                    for b in combo:
                        m |= 1 << b
                    out.append(m)
                    if len(out) > limit:
                        raise _OutOfBudget
            return
        cell = frontier[i]
        ks = cons_of[cell]
        for mine in (0, 1):
            if mine and used == total:
                continue
            ok = True
            for k in ks:
                left_cells[k] -= 1
                need[k] -= mine
            for k in ks:
                if need[k] < 0 or need[k] > left_cells[k]:
                    ok = False
                    break
            if ok:
                rec(i + 1, mask | (mine << pos[cell]), used + mine)
            for k in ks:
                left_cells[k] += 1
                need[k] += mine

    try:
        rec(0, 0, 0)
    except _OutOfBudget:
        return None
    return out


def search(layouts: list[int], nbr_mask: list[int]) -> tuple[float, int] | None:
    """The share of `layouts` best play wins and the first cell to open.

    Layouts are bitmasks over n cells (bit k set: cell k is a mine);
    `nbr_mask[k]` marks the cells next to cell k, so opening k safely shows
    the mines under that mask. None when the work budget runs out.
    """
    n = len(nbr_mask)
    memo: dict[frozenset[int], float] = {}
    work = 0

    def charge(n: int) -> None:
        nonlocal work
        work += n
        if work > WORK_BUDGET:
            raise _OutOfBudget

    def split(group: tuple[int, ...], k: int) -> dict[int, tuple[int, ...]]:
        charge(len(group))
        parts: dict[int, list[int]] = {}
        bit = 1 << k
        for lay in group:
            if not lay & bit:
                parts.setdefault((lay & nbr_mask[k]).bit_count(), []).append(lay)
        return {v: tuple(p) for v, p in parts.items()}

    def value(group: tuple[int, ...]) -> tuple[float, int]:
        if len(group) == 1:
            return 1.0, -1
        key = frozenset(group)
        charge(len(group))
        if key in memo:
            return memo[key], -1
        size = len(group)
        mined = [0] * n
        for lay in group:
            while lay:
                low = lay & -lay
                mined[low.bit_length() - 1] += 1
                lay ^= low
        charge(len(group))
        # Free information first: a cell no layout mines that splits the group.
        for k in range(n):
            if not mined[k]:
                parts = split(group, k)
                if len(parts) > 1:
                    v = sum(len(p) * value(p)[0] for p in parts.values()) / size
                    memo[key] = v
                    return v, k
        # A cell can win at most the layouts it is safe in: try the safest
        # first and stop once no cell left can beat the best found, and stop
        # summing a cell's parts once the rest cannot lift it past the best.
        # The value stays exact; most of the tree is never visited.
        safe_in = sorted(
            ((size - mined[k], k) for k in range(n) if 0 < mined[k] < size),
            key=lambda t: (-t[0], t[1]),
        )
        best, best_k = -1.0, -1
        for bound, k in safe_in:
            if bound <= best * size + 1e-9:
                break
            parts = split(group, k)
            won = 0.0
            left = bound
            for p in sorted(parts.values(), key=len, reverse=True):
                left -= len(p)
                won += len(p) * value(p)[0]
                if won + left <= best * size + 1e-9:
                    break
            else:
                v = won / size
                if v > best + 1e-12:
                    best, best_k = v, k
        memo[key] = best
        return best, best_k

    try:
        return value(tuple(layouts))
    except _OutOfBudget:
        return None


def best_move(board: Board, cs: Constraints, analysis: Analysis) -> tuple[int, float] | None:
    """The exact best move and its mine probability, or None when out of reach."""
    if analysis.layouts > MAX_LAYOUTS or analysis.layouts < 2:
        return None
    layouts = enumerate_layouts(cs, MAX_LAYOUTS)
    if not layouts:
        return None
    unknown = cs.unknown
    pos = {c: k for k, c in enumerate(unknown)}
    nbr_mask = []
    for c in unknown:
        m = 0
        for j in board.neighbours(c):
            k = pos.get(j)
            if k is not None:
                m |= 1 << k
        nbr_mask.append(m)
    found = search(layouts, nbr_mask)
    if found is None or found[1] < 0:
        return None
    cell = unknown[found[1]]
    p = analysis.prob[cell]
    return cell, float(p if p is not None else 0.0)
