"""Rule: when nothing is certain, open the cell most likely to survive two moves.

A guess is judged by the chance that it is safe *and* that the move after it
is safe too: for each number the cell may show, we re-solve the board with
that number and take the safest cell then (certain if the number unlocks a
deduction). That one score rewards safety first and progress second, which is
what separates the strong solvers from "pick the lowest probability".

The next move's safety is blended over the two safest cells after the
number (0.8 and 0.2, as JSMinesweeper weighs them): a number that leaves a
spare safe cell is worth more than one that leaves a single one. Then
JSMinesweeper's two dominance rules may hand the move to another cell: a
cell safer than the chosen one and safe whenever it is safe, or the one
cell that every number of the chosen one leaves safest. Paired runs (the
same games both ways, seed 7; games won by one rule and lost by the other):
100,000 intermediate games 80 against 66, 100,000 beginner games 24 against
11 (docs/solver.md has the rest).

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
opening is small: three in on dense boards (a fifth of the cells mines, as
expert), two in otherwise. What decides is the density, not the size: on
expert (10,000 games of seed 21 unless said) 54.80% from (3, 3) against
54.20% from (2, 2), and 53.33% against 53.15% on 4,000 games of seed 11; on
intermediate (2, 2) wins: +393 games over 240,000 (seeds 21, 1, 902-904; a
sign test on the paired games of seed 904 alone, 3,858 against 3,708, p
0.09); beginner 96.96% from (3, 3) against 97.29% (20,000 games), and among
seven cells (30,000 games of seed 901) (2, 2) wins most. An expert board at
intermediate's density (30x16 with 75 mines) goes with intermediate, (2, 2)
+84 of 30,000 games, and an intermediate board at expert's density (16x16
with 51) with expert, (3, 3) +84; a beginner board at a quarter mines (9x9
with 20) goes three in too, 53.85% against 51.64% (20,000 games of seed
908). An older expert run (4,000 games each, not paired) had 49.9% from
(1, 1), 51.6% from (4, 4) and from the centre; JSMinesweeper's published
expert figure also starts at (3, 3).
"""

from __future__ import annotations

from msolver.core.board import UNKNOWN, Board
from msolver.core.game import FirstClick
from msolver.core.solver.constraints import MINE_STATES, Constraints
from msolver.core.solver.probability import (
    Analysis,
    Key,
    Recombined,
    Region,
    box_chances,
    count_key,
    layouts_and_two_least,
    prime_key,
    region_keys,
)

Cons = list[tuple[tuple[int, ...], int]]

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
# The next move's safety is judged as (1 - w) x the safest cell's + w x the
# second safest's (JSMinesweeper's blend, w = 0.2): of two guesses whose
# numbers leave an equally safe next cell, the one that leaves a spare is
# likelier to keep going without a guess after.
NEXT_SECOND_WEIGHT = 0.2
# JSMinesweeper's dominance rules on the chosen cell (see `_dominant`).
DOMINANCE = True


# How many cells in from the corner (along both axes) the first click goes
# under "opening": further in on boards with at least OPENING_DENSE_FROM of
# their cells mines (expert has 20.6%, intermediate 15.6%: the threshold
# lies between the densities measured) and at least OPENING_WIDE_FROM cells
# each way, so that three in stays on the near half of the board. Every
# other rule clicks the corner itself.
OPENING_IN = 2
OPENING_IN_DENSE = 3
OPENING_DENSE_FROM = 0.18
OPENING_WIDE_FROM = 7


def first_click(board: Board, rule: FirstClick) -> int:
    if rule == "xp":
        # The corner farthest from where a mine under the click would move
        # (the top left): there the move takes nothing from its chance of a
        # zero (see xp.py).
        return board.size - 1
    d = 0
    if rule == "opening":
        dense = board.mines >= OPENING_DENSE_FROM * board.width * board.height
        wide = min(board.width, board.height) >= OPENING_WIDE_FROM
        d = OPENING_IN_DENSE if dense and wide else OPENING_IN
    return board.index(min(d, board.height - 1), min(d, board.width - 1))


