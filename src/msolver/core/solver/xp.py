"""Rule: under the XP first-click rule, a layout counts as often as the game could have laid it.

Windows XP's Minesweeper (and the web games that copy it) laid the mines
uniformly and, when the first click found one, moved it to the top-left-most
free cell (reading order, the clicked cell skipped). So the layouts a board
allows are not equally likely. A layout whose top-left run (the first cells
in that order, all mines) is k long could have been laid as itself or with
any of those k mines under the first click instead: it weighs 1 + k. The
uniform count gives the top-left cells too small a chance (expert from the
corner, 10,000 games: 39.56% won against 41.19% under the "safe" rule).

The weight is 1 plus, for every j >= 1, one if the first j cells of the run
are all mines. So a weighted count is a sum of plain counts: the board,
then the board with the first run cell taken as a mine, the first two, and
so on until a run cell is open (no layout runs past it) or no layout fits.
Certain cells do not change (every term's layouts are among the first
term's); guesses do: each cell's chance, and for a guess the chance of each
number it may show and of the safest cells after it, are all summed over
the terms; the exact endgame lists each layout as many times as it weighs.
The weights stop differing once a cell of the run is open, usually early.

The first click is taken to be the one the XP rule's solver makes (the
bottom-right corner, guess.first_click) when that cell is open; otherwise an
open cell simply ends the run. A board thus decides the same whatever came
before it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from msolver.core.board import FLAG, UNKNOWN, Board
from msolver.core.solver import guess
from msolver.core.solver.constraints import MINE_STATES, Constraints, Inconsistent, build
from msolver.core.solver.probability import (
    Analysis,
    RunCount,
    analyse,
    box_chances,
    prime_key,
    run_count,
)

# A term counting fewer layouts than 1 / NEGLIGIBLE of the terms before it
# ends the count (see `Weighted.make`).
NEGLIGIBLE = 10**19

# The lookahead (the chances after each number a guess may show) counts
# the terms that make up all but this share of the weight exactly and
# leaves out the rest: each term is about a quarter of the one before, and
# the light tail changes no score by more than twice this share.
LOOKAHEAD_TAIL = 1e-4


@dataclass(frozen=True, slots=True)
class Part:
    """Some terms of the weighted count: their layouts beside the plain
    board's, and each unknown cell's mine chance in them."""

    weight: float
    chance: dict[int, float]  # the cells whose chance is not `off`
    off: float  # every other unknown cell's chance
    forced: frozenset[int]  # cells these terms take as mines

    def p(self, c: int) -> float:
        return 1.0 if c in self.forced else self.chance.get(c, self.off)


def _block(rc: RunCount, run: list[int], base: int) -> Part:
    """The terms `run_count` summed, as a part."""
    w = rc.weight
    chance = {c: num / (w * len(cells)) for cells, num in rc.chances for c in cells}
    for c, num in zip(run, rc.run_nums, strict=True):
        chance[c] = num / w
    return Part(w / base, chance, rc.off_num / w, frozenset())


def _prime(board: Board, cs: Constraints, i: int) -> None:
    look = guess._Lookahead(board, cs, i)
    if look.keys is not None:
        x, kf = look.at
        prime_key(look.keys[x], kf)


def run_cells(board: Board) -> list[int]:
    """The run's cells before the first open one, in the order the game tries them."""
    first = guess.first_click(board, "xp")
    skip = first if board.cells[first] >= 0 else -1
    out: list[int] = []
    for i, s in enumerate(board.cells):
        if i == skip:
            continue
        if s >= 0:
            break
        out.append(i)
    return out


