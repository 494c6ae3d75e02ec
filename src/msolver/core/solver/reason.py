"""Why: one short sentence per move that a person can check on the board.

The solver decides; this module only explains, after the fact, from the
board and the decision, and never changes a decision. Each certain move gets
the simplest proof that holds for it, whatever tier found it (a batch may mix
cells one number settles with cells only the count settles):

- one number: "safe: the 1 at (4,5) already touches its mine at (3,6)",
  "mine: the 3 at (2,2) needs 3 more mines and has 3 unknown cells left";
- the mine count: "safe: all 10 mines are flagged";
- two numbers: "safe by the pair (4,5)/(4,6): ...";
- the exact count: "exact count: 0 of 1,240 layouts put a mine here".

A guess says its risk, how many cells were near the safest, and the chance
that the next move is safe too (the guess tier's score blends it over the
two safest next cells; see guess.py); a 50/50
that nothing can settle says so. An endgame move says how many of the
remaining layouts best play wins.

Places are (row,column) counted from 0 at the top left, as the JSON of
`solve`, `hint` and the play log number them.
"""

from __future__ import annotations

from dataclasses import dataclass

from msolver.core.board import UNKNOWN, Board
from msolver.core.solver import Decision, Move
from msolver.core.solver import endgame as _endgame
from msolver.core.solver import guess as _guess
from msolver.core.solver.constraints import MINE_STATES, Constraints, Inconsistent, build
from msolver.core.solver.probability import Analysis, analyse


def place(board: Board, index: int) -> str:
    r, c = divmod(index, board.width)
    return f"({r},{c})"


def count_text(n: int) -> str:
    """A layout count as a person reads it: 1,240; past ten million, 3.2e21."""
    return f"{n:,}" if n < 10_000_000 else f"{n:.2g}".replace("+", "")


def percent(p: float) -> str:
    text = f"{p * 100:.1f}"
    return (text[:-2] if text.endswith(".0") else text) + "%"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _places(board: Board, cells: list[int]) -> str:
    names = [place(board, i) for i in cells]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@dataclass(frozen=True, slots=True)
class _Number:
    index: int
    value: int
    unknown: frozenset[int]
    mines: tuple[int, ...]  # flagged or shown mines around it

    @property
    def need(self) -> int:
        return self.value - len(self.mines)


def _numbers(board: Board) -> list[_Number]:
    out = []
    for i, s in enumerate(board.cells):
        if s < 0:
            continue
        unk = frozenset(j for j in board.neighbours(i) if board.cells[j] == UNKNOWN)
        if unk:
            mines = tuple(j for j in board.neighbours(i) if board.cells[j] in MINE_STATES)
            out.append(_Number(i, s, unk, mines))
    return out


