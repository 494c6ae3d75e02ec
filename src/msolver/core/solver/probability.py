"""Rule: every mine layout that fits the numbers and the mine count is equally likely.

So a cell's mine probability is the share of fitting layouts that put a mine
there. We count layouts without listing them:

- Unknown cells touching the same set of numbers are interchangeable: they
  form a *box*; only how many mines a box holds matters (times C(size, m)).
- Numbers that share no box are independent: the frontier splits into
  *regions*, each counted on its own by mine count.
- A region is counted by a frontier dynamic programme: boxes are laid out in
  a band order and assigned one at a time; the state is the partial sums of
  the numbers that are half assigned, so layouts that agree on what is still
  open collapse into one count. A forward and a backward pass give, for
  every box, the layouts (by mine count) in which it holds each number of
  mines.
- Regions combine by mine count; cells off the frontier take the remaining
  mines, weighted by C(off-frontier cells, mines left).

All counts are Python integers, so nothing overflows and a probability of
exactly 0 or 1 is exact: those are the certain moves this tier adds.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache, wraps
from math import comb
from operator import itemgetter, mul
from typing import Literal, ParamSpec, TypeVar

from msolver.core.board import UNKNOWN, Board
from msolver.core.solver.constraints import Constraints, Inconsistent, build

Poly = list[int]  # index k -> number of layouts with k mines
# The same, kept: counts that outlive a call (in the caches) are tuples. A
# tuple of ints is dropped from the garbage collector's lists, a list never
# is, and every full collection walks all that the caches hold (measured:
# the collector took about a tenth of a game's time).
Counts = tuple[int, ...]

# The off-frontier cells' ways, C(unknown cells off the frontier, mines they
# hold): large binomials (1-2 us each), asked for about 250 times a game but
# only about 60 distinct ones (the same rows come back for every candidate
# and every frame until the counts change). Exact either way.
_ways = lru_cache(maxsize=8192)(comb)
# A box's ways to hold m mines, C(size, m): a box is the cells one set of
# numbers shares, so at most 8 of them (a number has 8 neighbours).
_ROWS = [[comb(n, m) for m in range(n + 1)] for n in range(9)]


class CountTooLarge(Exception):
    """A region's counting outgrew the budget `count_budget` set."""


# States a region's counting may hold in all (None: no limit). A real board's
# regions take at most a few hundred (262 over 300 expert games, 174 over
# every recorded frame); a board that only a reading supposes can take
# millions, each a polynomial of big integers (see `count_budget`).
_STATE_BUDGET: ContextVar[int | None] = ContextVar("count_budget", default=None)


@contextmanager
def count_budget(states: int) -> Iterator[None]:
    """Counts inside the block raise CountTooLarge past `states` states in one
    region: for boards a caller only supposes (the numberings a new look may
    take), where an exact count is a check, not a move, and a board too big
    to check is better left unchecked than counted in all the memory there is."""
    token = _STATE_BUDGET.set(states)
    try:
        yield
    finally:
        _STATE_BUDGET.reset(token)


@dataclass(frozen=True, slots=True)
class Analysis:
    """Exact mine probabilities of one board.

    `prob[i]` is the mine probability of unknown cell i (1.0 for a flag or
    shown mine, None for an opened cell). `safe` and `mines` are the unknown
    cells whose probability is exactly 0 or 1. `layouts` is the number of
    fitting mine layouts (0 when inconsistent).
    """

    status: Literal["ok", "inconsistent"]
    reason: str
    prob: tuple[float | None, ...]
    safe: tuple[int, ...]
    mines: tuple[int, ...]
    layouts: int
    frontier: frozenset[int]
    off_frontier_p: float | None


def _inconsistent(board: Board, reason: str) -> Analysis:
    return Analysis("inconsistent", reason, (None,) * board.size, (), (), 0, frozenset(), None)


_P = ParamSpec("_P")
_R = TypeVar("_R")


def collector_paused(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """`fn` run with Python's cycle collector paused (and resumed after).

    The counting and the endgame search make many short-lived containers
    (states, plans, groups) and no reference cycles: the collector's passes
    over them find nothing to free, yet took about 15% of the guess tier's
    time (measured). Reference counting still frees everything as it goes;
    the collector runs again as soon as `fn` returns. Left alone if someone
    else paused it.
    """

    @wraps(fn)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        if not gc.isenabled():
            return fn(*args, **kwargs)
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            gc.enable()

    return run


def _conv(a: Sequence[int], b: Sequence[int]) -> Poly:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[i + j] += x * y
    return out


def _band_order(n: int, adj: list[set[int]]) -> list[int]:
    """Order boxes so that each number's boxes sit close together.

    A breadth-first order from a far end of the box graph (as in
    Cuthill-McKee) keeps few numbers half assigned at any time, which keeps
    the dynamic programme's states few on long frontiers.
    """
    order: list[int] = []
    placed = [False] * n
    degree = [len(a) for a in adj].__getitem__
    for start in range(n):
        if placed[start]:
            continue
        # Find a far end of this component: BFS twice. A list read from an
        # index is the queue: the last cell it reaches is the far end.
        far = start
        for _ in range(2):
            seen = {far}
            q = [far]
            for x in q:
                for y in adj[x]:
                    if y not in seen:
                        seen.add(y)
                        q.append(y)
            far = q[-1]
        q = [far]
        placed[far] = True
        for x in q:
            # Only the neighbours not placed yet are sorted (the same order:
            # the sort is stable, and no other is placed while they are).
            ys = [y for y in adj[x] if not placed[y]]
            if len(ys) > 1:
                ys.sort(key=degree)
            for y in ys:
                placed[y] = True
            q += ys
        order += q
    return order


@dataclass(frozen=True, slots=True)
class RegionCount:
    total: Counts  # layouts by mine count
    box_mines: list[Counts]  # per box: sum over layouts of its mines, by mine count


# Per position of the band order: the box's size, its constraints, how the
# next state is formed from the current one (source slot, whether this box
# counts, constraint, capacity still to come) and which constraints close.
_Step = tuple[
    int, tuple[int, ...], tuple[tuple[int, bool, int, int], ...], tuple[tuple[int, int], ...]
]
_Shape = tuple[_Step, ...]
# Plans by the region's shape (box sizes and which boxes each number sees),
# which outlives the numbers' values: a lookahead candidate re-counts one
# shape for every number it may show.
_PlanKey = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]
_PLANS: dict[_PlanKey, tuple[tuple[int, ...], _Shape]] = {}


