"""What a game's first clicks tell about its first-click rule.

A profile names the rule (`safe`, `opening`, `xp`, `none`), but a player
seldom knows it, and it decides where the first click goes: a few cells in
under `opening` (expert about 54% won), the corner under `safe` (about 41%).
Each game's first click is evidence:

- a first click that hits a mine: the game does not keep it safe (`none`);
- a first click that shows a number: the game does not open an area there,
  so the rule is not `opening` (it was `safe` at best); for good, in this
  session;
- first clicks in the corner that all open an area, under `safe`: a corner
  opens one only when its neighbours hold no mine, which under `safe` happens
  with a known chance (about one in two on expert); once so many in a row
  have done it that `safe` would give that less than one time in twenty,
  the game is taken to keep the neighbours free too (`opening`). Were that
  wrong, the next first click, in from the corner, shows a number and says
  so at once (under `safe` it opens an area about one time in six on expert).

`xp` and `none` are left alone but for the mine: their first clicks open
areas as often as `safe`'s do.
"""

from __future__ import annotations

from math import comb

from msolver.core.board import EXPLODED, Board
from msolver.core.game import FirstClick

# Corner openings in a row under `safe` whose chance, were the rule `safe`,
# must fall below this before the rule is taken as `opening`.
UNLIKELY = 0.05


def zero_chance(board: Board, index: int) -> float:
    """The chance a safe first click at `index` shows a zero when only it is kept free."""
    cells, mines = board.size, board.mines
    around = len(board.neighbours(index))
    if mines > cells - 1 - around:
        return 0.0
    return comb(cells - 1 - around, mines) / comb(cells - 1, mines)


class RuleWatch:
    """The first-click rule as the games of a session show it."""

    def __init__(self, rule: FirstClick) -> None:
        self.rule: FirstClick = rule
        self.changed = False  # the session learned a rule the profile did not name
        self._opening_ruled_out = False
        self._zeros = 0
        self._chance = 1.0  # of the corner openings in a row, were the rule `safe`

    def seen(self, board: Board, index: int) -> str | None:
        """Take in what the first click at `index` showed; say why if the rule changes."""
        shown = board.cells[index]
        r, c = divmod(index, board.width)
        if shown == EXPLODED:
            if self.rule == "none":
                return None
            return self._become(
                "none",
                f"the first click, at row {r}, col {c}, hit a mine: this game does not "
                "keep its first click safe",
            )
        if shown > 0:
            self._opening_ruled_out = True
            self._zeros, self._chance = 0, 1.0
            if self.rule == "opening":
                return self._become(
                    "safe",
                    f"the first click, at row {r}, col {c}, showed a {shown}, not an "
                    "opening: this game keeps only the clicked cell free",
                )
            return None
        if shown == 0 and self.rule == "safe" and not self._opening_ruled_out:
            self._zeros += 1
            self._chance *= zero_chance(board, index)
            if self._chance < UNLIKELY:
                return self._become(
                    "opening",
                    f"{self._zeros} first clicks in a row opened an area, which "
                    f"would happen {self._chance:.1%} of the time if only the clicked cell "
                    "were kept free: this game keeps its neighbours free too",
                )
        return None

    def _become(self, rule: FirstClick, why: str) -> str:
        self.rule, self.changed = rule, True
        return f"{why}; first-click rule '{rule}' from now on"
