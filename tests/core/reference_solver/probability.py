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

from collections import deque
from dataclasses import dataclass
from math import comb
from typing import Literal

from msolver.core.board import UNKNOWN, Board
from tests.core.reference_solver.constraints import Constraints, Inconsistent, build

Poly = list[int]  # index k -> number of layouts with k mines


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


def _add_into(dst: Poly, src: Poly, mult: int, shift: int) -> None:
    need = len(src) + shift
    if len(dst) < need:
        dst.extend([0] * (need - len(dst)))
    for k, v in enumerate(src):
        if v:
            dst[k + shift] += v * mult


def _conv(a: Poly, b: Poly) -> Poly:
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
    for start in range(n):
        if placed[start]:
            continue
        # Find a far end of this component: BFS twice.
        far = start
        for _ in range(2):
            dist = {far: 0}
            q = deque([far])
            last = far
            while q:
                x = q.popleft()
                last = x
                for y in adj[x]:
                    if y not in dist:
                        dist[y] = dist[x] + 1
                        q.append(y)
            far = last
        q = deque([far])
        placed[far] = True
        while q:
            x = q.popleft()
            order.append(x)
            for y in sorted(adj[x], key=lambda b: len(adj[b])):
                if not placed[y]:
                    placed[y] = True
                    q.append(y)
    return order


@dataclass(frozen=True, slots=True)
class RegionCount:
    total: Poly  # layouts by mine count
    box_mines: list[Poly]  # per box: sum over layouts of its mines, by mine count


def count_region(sizes: list[int], cons: list[list[int]], needs: list[int]) -> RegionCount | None:
    """Count one region's layouts by mine count, and each box's mines.

    `cons[c]` lists the boxes of constraint c, which needs `needs[c]` mines.
    Returns None when no layout fits.
    """
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
    lo = [min(pos[b] for b in boxes) for boxes in cons]
    hi = [max(pos[b] for b in boxes) for boxes in cons]
    # capacity still to come after position i, per constraint
    active: list[list[int]] = [[] for _ in range(n + 1)]
    for c in range(len(cons)):
        for i in range(lo[c] + 1, hi[c] + 1):
            active[i].append(c)

    # Per position: how the next state is formed from the current one.
    plans = []
    for i in range(n):
        b = order[i]
        mine_cons = set(box_cons[b])
        src_of = {c: k for k, c in enumerate(active[i])}
        nxt = []
        for c in active[i + 1]:
            cap = sum(sizes[x] for x in cons[c] if pos[x] > i)
            nxt.append((src_of.get(c, -1), c in mine_cons, needs[c], cap))
        close = [(src_of.get(c, -1), needs[c]) for c in box_cons[b] if hi[c] == i]
        mmax = min([sizes[b], *(needs[c] for c in box_cons[b])])
        weights = [comb(sizes[b], m) for m in range(mmax + 1)]
        plans.append((nxt, close, weights))

    forward: list[dict[tuple[int, ...], Poly]] = [{(): [1]}]
    trans: list[dict[tuple[int, ...], list[tuple[int, tuple[int, ...], int]]]] = []
    for i in range(n):
        nxt, close, weights = plans[i]
        layer: dict[tuple[int, ...], Poly] = {}
        tlayer: dict[tuple[int, ...], list[tuple[int, tuple[int, ...], int]]] = {}
        for state, poly in forward[i].items():
            moves = []
            for m, w in enumerate(weights):
                ok = True
                for src, need in close:
                    if (state[src] if src >= 0 else 0) + m != need:
                        ok = False
                        break
                if not ok:
                    continue
                vals = []
                for src, mine, need, cap in nxt:
                    v = (state[src] if src >= 0 else 0) + (m if mine else 0)
                    if v > need or v + cap < need:
                        ok = False
                        break
                    vals.append(v)
                if not ok:
                    continue
                t = tuple(vals)
                moves.append((m, t, w))
                dst = layer.get(t)
                if dst is None:
                    dst = layer[t] = []
                _add_into(dst, poly, w, m)
            tlayer[state] = moves
        forward.append(layer)
        trans.append(tlayer)

    backward: list[dict[tuple[int, ...], Poly]] = [{} for _ in range(n + 1)]
    backward[n] = {(): [1]}
    for i in range(n - 1, -1, -1):
        after = backward[i + 1]
        here = backward[i]
        for state, moves in trans[i].items():
            acc: Poly = []
            for m, t, w in moves:
                bt = after.get(t)
                if bt:
                    _add_into(acc, bt, w, m)
            if any(acc):
                here[state] = acc

    total = backward[0].get((), [])
    if not any(total):
        return None
    box_mines: list[Poly] = [[] for _ in range(n)]
    for i in range(n):
        acc = []
        after = backward[i + 1]
        for state, fpoly in forward[i].items():
            if state not in backward[i]:
                continue
            for m, t, w in trans[i][state]:
                if m == 0:
                    continue
                bt = after.get(t)
                if bt:
                    _add_into(acc, _conv(fpoly, bt), w * m, m)
        box_mines[order[i]] = acc
    return RegionCount(total, box_mines)


