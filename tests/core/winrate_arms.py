"""Solver variants measured by ``tests.core.bench_pair``, one per arm.

Each arm is a generator (used as a context manager) that patches a solver
module for the length of a game and restores it. The guess-tier arms share
one slow, plain evaluator: for each candidate and each number it may show,
the whole board is solved again and every unknown cell's mine chance kept,
so any rule over the outcomes can be written in a few lines. `base_plain`
is the shipped rule written on that evaluator: it must win exactly the
games `base` wins (a check on the evaluator).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from msolver.core.board import Board
from msolver.core.solver import endgame, guess
from msolver.core.solver.constraints import Constraints
from msolver.core.solver.probability import Analysis, _solve

EPS = 1e-9


@dataclass(frozen=True, slots=True)
class Outcome:
    """Cell i opened safe and showing one number."""

    share: float  # layouts showing it / all layouts (so the shares sum to P(i safe))
    probs: list[tuple[float, tuple[int, ...]]]  # (mine chance, cells), safest first

    @property
    def best(self) -> float:
        return 1.0 - self.probs[0][0] if self.probs else 1.0

    @property
    def second(self) -> float:
        if not self.probs:
            return 1.0
        p, cells = self.probs[0]
        if len(cells) > 1:
            return 1.0 - p
        return 1.0 - self.probs[1][0] if len(self.probs) > 1 else 1.0

    def safe_cells(self) -> set[int]:
        out: set[int] = set()
        for p, cells in self.probs:
            if p > 0.0:
                break
            out.update(cells)
        return out


def outcomes(board: Board, cs: Constraints, analysis: Analysis, i: int) -> list[Outcome]:
    total = analysis.layouts
    nb = board.neighbours(i)
    flagged = sum(1 for j in nb if board.cells[j] < -1)
    out: list[Outcome] = []
    for v in range(flagged, len(nb) + 1):
        after = guess._after(board, cs, i, v)
        if after is None:
            continue
        n_unknown = len(cs.unknown) - 1
        if cs.mines_left > n_unknown:
            continue
        solved = _solve(after, n_unknown, cs.mines_left)
        if isinstance(solved, str) or not solved.weight:
            continue
        probs: list[tuple[float, tuple[int, ...]]] = []
        on: set[int] = set()
        for cells, num, den in solved.boxes:
            probs.append((num / den, cells))
            on.update(cells)
        if solved.off:
            off = tuple(c for c in cs.unknown if c != i and c not in on)
            probs.append((solved.off_num / solved.weight, off))
        probs.sort(key=lambda pc: pc[0])
        out.append(Outcome(solved.weight / total, probs))
    return out


def candidates(board: Board, cs: Constraints, analysis: Analysis) -> list[int]:
    """The shipped rule's candidates, in its order."""
    prob = analysis.prob
    cells = [i for i in cs.unknown if prob[i] is not None]
    pmin = min(prob[i] for i in cells)  # type: ignore[type-var]
    near = [i for i in cells if prob[i] <= pmin + guess.TOLERANCE]  # type: ignore[operator]
    near.sort(key=lambda i: (prob[i], guess.edge_rank(board, i)))
    frontier = [i for i in near if i in cs.frontier][: guess.MAX_CANDIDATES]
    off = [i for i in near if i not in cs.frontier][: guess.OFF_CANDIDATES]
    cands = sorted(frontier + off, key=lambda i: (prob[i], guess.edge_rank(board, i)))
    return cands[: guess.MAX_CANDIDATES]


Score = Callable[[list[Outcome]], float]


def two_move(outs: list[Outcome]) -> float:
    return sum(o.share * o.best for o in outs)


def blend(outs: list[Outcome], w: float = 0.8) -> float:
    return sum(o.share * (w * o.best + (1 - w) * o.second) for o in outs)


