"""Rule: every opened number says how many mines lie among its unknown neighbours.

An opened cell showing n, with f flagged (known-mine) neighbours, asks for
exactly n - f mines among its unknown neighbours. That is one constraint. A
number asking for fewer than zero mines, or more than it has unknown cells,
contradicts itself: the board is inconsistent, and we say where.
"""

from __future__ import annotations

from dataclasses import dataclass

from msolver.core.board import EXPLODED, FLAG, MINE, UNKNOWN, Board, neighbours_table

MINE_STATES = frozenset((FLAG, MINE, EXPLODED))


@dataclass(frozen=True, slots=True)
class Constraint:
    cells: tuple[int, ...]  # unknown cells, sorted
    need: int  # mines among them


@dataclass(frozen=True, slots=True)
class Constraints:
    """All constraints of a board, deduplicated, with what the solver needs around them."""

    constraints: tuple[Constraint, ...]
    unknown: tuple[int, ...]  # every unknown cell
    frontier: frozenset[int]  # unknown cells touching at least one constraint
    mines_left: int  # total mines minus known mines


@dataclass(frozen=True, slots=True)
class Inconsistent:
    reason: str


def build(board: Board) -> Constraints | Inconsistent:
    cells = board.cells
    nbrs = neighbours_table(board.width, board.height)
    seen: dict[tuple[int, ...], int] = {}
    known = 0
    unknown: list[int] = []
    for i, s in enumerate(cells):
        if s < 0:
            if s == UNKNOWN:
                unknown.append(i)
            elif s in MINE_STATES:
                known += 1
            continue
        unk: list[int] = []
        flagged = 0
        for j in nbrs[i]:
            sj = cells[j]
            if sj == UNKNOWN:
                unk.append(j)
            elif sj in MINE_STATES:
                flagged += 1
        need = s - flagged
        if need < 0 or need > len(unk):
            r, c = divmod(i, board.width)
            why = (
                f"it has {flagged} flagged neighbours"
                if need < 0
                else f"it needs {need} more mines but has {len(unk)} unknown neighbours"
            )
            return Inconsistent(f"row {r}, col {c}: the {s} cannot hold: {why}")
        if not unk:
            continue
        key = tuple(unk)
        old = seen.get(key)
        if old is not None and old != need:
            r, c = divmod(i, board.width)
            return Inconsistent(f"row {r}, col {c}: the {s} disagrees with a neighbouring number")
        seen[key] = need
    mines_left = board.mines - known
    if mines_left < 0:
        return Inconsistent(f"{known} flags or mines shown but the board has only {board.mines}")
    if mines_left > len(unknown):
        return Inconsistent(f"{mines_left} mines left but only {len(unknown)} unknown cells remain")
    cons = tuple(Constraint(k, v) for k, v in seen.items())
    frontier = frozenset(c for k in seen for c in k)
    return Constraints(cons, tuple(unknown), frontier, mines_left)