def _plan(
    sizes: tuple[int, ...], cons: tuple[tuple[int, ...], ...], keep: bool = True
) -> tuple[tuple[int, ...], _Shape]:
    """The band order and the per-position shape; kept for next time if `keep`."""
    key = (sizes, cons)
    known = _PLANS.get(key)
    if known is not None:
        return known
    n = len(sizes)
    box_cons: list[list[int]] = [[] for _ in range(n)]
    for c, boxes in enumerate(cons):
        for b in boxes:
            box_cons[b].append(c)
    adj: list[set[int]] = [set() for _ in range(n)]
    for boxes in cons:
        for b in boxes:
            adj[b].update(boxes)
            adj[b].discard(b)
    order = _band_order(n, adj)
    pos = [0] * n
    for i, b in enumerate(order):
        pos[b] = i
    # active[i]: the constraints half assigned before position i, each with
    # the capacity still to come after position i - 1 (its boxes' sizes from
    # position i on), found by one walk along each constraint's boxes: the
    # capacity holds from one of its boxes to the next.
    active: list[list[tuple[int, int]]] = [[] for _ in range(n + 1)]
    hi = [0] * len(cons)
    for c, boxes in enumerate(cons):
        if len(boxes) == 1:
            hi[c] = pos[boxes[0]]  # never half assigned
            continue
        at = sorted([(pos[b], sizes[b]) for b in boxes])
        left = sum([sizes[b] for b in boxes])
        p, size = at[0]
        for q, next_size in at[1:]:
            left -= size
            item = (c, left)
            if q == p + 1:
                active[q].append(item)
            else:
                for i in range(p + 1, q + 1):
                    active[i].append(item)
            p, size = q, next_size
        hi[c] = p
    shape = []
    src_of: dict[int, int] = {}  # place of each constraint in active[i]
    for i in range(n):
        b = order[i]
        mine_cons = box_cons[b]  # a box is seen by a few numbers: a list is quicker
        after = active[i + 1]
        # List comprehensions, not generators: quicker on these short lists.
        nxt = tuple([(src_of.get(c, -1), c in mine_cons, c, cap) for c, cap in after])
        close = tuple([(src_of.get(c, -1), c) for c in mine_cons if hi[c] == i])
        shape.append((sizes[b], tuple(mine_cons), nxt, close))
        src_of = {c: k for k, (c, _) in enumerate(after)}
    found = (tuple(order), tuple(shape))
    if keep:
        if len(_PLANS) >= 4096:
            _PLANS.clear()
        _PLANS[key] = found
    return found


def count_region(sizes: list[int], cons: list[list[int]], needs: list[int]) -> RegionCount | None:
    """Count one region's layouts by mine count, and each box's mines.

    `cons[c]` lists the boxes of constraint c, which needs `needs[c]` mines.
    Returns None when no layout fits.
    """
    return count_by_free(sizes, cons, needs, frozenset(), 0)[0]


def _unpack(x: int, width: int) -> Counts:
    mask = (1 << width) - 1
    out: Poly = []
    if x:
        # The empty slots below the lowest mine count with a layout (most of
        # them: see `_box_chances`) come from the lowest set bit at once.
        lo = ((x & -x).bit_length() - 1) // width
        if lo:
            out = [0] * lo
            x >>= lo * width
    while x:
        out.append(x & mask)
        x >>= width
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _Packed:
    """A region's counts for every number of its free boxes, still packed.

    `total` and `sums` (per box) are polynomials in two variables packed into
    one integer each: the free boxes' mines v select the bits from
    v * ystride, each of `width`-bit slots by mine count.
    """

    total: int
    sums: tuple[int, ...]
    width: int
    ystride: int

    def total_for(self, v: int) -> Counts:
        return _unpack((self.total >> v * self.ystride) & ((1 << self.ystride) - 1), self.width)

    def box_mines_for(self, v: int) -> list[Counts]:
        at, ymask, width = v * self.ystride, (1 << self.ystride) - 1, self.width
        mask = (1 << width) - 1
        out: list[Counts] = []
        # `_unpack` written out: a lookahead unpacks every box of its region
        # for each number looked at (about 300 boxes an expert game).
        for x in self.sums:
            x = (x >> at) & ymask
            coefficients: Poly = []
            if x:
                lo = ((x & -x).bit_length() - 1) // width  # as `_unpack`
                if lo:
                    coefficients = [0] * lo
                    x >>= lo * width
            while x:
                coefficients.append(x & mask)
                x >>= width
            out.append(tuple(coefficients))
        return out


def count_by_free(
    sizes: list[int], cons: list[list[int]], needs: list[int], free: frozenset[int], vmax: int
) -> list[RegionCount | None]:
    """`count_region` once for every mine count 0..vmax of the `free` boxes.

    The counts the region would have with one more constraint over the free
    boxes asking for v mines, for every v in one pass: the free boxes' mines
    are counted in a second variable of the polynomials instead of in the
    states (a lookahead candidate's number, for every number it may show).
    """
    packed = _count_packed(sizes, cons, needs, free)
    out: list[RegionCount | None] = []
    for v in range(vmax + 1):
        total = packed.total_for(v) if packed is not None else ()
        out.append(RegionCount(total, packed.box_mines_for(v)) if total and packed else None)
    return out