def pseq_key(outs: list[Outcome]) -> tuple[float, float, float]:
    """PSEQ's filters after the mine chance: P(safe and a certain move next),
    expected new safe cells, entropy of the number shown."""
    certain = sum(o.share for o in outs if o.best >= 1.0)
    new_safe = sum(o.share * len(o.safe_cells()) for o in outs)
    s = sum(o.share for o in outs)
    ent = -sum((o.share / s) * math.log(o.share / s) for o in outs if o.share > 0) if s else 0.0
    return certain, new_safe, ent


def _choose_by(
    score: Score, *, dominance: bool = False, ties: bool = False
) -> Callable[..., tuple[int, float]]:
    def choose(
        board: Board, cs: Constraints, analysis: Analysis, *, lookahead: bool = True
    ) -> tuple[int, float]:
        prob = analysis.prob
        forced = guess.forced_pair(board, cs)
        if forced is not None:
            return forced, float(prob[forced])  # type: ignore[arg-type]
        cands = candidates(board, cs, analysis)
        outs = {i: outcomes(board, cs, analysis, i) for i in cands}
        scores = {i: score(outs[i]) for i in cands}
        best = cands[0]
        for i in cands:
            if scores[i] > scores[best] + 1e-12:
                best = i
        if ties:
            tied = [i for i in cands if scores[i] >= scores[best] - EPS]
            if len(tied) > 1:
                keys = {i: pseq_key(outs[i]) for i in tied}
                best = tied[0]
                for i in tied[1:]:
                    if _beats(keys[i], keys[best]):
                        best = i
        if dominance:
            best = _dominant(board, cs, analysis, best, outs[best], cands)
        return best, float(prob[best])  # type: ignore[arg-type]

    return choose


def _beats(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    for x, y in zip(a, b, strict=True):
        if x > y + EPS:
            return True
        if x < y - EPS:
            return False
    return False


def _dominant(
    board: Board,
    cs: Constraints,
    analysis: Analysis,
    best: int,
    outs: list[Outcome],
    cands: list[int],
) -> int:
    """JSMinesweeper's two dominance rules, applied to the chosen cell."""
    prob = analysis.prob
    pb = float(prob[best])  # type: ignore[arg-type]
    if not outs:
        return best
    # 1. A safer cell that is safe whenever `best` is: open it first.
    always = set.intersection(*(o.safe_cells() for o in outs))
    safer = [c for c in always if prob[c] is not None and float(prob[c]) < pb - 1e-12]  # type: ignore[arg-type]
    if safer:
        return min(safer, key=lambda c: (float(prob[c]), c))  # type: ignore[arg-type]
    # 2. Every number `best` may show leaves the same single safest cell,
    #    one of the candidates: `best` tells nothing that changes the next move.
    firsts = set()
    for o in outs:
        p, cells = o.probs[0] if o.probs else (1.0, ())
        if len(cells) != 1 or (len(o.probs) > 1 and o.probs[1][0] <= p + 1e-12):
            return best
        firsts.add(cells[0])
    if len(firsts) == 1:
        x = firsts.pop()
        if x != best and x in cands:
            return x
    return best


PSEQ_OFF = 4
PSEQ_FRONTIER = 12


def pseq_choose(
    board: Board, cs: Constraints, analysis: Analysis, *, lookahead: bool = True
) -> tuple[int, float]:
    """PSEQ's chain: lowest mine chance, then the three filters."""
    prob = analysis.prob
    forced = guess.forced_pair(board, cs)
    if forced is not None:
        return forced, float(prob[forced])  # type: ignore[arg-type]
    cells = [i for i in cs.unknown if prob[i] is not None]
    pmin = min(float(prob[i]) for i in cells)  # type: ignore[arg-type]
    low = [i for i in cells if float(prob[i]) <= pmin + 1e-12]  # type: ignore[arg-type]
    low.sort(key=lambda i: guess.edge_rank(board, i))
    if len(low) == 1:
        return low[0], pmin
    front = [i for i in low if i in cs.frontier][:PSEQ_FRONTIER]
    off = [i for i in low if i not in cs.frontier][:PSEQ_OFF]
    tied = front + off
    keys = {i: pseq_key(outcomes(board, cs, analysis, i)) for i in tied}
    best = tied[0]
    for i in tied[1:]:
        if _beats(keys[i], keys[best]):
            best = i
    return best, float(prob[best])  # type: ignore[arg-type]


def _patched(module: object, name: str, value: object) -> Iterator[None]:
    old = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, old)