def edge_rank(board: Board, i: int) -> int:
    """Unknown neighbours: fewer means likelier to open a zero."""
    cells = board.cells
    return [cells[j] for j in board.neighbours(i)].count(UNKNOWN)


def _after(board: Board, cs: Constraints, i: int, value: int) -> Cons | None:
    """The constraints once cell i shows `value`, or None if none can fit.

    The same set `build` makes from the board with i opened: only the numbers
    next to i lose it, and i's own number joins; the rest of the board is
    not read again.
    """
    cells = board.cells
    unk: list[int] = []
    flagged = 0
    for j in board.neighbours(i):
        s = cells[j]
        if s == UNKNOWN:
            unk.append(j)
        elif s in MINE_STATES:
            flagged += 1
    need = value - flagged
    if need < 0 or need > len(unk):
        return None
    seen: dict[tuple[int, ...], int] = {}
    for con in cs.constraints:
        key, n = con.cells, con.need
        if i in key:
            key = tuple(c for c in key if c != i)
            if n > len(key):
                return None
            if not key:
                continue
        if seen.setdefault(key, n) != n:
            return None
    if unk and seen.setdefault(tuple(unk), need) != need:
        return None
    return list(seen.items())


class _Lookahead:
    """Cell i opened, for every number it may show: what `_next_safety` says.

    The constraints without i's own number and their regions are found once
    per cell; each number then only sets the need of i's constraint in its
    region (whose position in the sorted region does not depend on it), and
    the region is counted once for all of them (`prime_key`). The other
    regions do not change with the number: what they weigh is found once
    (`Recombined`), and each number re-combines only its own region.
    """

    def __init__(self, board: Board, cs: Constraints, i: int) -> None:
        self.board, self.cs, self.i = board, cs, i
        cells = board.cells
        unk: list[int] = []
        flagged = 0
        for j in board.neighbours(i):
            s = cells[j]
            if s == UNKNOWN:
                unk.append(j)
            elif s in MINE_STATES:
                flagged += 1
        self.unk, self.flagged = tuple(unk), flagged
        self.fits = True  # False: a number next to i cannot hold once i is safe
        self.keys: list[Key] | None = None
        self.at = (-1, -1)  # i's constraint: its region, its place in the key
        self.rest: Recombined | None = None
        # The varying region's counts by need, once primed (None: by key).
        self.by_need: list[Region | None] | None = None
        seen: dict[tuple[int, ...], int] = {}
        for con in cs.constraints:
            key, n = con.cells, con.need
            if i in key:
                key = tuple(c for c in key if c != i)
                if n > len(key):
                    self.fits = False
                    return
                if not key:
                    continue
            if seen.setdefault(key, n) != n:
                self.fits = False
                return
        if not unk or self.unk in seen:
            return  # no new constraint of its own: the plain path
        keys = region_keys([*seen.items(), (self.unk, -1)])
        for x, region in enumerate(keys):
            for k, (c, _) in enumerate(region):
                if c == self.unk:
                    self.keys, self.at = keys, (x, k)

    def _within(self, region: Key) -> tuple[Key, int] | None:
        """The numbers of the board before that make up `region` (i's new
        number aside), as a region key, and i: `prime_key` counts along
        their plan, which every candidate in a region shares. None when a
        number saw i alone (it would leave no cells)."""
        i = self.i
        inner = {cells for cells, _ in region}
        base: list[tuple[tuple[int, ...], int]] = []
        for cells, need in self.cs.constraints:
            if i in cells:
                left = tuple([c for c in cells if c != i])
                if not left:
                    return None
                if left in inner:
                    base.append((cells, need))
            elif cells in inner:
                base.append((cells, need))
        base.sort()
        return tuple(base), i

    def safety(self, value: int) -> tuple[int, float, float]:
        """Layouts showing `value`, and the safety of the best and second-best next cells."""
        if not self.fits:
            return 0, 0.0, 0.0
        if self.keys is None:
            return _next_safety(self.board, self.cs, self.i, value)
        need = value - self.flagged
        if need < 0 or need > len(self.unk):
            return 0, 0.0, 0.0
        x, kf = self.at
        keys = self.keys
        region = keys[x]
        rest = self.rest
        if rest is None:
            self.by_need = prime_key(region, kf, self._within(region))
            cells = len({c for con, _ in region for c in con})
            cs = self.cs
            others = keys[:x] + keys[x + 1 :]
            rest = self.rest = Recombined(others, cells, len(cs.unknown) - 1, cs.mines_left)
        by_need = self.by_need
        if by_need is not None:
            varying = by_need[need]
        else:
            varying = count_key((*region[:kf], (self.unk, need), *region[kf + 1 :]))
        layouts, least, second = rest.layouts_and_two_least(varying)
        return (layouts, 1.0 - least, 1.0 - second) if layouts else (0, 0.0, 0.0)


