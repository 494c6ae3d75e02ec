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
(The same bound as A. and S. Puchert's floodit solver.)

Pruning, each keeping at least one shortest solution:
- only colours touching the flood are tried;
- when a colour has all its remaining regions touching the flood, taking it
  now is never worse than later (one move either way, the flood only grows
  sooner), so it is the only child;
- move order: if colour c was already wholly reachable before the previous
  move p (p added no c region to the front), then playing c before p reaches
  a flood at least as big. When it is strictly bigger (c's regions touch p
  regions the flood has not taken) the order p, c is dropped; when equal, only
  one order is kept (the lower colour first).

With a time budget the search is anytime: when A* has not finished within the
budget (CPU seconds of this process, so a busy machine does not change the
answer), a beam search ranked by the same bound gives a sequence; it is
reported optimal only if its length meets the lower bound A* had proved.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass

from msolver.flood.core import FloodBoard, RegionGraph

DEFAULT_BUDGET_S = 2.0
_CHUNK = 8
_MASK = (1 << _CHUNK) - 1


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
        self.live = [cmask[c] for c in self.colour_ids]
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
        k = ((x & -x).bit_length() - 1) // _CHUNK
        x >>= k * _CHUNK
        while x:
            v = x & _MASK
            if v:
                acc |= tables[k][v]
            x >>= _CHUNK
            k += 1
        return acc

    def bound(self, flood: int, front: int) -> int:
        """The lower bound h described in the module docstring."""
        live = self.live
        tables = self.tables
        rest = self.all & ~flood
        count = 0
        while True:
            outside = rest & ~front
            add = 0
            done = left = 0
            for m in live:
                m &= rest
                if m:
                    if m & outside:
                        left += 1
                    else:
                        add |= m
                        done += 1
            if done:
                count += done
                if not left:
                    return count
            else:
                count += 1
                add = front
            rest &= ~add
            # front |= neighbours(add): expand() inlined, this is the hot loop
            k = ((add & -add).bit_length() - 1) // _CHUNK
            add >>= k * _CHUNK
            while add:
                v = add & _MASK
                if v:
                    front |= tables[k][v]
                add >>= _CHUNK
                k += 1
            front &= rest

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


def _astar(gr: _Graph, deadline: float, upper: int) -> tuple[tuple[int, ...] | None, int, int]:
    """A* for a sequence shorter than `upper`.

    Returns (moves or None, proved bound, pops). None with bound `upper` means
    no shorter sequence exists; None with a lower bound means the deadline came.
    """
    flood0, front0 = gr.initial()
    full = gr.all
    cmask = gr.cmask
    expand = gr.expand
    best_g: dict[int, int] = {flood0: 0}
    parent: dict[int, tuple[int, int]] = {}
    h0 = gr.bound(flood0, front0)
    if h0 >= upper:
        return None, upper, 0
    # entries: (f, -g, tie, flood, front, front before the last move, last colour, exact)
    heap: list[tuple[int, int, int, int, int, int, int, bool]] = [
        (h0, 0, 0, flood0, front0, 0, -1, True)
    ]
    tie = 0
    pops = 0
    proved = h0
    push = heapq.heappush
    pop = heapq.heappop
    while heap:
        f, ng, _, flood, front, pfront, last, exact = pop(heap)
        if f >= upper:
            return None, upper, pops
        g = -ng
        if best_g[flood] < g:
            continue
        if f > proved:
            proved = f
        pops += 1
        if not pops & 255 and time.process_time() > deadline:
            return None, proved, pops
        if exact:
            h = f - g
        else:
            h = gr.bound(flood, front)
            if g + h > f:
                if g + h < upper:
                    tie -= 1
                    push(heap, (g + h, ng, tie, flood, front, pfront, last, True))
                continue
        if flood == full:
            return _path(parent, flood, flood0), g, pops
        g2 = g + 1
        f_child = g + h  # g2 + (h - 1): a move lowers the bound by at most one
        kids = gr.moves(flood, front)
        # After a forced move the other order was never generated: no order pruning.
        many = len(kids) > 1
        for c, m in kids:
            # c wholly reachable before `last`: see the module docstring.
            if (
                many
                and last >= 0
                and not m & ~pfront
                and (c < last or expand(m) & cmask[last] & ~flood)
            ):
                continue
            flood2 = flood | m
            if best_g.get(flood2, g2 + 1) <= g2:
                continue
            best_g[flood2] = g2
            parent[flood2] = (flood, c)
            if flood2 == full:
                if g2 <= f:
                    # Nothing left in the heap can be shorter: f never decreases.
                    return _path(parent, flood2, flood0), g2, pops
                tie -= 1
                push(heap, (g2, -g2, tie, flood2, 0, 0, c, True))
            else:
                front2 = (front | expand(m)) & ~flood2
                tie -= 1
                push(heap, (f_child, -g2, tie, flood2, front2, front, c if many else -1, False))
    return None, upper, pops


def _path(parent: dict[int, tuple[int, int]], flood: int, start: int) -> tuple[int, ...]:
    moves = []
    while flood != start:
        flood, c = parent[flood]
        moves.append(c)
    return tuple(reversed(moves))


def _beam(gr: _Graph, width: int, deadline: float = math.inf) -> tuple[int, ...]:
    """Breadth-limited search: keep the `width` states with the lowest bound each move.

    Past `deadline` (process CPU seconds) the width halves each move down to
    one state, a greedy finish, so the budget binds the whole search.
    """
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
        if width > 1 and time.process_time() > deadline:
            # Narrowed by halves, not at once: the extra work is about two
            # moves at full width, and a near-zero budget still plays well.
            width //= 2
        ranked = sorted(nxt.items(), key=lambda kv: kv[1][0])[:width]
        beam = [(fl, fr, (*p, c)) for fl, (_, fr, c, p) in ranked]


def solve(
    board: FloodBoard,
    budget_s: float = DEFAULT_BUDGET_S,
    beam_width: int = 256,
) -> FloodSolution:
    """A shortest winning sequence if A* proves one within `budget_s`, else a good one.

    The budget (CPU seconds) binds the whole search: A* gets 80% of it, the beam
    that follows a timeout the rest, after which the beam narrows to a greedy
    finish (a move each ranking, so a 60x60 board ends within a second or so
    of the budget).
    """
    clock = time.process_time
    t0 = clock()
    gr = _Graph(board.regions, board.colours)
    flood0, _ = gr.initial()
    if flood0 == gr.all:
        return FloodSolution((), True, 0, 0, clock() - t0)
    found, proved, pops = _astar(gr, t0 + 0.8 * budget_s, gr.all.bit_count() + 1)
    moves = found if found is not None else _beam(gr, beam_width, t0 + budget_s)
    optimal = found is not None or proved >= len(moves)
    return FloodSolution(moves, optimal, min(proved, len(moves)), pops, clock() - t0)