@collector_paused
def _count_packed(
    sizes: list[int], cons: list[list[int]], needs: list[int], free: frozenset[int]
) -> _Packed | None:
    """The counting behind `count_by_free`, its results left packed (None: no layout)."""
    # A lookahead candidate's shape almost never comes back (4.4 new ones
    # against 0.2 seen before per expert game): not kept, so the collector
    # never walks it.
    order, shape = _plan(tuple(sizes), tuple(tuple(c) for c in cons), keep=not free)
    return _count_planned(order, shape, needs, free)


def _count_planned(
    order: Sequence[int], shape: _Shape, needs: Sequence[int], free: Collection[int]
) -> _Packed | None:
    """`_count_packed` along a plan made already: `order[i]` is the box at
    position i, where its sums go."""
    n = len(order)
    plans = []
    # The layouts there can be at most: each box holds 0..mmax mines, the
    # product of its ways; and the most mines the region can hold.
    bound = 1
    most = 0
    biggest = 1
    for size, box_cs, nxt_s, close_s in shape:
        # Each next slot as (source, whether this box counts, least, most it
        # may hold): a slot holds between its need less the capacity still to
        # come and its need.
        nxt = [(src, mine, needs[c] - cap, needs[c]) for src, mine, c, cap in nxt_s]
        close = [(src, needs[c]) for src, c in close_s]
        mmax = size
        for c in box_cs:
            if needs[c] < mmax:
                mmax = needs[c]
        weights = _ROWS[size][: mmax + 1] if size < 9 else [comb(size, m) for m in range(mmax + 1)]
        plans.append((nxt, close, weights))
        bound *= sum(weights)
        if mmax > 0:
            most += mmax
        if size > biggest:
            biggest = size

    # Polynomials travel packed into one integer, coefficient k in bits
    # [k * width, (k + 1) * width): adding a shifted multiple or multiplying
    # two is then one integer operation, not a loop. Every coefficient counts
    # some of the region's layouts, at most `bound` of them (times the mines
    # in a box, at most its size, for the box sums), so it stays below
    # 2 ** width and never spills into the next slot: the unpacked counts are
    # exact. The slots are no wider than that bound needs (the constraints
    # cap each box's mines, so it is far below 2 ** cells): the integers stay
    # short.
    # The free boxes' mines count in a second variable: v free mines shift
    # by v * ystride, past every slot of the first (at most `most` mines).
    width = max(1, (bound * biggest).bit_length())
    ystride = (most + 1) * width
    shifts = [
        [m * (width + (ystride if order[i] in free else 0)) for m in range(len(plans[i][2]))]
        for i in range(n)
    ]
    # Every state ends in a 0 that no constraint holds: a constraint that
    # starts at a box reads it at index -1 (nothing assigned yet).
    forward: list[dict[tuple[int, ...], int]] = [{(0,): 1}]
    budget = _STATE_BUDGET.get()
    states = 0
    trans: list[dict[tuple[int, ...], list[tuple[int, tuple[int, ...], int]]]] = []
    for i in range(n):
        nxt, close, weights = plans[i]
        shift = shifts[i]
        layer: dict[tuple[int, ...], int] = {}
        tlayer: dict[tuple[int, ...], list[tuple[int, tuple[int, ...], int]]] = {}
        mines_at = range(len(weights))
        # A number that ends at this box fixes the box's mines (the first
        # such number picks them; the others only check).
        close_first = close[0] if close else None
        close_rest = close[1:]
        for state, poly in forward[i].items():
            moves = []
            ms: Iterable[int] = mines_at
            if close_first is not None:
                src, need = close_first
                m0 = need - state[src]
                ms = (m0,) if 0 <= m0 < len(weights) else ()
            for m in ms:
                ok = True
                if close_rest:
                    for src, need in close_rest:
                        if state[src] + m != need:
                            ok = False
                            break
                    if not ok:
                        continue
                vals = []
                for src, mine, least, need in nxt:
                    if mine:
                        v = state[src] + m
                        if v > need or v < least:
                            ok = False
                            break
                        vals.append(v)
                    else:
                        # Neither the value nor its bounds moved since the
                        # last box (this box is not the number's): it holds.
                        vals.append(state[src])
                if not ok:
                    continue
                vals.append(0)
                t = tuple(vals)
                w = weights[m]
                moves.append((m, t, w))
                if m:
                    layer[t] = layer.get(t, 0) + (poly * w << shift[m])
                else:
                    # No mine in the box: one way, no shift.
                    layer[t] = layer.get(t, 0) + poly
            tlayer[state] = moves
        forward.append(layer)
        if budget is not None:
            states += len(layer)
            if states > budget:
                raise CountTooLarge
        trans.append(tlayer)

    # Box i's mines summed over every layout: each layout reaching a state
    # at i (forward) times, over the box's moves from it, the layouts that
    # complete the move (backward) weighted by the box's mines. Found in the
    # backward pass, one product per state: no layer of its own forward.
    backward: list[dict[tuple[int, ...], int]] = [{} for _ in range(n + 1)]
    backward[n] = {(0,): 1}
    sums: list[int] = [0] * n
    for i in range(n - 1, -1, -1):
        shift = shifts[i]
        after = backward[i + 1]
        here = backward[i]
        reach = forward[i]
        summed = 0
        for state, moves in trans[i].items():
            acc = 0
            macc = 0
            for m, t, w in moves:
                bt = after.get(t)
                if bt:
                    if m:
                        x = bt * w << shift[m]
                        acc += x
                        macc += x * m
                    else:
                        acc += bt
            if acc:
                here[state] = acc
                if macc:
                    summed += reach[state] * macc
        sums[order[i]] = summed

    packed = backward[0].get((0,), 0)
    if not packed:
        return None
    return _Packed(packed, tuple(sums), width, ystride)


Key = tuple[tuple[tuple[int, ...], int], ...]  # a region's (cells, need), sorted


