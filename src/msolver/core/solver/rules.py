"""Rule: certain moves from one number, then from a pair of overlapping numbers.

Trivial: a number that needs no more mines makes all its unknown neighbours
safe; a number that needs as many mines as it has unknown neighbours makes
them all mines.

Pairs (as in sgt-puzzles' mines solver): for numbers A and B that share
cells, if A needs exactly |A \\ B| more mines than B does, then every cell of
A \\ B is a mine and every cell of B \\ A is safe (whatever B's mines are, they
all fit in the shared part). Subsets are the special case A \\ B empty.

Also the mine count: no mines left means every unknown cell is safe; as many
mines left as unknown cells means they are all mines.

These are cheap and find most moves of a game; the exact probability tier
finds the rest.
"""

from __future__ import annotations

from itertools import combinations

from msolver.core.solver.constraints import Certain, Constraints

__all__ = ["Certain", "pairs", "trivial"]


def trivial(cs: Constraints) -> Certain:
    safe: set[int] = set()
    mines: set[int] = set()
    if cs.mines_left == 0:
        return Certain(frozenset(cs.unknown), frozenset())
    if cs.mines_left == len(cs.unknown):
        return Certain(frozenset(), frozenset(cs.unknown))
    for con in cs.constraints:
        if con.need == 0:
            safe.update(con.cells)
        elif con.need == len(con.cells):
            mines.update(con.cells)
    return Certain(frozenset(safe), frozenset(mines))


def pairs(cs: Constraints) -> Certain:
    safe: set[int] = set()
    mines: set[int] = set()
    cons = cs.constraints
    by_cell: dict[int, list[int]] = {}
    for k, con in enumerate(cons):
        for cell in con.cells:
            by_cell.setdefault(cell, []).append(k)
    # Every pair of numbers that share a cell, once (the answer is a union,
    # so the order they are looked at in does not matter).
    overlapping: set[tuple[int, int]] = set()
    for ks in by_cell.values():
        if len(ks) > 1:
            overlapping.update(combinations(ks, 2))
    sets = [frozenset(c.cells) for c in cons]
    for a, b in overlapping:
        sa, sb = sets[a], sets[b]
        # |A - B| and |B - A| from the shared part alone: the differences
        # themselves are made only for a pair that settles cells (few do).
        shared = len(sa & sb)
        diff = cons[a].need - cons[b].need
        if diff == len(sa) - shared:
            mines |= sa - sb
            safe |= sb - sa
        elif -diff == len(sb) - shared:
            mines |= sb - sa
            safe |= sa - sb
    return Certain(frozenset(safe), frozenset(mines))