def base() -> Iterator[None]:
    """The guess tier as it was before the blend and dominance (both off)."""
    yield from shipped_plain()


def base_plain() -> Iterator[None]:
    yield from _patched(guess, "choose", _choose_by(two_move))


def blend82() -> Iterator[None]:
    yield from _patched(guess, "choose", _choose_by(blend))


def blend82_dom() -> Iterator[None]:
    yield from _patched(guess, "choose", _choose_by(blend, dominance=True))


def dom() -> Iterator[None]:
    yield from _patched(guess, "choose", _choose_by(two_move, dominance=True))


def ties() -> Iterator[None]:
    yield from _patched(guess, "choose", _choose_by(two_move, ties=True))


def pseq() -> Iterator[None]:
    yield from _patched(guess, "choose", pseq_choose)


def shipped_blend_dom() -> Iterator[None]:
    """The guess tier's own blend and dominance (its constants switched on)."""
    with contextmanager(_patched)(guess, "NEXT_SECOND_WEIGHT", 0.2):
        yield from _patched(guess, "DOMINANCE", True)


def shipped_blend() -> Iterator[None]:
    with contextmanager(_patched)(guess, "NEXT_SECOND_WEIGHT", 0.2):
        yield from _patched(guess, "DOMINANCE", False)


def shipped_plain() -> Iterator[None]:
    """The guess tier with the blend and dominance switched off."""
    with contextmanager(_patched)(guess, "NEXT_SECOND_WEIGHT", 0.0):
        yield from _patched(guess, "DOMINANCE", False)


def shipped() -> Iterator[None]:
    """The solver as shipped (the guess tier's blend and dominance on)."""
    yield


def _endgame(
    limit: int, budget: int, max_unknown: int, guess_rules: bool = False
) -> Callable[[], Iterator[None]]:
    plain = endgame.best_move

    def best_move(board: Board, cs: Constraints, analysis: Analysis) -> tuple[int, float] | None:
        if len(cs.unknown) > max_unknown or analysis.layouts <= endgame.MAX_LAYOUTS:
            return plain(board, cs, analysis)
        old = endgame.MAX_LAYOUTS, endgame.WORK_BUDGET
        endgame.MAX_LAYOUTS, endgame.WORK_BUDGET = limit, budget
        try:
            return plain(board, cs, analysis)
        finally:
            endgame.MAX_LAYOUTS, endgame.WORK_BUDGET = old

    def arm() -> Iterator[None]:
        with contextmanager(shipped if guess_rules else shipped_plain)():
            yield from _patched(endgame, "best_move", best_move)

    return arm


ARMS: dict[str, Callable[[], Iterator[None]]] = {
    "base": base,
    "base_plain": base_plain,
    "blend82": blend82,
    "blend82_dom": blend82_dom,
    "dom": dom,
    "ties": ties,
    "pseq": pseq,
    "shipped_blend_dom": shipped_blend_dom,
    "shipped_blend": shipped_blend,
    "shipped_plain": shipped_plain,
    "shipped": shipped,
    "eg2000": _endgame(2000, 3_000_000, 10_000),
    "shipped_eg2000_u40": _endgame(2000, 3_000_000, 40, guess_rules=True),
    "shipped_eg5000_u40": _endgame(5000, 10_000_000, 40, guess_rules=True),
    "eg5000": _endgame(5000, 10_000_000, 10_000),
}