def analyse(board: Board, cs: Constraints | Inconsistent | None = None) -> Analysis:
    """Exact mine probability of every cell of `board`."""
    if cs is None:
        cs = build(board)
    if isinstance(cs, Inconsistent):
        return _inconsistent(board, cs.reason)

    # Boxes: frontier cells keyed by the constraints they touch.
    cons = cs.constraints
    sig: dict[int, list[int]] = {}
    for k, con in enumerate(cons):
        for cell in con.cells:
            sig.setdefault(cell, []).append(k)
    box_of_sig: dict[tuple[int, ...], int] = {}
    box_cells: list[list[int]] = []
    for cell, ks in sig.items():
        key = tuple(ks)
        b = box_of_sig.get(key)
        if b is None:
            b = box_of_sig[key] = len(box_cells)
            box_cells.append([])
        box_cells[b].append(cell)
    # Regions: constraints joined through shared boxes (union-find).
    parent = list(range(len(cons)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for key in box_of_sig:
        r0 = find(key[0])
        for k in key[1:]:
            rk = find(k)
            if rk != r0:
                parent[rk] = r0
    region_boxes: dict[int, list[int]] = {}
    for key, b in box_of_sig.items():
        region_boxes.setdefault(find(key[0]), []).append(b)
    region_cons: dict[int, list[int]] = {}
    for k in range(len(cons)):
        region_cons.setdefault(find(k), []).append(k)

    counts: list[tuple[list[int], RegionCount]] = []
    for root, boxes in region_boxes.items():
        cids = region_cons[root]
        cidx = {k: x for x, k in enumerate(cids)}
        lcons: list[list[int]] = [[] for _ in cids]
        for x, b in enumerate(boxes):
            for k in sig[box_cells[b][0]]:
                lcons[cidx[k]].append(x)
        rc = count_region([len(box_cells[b]) for b in boxes], lcons, [cons[k].need for k in cids])
        if rc is None:
            return _inconsistent(board, "no mine layout fits the numbers")
        counts.append((boxes, rc))

    off = len(cs.unknown) - len(sig)
    left = cs.mines_left

    def ways(k: int) -> int:
        r = left - k
        return comb(off, r) if 0 <= r <= off else 0

    # prefix/suffix products of the region polynomials
    q = len(counts)
    prefix: list[Poly] = [[1]]
    for _, rc in counts:
        prefix.append(_conv(prefix[-1], rc.total))
    suffix: list[Poly] = [[1]] * (q + 1)
    for x in range(q - 1, -1, -1):
        suffix[x] = _conv(counts[x][1].total, suffix[x + 1])
    everything = prefix[q]
    weight = sum(v * ways(k) for k, v in enumerate(everything) if v)
    if weight == 0:
        ks = [k for k, v in enumerate(everything) if v]
        if left < ks[0]:
            why = f"the numbers need at least {ks[0]} mines but only {left} are left"
        else:
            why = (
                f"the numbers hold at most {ks[-1]} mines, leaving {left - ks[-1]} "
                f"for {off} other unknown cells"
            )
        return _inconsistent(board, why)

    prob: list[float | None] = [None] * board.size
    for i, s in enumerate(board.cells):
        if s < 0 and s != UNKNOWN:
            prob[i] = 1.0
    safe: list[int] = []
    mines: list[int] = []
    for x, (boxes, rc) in enumerate(counts):
        others = _conv(prefix[x], suffix[x + 1])
        # weight of this region having k mines, summed over everything else
        wk = [sum(o * ways(k + j) for j, o in enumerate(others) if o) for k in range(len(rc.total))]
        for lb, b in enumerate(boxes):
            num = sum(v * wk[k] for k, v in enumerate(rc.box_mines[lb]) if v)
            size = len(box_cells[b])
            den = weight * size
            p = num / den
            for cell in box_cells[b]:
                prob[cell] = p
            if num == 0:
                safe.extend(box_cells[b])
            elif num == den:
                mines.extend(box_cells[b])
    off_p: float | None = None
    if off:
        num = sum(
            v * comb(off - 1, left - k - 1)
            for k, v in enumerate(everything)
            if v and 0 <= left - k - 1 <= off - 1
        )
        off_p = num / weight
        off_cells = [c for c in cs.unknown if c not in sig]
        for cell in off_cells:
            prob[cell] = off_p
        if num == 0:
            safe.extend(off_cells)
        elif num == weight:
            mines.extend(off_cells)
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
