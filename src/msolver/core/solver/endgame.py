"""Rule: when few layouts remain, play the move that wins most of them.

Near the end, the safest cell is not always the best: a slightly riskier
cell may tell the remaining layouts apart. With few enough layouts we list
them all and search the game tree exactly. A position is a set of layouts
still possible; its value is the share of them we can win:

- one layout left: won;
- a cell safe in every layout whose number would tell layouts apart is
  opened for free (certain information never hurts);
- otherwise the value is the best, over cells, of the sum over the numbers
  the cell may show of (share of layouts showing it) x (value of that part).

A cell can win at most the share of layouts it is safe in, so cells are
tried safest first and the search stops once none left can beat the best:
the answer stays exact and most of the tree is never visited.

A zero would also open its neighbours in the real game; we ignore that, so
the value is a lower bound and never promises more than the game gives.
The search has a work budget (layouts looked at, which is what its time
grows with): past it, the guess tier decides instead. The budget is counted,
not timed, so a game replays the same on any machine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from operator import itemgetter

from msolver.core.board import UNKNOWN, Board, neighbours_table
from msolver.core.solver.constraints import MINE_STATES, Constraints
from msolver.core.solver.probability import Analysis, collector_paused

# Listing layouts costs time; beyond this many the guess tier decides.
# Measured on expert (opening, 2,000 paired games): 300 wins 0.3% more games
# than 40, and 600 about 0.85% more.
MAX_LAYOUTS = 600
# Layout visits the search may make before it gives up (about 0.1 us each
# in CPython, 0.3 us on a busy machine: a bound on one move, well under a second).
WORK_BUDGET = 1_000_000


class _OutOfBudget(Exception):
    pass


def enumerate_layouts(cs: Constraints, limit: int) -> list[int] | None:
    """Every fitting layout as a bitmask over `cs.unknown`; None if more than `limit`."""
    pos = {c: k for k, c in enumerate(cs.unknown)}
    frontier = sorted(cs.frontier, key=lambda c: pos[c])
    off = [pos[c] for c in cs.unknown if c not in cs.frontier]
    need = [con.need for con in cs.constraints]
    left_cells = [len(con.cells) for con in cs.constraints]
    cons_of: dict[int, list[int]] = {}
    for k, con in enumerate(cs.constraints):
        for c in con.cells:
            cons_of.setdefault(c, []).append(k)
    out: list[int] = []
    total = cs.mines_left

    def rec(i: int, mask: int, used: int) -> None:
        if len(out) > limit:
            raise _OutOfBudget
        if i == len(frontier):
            rest = total - used
            if 0 <= rest <= len(off):
                for combo in combinations(off, rest):
                    m = mask
                    for b in combo:
                        m |= 1 << b
                    out.append(m)
                    if len(out) > limit:
                        raise _OutOfBudget
            return
        cell = frontier[i]
        ks = cons_of[cell]
        for mine in (0, 1):
            if mine and used == total:
                continue
            ok = True
            for k in ks:
                left_cells[k] -= 1
                need[k] -= mine
            for k in ks:
                if need[k] < 0 or need[k] > left_cells[k]:
                    ok = False
                    break
            if ok:
                rec(i + 1, mask | (mine << pos[cell]), used + mine)
            for k in ks:
                left_cells[k] += 1
                need[k] += mine

    try:
        rec(0, 0, 0)
    except _OutOfBudget:
        return None
    return out


def search(layouts: list[int], nbr_mask: list[int]) -> tuple[float, int] | None:
    """The share of `layouts` best play wins and the first cell to open (see
    `_search`); None when the work budget runs out."""
    found = _search(layouts, nbr_mask)
    return None if found is None else (found.won, found.chosen)


def _search(layouts: list[int], nbr_mask: list[int]) -> _Searched | None:
    """The share of `layouts` best play wins and the first cell to open.

    Layouts are bitmasks over n cells (bit k set: cell k is a mine);
    `nbr_mask[k]` marks the cells next to cell k, so opening k safely shows
    the mines under that mask. None when the work budget runs out.

    Inside, a group of layouts is itself a bitmask over the layouts' indices,
    and each cell keeps the mask of layouts that mine it and, per number it
    may show, the mask of layouts showing it: a split is then a few ANDs
    instead of a pass over the group. The parts are visited in the order a
    pass over the layouts would meet them (first layout first), so the float
    sums, the pruning and the work charged are exactly those of a plain pass.
    """
    n = len(nbr_mask)
    mine_of = [0] * n
    for j, lay in enumerate(layouts):
        bit = 1 << j
        while lay:
            low = lay & -lay
            mine_of[low.bit_length() - 1] |= bit
            lay ^= low
    shows: list[list[int] | None] = [None] * n
    full = (1 << len(layouts)) - 1  # every layout
    memo: dict[int, float] = {}
    picked: dict[int, int] = {}  # the cell `value` chose for each group in `memo`
    # Work is added where it is done and checked against the budget once per
    # searched group and once at the end: work only grows, so the search runs
    # out exactly when counting every charge the moment it is made would
    # have run out, and the budget still bounds the time.
    work = 0

    def shown(k: int) -> list[int]:
        # Per number cell k may show: the layouts (safe at k) showing it.
        # Counted for all layouts at once: each neighbour's mask of layouts
        # that mine it goes through a bitwise adder, whose bit planes then
        # pick out the layouts of each count (no pass over the layouts).
        masks = shows[k]
        if masks is None:
            planes = _planes(mine_of, nbr_mask[k], full)
            safe = full & ~mine_of[k]
            masks = []
            for v in range(1 << len(planes)):
                m = safe
                for b, plane in enumerate(planes):
                    m &= plane if v >> b & 1 else ~plane
                if m:
                    masks.append(m)
            shows[k] = masks
        return masks

    sames: list[list[int] | None] = [None] * n

    def same(k: int) -> list[int]:
        # Per layout safe at k: the layouts in which k shows another number
        # (the complement of those showing the same one, so that a group
        # finds the layouts that differ with one AND).
        got = sames[k]
        if got is None:
            got = [0] * len(layouts)
            for m in shown(k):
                rest = m
                other = ~m
                while rest:
                    low = rest & -rest
                    got[low.bit_length() - 1] = other
                    rest ^= low
            sames[k] = got
        return got

    # A cell no layout mines and every layout shows the same number never
    # splits a group: the plain pass still tried it (and charged the work),
    # so it is charged here without the trying. A cell every layout mines is
    # never tried at all. The rest are the cells worth counting per group.
    mute = [not mine_of[k] and len(shown(k)) == 1 for k in range(n)]
    mute_before = [0] * (n + 1)
    for k in range(n):
        mute_before[k + 1] = mute_before[k] + mute[k]
    live = [k for k in range(n) if not mute[k] and mine_of[k] != full]
    # Parts are visited largest first and, among equal sizes, first-met
    # (lowest layout) first: one key orders both, as the size shifted past
    # every layout's bit less the part's lowest bit.
    wide = len(layouts) + 1

    def largest_first(p: int) -> int:
        return (p.bit_count() << wide) - (p & -p)

    # A group's cells worth trying, each as (cell, layouts mining it, place
    # in `live`): a part of a group inherits its parent's list less the cells
    # that cannot matter in it any more. A cell every layout of the parent
    # mines is mined in every layout of the part (never tried, never
    # charged); a cell no layout of the parent mines and that shows one
    # number in all of them does the same in the part: it does not split it,
    # and the plain pass charges it as tried, so it is kept as a bit in
    # `gone` (by place in `live`) and charged from there.
    Cells = list[tuple[int, int, int]]

    # The cell `value` chose for the group it returns from last: after the
    # whole search, the first cell to open (a float alone is returned, not a
    # pair, on every one of the many inner calls).
    chosen = -1

    def value(group: int, size: int, cells: Cells, gone: int) -> float:
        # Called only for a group of two or more layouts not searched yet
        # (every caller reads single layouts and the memo inline, charging
        # as a call would), so neither is checked again here.
        nonlocal work, chosen
        work += 2 * size
        if work > WORK_BUDGET:
            raise _OutOfBudget
        # Free information first: a cell no layout mines that splits the group.
        # It splits it when some layout shows another number than the first
        # layout does: one AND per cell, and the parts only for the one found.
        # The cells' mine counts wait until no such cell is found: they are
        # wasted when one is.
        first = (group & -group).bit_length() - 1
        tried = 0  # cells tried that did not split: charged in one sum
        quiet = 0  # their places in `live`
        for entry in cells:
            # Most cells are mined in some layout: skipped with one AND.
            if entry[1] & group:
                continue
            k, _, at = entry
            sm = sames[k]
            if sm is None:
                sm = same(k)
            if not group & sm[first]:
                tried += 1
                quiet |= 1 << at
                continue
            # the cells tried before (here and as `gone`), and this cell's split
            before = tried + (gone & ((1 << at) - 1)).bit_count()
            work += size * (before + mute_before[k] + 1)
            # The parts in first-met order as they are found (no sort): the
            # first layout left and the layouts showing its number (k is safe
            # in all of them), again until none is left, each from the mask
            # `same` already holds for that layout (one part a step, not one
            # step per number k may show).
            parts = [group & ~sm[first]]
            rest = group & sm[first]
            while rest:
                p = group & ~sm[(rest & -rest).bit_length() - 1]
                parts.append(p)
                rest ^= p
            # In every part k is safe and shows one number: it joins `gone`.
            # The cells before it that some layout mines go on with the rest:
            # listed only when a part is searched (most are single layouts
            # or searched already).
            sub: Cells | None = None
            sub_gone = gone | quiet | 1 << at
            v = 0.0
            for p in parts:
                c = p.bit_count()
                if c == 1:
                    v += 1.0
                    continue
                kv = memo.get(p)
                if kv is None:
                    if sub is None:
                        j = cells.index(entry)
                        sub = [e for e in cells[:j] if e[1] & group]
                        sub += cells[j + 1 :]
                    kv = value(p, c, sub, sub_gone)
                else:
                    work += c
                v += c * kv
            v /= size
            memo[group] = v
            picked[group] = chosen = k
            return v
        work += size * (tried + gone.bit_count() + mute_before[n])
        # A cell can win at most the layouts it is safe in: try the safest
        # first and stop once no cell left can beat the best found, and stop
        # summing a cell's parts once the rest cannot lift it past the best.
        # The value stays exact; most of the tree is never visited.
        # `cells` runs in cell order and a reversed sort stays stable: ties
        # keep the lower cell first, as a (-bound, cell) key would.
        safe_in = [
            (size - m, entry) for entry in cells if 0 < (m := (entry[1] & group).bit_count()) < size
        ]
        if not safe_in:
            # Every cell is a mine in all of the group or in none: its layouts
            # are copies of one (a weighted count lists a layout once per
            # weight; distinct layouts always differ in some cell), so won.
            memo[group] = 1.0
            picked[group] = chosen = -1
            return 1.0
        sub = [entry for _, entry in safe_in]
        sub_gone = gone | quiet
        if len(safe_in) > 1:
            safe_in.sort(key=itemgetter(0), reverse=True)
        best, best_k = -1.0, -1
        for bound, (k, _, _) in safe_in:
            floor = best * size + 1e-9
            if bound <= floor:
                break
            work += size
            parts = [p for m in shows[k] or shown(k) if (p := group & m)]
            if len(parts) == 2:
                a, b = parts
                ca, cb = a.bit_count(), b.bit_count()
                if cb > ca or (cb == ca and b & -b < a & -a):
                    parts = [b, a]
            elif len(parts) > 2:
                parts.sort(key=largest_first, reverse=True)
            won = 0.0
            left = bound
            for p in parts:
                c = p.bit_count()
                left -= c
                if c == 1:
                    won += 1.0
                else:
                    kv = memo.get(p)
                    if kv is None:
                        kv = value(p, c, sub, sub_gone)
                    else:
                        work += c
                    won += c * kv
                if won + left <= floor:
                    break
            else:
                v = won / size
                if v > best + 1e-12:
                    best, best_k = v, k
        memo[group] = best
        picked[group] = chosen = best_k
        return best

    if len(layouts) < 2:
        return _Searched(1.0, -1, 0, full, mine_of, picked)  # one layout: won, nothing to open
    try:
        won = value(full, len(layouts), [(k, mine_of[k], at) for at, k in enumerate(live)], 0)
    except _OutOfBudget:
        return None
    return _Searched(won, chosen, work, full, mine_of, picked) if work <= WORK_BUDGET else None


@dataclass(frozen=True, slots=True)
class _Searched:
    """A finished search: its answer, the work it charged, and what a later
    position can be looked up by (each cell's layouts that mine it, and the
    cell chosen for every group searched)."""

    won: float
    chosen: int
    work: int
    full: int  # every layout
    mine_of: list[int]
    picked: dict[int, int]


@dataclass(frozen=True, slots=True)
class _Last:
    """The last search of a game, with the board it was made on."""

    shape: tuple[int, int, int]  # width, height, mines
    unknown: tuple[int, ...]  # the search's cells
    among: frozenset[int]  # the same, as a set
    nbr_mask: list[int]
    # The other cells' states then: a later board that shows them alike only
    # opened or flagged some of the search's cells.
    rest: Callable[[tuple[int, ...]], object]
    was: object
    found: _Searched


class Kept:
    """What a solver keeps of its last endgame search for the moves after it.

    After the search's move, and the certain moves its number leads to, the
    layouts left are a group that search has valued already, with the cell
    it would open there: the same answer a new search of those layouts
    gives (see `_recall`), without searching again.
    """

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: _Last | None = None


_MISS = -2  # `_recall`: the position is not one the last search valued


def _planes(mine_of: list[int], around: int, group: int) -> list[int]:
    """Bit b of every layout's count of mines among the cells `around` (a
    mask of the search's cells), for the layouts of `group`: each cell's mask
    of layouts that mine it goes through a bitwise adder (no pass over the
    layouts)."""
    planes: list[int] = []
    rest = around
    while rest:
        low = rest & -rest
        rest ^= low
        carry = mine_of[low.bit_length() - 1] & group
        for b, plane in enumerate(planes):
            planes[b] = plane ^ carry
            carry &= plane
            if not carry:
                break
        else:
            if carry:
                planes.append(carry)
    return planes


def _showing(mine_of: list[int], around: int, count: int, group: int) -> int:
    """The layouts of `group` with `count` mines among the cells `around`."""
    planes = _planes(mine_of, around, group)
    if count < 0 or count >> len(planes):
        return 0
    for b, plane in enumerate(planes):
        group &= plane if count >> b & 1 else ~plane
    return group


def _recall(last: _Last, board: Board, layouts: int) -> int:
    """The cell (in the last search's cells; -1: none) a new search of this
    board would choose, or _MISS.

    A board that differs from the last search's only in some of its cells
    opened or flagged leaves the layouts of that search that show those
    numbers and mine those flags: a group. Every group the search valued it
    valued as a search of that group alone would, cell for cell (the same
    cells worth trying in the same order, the same exact values, so the same
    choice), and a search of a group alone charges no more work than the
    whole search did (each group's own charges shrink with the cells, and
    a group valued once charges its parents at most as much): it finishes
    within the budget whenever the whole search did.
    """
    if (board.width, board.height, board.mines) != last.shape:
        return _MISS
    found = last.found
    if found.work > WORK_BUDGET:
        return _MISS
    cells = board.cells
    if last.rest(cells) != last.was:
        return _MISS
    mine_of, nbr_mask = found.mine_of, last.nbr_mask
    group = found.full
    nbrs = neighbours_table(board.width, board.height)
    unknown, among = last.unknown, last.among
    for k, c in enumerate(unknown):
        s = cells[c]
        if s == UNKNOWN:
            continue
        if s >= 0:
            # Its number counts the mines the search's cells around it hold
            # and the mines shown around it then.
            around = sum(1 for j in nbrs[c] if cells[j] in MINE_STATES and j not in among)
            group = _showing(mine_of, nbr_mask[k], s - around, group & ~mine_of[k])
        elif s in MINE_STATES:
            group &= mine_of[k]
        else:
            return _MISS
    if group.bit_count() != layouts:
        return _MISS
    return found.picked.get(group, _MISS)


@collector_paused
def best_move(
    board: Board,
    cs: Constraints,
    analysis: Analysis,
    weigh: Callable[[int], int] | None = None,
    kept: Kept | None = None,
) -> tuple[int, float] | None:
    """The exact best move and its mine probability, or None when out of reach.

    `weigh`, when given, says how many times each layout counts (a bitmask
    over `cs.unknown`, as listed): the search then wins the most weight.
    `kept`, when given, holds the last search of this game (a position it
    valued is answered from it: the same answer, see `_recall`).
    """
    if analysis.layouts > MAX_LAYOUTS or analysis.layouts < 2:
        return None
    if kept is not None and weigh is None and kept.last is not None:
        at = _recall(kept.last, board, analysis.layouts)
        if at != _MISS:
            if at < 0:
                return None
            cell = kept.last.unknown[at]
            p = analysis.prob[cell]
            return cell, float(p if p is not None else 0.0)
    layouts = enumerate_layouts(cs, MAX_LAYOUTS)
    if not layouts:
        return None
    if weigh is not None:
        layouts = [lay for lay in layouts for _ in range(weigh(lay))]
    unknown = cs.unknown
    pos = {c: k for k, c in enumerate(unknown)}
    nbr_mask = []
    for c in unknown:
        m = 0
        for j in board.neighbours(c):
            k = pos.get(j)
            if k is not None:
                m |= 1 << k
        nbr_mask.append(m)
    found = _search(layouts, nbr_mask)
    if found is None:
        return None
    if kept is not None and weigh is None:
        cells = board.cells
        others = [i for i in range(len(cells)) if i not in pos]
        rest = itemgetter(*others, 0, 0)  # a tuple whatever their number
        kept.last = _Last(
            (board.width, board.height, board.mines),
            tuple(unknown),
            frozenset(unknown),
            nbr_mask,
            rest,
            rest(cells),
            found,
        )
    if found.chosen < 0:
        return None
    cell = unknown[found.chosen]
    p = analysis.prob[cell]
    return cell, float(p if p is not None else 0.0)