def _next_safety(board: Board, cs: Constraints, i: int, value: int) -> tuple[int, float, float]:
    """Layouts in which cell i shows `value`, and the two safest moves after that."""
    after = _after(board, cs, i, value)
    if after is None:
        return 0, 0.0, 0.0
    layouts, least, second = layouts_and_two_least(after, len(cs.unknown) - 1, cs.mines_left)
    return (layouts, 1.0 - least, 1.0 - second) if layouts else (0, 0.0, 0.0)


def forced_pair(board: Board, cs: Constraints) -> int | None:
    """A cell of a 50/50 no other cell can ever settle, or None (see `forced_cells`)."""
    pair = forced_cells(board, cs)
    return None if pair is None else pair[0]


def forced_cells(board: Board, cs: Constraints) -> tuple[int, int] | None:
    """The two cells of a 50/50 no other cell can ever settle, or None.

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
            return a, b
    return None


def near_and_candidates(
    board: Board, cs: Constraints, prob: tuple[float | None, ...]
) -> tuple[list[int], list[int]]:
    """The cells near the safest, safest and best-shaped first, and the few of
    them the lookahead weighs."""
    cells = [i for i in cs.unknown if prob[i] is not None]
    pmin = min(prob[i] for i in cells)  # type: ignore[type-var]
    near = [i for i in cells if prob[i] <= pmin + TOLERANCE]  # type: ignore[operator]
    near.sort(key=lambda i: (prob[i], edge_rank(board, i)))
    # Off-frontier cells are interchangeable but for their shape: keep only the
    # few most promising of them so frontier cells get their look too.
    frontier = [i for i in near if i in cs.frontier][:MAX_CANDIDATES]
    off = [i for i in near if i not in cs.frontier][:OFF_CANDIDATES]
    weighed = sorted(frontier + off, key=lambda i: (prob[i], edge_rank(board, i)))
    return near, weighed[:MAX_CANDIDATES]


def choose(
    board: Board, cs: Constraints, analysis: Analysis, *, lookahead: bool = True
) -> tuple[int, float]:
    """The guess to make and its mine probability."""
    prob = analysis.prob
    forced = forced_pair(board, cs)
    if forced is not None:
        return forced, float(prob[forced])  # type: ignore[arg-type]
    near, candidates = near_and_candidates(board, cs, prob)
    if not lookahead:
        best = near[0]
        return best, float(prob[best])  # type: ignore[arg-type]
    total = analysis.layouts
    best_i, best_score = candidates[0], -1.0
    # Whether every number of the best cell so far leaves one safest cell
    # (no two as safe): dominance rule 2 needs it, so without it, and with
    # nothing safer than the chosen cell, the dominance check is skipped.
    best_apart = False
    for i in candidates:
        nb = len(board.neighbours(i))
        flagged = sum(1 for j in board.neighbours(i) if board.cells[j] < -1)
        score = 0.0
        # The numbers not yet looked at can add at most their share of the
        # layouts (times 1 + bonus): once even that cannot beat the best, this
        # cell cannot be chosen, so its other numbers are not re-solved.
        # (The 1e-9 margin dwarfs any rounding of the float sums.)
        rest = (1.0 - float(prob[i])) * (1.0 + PROGRESS_BONUS)  # type: ignore[arg-type]
        look: _Lookahead | None = None
        apart = True
        for v in range(flagged, nb + 1):
            if score + rest + 1e-9 < best_score + 1e-12:
                break
            if look is None:
                look = _Lookahead(board, cs, i)
            layouts, safety, spare = look.safety(v)
            if layouts:
                bonus = PROGRESS_BONUS if safety == 1.0 else 0.0
                blended = (1.0 - NEXT_SECOND_WEIGHT) * safety + NEXT_SECOND_WEIGHT * spare
                apart = apart and spare < safety
                score += layouts / total * (blended + bonus)
                rest -= layouts / total * (1.0 + PROGRESS_BONUS)
        if score > best_score + 1e-12:
            best_i, best_score, best_apart = i, score, apart
    if DOMINANCE and (best_apart or prob[best_i] > prob[near[0]] + 1e-12):  # type: ignore[operator]
        best_i = _dominant(board, cs, analysis, best_i, candidates)
    return best_i, float(prob[best_i])  # type: ignore[arg-type]


def _outcomes(board: Board, cs: Constraints, i: int) -> list[list[tuple[float, tuple[int, ...]]]]:
    """Per number cell i may show: every unknown cell's mine chance, safest first."""
    cells = board.cells
    nb = board.neighbours(i)
    flagged = sum(1 for j in nb if cells[j] in MINE_STATES)
    out: list[list[tuple[float, tuple[int, ...]]]] = []
    for v in range(flagged, len(nb) + 1):
        after = _after(board, cs, i, v)
        if after is None:
            continue
        found = box_chances(after, len(cs.unknown) - 1, cs.mines_left)
        if found is None:
            continue
        _, chances, off_p = found
        on = {c for _, box in chances for c in box}
        off = tuple(c for c in cs.unknown if c != i and c not in on)
        if off:
            chances.append((off_p, off))
        chances.sort(key=lambda pc: pc[0])
        out.append(chances)
    return out