class Explainer:
    """Reasons for the moves of one decision on one board (numbers gathered once)."""

    def __init__(self, board: Board, decision: Decision) -> None:
        self.board = board
        self.decision = decision
        self._nums: list[_Number] | None = None
        self._cs: Constraints | Inconsistent | None = None
        self._analysis: Analysis | None = decision.analysis
        self._guess_text: str | None = None

    # -- shared facts -------------------------------------------------------------

    @property
    def numbers(self) -> list[_Number]:
        if self._nums is None:
            self._nums = _numbers(self.board)
        return self._nums

    @property
    def constraints(self) -> Constraints | Inconsistent:
        if self._cs is None:
            self._cs = build(self.board)
        return self._cs

    @property
    def analysis(self) -> Analysis:
        if self._analysis is None:
            self._analysis = analyse(self.board, self.constraints)
        return self._analysis

    # -- the reasons --------------------------------------------------------------

    def reason(self, move: Move | None = None) -> str:
        """The sentence for `move` (default: the decision's first move)."""
        d = self.decision
        if d.status == "inconsistent":
            return f"inconsistent: {d.reason}"
        if d.status == "done" or not d.moves:
            return "done: no unknown cell left"
        move = move if move is not None else d.moves[0]
        if d.tier == "first":
            if move.p_mine == 0.0:
                return "first click: safe by the game's first-click rule"
            return f"first click: {percent(move.p_mine)} mine, nothing is open yet"
        if d.certain:
            return self._certain(move)
        if d.tier == "alternatives":
            # A guess over the boards a tile the reader cannot name yet allows:
            # the board at hand is only one of them, so nothing on it says why.
            return (
                f"guess: {percent(move.p_mine)} mine on the worst of the boards "
                "a tile not named yet allows"
            )
        if d.tier == "likeliest":
            # As above, the guess safest on the board whose numbers fit the
            # tile's glyph best.
            return (
                f"guess: the safest cell on the reading the tiles not named yet look most "
                f"like, {percent(move.p_mine)} mine on the worst of the boards they allow"
            )
        if d.tier == "endgame":
            return self._endgame(move)
        return self._guess(move)

    def _certain(self, move: Move) -> str:
        i, mine = move.index, move.kind == "flag"
        return (
            self._by_count_of_mines(mine)
            or self._by_one_number(i, mine)
            or self._by_pair(i, mine)
            or self._by_exact_count(i, mine)
        )

    def _by_count_of_mines(self, mine: bool) -> str:
        cs = self.constraints
        if isinstance(cs, Inconsistent):
            return ""
        if not mine and cs.mines_left == 0:
            if self.board.mines == 1:
                return "safe: the one mine is flagged"
            return f"safe: all {self.board.mines} mines are flagged"
        if mine and cs.mines_left == len(cs.unknown):
            left = _plural(cs.mines_left, "mine")
            return f"mine: {left} left for the {_plural(len(cs.unknown), 'unknown cell')}"
        return ""

    def _by_one_number(self, i: int, mine: bool) -> str:
        b = self.board
        for n in self.numbers:
            if i not in n.unknown:
                continue
            at = place(b, n.index)
            if not mine and n.need == 0:
                if not n.mines:
                    return f"safe: the 0 at {at} has no mine around it"
                its = "its mine" if len(n.mines) == 1 else "its mines"
                return f"safe: the {n.value} at {at} already touches {its} at " + _places(
                    b, list(n.mines)
                )
            if mine and n.need == len(n.unknown):
                return (
                    f"mine: the {n.value} at {at} needs {_plural(n.need, 'more mine')} "
                    f"and has {_plural(len(n.unknown), 'unknown cell')} left"
                )
        return ""

    def _by_pair(self, i: int, mine: bool) -> str:
        b = self.board
        nums = self.numbers
        for x in nums:
            for y in nums:
                if x is y or not (x.unknown & y.unknown):
                    continue
                # x needs `more` mines beyond y's and has exactly that many
                # cells of its own: they are mines, and y's own cells are safe.
                own_x, own_y = x.unknown - y.unknown, y.unknown - x.unknown
                more = x.need - y.need
                if more != len(own_x):
                    continue
                if (mine and i in own_x) or (not mine and i in own_y):
                    head = "mine" if mine else "safe"
                    ax, ay = place(b, x.index), place(b, y.index)
                    if more == 0:
                        why = (
                            f"every unknown cell of the {x.value} at {ax} is next to "
                            f"the {y.value} at {ay}, and both need {_plural(x.need, 'mine')}"
                        )
                    else:
                        why = (
                            f"the {x.value} at {ax} needs {_plural(more, 'more mine')} than "
                            f"the {y.value} at {ay} and has {_plural(more, 'cell')} it does not see"
                        )
                    return f"{head} by the pair {ax}/{ay}: {why}"
        return ""

    def _by_exact_count(self, i: int, mine: bool) -> str:
        a = self.analysis
        total = count_text(a.layouts)
        if mine:
            return f"exact count: all {total} layouts put a mine here"
        return f"exact count: 0 of {total} layouts put a mine here"

    def _endgame(self, move: Move) -> str:
        # The decision does not carry the search's value: search again (the
        # search is deterministic, so it lands on the same cell).
        cs = self.constraints
        risk = percent(move.p_mine)
        if isinstance(cs, Inconsistent):
            return f"endgame: {risk} mine"
        layouts = _endgame.enumerate_layouts(cs, _endgame.MAX_LAYOUTS)
        if not layouts:
            return f"endgame: {risk} mine"
        pos = {c: k for k, c in enumerate(cs.unknown)}
        nbr_mask = []
        for c in cs.unknown:
            m = 0
            for j in self.board.neighbours(c):
                k = pos.get(j)
                if k is not None:
                    m |= 1 << k
            nbr_mask.append(m)
        found = _endgame.search(layouts, nbr_mask)
        if found is None or found[1] < 0 or cs.unknown[found[1]] != move.index:
            return f"endgame: {risk} mine, the best of the remaining layouts"
        won = round(found[0] * len(layouts))
        return f"endgame: wins {won} of {len(layouts)} remaining layouts ({risk} mine now)"

    def _guess(self, move: Move) -> str:
        if self._guess_text is None:
            self._guess_text = self._guess_sentence(move)
        return self._guess_text

    def _guess_sentence(self, move: Move) -> str:
        b, i = self.board, move.index
        risk = percent(move.p_mine)
        cs = self.constraints
        if isinstance(cs, Inconsistent):
            return f"guess: {risk} mine"
        pair = _guess.forced_pair(b, cs)
        if pair == i:
            other = next(
                c
                for con in cs.constraints
                if len(con.cells) == 2 and con.need == 1 and i in con.cells
                for c in con.cells
                if c != i
            )
            return f"guess: a 50/50 with {place(b, other)} that no number can ever settle"
        a = self.analysis
        probs = [a.prob[c] for c in cs.unknown if a.prob[c] is not None]
        safest = min(p for p in probs if p is not None)
        near = [
            c for c in cs.unknown if (p := a.prob[c]) is not None and p <= safest + _guess.TOLERANCE
        ]
        # As many cells as the guess tier weighs: the near-safest, at most
        # MAX_CANDIDATES, of which at most OFF_CANDIDATES off the frontier.
        on = sum(1 for c in near if c in cs.frontier)
        weighed = min(
            _guess.MAX_CANDIDATES,
            min(on, _guess.MAX_CANDIDATES) + min(len(near) - on, _guess.OFF_CANDIDATES),
        )
        safe_next = self._next_safe(i)
        tail = f"; next move safe with {percent(safe_next)}" if safe_next is not None else ""
        return f"guess: {risk} mine, best of {_plural(weighed, 'candidate')}{tail}"

    def _next_safe(self, i: int) -> float | None:
        """Chance that cell i is safe and the move after it is safe too.

        The guess tier's own score for a cell: for each number the cell may
        show, the share of layouts showing it times the safety of the safest
        cell then (1 when a certain move appears).
        """
        b, a = self.board, self.analysis
        if not a.layouts:
            return None
        flagged = sum(1 for j in b.neighbours(i) if b.cells[j] in MINE_STATES)
        score = 0.0
        for v in range(flagged, len(b.neighbours(i)) + 1):
            after = b.replace({i: v})
            cs = build(after)
            if isinstance(cs, Inconsistent):
                continue
            nxt = analyse(after, cs)
            if nxt.status != "ok" or not nxt.layouts:
                continue
            if nxt.safe or not cs.unknown:
                safety = 1.0
            else:
                safety = 1.0 - min(p for c in cs.unknown if (p := nxt.prob[c]) is not None)
            score += nxt.layouts / a.layouts * safety
        return score


def explain(board: Board, decision: Decision, move: Move | None = None) -> str:
    """One sentence on why `move` (default: the decision's first move) is played."""
    return Explainer(board, decision).reason(move)


def explain_all(board: Board, decision: Decision) -> tuple[str, ...]:
    """A sentence per move of the decision, in order (one per click line of a batch)."""
    ex = Explainer(board, decision)
    return tuple(ex.reason(m) for m in decision.moves)