class _Region:
    """One region's counts: layouts by mine count, and per box its mines.

    A lookahead candidate's region is counted for every number the cell may
    show at once, and most of those numbers are never looked at (the guess
    tier stops once a cell cannot win): their boxes' sums stay packed until
    asked for.
    """

    __slots__ = ("_box_mines", "_packed", "boxes", "total")

    def __init__(
        self,
        total: Counts,
        boxes: tuple[tuple[int, ...], ...],  # the cells of each box
        box_mines: tuple[Counts, ...] | None,
        packed: tuple[_Packed, int] | None = None,
    ) -> None:
        self.total = total
        self.boxes = boxes
        self._box_mines = box_mines
        self._packed = packed

    @property
    def box_mines(self) -> tuple[Counts, ...]:
        bm = self._box_mines
        if bm is None:
            assert self._packed is not None
            counts, v = self._packed
            bm = self._box_mines = tuple(counts.box_mines_for(v))
        return bm


# The counts' type as other modules name it (a lookahead keeps one per need).
Region = _Region

# Region counts by the region's constraints. A region's count depends on
# nothing else, and most regions outlive many moves (a move changes one or
# two) and every guess's lookahead (a candidate changes only its own), so the
# same counts are asked for again and again. Counts are exact integers, so a
# count from here is the count a fresh run would make.
_CACHE: dict[Key, _Region | None] = {}
_CACHE_MAX = 4096
_MISS = object()


def _boxes(key: Key) -> tuple[list[list[int]], list[list[int]]]:
    """A region's boxes (cells seen by the same numbers, in the order the key
    first names them) and each number's boxes."""
    sig: dict[int, list[int]] = {}
    for k, (cells, _) in enumerate(key):
        for c in cells:
            sig.setdefault(c, []).append(k)
    box_of: dict[tuple[int, ...], int] = {}
    boxes: list[list[int]] = []
    lcons: list[list[int]] = [[] for _ in key]
    for c, ks in sig.items():
        t = tuple(ks)
        b = box_of.get(t)
        if b is None:
            b = box_of[t] = len(boxes)
            boxes.append([])
            for k in ks:
                lcons[k].append(b)
        boxes[b].append(c)
    return boxes, lcons


def _count(key: Key) -> _Region | None:
    # get, not `in` then index: another thread may clear the cache between.
    hit = _CACHE.get(key, _MISS)
    if hit is not _MISS:
        return hit  # type: ignore[return-value]
    boxes, lcons = _boxes(key)
    rc = count_region([len(b) for b in boxes], lcons, [need for _, need in key])
    region = None
    if rc is not None:
        region = _Region(rc.total, tuple(tuple(b) for b in boxes), tuple(rc.box_mines))
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
    _CACHE[key] = region
    return region


def count_key(key: Key) -> _Region | None:
    """One region's counts by its sorted key (None: no layout fits), cached."""
    return _count(key)


# What `_count_within` reads of a region before, by its key: its boxes, its
# plan and its needs (the candidates of one region come one after another).
_BASES: dict[Key, tuple[list[list[int]], tuple[int, ...], _Shape, list[int]]] = {}


def _count_within(
    boxes: list[list[int]], seen: tuple[int, ...], base: Key, gone: int
) -> _Packed | None:
    """`prime_key`'s count (of the region with boxes `boxes`, the new number
    seeing `seen`), made along the plan of the region before, `base`, which
    lost the cell `gone` (opened) and gained the new number.

    The candidates of one region all share its plan (made once, for the
    region's own count), where a plan of their own cost a third of their
    counting. The new number only splits boxes: a box of the region before
    becomes its cells the number sees and the rest, side by side in the
    plan (the first part leaves the box's numbers open, the second closes
    what the whole box closed), and its cells off the region before become
    one box at the end, which no other number sees. The opened cell only
    leaves its box: the plan's capacities still count it, which only lets a
    state live a step longer (a state that cannot reach its number's need
    dies when the number closes). So the plan lays out the same boxes
    under the same numbers: the same exact counts in other places.
    """
    known = _BASES.get(base)
    if known is None:
        bboxes, blcons = _boxes(base)
        plan = _plan(tuple([len(b) for b in bboxes]), tuple([tuple(c) for c in blcons]))
        if len(_BASES) >= 64:
            _BASES.clear()
        known = _BASES[base] = (bboxes, plan[0], plan[1], [need for _, need in base])
    bboxes, order, shape, needs = known
    at = {c: k for k, cells in enumerate(boxes) for c in cells}
    unk = set(seen)
    real = len(boxes)
    spare = real  # places for boxes the opened cell emptied: their sums are dropped
    new_order: list[int] = []
    new_shape: list[_Step] = []
    free: set[int] = set()
    placed = 0  # seen cells in the region before
    for b, (_, box_cs, nxt, close) in zip(order, shape, strict=True):
        cells = bboxes[b]
        inside = [c for c in cells if c in unk]
        rest = [c for c in cells if c not in unk and c != gone]
        a, r = len(inside), len(rest)
        placed += a
        if a and r:
            ka, kr = at[inside[0]], at[rest[0]]
            free.add(ka)
            new_order += (ka, kr)
            # The seen part first: every number of the box stays open past
            # it, with the rest of the box still to come; the rest then
            # reads them from their new places and closes what the box did.
            new_shape.append(
                (
                    a,
                    box_cs,
                    (
                        *[(src, mine, c, cap + r if mine else cap) for src, mine, c, cap in nxt],
                        *[(src, True, c, r) for src, c in close],
                    ),
                    (),
                )
            )
            held = len(nxt)
            new_shape.append(
                (
                    r,
                    box_cs,
                    tuple([(k, mine, c, cap) for k, (_, mine, c, cap) in enumerate(nxt)]),
                    tuple([(held + k, c) for k, (_, c) in enumerate(close)]),
                )
            )
            continue
        if a:
            k = at[inside[0]]
            free.add(k)
        elif r:
            k = at[rest[0]]
        else:
            k = spare
            spare += 1
        new_order.append(k)
        new_shape.append((a + r, box_cs, nxt, close))
    # The seen cells no number saw before: one box, seen by the new number alone.
    outside = len(seen) - placed
    if outside:
        k = at[next(c for c in seen if at[c] not in free)]
        free.add(k)
        new_order.append(k)
        new_shape.append((outside, (), (), ()))
    packed = _count_planned(new_order, tuple(new_shape), needs, free)
    if packed is None or spare == real:
        return packed
    return _Packed(packed.total, packed.sums[:real], packed.width, packed.ystride)