class Weighted:
    """The weighted count of one board, as parts.

    Term e takes the first e run cells as mines. While those cells are off
    the frontier the terms are counted together (`run_count`: the frontier
    once); past them each term is a board of its own.
    """

    def __init__(self, board: Board, cs: Constraints, base: int, run: list[int]) -> None:
        self.board, self.cs, self.base, self.run = board, cs, base, run
        self.parts: list[Part] = []
        self.weights: list[float] = []  # every term's, in order
        self._boards: dict[int, tuple[Board, Constraints] | None] = {}

    @classmethod
    def make(cls, board: Board, analysis: Analysis, cs: Constraints) -> Weighted | None:
        """The board's weighted count, or None when every layout weighs the same."""
        if analysis.status != "ok" or not analysis.layouts:
            return None
        run = run_cells(board)
        self = cls(board, cs, analysis.layouts, run)
        cells = board.cells
        quiet = 0  # run cells counted together: unknown and off the frontier
        while quiet < len(run) and cells[run[quiet]] == UNKNOWN and run[quiet] not in cs.frontier:
            quiet += 1
        cons = [(con.cells, con.need) for con in cs.constraints]
        rc = run_count(cons, len(cs.unknown), cs.mines_left, quiet)
        if isinstance(rc, str):
            return None
        self.parts.append(_block(rc, run[:quiet], self.base))
        self.weights = [t / self.base for t in rc.terms]
        summed = rc.weight
        for e in range(quiet + 1, len(run) + 1):
            made = self.term_board(e)
            if made is None:
                break
            a = analyse(*made)
            if a.status != "ok" or not a.layouts:
                break
            forced = frozenset(c for c in run[:e] if cells[c] == UNKNOWN)
            off = a.off_frontier_p if a.off_frontier_p is not None else 0.0
            chance = {c: p for c in a.frontier if (p := a.prob[c]) is not None}
            self.parts.append(Part(a.layouts / self.base, chance, off, forced))
            self.weights.append(a.layouts / self.base)
            summed += a.layouts
            if a.layouts * NEGLIGIBLE < summed:
                # Each later term counts no more layouts than this one (its
                # layouts are among these) and there are fewer of them than
                # cells: what is left moves no chance by 1e-13 (expert: by
                # 5e-17, under double precision).
                break
        return self if len(self.weights) > 1 and self.weights[1] > 0 else None

    def term_board(self, e: int) -> tuple[Board, Constraints] | None:
        """The board with the first e run cells taken as mines, and its
        constraints; None when its numbers cannot hold."""
        if e in self._boards:
            return self._boards[e]
        cells = list(self.board.cells)
        for c in self.run[:e]:
            if cells[c] == UNKNOWN:
                cells[c] = FLAG
        b = Board(self.board.width, self.board.height, self.board.mines, tuple(cells))
        bcs = build(b)
        got = self._boards[e] = None if isinstance(bcs, Inconsistent) else (b, bcs)
        return got

    @property
    def total(self) -> float:
        return sum(part.weight for part in self.parts)

    def analysis(self, first: Analysis) -> Analysis:
        """`first` (the plain board's) with the weighted chances; certain cells are the same."""
        total = self.total
        parts = self.parts
        prob: list[float | None] = []
        for i, s in enumerate(self.board.cells):
            if s >= 0:
                prob.append(None)
            elif s != UNKNOWN:
                prob.append(1.0)
            else:
                prob.append(sum(part.weight * part.p(i) for part in parts) / total)
        return replace(first, prob=tuple(prob), off_frontier_p=None)

    def score(self, i: int) -> float:
        """Chance that i is safe and the move after it is too (blended as guess.py does)."""
        board, cs = self.board, self.cs
        cells = board.cells
        total = self.total
        # The terms counted one by one in the lookahead: up to all but
        # LOOKAHEAD_TAIL of the weight.
        last, acc = len(self.weights) - 1, 0.0
        whole = sum(self.weights)
        for e, w in enumerate(self.weights):
            acc += w
            if acc >= (1.0 - LOOKAHEAD_TAIL) * whole:
                last = e
                break
        # A run cell i ends the run once open: terms past it take i as a mine.
        if i in self.run:
            last = min(last, self.run.index(i))
        nb = board.neighbours(i)
        shown = sum(1 for j in nb if cells[j] in MINE_STATES)
        n_others = len(cs.unknown) - 1
        w2 = guess.NEXT_SECOND_WEIGHT
        score = 0.0
        # Count i's region once for every number it may show (as guess.py's
        # lookahead does): each number below then finds its count made.
        _prime(board, cs, i)
        for e in range(1, last + 1):
            made = self.term_board(e) if self.weights[e] else None
            if made is not None:
                _prime(*made, i)
        for v in range(shown, len(nb) + 1):
            after = guess._after(board, cs, i, v)
            if after is None:
                continue  # no layout shows v: no term does either
            frontier = {c for cells_, _ in after for c in cells_}
            quiet = 0
            while (
                quiet < last
                and cells[self.run[quiet]] == UNKNOWN
                and self.run[quiet] not in frontier
            ):
                quiet += 1
            parts: list[Part] = []
            rc = run_count(after, n_others, cs.mines_left, quiet)
            if not isinstance(rc, str):
                parts.append(_block(rc, self.run[:quiet], self.base))
            for e in range(quiet + 1, last + 1):
                made = self.term_board(e) if self.weights[e] else None
                if made is None:
                    continue
                b, bcs = made
                cut = guess._after(b, bcs, i, v)
                if cut is None:
                    continue
                got = box_chances(cut, len(bcs.unknown) - 1, bcs.mines_left)
                if got is None:
                    continue
                layouts, boxes, off_p = got
                forced = frozenset(c for c in self.run[:e] if cells[c] == UNKNOWN)
                chance = {c: p for p, box in boxes for c in box}
                parts.append(Part(layouts / self.base, chance, off_p, forced))
            share = sum(part.weight for part in parts)
            if not share:
                continue
            # Cells on no part's frontier and forced in none share one chance.
            special: set[int] = set()
            for part in parts:
                special.update(part.chance)
                special.update(part.forced)
            special.discard(i)
            chances = [sum(part.weight * part.p(c) for part in parts) / share for c in special]
            n_plain = n_others - len(special)
            if n_plain > 0:
                plain = sum(part.weight * part.off for part in parts) / share
                chances += [plain] * min(n_plain, 2)
            if not chances:
                score += share / total
                continue
            chances.sort()
            least = chances[0]
            second = chances[1] if len(chances) > 1 else least
            score += share / total * ((1.0 - w2) * (1.0 - least) + w2 * (1.0 - second))
        return score


