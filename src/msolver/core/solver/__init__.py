"""The solver, in tiers: the cheapest rule that gives a certain move wins.

1. `rules.trivial`, then `rules.pairs`: certain moves from one or two numbers.
2. `probability.analyse`: exact probabilities; any 0 or 1 is a certain move.
3. `endgame.best_move`: when few layouts remain, the exact game tree.
4. `guess.choose`: otherwise the safest cell, with tie-breaks that win more.
   Under the XP first-click rule, while its layouts weigh differently,
   3 and 4 count each layout by its weight (`xp`).

Certain moves come out all at once, as a batch for the player to send
together. A board no layout fits comes out as ``inconsistent`` with the
reason, never as an exception.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Literal

from msolver.core.board import Board
from msolver.core.game import FirstClick
from msolver.core.solver import endgame, guess, rules, xp
from msolver.core.solver.constraints import Builder, Certain, Constraints, Inconsistent
from msolver.core.solver.probability import Analysis, analyse

__all__ = ["Analysis", "Decision", "Move", "Solver", "analyse"]


@dataclass(frozen=True, slots=True)
class Move:
    kind: Literal["open", "flag"]
    index: int
    p_mine: float


@dataclass(frozen=True, slots=True)
class Decision:
    """What to do next.

    `certain` moves are all sure (open every safe cell, flag every mine) and
    may be sent together. Otherwise `moves` holds one guess with its mine
    probability. `status` is ``done`` when no unknown cell is left to open.
    """

    status: Literal["ok", "inconsistent", "done"]
    reason: str
    moves: tuple[Move, ...]
    certain: bool
    tier: str = ""
    # The exact probabilities when this decision made them (always with
    # verify on), so a caller showing them need not count the board again.
    analysis: Analysis | None = field(default=None, compare=False, repr=False)


# Certain moves by cell, made once: a game sends hundreds of them, and a
# frozen dataclass takes ten times a tuple's time to make. One table per
# kind, by cell, so that a known move is one lookup in C.
_OPENS: dict[int, Move] = {}
_FLAGS: dict[int, Move] = {}


def _sure(kind: Literal["open", "flag"], i: int) -> Move:
    made = _OPENS if kind == "open" else _FLAGS
    move = made.get(i)
    if move is None:
        if len(made) >= 1 << 16:
            made.clear()
        move = made[i] = Move(kind, i, 0.0 if kind == "open" else 1.0)
    return move


# A certain decision's fields set straight through their slots: most frames
# end in one, and the frozen class's __init__ takes twice as long.
_new_decision = object.__new__
_slot = Decision.__dict__
_set_status: Callable[[Decision, str], None] = _slot["status"].__set__
_set_reason: Callable[[Decision, str], None] = _slot["reason"].__set__
_set_moves: Callable[[Decision, tuple[Move, ...]], None] = _slot["moves"].__set__
_set_certain: Callable[[Decision, bool], None] = _slot["certain"].__set__
_set_tier: Callable[[Decision, str], None] = _slot["tier"].__set__
_set_analysis: Callable[[Decision, Analysis | None], None] = _slot["analysis"].__set__


def _certain(
    safe: Collection[int], mines: Collection[int], tier: str, analysis: Analysis | None
) -> Decision:
    opens, flags = _OPENS.get, _FLAGS.get
    moves = [opens(i) or _sure("open", i) for i in sorted(safe)]
    moves += [flags(i) or _sure("flag", i) for i in sorted(mines)]
    # Decision("ok", "", tuple(moves), True, tier, analysis), made unchecked
    # (a dataclass checks nothing, so it is the same object).
    decision: Decision = _new_decision(Decision)
    _set_status(decision, "ok")
    _set_reason(decision, "")
    _set_moves(decision, tuple(moves))
    _set_certain(decision, True)
    _set_tier(decision, tier)
    _set_analysis(decision, analysis)
    return decision


# The cheap rules in order; the second alone when the first is known empty.
_RULES: tuple[tuple[str, Callable[[Constraints], Certain]], ...] = (
    ("trivial", rules.trivial),
    ("pairs", rules.pairs),
)
_PAIRS_ONLY = _RULES[1:]


class Solver:
    """Decides the next moves for a board.

    What it keeps between frames changes no decision: a board decides the
    same whatever came before it (the constraints are updated from the cells
    that changed, and come out as a fresh build would make them).
    """

    def __init__(
        self,
        first_click: FirstClick = "safe",
        *,
        lookahead: bool = True,
        verify: bool = True,
        batch_proven: bool = False,
    ) -> None:
        self.first_click: FirstClick = first_click
        self.lookahead = lookahead
        # Verifying runs the exact tier on every frame, so a board that no
        # layout fits (a misread screen) is caught even when a cheap rule
        # would have found moves. Simulated games are consistent by
        # construction, so the benchmark turns it off for speed.
        self.verify = verify
        # With verify on, the exact count is made anyway: `batch_proven` puts
        # every cell it proves into the same batch as the cheap rules' finds
        # (a live frame costs far more than a count).
        self.batch_proven = batch_proven
        self._builder = Builder()
        # The last endgame search, for the positions after its move.
        self._kept = endgame.Kept()

    def decide(self, board: Board) -> Decision:
        if not self.verify:
            # Most frames end at the first rule: it is read from the numbers
            # kept between frames, and the constraints are only assembled
            # when it has nothing (the same answer, for less work).
            quick = self._builder.trivial_sets(board)
            if quick is not None:
                return _certain(quick[0], quick[1], "trivial", None)
        cs = self._builder.build(board)
        if isinstance(cs, Inconsistent):
            return Decision("inconsistent", cs.reason, (), False)
        if not cs.unknown:
            return Decision("done", "no unknown cells left", (), True)
        # A constraint is said by an opened number, so a frontier means one
        # is open; only without one are the cells looked at (in C).
        if not cs.frontier and max(board.cells) < 0:
            # Nothing opened yet: the first click depends only on the rules.
            i = guess.first_click(board, self.first_click)
            p = cs.mines_left / len(cs.unknown)
            if self.first_click in ("safe", "opening", "xp") and cs.mines_left < len(cs.unknown):
                p = 0.0
            return Decision("ok", "", (Move("open", i, p),), p == 0.0, "first")
        checked: Analysis | None = None
        if self.verify:
            checked = analyse(board, cs)
            if checked.status == "inconsistent":
                return Decision("inconsistent", checked.reason, (), False)
        tiers = _RULES
        if not self.verify and 0 < cs.mines_left < len(cs.unknown):
            # The builder's first rule answered None: on a consistent board
            # whose mine count settles nothing, that means no number settles
            # a cell alone, so `rules.trivial` would find nothing either
            # (tests/core/test_speed holds the two to each other).
            tiers = _PAIRS_ONLY
        for tier, rule in tiers:
            found = rule(cs)
            if found:
                if checked is None or not self.batch_proven:
                    return _certain(found.safe, found.mines, tier, checked)
                return _certain(
                    set(found.safe) | set(checked.safe),
                    set(found.mines) | set(checked.mines),
                    tier,
                    checked,
                )
        analysis = checked if checked is not None else analyse(board, cs)
        if analysis.status == "inconsistent":
            return Decision("inconsistent", analysis.reason, (), False)
        if analysis.safe or analysis.mines:
            return _certain(analysis.safe, analysis.mines, "probability", analysis)
        if self.first_click == "xp":
            weighted = xp.Weighted.make(board, analysis, cs)
            if weighted is not None:
                shown = weighted.analysis(analysis)
                end = endgame.best_move(board, cs, shown, xp.weigher(board, cs))
                if end is not None:
                    i, p = end
                    return Decision("ok", "", (Move("open", i, p),), False, "endgame", shown)
                i, p = xp.choose(board, cs, weighted, shown, lookahead=self.lookahead)
                return Decision("ok", "", (Move("open", i, p),), False, "guess", shown)
        end = endgame.best_move(board, cs, analysis, kept=self._kept)
        if end is not None:
            i, p = end
            return Decision("ok", "", (Move("open", i, p),), False, "endgame", analysis)
        i, p = guess.choose(board, cs, analysis, lookahead=self.lookahead)
        return Decision("ok", "", (Move("open", i, p),), False, "guess", analysis)