@collector_paused
def prime_key(
    key: Key, kf: int, within: tuple[Key, int] | None = None
) -> list[_Region | None] | None:
    """Count a region with a new number in it, for every need at once.

    `key` is the region's sorted key with the new number at `kf` (its need
    unset). The counts for each need 0..len(cells) go into the cache under
    the keys `_count` would look up, so a lookahead candidate's region is
    counted once, not once per number it may show. Returned by need too
    (what `count_key` would find under each key, without building and
    hashing the key again); None when the new number is the region's only
    one (left to `count_key`).

    `within`, when given, is the region the new number falls in on the board
    before (its key) and the cell opened to show it: `key` must then hold
    exactly that region's cells less the opened one, and the new number's
    (the caller checks). The count then follows that region's plan (see
    `_count_within`).
    """
    new = key[kf][0]
    if len(key) < 2:
        return None
    keys = [(*key[:kf], (new, v), *key[kf + 1 :]) for v in range(len(new) + 1)]
    cached = [_CACHE.get(k, _MISS) for k in keys]
    if _MISS not in cached:
        return cached  # type: ignore[return-value]
    boxes, lcons = _boxes(key)
    if within is not None and _STATE_BUDGET.get() is None:
        counts = _count_within(boxes, new, *within)
    else:
        counts = _count_packed(
            [len(b) for b in boxes],
            [lcons[k] for k in range(len(key)) if k != kf],
            [need for k, (_, need) in enumerate(key) if k != kf],
            frozenset(lcons[kf]),
        )
    if len(_CACHE) + len(keys) >= _CACHE_MAX:
        _CACHE.clear()
    cells_of = tuple(tuple(b) for b in boxes)
    out: list[_Region | None] = []
    for v, kv in enumerate(keys):
        total = counts.total_for(v) if counts is not None else ()
        region = _Region(total, cells_of, None, (counts, v)) if counts and total else None
        _CACHE[kv] = region
        out.append(region)
    return out