def _dominant(
    board: Board, cs: Constraints, analysis: Analysis, best: int, candidates: list[int]
) -> int:
    """The chosen cell, or a cell that dominates it (JSMinesweeper's two rules).

    1. A cell safer than `best` that is safe whenever `best` is (certain in
       every number `best` may show): opening it first risks less and loses
       nothing `best` would tell.
    2. Every number `best` may show leaves the same one safest cell, a
       candidate too: `best` tells nothing that changes the next move, so
       that cell goes first.
    """
    prob = analysis.prob
    pb = prob[best]
    assert pb is not None
    outs = _outcomes(board, cs, best)
    if not outs:
        return best
    if any(p is not None and p < pb - 1e-12 for p in (prob[c] for c in cs.unknown)):
        always: set[int] | None = None
        for chances in outs:
            safe = {c for p, box in chances if p == 0.0 for c in box}
            always = safe if always is None else always & safe
        safer = [c for c in always or () if (q := prob[c]) is not None and q < pb - 1e-12]
        if safer:
            return min(safer, key=lambda c: (prob[c], c))
    firsts: set[int] = set()
    for chances in outs:
        p, box = chances[0]
        if len(box) != 1 or (len(chances) > 1 and chances[1][0] <= p + 1e-12):
            return best
        firsts.add(box[0])
    if len(firsts) == 1:
        x = firsts.pop()
        if x != best and x in candidates:
            return x
    return best
