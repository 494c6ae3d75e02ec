"""Rule: every opened number says how many mines lie among its unknown neighbours.

An opened cell showing n, with f flagged (known-mine) neighbours, asks for
exactly n - f mines among its unknown neighbours. That is one constraint. A
number asking for fewer than zero mines, or more than it has unknown cells,
contradicts itself: the board is inconsistent, and we say where.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from itertools import chain, compress
from operator import ne
from typing import NamedTuple

from msolver.core.board import EXPLODED, FLAG, MINE, UNKNOWN, Board, neighbours_table

MINE_STATES = frozenset((FLAG, MINE, EXPLODED))
_NUMBER = (UNKNOWN + 1).__le__  # an opened cell: its number, 0-8


class Constraint(NamedTuple):
    # A named tuple, not a frozen dataclass: the builder makes a few every
    # frame, and a tuple is made ten times faster.
    cells: tuple[int, ...]  # unknown cells, sorted
    need: int  # mines among them


# A constraint made by tuple's own constructor: the named tuple's generated
# __new__ is a Python function (393 against 166 ns a call), and the builder
# makes about 500 constraints a game.
_new_tuple = tuple.__new__


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


@dataclass(frozen=True, slots=True)
class Certain:
    """Cells a rule proves safe or mined (the rules' answer; empty: nothing proved)."""

    safe: frozenset[int]
    mines: frozenset[int]

    def __bool__(self) -> bool:
        return bool(self.safe or self.mines)


def _cannot_hold(width: int, i: int, s: int, flagged: int, n_unknown: int) -> str:
    """Why the number s at cell i cannot hold, beside `flagged` mines shown and
    `n_unknown` unknown neighbours (said alike by a whole build and an update)."""
    r, c = divmod(i, width)
    need = s - flagged
    why = (
        f"it has {flagged} flagged neighbours"
        if need < 0
        else f"it needs {need} more mines but has {n_unknown} unknown neighbours"
    )
    return f"row {r}, col {c}: the {s} cannot hold: {why}"


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
            return Inconsistent(_cannot_hold(board.width, i, s, flagged, len(unk)))
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


class Builder:
    """`build` for a stream of boards of one game: the same result, less work.

    Between two frames only a few cells change, and an opened cell's
    constraint depends only on its neighbours: only the cells next to a
    change are read again. The constraints come out in the order `build`
    gives (by the first number cell that says each), so every rule that
    walks them in order sees the same list.
    """

    def __init__(self) -> None:
        self._shape: tuple[int, int] = (0, 0)
        self._cells: tuple[int, ...] = ()
        self._said: dict[int, Constraint] = {}  # by the number cell that says it
        self._bad: dict[int, str] = {}  # cells whose number cannot hold, and why
        self._known = 0  # flags and shown mines on the last board
        # Its unknown cells: `_unknown` less `_gone`, taken out only when the
        # constraints are assembled (most frames stop at the first rule,
        # which needs only how many there are, `_n_unknown`).
        self._unknown: tuple[int, ...] = ()
        self._gone: list[int] = []
        self._n_unknown = 0
        # For `trivial`, kept as `_said` changes: per set of cells said by
        # numbers that all agree, their need and how many say it, packed as
        # need << 4 | count (at most 8 numbers see one cell); per set said
        # with two needs or more (numbers that disagree: only a full
        # assembly answers), how many say each need; and the numbers whose
        # constraint is settled alone (no mine or all mines).
        self._agreed: dict[tuple[int, ...], int] = {}
        self._clashing: dict[tuple[int, ...], dict[int, int]] = {}
        self._easy: dict[int, Constraint] = {}

    def build(self, board: Board) -> Constraints | Inconsistent:
        self._update(board)
        return self._assemble(board)

    def trivial(self, board: Board) -> Certain | None:
        """`rules.trivial` of this board's constraints, without assembling them.

        Reads the board as `build` does. None when the answer needs the
        assembled constraints: the board may be inconsistent (a number that
        cannot hold, two numbers that may disagree, a mine count that cannot
        fit), the mine count alone settles every cell, or no number settles
        a cell alone; `build` then answers for the same board.
        """
        found = self.trivial_sets(board)
        return None if found is None else Certain(frozenset(found[0]), frozenset(found[1]))

    def trivial_sets(self, board: Board) -> tuple[set[int], set[int]] | None:
        """`trivial`'s safe cells and mines as plain sets (the solver sorts
        them into moves at once; most frames end here)."""
        self._update(board)
        if self._bad or self._clashing:
            return None
        mines_left = board.mines - self._known
        if mines_left <= 0 or mines_left >= self._n_unknown:
            return None
        if not self._easy:
            return None
        safe: set[int] = set()
        mines: set[int] = set()
        for cells, need in self._easy.values():
            (safe if need == 0 else mines).update(cells)
        return safe, mines

    def _update(self, board: Board) -> None:
        cells = board.cells
        old = self._cells
        if cells is old and (board.width, board.height) == self._shape:
            return  # the very board read last (`trivial` then `build`)
        said, bad = self._said, self._bad
        nbrs = neighbours_table(board.width, board.height)
        # `fresh`: every changed cell was unknown on the last board (opened,
        # flagged or shown as a mine). A number that kept its value then
        # keeps every neighbour that was not unknown, so its new constraint
        # follows from its old one (its cells still unknown, less the ones now
        # mined), and the numbers with no constraint and no fault have no
        # unknown neighbour: no changed cell is next to them.
        fresh = False
        opened: list[int] = []  # changed cells that show a number now
        if (board.width, board.height) != self._shape or len(old) != len(cells):
            self._shape = (board.width, board.height)
            said.clear()
            bad.clear()
            self._agreed.clear()
            self._clashing.clear()
            self._easy.clear()
            touched: set[int]
            if cells.count(UNKNOWN) == len(cells):
                # A first, blank board (every game starts on one): no number,
                # no mine, every cell unknown, found without three walks.
                touched = set()
                known = 0
                unknown = tuple(range(len(cells)))
                self._gone = []
                self._n_unknown = len(cells)
            else:
                # Only numbers say constraints.
                touched = set(compress(range(len(cells)), map(_NUMBER, cells)))
                known = cells.count(FLAG) + cells.count(MINE) + cells.count(EXPLODED)
                unknown = None
        else:
            known = self._known
            unknown = self._unknown
            gone: list[int] = []  # cells no longer unknown
            since = board.since
            changed: list[int]
            if since is not None and since[0] is old:
                # The maker of the board listed what it wrote since the very
                # cells seen last: only those can differ.
                changed = [i for i in set(since[1]) if old[i] != cells[i]]
            else:
                # compress/map walk the cells in C: most of a frame is unchanged.
                changed = list(compress(range(len(cells)), map(ne, old, cells)))
            # The cells next to a change, gathered in C.
            touched = set(chain.from_iterable(map(nbrs.__getitem__, changed)))
            fresh = True
            for i in changed:
                s = cells[i]
                was = old[i]
                if was == UNKNOWN:
                    gone.append(i)
                    if s >= 0:
                        opened.append(i)
                    elif s in MINE_STATES:
                        known += 1
                else:
                    known += (s in MINE_STATES) - (was in MINE_STATES)
                    fresh = False
                    touched.add(i)
                    if s == UNKNOWN:
                        unknown = None  # a cell came back: count them again
            if fresh:
                # Only numbers can have a constraint or a fault; of the
                # numbers next to a change, only those with either (above).
                near = touched
                touched = bad.keys() & near if bad else set()
                self._reread(cells, said.keys() & near, board.width)
                self._read_opened(cells, opened, nbrs, board.width)
            else:
                touched.update(gone)
            if unknown is not None:
                self._gone += gone
                self._n_unknown -= len(gone)
        if unknown is None:
            unknown = tuple(compress(range(len(cells)), map(UNKNOWN.__eq__, cells)))
            self._gone = []
            self._n_unknown = len(unknown)
        self._known = known
        self._unknown = unknown
        agreed, clashing, easy = self._agreed, self._clashing, self._easy
        for i in touched:
            s = cells[i]
            if bad:
                bad.pop(i, None)
            con: Constraint | None = None
            prev = said.get(i)
            if s >= 0:
                unk: list[int] = []
                flagged = 0
                for j in nbrs[i]:
                    sj = cells[j]
                    if sj == UNKNOWN:
                        unk.append(j)
                    elif sj < UNKNOWN and sj in MINE_STATES:
                        flagged += 1
                need = s - flagged
                if need < 0 or need > len(unk):
                    bad[i] = _cannot_hold(board.width, i, s, flagged, len(unk))
                elif unk:
                    con = _new_tuple(Constraint, (tuple(unk), need))
            if prev == con:
                continue
            if prev is not None:
                # One number fewer says prev.
                del said[i]
                easy.pop(i, None)
                said_as = agreed.get(prev.cells)
                if said_as is None:
                    needs = clashing[prev.cells]
                    if needs[prev.need] > 1:
                        needs[prev.need] -= 1
                    else:
                        del needs[prev.need]
                        if len(needs) == 1:
                            # The numbers left all agree again.
                            ((need, n_said),) = needs.items()
                            agreed[prev.cells] = need << 4 | n_said
                            del clashing[prev.cells]
                elif said_as & 15 > 1:
                    agreed[prev.cells] = said_as - 1
                else:
                    del agreed[prev.cells]
            if con is not None:
                said[i] = con
                if con.need == 0 or con.need == len(con.cells):
                    easy[i] = con
                said_as = agreed.get(con.cells)
                if said_as is None:
                    disputed = clashing.get(con.cells) if clashing else None
                    if disputed is None:
                        agreed[con.cells] = con.need << 4 | 1
                    else:
                        disputed[con.need] = disputed.get(con.need, 0) + 1
                elif said_as >> 4 == con.need:
                    agreed[con.cells] = said_as + 1
                else:
                    # Two numbers disagree on these cells.
                    del agreed[con.cells]
                    clashing[con.cells] = {said_as >> 4: said_as & 15, con.need: 1}
        self._cells = cells

    def _reread(self, cells: tuple[int, ...], numbers: set[int], width: int) -> None:
        """The constraints of `numbers`, each next to a change of a frame whose
        changed cells were all unknown (see `fresh`), from their old ones.

        Each number kept its value and its neighbours that were not unknown,
        so only its unknown cells can have changed, and one of them did (a
        changed cell next to it was among them): its old constraint goes,
        and a new one, if it still has unknown cells, comes. Such a number
        has a constraint, so it has no fault to clear.
        """
        said, bad = self._said, self._bad
        agreed, clashing, easy = self._agreed, self._clashing, self._easy
        for i in numbers:
            # Unpacked once: a named tuple's fields cost a look-up each.
            was, was_need = said[i]
            unk: list[int] = []
            mined = 0
            for j in was:
                sj = cells[j]
                if sj == UNKNOWN:
                    unk.append(j)
                elif sj in MINE_STATES:
                    mined += 1
            need = was_need - mined
            # One number fewer says the old constraint.
            del said[i]
            if was_need == 0 or was_need == len(was):
                del easy[i]
            said_as = agreed.get(was)
            if said_as is None:
                needs = clashing[was]
                if needs[was_need] > 1:
                    needs[was_need] -= 1
                else:
                    del needs[was_need]
                    if len(needs) == 1:
                        # The numbers left all agree again.
                        ((agreed_need, n_said),) = needs.items()
                        agreed[was] = agreed_need << 4 | n_said
                        del clashing[was]
            elif said_as & 15 > 1:
                agreed[was] = said_as - 1
            else:
                del agreed[was]
            if need < 0 or need > len(unk):
                flagged = cells[i] - was_need + mined
                bad[i] = _cannot_hold(width, i, cells[i], flagged, len(unk))
                continue
            if not unk:
                continue
            key = tuple(unk)
            said[i] = con = _new_tuple(Constraint, (key, need))
            if need == 0 or need == len(key):
                easy[i] = con
            said_as = agreed.get(key)
            if said_as is None:
                disputed = clashing.get(key) if clashing else None
                if disputed is None:
                    agreed[key] = need << 4 | 1
                else:
                    disputed[need] = disputed.get(need, 0) + 1
            elif said_as >> 4 == need:
                agreed[key] = said_as + 1
            else:
                # Two numbers disagree on these cells.
                del agreed[key]
                clashing[key] = {said_as >> 4: said_as & 15, need: 1}

    def _read_opened(
        self,
        cells: tuple[int, ...],
        opened: list[int],
        nbrs: tuple[tuple[int, ...], ...],
        width: int,
    ) -> None:
        """The constraints of the numbers a frame opened: each was unknown on
        the last board, so it had no constraint and no fault to clear."""
        said, bad = self._said, self._bad
        agreed, clashing, easy = self._agreed, self._clashing, self._easy
        for i in opened:
            unk: list[int] = []
            flagged = 0
            for j in nbrs[i]:
                sj = cells[j]
                if sj == UNKNOWN:
                    unk.append(j)
                elif sj < UNKNOWN and sj in MINE_STATES:
                    flagged += 1
            s = cells[i]
            need = s - flagged
            if need < 0 or need > len(unk):
                bad[i] = _cannot_hold(width, i, s, flagged, len(unk))
                continue
            if not unk:
                continue
            key = tuple(unk)
            said[i] = con = _new_tuple(Constraint, (key, need))
            if need == 0 or need == len(key):
                easy[i] = con
            said_as = agreed.get(key)
            if said_as is None:
                disputed = clashing.get(key) if clashing else None
                if disputed is None:
                    agreed[key] = need << 4 | 1
                else:
                    disputed[need] = disputed.get(need, 0) + 1
            elif said_as >> 4 == need:
                agreed[key] = said_as + 1
            else:
                # Two numbers disagree on these cells.
                del agreed[key]
                clashing[key] = {said_as >> 4: said_as & 15, need: 1}

    def _assemble(self, board: Board) -> Constraints | Inconsistent:
        cells, said, bad = self._cells, self._said, self._bad
        known, unknown = self._known, self._unknown
        if self._gone:
            left = list(unknown)
            for i in sorted(self._gone, reverse=True):
                del left[bisect_left(left, i)]
            unknown = self._unknown = tuple(left)
            self._gone = []
        seen: dict[tuple[int, ...], Constraint] = {}
        first_bad = min(bad) if bad else len(cells)
        for i in sorted(said):
            if i > first_bad:
                break
            con = said[i]
            if seen.setdefault(con.cells, con).need != con.need:
                r, c = divmod(i, board.width)
                return Inconsistent(
                    f"row {r}, col {c}: the {cells[i]} disagrees with a neighbouring number"
                )
        if bad:
            return Inconsistent(bad[first_bad])
        mines_left = board.mines - known
        if mines_left < 0:
            return Inconsistent(
                f"{known} flags or mines shown but the board has only {board.mines}"
            )
        if mines_left > len(unknown):
            return Inconsistent(
                f"{mines_left} mines left but only {len(unknown)} unknown cells remain"
            )
        frontier = frozenset(chain.from_iterable(seen))
        return Constraints(tuple(seen.values()), unknown, frontier, mines_left)
