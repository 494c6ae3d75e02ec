"""Rule: when nothing is certain, open the cell most likely to survive two moves.

A guess is judged by the chance that it is safe *and* that the move after it
is safe too: for each number the cell may show, we re-solve the board with
that number and take the safest cell then (certain if the number unlocks a
deduction). That one score rewards safety first and progress second, which is
what separates the strong solvers from "pick the lowest probability".

Only cells close to the safest are looked at, and only a handful of them,
so a guess stays cheap. Among cells with equal scores, corners and edges
win (they show a zero, and so open an area, more often); a cell off the
frontier with few unknown neighbours is the classic example.

A forced 50/50 (two cells sharing one mine that no number, now or later,
can tell apart) is taken at once: its odds are the same now or later, but
the number it shows when it survives may settle other cells and spare a
riskier guess elsewhere (expert, opening, 4,000 paired games: 53.0% against
50.2% when only 50/50s walled off on every side were taken, a rule that also
took some pairs a number next to one of them could still settle).

The first click depends only on the rules: a corner under "safe" (it wins
more: a corner is the likeliest cell to be a zero), and a few cells in from
a corner under "opening", where any cell opens a zero and a corner's
opening is small: three in on boards at least 16 cells each way, two in on
smaller ones, where three in is near the middle. Measured with the same
seeds for both offsets (10,000 games of seed 21 unless said):
expert 54.80% from (3, 3) against 54.20% from (2, 2), and 53.33% against
53.15% on 4,000 games of seed 11; intermediate 89.50% against 89.28%
(and 89.52% against 89.70% on seed 1: no difference);
beginner 96.96% against 97.29% (20,000 games). An older expert run (4,000
games each, not paired) had 49.9% from (1, 1), 51.6% from (4, 4) and from
the centre. Each comparison alone is within about two standard errors; the
expert ones all point the same way, and JSMinesweeper's published expert
figure also starts at (3, 3).
"""

from __future__ import annotations

from msolver.core.board import UNKNOWN, Board

# The first click is a rule, not a fast path: the reference clicks where the
# solver does, so the two cannot drift apart.
from msolver.core.solver.guess import first_click as first_click
from tests.core.reference_solver.constraints import Constraints, Inconsistent, build
from tests.core.reference_solver.probability import Analysis, analyse

# Cells whose mine probability is within this of the safest are candidates.
TOLERANCE = 0.04
# At most this many candidates are re-solved per guess.
MAX_CANDIDATES = 6
# Off-frontier candidates kept, the best-shaped first. Measured on expert,
# same seeds: 4 lost about a point under "safe" (2,000 games); 1 looked a
# point better on 2,000 games but was 0.1 point worse on 10,000 (both rules).
OFF_CANDIDATES = 2
# Extra credit for a number that unlocks a certain move (progress), on top of
# the safety of the next move.
PROGRESS_BONUS = 0.0


def _edge_rank(board: Board, i: int) -> int:
    """Unknown neighbours: fewer means likelier to open a zero."""
    return sum(1 for j in board.neighbours(i) if board.cells[j] == UNKNOWN)


def _next_safety(board: Board, i: int, value: int) -> tuple[int, float]:
    """Layouts in which cell i shows `value`, and the safest move after that."""
    after = board.replace({i: value})
    cs = build(after)
    if isinstance(cs, Inconsistent):
        return 0, 0.0
    a = analyse(after, cs)
    if a.status != "ok":
        return 0, 0.0
    if a.safe or not cs.unknown:
        return a.layouts, 1.0
    best = min(p for j, p in enumerate(a.prob) if p is not None and after.cells[j] == UNKNOWN)
    return a.layouts, 1.0 - best


def forced_pair(board: Board, cs: Constraints) -> int | None:
    """A cell of a 50/50 no other cell can ever settle, or None.

    Two cells a, b hold exactly one mine between them (a number says so), and
    nothing can ever tell them apart: every number that sees one sees the
    other, and every unknown cell next to either is next to both, so any
    number opened later counts them together. Swapping a and b then fits
    every board to come, so each is a mine with chance 1/2 for good.
    """
    pairs = [con.cells for con in cs.constraints if len(con.cells) == 2 and con.need == 1]
    if not pairs:
        return None
    unknown = set(cs.unknown)
    seen_by: dict[int, set[int]] = {}
    for k, con in enumerate(cs.constraints):
        for c in con.cells:
            seen_by.setdefault(c, set()).add(k)
    for a, b in pairs:
        if seen_by[a] != seen_by[b]:
            continue  # a number sees one and not the other: its other cells may settle it
        na, nb = set(board.neighbours(a)), set(board.neighbours(b))
        if all(j in (a, b) or j not in unknown or (j in na and j in nb) for j in na | nb):
            return a
    return None


def choose(
    board: Board, cs: Constraints, analysis: Analysis, *, lookahead: bool = True
) -> tuple[int, float]:
    """The guess to make and its mine probability."""
    prob = analysis.prob
    forced = forced_pair(board, cs)
    if forced is not None:
        return forced, float(prob[forced])  # type: ignore[arg-type]
    cells = [i for i in cs.unknown if prob[i] is not None]
    pmin = min(prob[i] for i in cells)  # type: ignore[type-var]
    near = [i for i in cells if prob[i] <= pmin + TOLERANCE]  # type: ignore[operator]
    near.sort(key=lambda i: (prob[i], _edge_rank(board, i)))
    if not lookahead:
        best = near[0]
        return best, float(prob[best])  # type: ignore[arg-type]
    # Off-frontier cells are interchangeable but for their shape: keep only the
    # few most promising of them so frontier cells get their look too.
    frontier = [i for i in near if i in cs.frontier][:MAX_CANDIDATES]
    off = [i for i in near if i not in cs.frontier][:OFF_CANDIDATES]
    candidates = sorted(frontier + off, key=lambda i: (prob[i], _edge_rank(board, i)))
    candidates = candidates[:MAX_CANDIDATES]
    total = analysis.layouts
    best_i, best_score = candidates[0], -1.0
    for i in candidates:
        nb = len(board.neighbours(i))
        flagged = sum(1 for j in board.neighbours(i) if board.cells[j] < -1)
        score = 0.0
        for v in range(flagged, nb + 1):
            layouts, safety = _next_safety(board, i, v)
            if layouts:
                bonus = PROGRESS_BONUS if safety == 1.0 else 0.0
                score += layouts / total * (safety + bonus)
        if score > best_score + 1e-12:
            best_i, best_score = i, score
    return best_i, float(prob[best_i])  # type: ignore[arg-type]
