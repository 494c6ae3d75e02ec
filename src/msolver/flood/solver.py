"""Shortest Flood-It move sequences: A* over the region graph, beam search as fallback.

A state is the set of flooded regions (a bitset). A move picks a colour that
touches the flood; the flood absorbs every neighbouring region of that colour.

Lower bound (admissible and consistent): the optimum of a relaxed game. In
it a move either "finishes" a colour whose every remaining region touches the
flood (taking those regions), or "floods all": takes every region touching the
flood, of any colour. Every colour still outside the flood is finished exactly
once, so a relaxed solution costs (colours left) + (flood-all moves). A real
solution maps onto a relaxed one of the same length: a real move that takes the
last regions of its colour is a finish, any other real move is covered by a
flood-all, and the relaxed flood stays a superset of the real one (a bigger
flood never loses a move). In the relaxed game finishing is free of flood-all
cost and only grows the flood, so the greedy play (finish whatever can be
finished, else flood all) is optimal there; its cost is our bound h. It is at
least the farthest region distance and at least the number of colours left.

Pruning: only colours touching the flood are tried, and when some colour has
all its remaining regions touching the flood, taking it now is never worse
than taking it later (it costs one move either way and only grows the flood
earlier), so that move is the only child.

When the time budget runs out before A* proves a length, a beam search ranked
by the same bound gives a sequence; it is reported optimal only if its length
meets the best lower bound A* had proved.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass

from msolver.flood.core import FloodBoard, RegionGraph

DEFAULT_BUDGET_S = 2.0
_CHUNK = 8


@dataclass(frozen=True, slots=True)
class FloodSolution:
    """A winning move sequence (colour indices) and whether it is proved shortest."""

    moves: tuple[int, ...]
    optimal: bool
    lower_bound: int
    expanded: int
    seconds: float

    def text(self, board: FloodBoard) -> str:
        return "".join(board.symbols[m] for m in self.moves)


class _Graph:
    """The region graph in the shapes the inner loops want."""

    def __init__(self, g: RegionGraph, colours: int) -> None:
        n = g.count
        # Renumber regions breadth-first from the flood: sets the search meets
        # (the front, what a move absorbs) then sit in a few adjacent bytes.
        order = [g.start]
        new_of = {g.start: 0}
        for k in order:
            x = g.adjacent[k]
            while x:
                low = x & -x
                j = low.bit_length() - 1
                x ^= low
                if j not in new_of:
                    new_of[j] = len(order)
                    order.append(j)
        adj = [0] * n
        cmask = [0] * colours
        for old, new in new_of.items():
            x = g.adjacent[old]
            acc = 0
            while x:
                low = x & -x
                acc |= 1 << new_of[low.bit_length() - 1]
                x ^= low
            adj[new] = acc
            cmask[g.colour[old]] |= 1 << new
        self.all = (1 << n) - 1
        self.colours = colours
        self.cmask = cmask
        self.colour_ids = [c for c in range(colours) if cmask[c]]
        self.start = 1
        # Neighbour unions per 8-region chunk: one table look-up replaces up to
        # eight per-region ORs.
        self.tables: list[list[int]] = []
        for base in range(0, n, _CHUNK):
            table = [0] * (1 << _CHUNK)
            for v in range(1, 1 << _CHUNK):
                low = v & -v
                k = base + low.bit_length() - 1
                table[v] = table[v ^ low] | (adj[k] if k < n else 0)
            self.tables.append(table)

    def expand(self, x: int) -> int:
        """Union of the neighbours of the regions in `x` (may include `x` itself)."""
        acc = 0
        tables = self.tables
        for k in range(((x & -x).bit_length() - 1) >> 3, ((x.bit_length() - 1) >> 3) + 1):
            v = (x >> (k << 3)) & 255
            if v:
                acc |= tables[k][v]
        return acc

    def bound(self, flood: int, front: int) -> int:
        """The lower bound h described in the module docstring."""
        keep = ~flood
        masks = [m & keep for m in self.cmask]
        masks = [m for m in masks if m]
        tables = self.tables
        count = 0
        while masks:
            outside = ~front
            done = [m for m in masks if not m & outside]
            if done:
                count += len(done)
                if len(done) == len(masks):
                    break
                masks = [m for m in masks if m & outside]
                add = 0
                for m in done:
                    add |= m
            else:
                count += 1
                add = front
                masks = [m & outside for m in masks]
            flood |= add
            # front |= neighbours(add): expand() inlined, this is the hot loop
            lo = ((add & -add).bit_length() - 1) >> 3
            hi = ((add.bit_length() - 1) >> 3) + 1
            for k in range(lo, hi):
                v = (add >> (k << 3)) & 255
                if v:
                    front |= tables[k][v]
            front &= ~flood
        return count

    def moves(self, flood: int, front: int) -> list[tuple[int, int]]:
        """(colour, absorbed regions) for each useful move; one if a colour is finished."""
        out = []
        cmask = self.cmask
        for c in self.colour_ids:
            m = front & cmask[c]
            if m:
                if cmask[c] & ~flood == m:
                    return [(c, m)]
                out.append((c, m))
        return out

    def initial(self) -> tuple[int, int]:
        flood = self.start
        return flood, self.expand(flood) & ~flood


def _astar(
    gr: _Graph, deadline: float, upper: int
) -> tuple[tuple[int, ...] | None, int, int]:
    """A*; returns (moves or None on timeout/no better than `upper`, proved bound, pops)."""
    flood0, front0 = gr.initial()
    full = gr.all
    best_g: dict[int, int] = {flood0: 0}
    parent: dict[int, tuple[int, int]] = {}
    h0 = gr.bound(flood0, front0)
    # heap entries: (f, -g, tie, flood, front, g, exact)
    heap: list[tuple[int, int, int, int, int, int, bool]] = [
        (h0, 0, 0, flood0, front0, 0, True)
    ]
    tie = 1
    pops = 0
    proved = h0
    push = heapq.heappush
    pop = heapq.heappop
    while heap:
        f, _, _, flood, front, g, exact = pop(heap)
        if f >= upper:
            return None, upper, pops
        if f > proved:
            proved = f
        if best_g.get(flood, g) < g:
            continue
        pops += 1
        if not pops & 255 and time.monotonic() > deadline:
            return None, proved, pops
        if exact:
            h = f - g
        else:
            h = gr.bound(flood, front)
            if g + h > f:
                push(heap, (g + h, -g, tie, flood, front, g, True))
                tie += 1
                continue
        if flood == full:
            return _path(parent, flood, flood0), g, pops
        g2 = g + 1
        f_child = g2 + (h - 1 if h > 1 else 0)
        for c, m in gr.moves(flood, front):
            flood2 = flood | m
            if best_g.get(flood2, g2 + 1) <= g2:
                continue
            best_g[flood2] = g2
            parent[flood2] = (flood, c)
            if flood2 == full:
                if g2 <= f:
                    # Nothing left in the heap can be shorter: f never decreases.
                    return _path(parent, flood2, flood0), g2, pops
                push(heap, (g2, -g2, tie, flood2, 0, g2, True))
            else:
                front2 = (front | gr.expand(m)) & ~flood2
                push(heap, (f_child, -g2, tie, flood2, front2, g2, False))
            tie += 1
    return None, proved, pops


def _path(parent: dict[int, tuple[int, int]], flood: int, start: int) -> tuple[int, ...]:
    moves = []
    while flood != start:
        flood, c = parent[flood]
        moves.append(c)
    return tuple(reversed(moves))


def _beam(gr: _Graph, width: int) -> tuple[int, ...]:
    """Breadth-limited search: keep the `width` states with the lowest bound each move."""
    flood0, front0 = gr.initial()
    full = gr.all
    beam: list[tuple[int, int, tuple[int, ...]]] = [(flood0, front0, ())]
    while True:
        nxt: dict[int, tuple[int, int, int, tuple[int, ...]]] = {}
        for flood, front, path in beam:
            for c, m in gr.moves(flood, front):
                flood2 = flood | m
                if flood2 == full:
                    return (*path, c)
                if flood2 in nxt:
                    continue
                front2 = (front | gr.expand(m)) & ~flood2
                # Rank by the bound, then by the larger flood (more regions taken).
                key = gr.bound(flood2, front2) * 4096 - flood2.bit_count()
                nxt[flood2] = (key, front2, c, path)
        ranked = sorted(nxt.items(), key=lambda kv: kv[1][0])[:width]
        beam = [(fl, fr, (*p, c)) for fl, (_, fr, c, p) in ranked]


def solve(
    board: FloodBoard,
    budget_s: float = DEFAULT_BUDGET_S,
    beam_width: int = 256,
) -> FloodSolution:
    """A shortest winning sequence if A* proves one within `budget_s`, else a good one.

    The budget bounds the exact search only; the beam that follows a timeout
    costs about width * moves bound evaluations on top (about 0.2 s at 256 on
    a 14x14 board).
    """
    t0 = time.monotonic()
    gr = _Graph(board.regions, board.colours)
    flood0, _ = gr.initial()
    if flood0 == gr.all:
        return FloodSolution((), True, 0, 0, time.monotonic() - t0)
    found, proved, pops = _astar(gr, t0 + budget_s, gr.all.bit_count() + 1)
    moves = found if found is not None else _beam(gr, beam_width)
    optimal = found is not None or proved >= len(moves)
    return FloodSolution(moves, optimal, min(proved, len(moves)), pops, time.monotonic() - t0)
