"""3BV: the community's measure of how much work a board is.

3BV (Bechtel's Board Benchmark Value) is the least number of left clicks
that solve a board without flags or chords: every *opening* (a connected
region of zeros, 8-neighbour connected, which one click floods together with
its border of numbers) counts 1, and every safe number that touches no
opening counts 1, since it can only be opened by a click of its own.

From it come the speed units players compare (Arbiter, Viennasweeper,
minesweeper.online): 3BV/s (3BV over the game's seconds) and efficiency
(3BV over the clicks made, above 1 only with flags and chords). A lost game
is judged on the 3BV it solved: the openings fully opened and the lone
numbers opened.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import chain

from msolver.core.board import neighbours_table


@dataclass(frozen=True, slots=True)
class Parts:
    """A board's 3BV parts: each opening's cells (zeros and border), and the lone numbers."""

    openings: tuple[frozenset[int], ...]
    lone: frozenset[int]

    @property
    def bbbv(self) -> int:
        return len(self.openings) + len(self.lone)


def numbers(width: int, height: int, layout: Collection[int]) -> tuple[int, ...]:
    """Each cell's count of neighbouring mines (-1 for a mine)."""
    nbrs = neighbours_table(width, height)
    size = width * height
    mined = {i for i in layout if 0 <= i < size}
    # Each mine adds one to its neighbours (about a fifth of the cells are
    # mines: fewer steps than summing every cell's neighbours).
    out = [0] * size
    for i in mined:
        for j in nbrs[i]:
            out[j] += 1
    for i in mined:
        out[i] = -1
    return tuple(out)


def parts(width: int, height: int, layout: Collection[int]) -> Parts:
    """Split a mine layout's safe cells into openings and lone numbers."""
    nbrs = neighbours_table(width, height)
    num = numbers(width, height, layout)
    seen = [False] * (width * height)
    openings: list[frozenset[int]] = []
    covered: set[int] = set()
    for start, n in enumerate(num):
        if n != 0 or seen[start]:
            continue
        # Iterative flood, as the game floods: a large empty area would
        # overflow Python's recursion.
        region: set[int] = set()
        stack = [start]
        seen[start] = True
        while stack:
            i = stack.pop()
            region.add(i)
            for j in nbrs[i]:
                if num[j] == 0 and not seen[j]:
                    seen[j] = True
                    stack.append(j)
                elif num[j] > 0:
                    region.add(j)
        openings.append(frozenset(region))
        covered |= region
    lone = frozenset(i for i, n in enumerate(num) if n > 0 and i not in covered)
    return Parts(tuple(openings), lone)


def figures(
    width: int, height: int, num: Sequence[int], shown: Sequence[int] | None = None
) -> tuple[int, int]:
    """The 3BV of a board whose cells count `num` (as `numbers` gives them, -1
    a mine), and the 3BV solved on `shown` (a board's cells: opened ones are
    0 or more); without `shown`, the whole 3BV twice (a won game).

    The same two figures as `parts` and `solved_parts`, without listing the
    parts: the simulator asks for them once a game.
    """
    nbrs = neighbours_table(width, height)
    zeros = [i for i, n in enumerate(num) if not n]
    # Every safe cell next to a zero is in that zero's opening (a mine never
    # is): the safe cells left out are the lone numbers.
    covered = set(chain.from_iterable(map(nbrs.__getitem__, zeros)))
    covered.update(zeros)
    lone = len(num) - num.count(-1) - len(covered)
    opened: set[int] = set()
    if shown is not None:
        opened = {i for i, s in enumerate(shown) if s >= 0 and num[i] >= 0}
    judged = shown is not None
    seen = [False] * len(num)
    openings = solved = 0
    for start in zeros:
        if seen[start]:
            continue
        seen[start] = True
        stack = [start]
        region = {start}
        while stack:
            around = nbrs[stack.pop()]
            if judged:
                region.update(around)
            for j in around:
                if not num[j] and not seen[j]:
                    seen[j] = True
                    stack.append(j)
        openings += 1
        if judged and region <= opened:
            solved += 1
    total = openings + lone
    if not judged:
        return total, total
    return total, solved + len(opened - covered)


def bbbv(width: int, height: int, layout: Collection[int]) -> int:
    """The 3BV of a `width` x `height` board whose mines are the flat indices in `layout`."""
    return parts(width, height, layout).bbbv


def solved_bbbv(width: int, height: int, layout: Collection[int], opened: Collection[int]) -> int:
    """The 3BV a player has done: openings wholly opened plus lone numbers opened.

    Equal to `bbbv` on a won board; what a lost game's 3BV/s is counted on.
    """
    return solved_parts(parts(width, height, layout), opened)


def solved_parts(p: Parts, opened: Collection[int]) -> int:
    """`solved_bbbv` from the board's parts, found already."""
    done = set(opened)
    return sum(1 for o in p.openings if o <= done) + sum(1 for i in p.lone if i in done)


def efficiency(bbbv: int, clicks: int) -> float | None:
    """3BV per click (None before any click): 1.0 is a perfect no-flag game."""
    return bbbv / clicks if clicks > 0 else None


def bbbv_per_s(bbbv: int, seconds: float) -> float | None:
    """3BV per second (None for a game of no measurable length)."""
    return bbbv / seconds if seconds > 0 else None