def region_keys(cons: list[tuple[tuple[int, ...], int]]) -> list[Key]:
    """Constraints joined through shared cells, each region as its cache key."""
    parent = list(range(len(cons)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    first: dict[int, int] = {}
    for k, (cells, _) in enumerate(cons):
        for c in cells:
            j = first.setdefault(c, k)
            if j != k:
                rj, rk = find(j), find(k)
                if rj != rk:
                    parent[rk] = rj
    groups: dict[int, list[tuple[tuple[int, ...], int]]] = {}
    for k, con in enumerate(cons):
        groups.setdefault(find(k), []).append(con)
    return [tuple(sorted(g)) for g in groups.values()]


def _counted(keys: Iterable[Key]) -> tuple[list[_Region], int] | None:
    """Each region counted, and the frontier cells they hold; None if one cannot fit."""
    regions: list[_Region] = []
    frontier = 0
    for key in keys:
        reg = _count(key)
        if reg is None:
            return None
        regions.append(reg)
        frontier += sum(len(b) for b in reg.boxes)
    return regions, frontier


@dataclass(frozen=True, slots=True)
class _Solved:
    weight: int
    # per box of every region: its cells, the weighted mines in it, and the
    # denominator (weight x size); p = num / den
    boxes: list[tuple[tuple[int, ...], int, int]]
    off: int  # unknown cells off the frontier
    off_num: int  # off-frontier mine weight; off p = off_num / weight


def _solve(
    cons: list[tuple[tuple[int, ...], int]],
    n_unknown: int,
    mines_left: int,
    keys: list[Key] | None = None,
) -> _Solved | str:
    """Exact counts for deduplicated constraints, or why no layout fits.

    `keys`, when given, are the constraints' regions, found already.
    """
    counted = _counted(region_keys(cons) if keys is None else keys)
    if counted is None:
        return "no mine layout fits the numbers"
    regions, frontier = counted
    off = n_unknown - frontier
    left = mines_left

    q = len(regions)
    prefix, suffix = _products(regions)
    everything = prefix[q]
    # ways[k]: the ways the off-frontier cells take the mines the frontier
    # leaves when it holds k
    ways = [_ways(off, left - k) if 0 <= left - k <= off else 0 for k in range(len(everything))]
    # Exact integers: summing map(mul) in C gives the same sums as a loop.
    weight = sum(map(mul, everything, ways))
    if weight == 0:
        ks = [k for k, v in enumerate(everything) if v]
        if left < ks[0]:
            return f"the numbers need at least {ks[0]} mines but only {left} are left"
        return (
            f"the numbers hold at most {ks[-1]} mines, leaving {left - ks[-1]} "
            f"for {off} other unknown cells"
        )
    boxes: list[tuple[tuple[int, ...], int, int]] = []
    for x, reg in enumerate(regions):
        others = _conv(prefix[x], suffix[x + 1])
        # weight of this region having k mines, summed over everything else
        # Only mine counts the region can hold are read below (a box's mines
        # are 0 wherever the region has no layout): the rest stay 0 unsummed.
        wk = [sum(map(mul, others, ways[k:])) if t else 0 for k, t in enumerate(reg.total)]
        for cells, bm in zip(reg.boxes, reg.box_mines, strict=True):
            boxes.append((cells, sum(map(mul, bm, wk)), weight * len(cells)))
    off_num = 0
    if off:
        off_num = sum(
            v * _ways(off - 1, left - k - 1)
            for k, v in enumerate(everything)
            if v and 0 <= left - k - 1 <= off - 1
        )
    return _Solved(weight, boxes, off, off_num)


@dataclass(frozen=True, slots=True)
class RunCount:
    """`run_count`'s answer: counts summed over e = 0..run of the board with
    its first e run cells taken as mines; every chance is num / weight."""

    weight: int
    # per frontier box: its cells and num, a cell's chance being num / (weight x cells)
    chances: list[tuple[tuple[int, ...], int]]
    off_num: int  # one off-frontier cell outside the run
    run_nums: list[int]  # each run cell, in run order
    terms: list[int]  # the count of each e


def run_count(
    cons: list[tuple[tuple[int, ...], int]], n_unknown: int, mines_left: int, run: int
) -> RunCount | str:
    """Exact counts summed over taking the first e of `run` off-frontier cells
    as mines, for e = 0..run (the XP rule's weights; see xp.py).

    Taking an off-frontier cell as a mine leaves the frontier alone: it
    only takes one cell and one mine from the rest. So the frontier is
    counted once, and the off-frontier ways the frontier's k mines leave
    are summed over e: C(off - e, left - k - e).
    """
    counted = _counted(region_keys(cons))
    if counted is None:
        return "no mine layout fits the numbers"
    regions, frontier = counted
    off = n_unknown - frontier
    left = mines_left
    if not 0 <= run <= off:
        return f"{run} run cells but {off} cells off the frontier"
    prefix, suffix = _products(regions)
    everything = prefix[len(regions)]
    span = range(len(everything))

    # ways[e][k]: the off-frontier ways with the first e run cells mines
    # when the frontier holds k, C(off - e, left - k - e); terms[e]: the
    # layouts with the first e run cells mines. The layouts that also mine
    # one given off-frontier cell not yet taken are terms[e + 1] (any such
    # cell is as good as the next run cell).
    ways = [
        [_ways(off - e, left - k - e) if 0 <= left - k - e <= off - e else 0 for k in span]
        for e in range(min(run + 1, off) + 1)
    ]
    terms = [sum(map(mul, everything, w)) for w in ways]
    if len(terms) < run + 2:
        terms.append(0)  # no off-frontier cell left to take
    weight = sum(terms[: run + 1])
    if weight == 0:
        return "no mine layout fits the numbers and the mine count"
    summed = [sum(col) for col in zip(*ways[: run + 1], strict=True)]
    chances: list[tuple[tuple[int, ...], int]] = []
    for x, reg in enumerate(regions):
        others = _conv(prefix[x], suffix[x + 1])
        wk = [sum(map(mul, others, summed[k:])) if t else 0 for k, t in enumerate(reg.total)]
        for cells, bm in zip(reg.boxes, reg.box_mines, strict=True):
            chances.append((cells, sum(map(mul, bm, wk))))
    one = terms[1 : run + 2]
    off_num = sum(one) if off > run else 0
    run_nums = [sum(terms[i + 1 : run + 1]) + sum(one[: i + 1]) for i in range(run)]
    return RunCount(weight, chances, off_num, run_nums, terms[: run + 1])


def layouts_and_least(
    cons: list[tuple[tuple[int, ...], int]],
    n_unknown: int,
    mines_left: int,
    keys: list[Key] | None = None,
) -> tuple[int, float]:
    """Fitting layouts and the least mine probability of any unknown cell.

    For deduplicated constraints; (0, 0.0) when no layout fits, and a least
    probability of 0.0 when no unknown cell is left. The same figures as
    `analyse` on the board these constraints come from.
    """
    if mines_left < 0 or mines_left > n_unknown:
        return 0, 0.0
    solved = _solve(cons, n_unknown, mines_left, keys)
    if isinstance(solved, str):
        return 0, 0.0
    if not n_unknown:
        return solved.weight, 0.0
    least = min((num / den for _, num, den in solved.boxes), default=1.0)
    if solved.off:
        least = min(least, solved.off_num / solved.weight)
    return solved.weight, least


class _Fixed:
    """One fixed region of a `Recombined`: its counts, its boxes (size, mines
    by its mine count), and its weights v, found the first time they are
    asked for (most numbers of most candidates never count this region's
    boxes: see `Recombined.layouts_and_two_least`). Exact integers either way.
    """

    __slots__ = ("_after", "_before", "_span", "_v", "_ways", "sized", "total")

    def __init__(
        self,
        total: Counts,
        sized: list[tuple[int, Counts]],
        before: Poly,
        after: Poly,
        ways: list[int],
        span: int,
    ) -> None:
        self.total, self.sized = total, sized
        # The regions before and after it (their product: the others), the
        # off-frontier ways by mines held, and how many sums v holds.
        self._before, self._after, self._ways, self._span = before, after, ways, span
        self._v: list[int] | None = None

    @property
    def v(self) -> list[int]:
        v = self._v
        if v is None:
            others, ways = _conv(self._before, self._after), self._ways
            v = self._v = [sum(map(mul, others, ways[s:])) for s in range(self._span)]
        return v


# What `Recombined` finds for one set of fixed regions: lookahead candidates
# of one region whose numbers join no other region share it (about a
# quarter of them, expert), so the last few are kept. Exact integers.
# Every fixed region's box as (a floor under its mine chance, its region's
# place in the list of fixed regions, its size, its mines by the region's
# mine count), lowest floor first: see `Recombined.layouts_and_two_least`.
_Ranked = list[tuple[float, int, int, Counts]]
_Recombination = tuple[bool, int, Poly, Poly, list[_Fixed], _Ranked]
_RECOMBINED: dict[tuple[tuple[Key, ...], int, int, int], _Recombination] = {}


def _products(regions: list[_Region]) -> tuple[list[Poly], list[Poly]]:
    """Prefix and suffix products of the regions' mine-count polynomials:
    prefix[x] of regions before x, suffix[x] of regions from x on."""
    q = len(regions)
    prefix: list[Poly] = [[1]]
    for reg in regions:
        prefix.append(_conv(prefix[-1], reg.total))
    suffix: list[Poly] = [[1]] * (q + 1)
    for x in range(q - 1, -1, -1):
        suffix[x] = _conv(regions[x].total, suffix[x + 1])
    return prefix, suffix


def _recombine(
    fixed: list[Key], varying_cells: int, n_unknown: int, mines_left: int
) -> _Recombination:
    """`Recombined`'s weights: (fits, off-frontier cells, h, o, per fixed region)."""
    if not 0 <= mines_left <= n_unknown:
        return False, 0, [], [], [], []
    regions: list[_Region] = []
    frontier = varying_cells
    for key in fixed:
        reg = _count(key)
        if reg is None:
            return False, 0, [], [], [], []
        regions.append(reg)
        frontier += sum(len(b) for b in reg.boxes)
    off = n_unknown - frontier
    left = mines_left
    q = len(regions)
    prefix, suffix = _products(regions)
    rest = prefix[q]
    tlen = varying_cells + 1  # the varying region holds 0..varying_cells mines
    span = len(rest) + tlen
    ways = [_ways(off, left - s) if 0 <= left - s <= off else 0 for s in range(span)]
    h = [sum(map(mul, rest, ways[t:])) for t in range(tlen)]
    o: Poly = []
    if off:
        # C(off - 1, j - 1) = C(off, j) * j / off, exactly: no binomial looked up.
        offw = [w * (left - s) // off if w else 0 for s, w in enumerate(ways)]
        o = [sum(map(mul, rest, offw[t:])) for t in range(tlen)]
    out: list[_Fixed] = []
    ranked: _Ranked = []
    for x, reg in enumerate(regions):
        sized = [(len(c), bm) for c, bm in zip(reg.boxes, reg.box_mines, strict=True)]
        span = len(reg.total) + tlen - 1
        out.append(_Fixed(reg.total, sized, prefix[x], suffix[x + 1], ways, span))
        # A box's chance is its chance given its region's mine count k,
        # bm[k] / (total[k] x size), averaged over k with weights of at least
        # zero: never below the least of those, whatever the varying region
        # holds.
        # (A box's sums may stop short of the region's counts: the mine
        # counts past their end hold no mine of it, chance 0 there.)
        rtotal = reg.total
        for size, bm in sized:
            cut = len(bm)
            floor = min(
                [bm[k] / (t * size) if k < cut else 0.0 for k, t in enumerate(rtotal) if t],
                default=0.0,
            )
            ranked.append((floor, x, size, bm))
    ranked.sort(key=itemgetter(0))
    return True, off, h, o, out, ranked


def _two_least(chances: Iterable[tuple[float, int]]) -> tuple[float, float]:
    """The least mine chance of any cell and the next one up, from (chance,
    cells sharing it) pairs: the least again when two cells share it, and
    1.0 for cells that are not there."""
    least = second = 1.0
    for p, size in chances:
        if p < least:
            second = p if size > 1 else least
            least = p
        elif p < second:
            second = p
    return least, second


def layouts_and_two_least(
    cons: list[tuple[tuple[int, ...], int]],
    n_unknown: int,
    mines_left: int,
    keys: list[Key] | None = None,
) -> tuple[int, float, float]:
    """`layouts_and_least` and the second-least mine chance of a cell.

    (0, 0.0, 0.0) when no layout fits; (layouts, 0.0, 0.0) when no unknown
    cell is left.
    """
    if mines_left < 0 or mines_left > n_unknown:
        return 0, 0.0, 0.0
    solved = _solve(cons, n_unknown, mines_left, keys)
    if isinstance(solved, str):
        return 0, 0.0, 0.0
    if not n_unknown:
        return solved.weight, 0.0, 0.0
    chances = [(num / den, len(cells)) for cells, num, den in solved.boxes]
    if solved.off:
        chances.append((solved.off_num / solved.weight, solved.off))
    least, second = _two_least(chances)
    return solved.weight, least, second


def box_chances(
    cons: list[tuple[tuple[int, ...], int]], n_unknown: int, mines_left: int
) -> tuple[int, list[tuple[float, tuple[int, ...]]], float] | None:
    """Fitting layouts, each frontier box's (mine chance, cells) and the mine
    chance of a cell off the frontier (0.0 when there is none); None when no
    layout fits."""
    if mines_left < 0 or mines_left > n_unknown:
        return None
    solved = _solve(cons, n_unknown, mines_left)
    if isinstance(solved, str) or not solved.weight:
        return None
    boxes = [(num / den, cells) for cells, num, den in solved.boxes]
    return solved.weight, boxes, solved.off_num / solved.weight if solved.off else 0.0


def _box_chances(region: _Region, h: Poly, weight: int) -> Iterator[tuple[float, int]]:
    """Each box's mine chance (its mines by the region's mine count, weighed
    by h, over weight x size) and size. A box still packed is unpacked only
    when its sums are not all zero (chance 0 needs no sum), and only when
    asked for: the caller may stop early."""
    bms = region._box_mines
    if bms is not None:
        for cells, bm in zip(region.boxes, bms, strict=True):
            size = len(cells)
            yield sum(map(mul, bm, h)) / (weight * size), size
        return
    assert region._packed is not None
    counts, v = region._packed
    width = counts.width
    # A box's mines are 0 at every mine count the region has no layout with:
    # its sums start where the region's counts do (past seven empty slots of
    # nine, typically), so the slots before are never unpacked.
    total = region.total
    lo = 0
    while lo < len(total) and not total[lo]:
        lo += 1
    if lo:
        h = h[lo:]
    skip = lo * width
    at, ymask = v * counts.ystride + skip, (1 << counts.ystride - skip) - 1
    mask = (1 << width) - 1
    for cells, x in zip(region.boxes, counts.sums, strict=True):
        size = len(cells)
        x = (x >> at) & ymask
        if not x:
            yield 0.0, size
            continue
        coefficients: Poly = []
        while x:
            coefficients.append(x & mask)
            x >>= width
        yield sum(map(mul, coefficients, h)) / (weight * size), size


class Recombined:
    """`layouts_and_least` for boards whose regions are all fixed but one.

    A lookahead candidate's numbers change only the region its own number
    joins: the other regions, the off-frontier cells and the mine count stay.
    Everything `_solve` makes of those is found here once per candidate, as
    weights by the varying region's mine count t:

    - h[t]: the layouts of the rest (fixed regions times the off-frontier
      cells' ways) when the varying region holds t mines; the weight is
      total . h, and a varying box's mines are box_mines . h;
    - o[t]: the same for the off-frontier mines;
    - per fixed region, v[s]: the ways of the other fixed regions and the
      off-frontier cells when this region and the varying one hold s mines
      together, so the weight its k mines get is sum over t of total[t] v[k+t].

    Each number the candidate may show then costs dot products instead of
    re-combining every region. The counts are exact integers and equal
    `_solve`'s term for term, so the layouts and the least probability
    (each a ratio of the same two integers) are the same.
    """

    __slots__ = ("_fixed", "_h", "_o", "_off", "_ok", "_ranked", "_unknown")

    def __init__(self, fixed: list[Key], varying_cells: int, n_unknown: int, mines_left: int):
        self._unknown = n_unknown
        key = (tuple(fixed), varying_cells, n_unknown, mines_left)
        known = _RECOMBINED.get(key)
        if known is None:
            known = _recombine(fixed, varying_cells, n_unknown, mines_left)
            if len(_RECOMBINED) >= 64:
                _RECOMBINED.clear()
            _RECOMBINED[key] = known
        self._ok, self._off, self._h, self._o, self._fixed, self._ranked = known

    def layouts_and_least(self, varying: _Region | None) -> tuple[int, float]:
        """What `layouts_and_least` says with `varying` as the changing region's count."""
        if not self._ok or varying is None:
            return 0, 0.0
        total = varying.total
        weight = sum(map(mul, total, self._h))
        if weight == 0:
            return 0, 0.0
        if not self._unknown:
            return weight, 0.0
        h = self._h
        least = min(
            (
                sum(map(mul, bm, h)) / (weight * len(cells))
                for cells, bm in zip(varying.boxes, varying.box_mines, strict=True)
            ),
            default=1.0,
        )
        for fixed in self._fixed:
            v = fixed.v
            wk = [sum(map(mul, total, v[k:])) if t else 0 for k, t in enumerate(fixed.total)]
            for size, bm in fixed.sized:
                p = sum(map(mul, bm, wk)) / (weight * size)
                if p < least:
                    least = p
        if self._off:
            least = min(least, sum(map(mul, total, self._o)) / weight)
        return weight, least

    def layouts_and_two_least(self, varying: _Region | None) -> tuple[int, float, float]:
        """`layouts_and_two_least` with `varying` as the changing region's count."""
        if not self._ok or varying is None:
            return 0, 0.0, 0.0
        total = varying.total
        h = self._h
        weight = sum(map(mul, total, h))
        if weight == 0:
            return 0, 0.0, 0.0
        if not self._unknown:
            return weight, 0.0, 0.0
        # `_two_least` written out (its answer does not depend on the order
        # the chances come in): no list of pairs per number. Once two cells
        # have chance 0 (four numbers in ten), nothing can come below them:
        # the other boxes, the off-frontier cells and the fixed regions are
        # not looked at.
        least = second = 1.0
        for p, size in _box_chances(varying, h, weight):
            if p < least:
                second = p if size > 1 else least
                least = p
                if second == 0.0:
                    return weight, 0.0, 0.0
            elif p < second:
                second = p
                if p == 0.0:
                    return weight, 0.0, 0.0
        if self._off:
            p = sum(map(mul, total, self._o)) / weight
            if p < least:
                second = p if self._off > 1 else least
                least = p
            elif p < second:
                second = p
        # The fixed regions' boxes, lowest floor first, until a floor passes
        # the second least: a chance at or above it changes neither figure
        # (the two least of all the chances, in any order), and a float floor
        # above the float `second` means the exact chance is above it too, so
        # its rounded float is not below it. Most boxes are never counted.
        fixed = self._fixed
        wks: list[list[int] | None] = [None] * len(fixed)
        for floor, x, size, bm in self._ranked:
            if floor > second:
                break
            wk = wks[x]
            if wk is None:
                region = fixed[x]
                v = region.v
                wk = [sum(map(mul, total, v[k:])) if t else 0 for k, t in enumerate(region.total)]
                wks[x] = wk
            p = sum(map(mul, bm, wk)) / (weight * size)
            if p < least:
                second = p if size > 1 else least
                least = p
            elif p < second:
                second = p
        return weight, least, second


@collector_paused
def analyse(board: Board, cs: Constraints | Inconsistent | None = None) -> Analysis:
    """Exact mine probability of every cell of `board`."""
    if cs is None:
        cs = build(board)
    if isinstance(cs, Inconsistent):
        return _inconsistent(board, cs.reason)
    solved = _solve(
        [(con.cells, con.need) for con in cs.constraints], len(cs.unknown), cs.mines_left
    )
    if isinstance(solved, str):
        return _inconsistent(board, solved)
    weight = solved.weight
    off_p: float | None = None
    if solved.off:
        off_p = solved.off_num / weight
    # Every unknown cell starts at the off-frontier chance (the boxes below
    # cover the frontier); one pass over the board in a comprehension.
    prob: list[float | None] = [
        None if s >= 0 else off_p if s == UNKNOWN else 1.0 for s in board.cells
    ]
    safe: list[int] = []
    mines: list[int] = []
    for cells, num, den in solved.boxes:
        p = num / den
        for cell in cells:
            prob[cell] = p
        if num == 0:
            safe.extend(cells)
        elif num == den:
            mines.extend(cells)
    if solved.off and (solved.off_num == 0 or solved.off_num == weight):
        off_cells = [c for c in cs.unknown if c not in cs.frontier]
        (safe if solved.off_num == 0 else mines).extend(off_cells)
    return Analysis(
        "ok",
        "",
        tuple(prob),
        tuple(sorted(safe)),
        tuple(sorted(mines)),
        weight,
        cs.frontier,
        off_p,
    )
