"""Turning the solver's moves into clicks: flags, opens, and chords where they pay.

A chord (one click on a number whose mines are all flagged) opens every other
hidden neighbour at once. It replaces several left clicks only when all those
neighbours are certain safe cells of this batch, and it may only rest on
flags that are already on screen: a flag sent in the same batch might not
have landed (a game that cycles flag -> question mark, a missed click), and
then the chord would rest on a guess about the screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from msolver.core.board import FLAG, UNKNOWN, Board
from msolver.core.solver import Move

ClickKind = Literal["left", "right", "chord"]


@dataclass(frozen=True, slots=True)
class Click:
    """One click on cell `index`; `opens` are the unknown cells it should open."""

    kind: ClickKind
    index: int
    p_mine: float
    opens: frozenset[int]


def plan(board: Board, moves: tuple[Move, ...], *, chord: bool) -> list[Click]:
    """The clicks for one frame: flags first, then chords, then the remaining opens.

    Every click lies on a cell the read showed as unknown, except a chord,
    which lies on an opened number and opens only cells the solver proved safe.
    """
    flags = [m for m in moves if m.kind == "flag" and board.cells[m.index] == UNKNOWN]
    opens = {m.index: m for m in moves if m.kind == "open" and board.cells[m.index] == UNKNOWN}
    clicks = [Click("right", m.index, m.p_mine, frozenset()) for m in flags]
    if chord and opens and all(m.p_mine == 0.0 for m in opens.values()):
        clicks += _chords(board, set(opens))
    covered: set[int] = set()
    for c in clicks:
        covered |= c.opens
    for i, m in sorted(opens.items()):
        if i not in covered:
            clicks.append(Click("left", i, m.p_mine, frozenset({i})))
    return clicks


def _chords(board: Board, safe: set[int]) -> list[Click]:
    candidates: list[tuple[int, frozenset[int]]] = []
    for i, n in enumerate(board.cells):
        if n < 1:
            continue
        nbrs = board.neighbours(i)
        flagged = sum(1 for j in nbrs if board.cells[j] == FLAG)
        if flagged != n:
            continue
        hidden = frozenset(j for j in nbrs if board.cells[j] == UNKNOWN)
        if len(hidden) >= 2 and hidden <= safe:
            candidates.append((i, hidden))
    # Greedy cover: the chord opening the most still-unopened cells first; a
    # chord must save at least one click over left clicks to be worth it.
    out: list[Click] = []
    left = set(safe)
    while candidates:
        candidates.sort(key=lambda c: (-len(c[1] & left), c[0]))
        i, hidden = candidates[0]
        gain = hidden & left
        if len(gain) < 2:
            break
        out.append(Click("chord", i, 0.0, frozenset(hidden)))
        left -= gain
        candidates.pop(0)
    return out