def weigher(board: Board, cs: Constraints) -> Callable[[int], int]:
    """A layout's weight, 1 + its top-left run, from its bitmask over `cs.unknown`."""
    pos = {c: k for k, c in enumerate(cs.unknown)}
    cells = board.cells
    run: list[int] = []  # the run's cells up to the first open one; -1: shown mine
    for r in run_cells(board):
        s = cells[r]
        run.append(pos[r] if s == UNKNOWN else -1)

    def weigh(layout: int) -> int:
        k = 0
        for bit in run:
            if bit >= 0 and not layout >> bit & 1:
                break
            k += 1
        return 1 + k

    return weigh


def choose(
    board: Board, cs: Constraints, weighted: Weighted, shown: Analysis, *, lookahead: bool = True
) -> tuple[int, float]:
    """The guess to make and its weighted mine chance (`shown`: `weighted.analysis`)."""
    prob = shown.prob
    pair = guess.forced_cells(board, cs)
    if pair is not None:
        # Nothing can ever tell the two apart: take the risk now, on the
        # side the weights make safer.
        a, b = pair
        pick = b if (prob[b] or 0.0) < (prob[a] or 0.0) - 1e-12 else a
        return pick, float(prob[pick] or 0.0)
    near, candidates = guess.near_and_candidates(board, cs, prob)
    if not lookahead:
        return near[0], float(prob[near[0]] or 0.0)
    best, best_score = candidates[0], -1.0
    for i in candidates:
        score = weighted.score(i)
        if score > best_score + 1e-12:
            best, best_score = i, score
    return best, float(prob[best] or 0.0)
