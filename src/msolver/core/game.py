"""The simulator: the only place that knows where the mines are.

A player (the solver, a benchmark, a dry run) sees a `Board` and asks the game
to open, flag or chord cells. Mines are laid at the first open so the
first-click rule can be honoured:

- ``safe``: the clicked cell is never a mine (a mine there moves to a random
  free cell);
- ``opening``: the clicked cell and its neighbours are mine-free, so the first
  click opens a zero;
- ``xp``: a mine under the first click moves to the top-left-most free cell,
  as Windows XP did;
- ``none``: no protection at all.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from itertools import compress
from typing import Literal

from msolver.core.board import (
    EXPLODED,
    FLAG,
    MINE,
    UNKNOWN,
    WRONG_FLAG,
    Board,
    BoardError,
    neighbours_table,
    trusted_board,
)

FirstClick = Literal["safe", "opening", "xp", "none"]
FIRST_CLICK_RULES: tuple[FirstClick, ...] = ("safe", "opening", "xp", "none")


class Status(Enum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


# The members as plain names: reading one off the class takes an enum's
# slower attribute look-up (about 0.12 us in CPython 3.11), and a game reads
# them a thousand times (each move's checks, the player's loop).
PLAYING = Status.PLAYING
WON = Status.WON
LOST = Status.LOST


@dataclass(frozen=True, slots=True)
class Level:
    width: int
    height: int
    mines: int


LEVELS: dict[str, Level] = {
    "beginner": Level(9, 9, 10),
    "intermediate": Level(16, 16, 40),
    "expert": Level(30, 16, 99),
}


class Game:
    """A seeded, reproducible Minesweeper game."""

    def __init__(
        self,
        width: int,
        height: int,
        mines: int,
        *,
        seed: int | None = None,
        first_click: FirstClick = "safe",
        layout: frozenset[int] | None = None,
    ) -> None:
        if width < 1 or height < 1:
            raise BoardError(f"board size {width}x{height} is empty")
        if first_click not in FIRST_CLICK_RULES:
            raise BoardError(f"unknown first-click rule {first_click!r}")
        cells = width * height
        room = cells - (9 if first_click == "opening" else 1 if first_click != "none" else 0)
        if mines < 0 or mines > max(room, 0):
            raise BoardError(
                f"{mines} mines do not fit a {width}x{height} board "
                f"under the {first_click!r} first-click rule"
            )
        self.width = width
        self.height = height
        self.mines = mines
        self.first_click: FirstClick = first_click
        self._rng = random.Random(seed)
        self._nbrs = neighbours_table(width, height)
        self._view = [UNKNOWN] * cells
        # The cells of the last board handed out and the indices written
        # since (None: too many to list), so the solver need not compare
        # every cell to find what a move changed.
        self._shown: tuple[int, ...] | None = None
        self._written: list[int] | None = []
        self._mine = [False] * cells
        # Each cell's mines next to it, once the mines are laid: a mine adds
        # one to each neighbour (fewer steps than summing every opened
        # cell's neighbours as it opens).
        self._near: list[int] = []
        self._laid = False
        # Safe cells opened so far: read by whoever counts clicks (a
        # click that opened nothing changed nothing); only the game writes it.
        self.opened = 0
        self._safe_cells = cells - mines
        self.status = PLAYING
        self.exploded: int | None = None
        if layout is not None:
            if len(layout) != mines or any(not 0 <= i < cells for i in layout):
                raise BoardError("layout does not match the mine count or board size")
            for i in layout:
                self._mine[i] = True
            self._laid = True
            self._count_mines()

    # -- the truth, for the simulator's own use and for tests ---------------

    def is_mine(self, index: int) -> bool:
        """What is under this cell. Only referees and tests may ask."""
        self._lay(index)
        return self._mine[index]

    @property
    def layout(self) -> frozenset[int]:
        return frozenset(i for i, m in enumerate(self._mine) if m)

    def numbers(self) -> list[int]:
        """Each cell's count of neighbouring mines, -1 for a mine (as
        `bbbv.numbers` gives them), from the counts the game keeps."""
        # Before the mines are laid the board has none (as `layout` says).
        out = list(self._near) if self._laid else [0] * len(self._mine)
        for i in compress(range(len(out)), self._mine):
            out[i] = -1
        return out

    # -- what the player sees ------------------------------------------------

    @property
    def board(self) -> Board:
        cells = tuple(self._view)
        shown, written = self._shown, self._written
        since = None if shown is None or written is None else (shown, tuple(written))
        self._shown, self._written = cells, []
        # Checked once, when the game was made: each move's board skips it.
        return trusted_board(self.width, self.height, self.mines, cells, since)

    @property
    def safe_left(self) -> int:
        return self.width * self.height - self.mines - self.opened

    # -- moves ------------------------------------------------------------------

    def open(self, index: int, *, flood: bool = True) -> Status:
        """Open one cell; a zero floods its neighbours (unless `flood` is False: a
        game whose chord opens a 0 alone, react-minesweeper)."""
        if self.status is not PLAYING or self._view[index] != UNKNOWN:
            return self.status
        if not self._laid:
            self._lay(index)
        if self._mine[index]:
            self._lose(index)
            return self.status
        n = self._near[index]
        if n or not flood:
            # A number opens itself alone (most opens): no flood to run.
            self._view[index] = n
            if self._written is not None:
                self._written.append(index)
            self.opened += 1
        else:
            self._flood(index)
        if self.opened == self._safe_cells:
            self.status = WON
        return self.status

    def flag(self, index: int) -> None:
        """Toggle a flag: the player's own note, the game does not judge it."""
        if self.status is not PLAYING:
            return
        if self._view[index] == UNKNOWN:
            self._view[index] = FLAG
        elif self._view[index] == FLAG:
            self._view[index] = UNKNOWN
        else:
            return
        if self._written is not None:
            self._written.append(index)

    def chord(self, index: int, *, flood: bool = True) -> Status:
        """Open every unflagged neighbour of a number whose flags are complete
        (`flood`: as `open`)."""
        n = self._view[index]
        if self.status is not PLAYING or n < 1:
            return self.status
        nbrs = self._nbrs[index]
        if sum(1 for j in nbrs if self._view[j] == FLAG) != n:
            return self.status
        for j in nbrs:
            if self._view[j] == UNKNOWN:
                self.open(j, flood=flood)
        return self.status

    # -- internals ----------------------------------------------------------------

    def _lay(self, first: int) -> None:
        if self._laid:
            return
        self._laid = True
        self._place(first)
        self._count_mines()

    def _count_mines(self) -> None:
        near = [0] * len(self._mine)
        nbrs = self._nbrs
        # The mines found in C: a fifth of the cells, the rest not stepped over.
        for i in compress(range(len(near)), self._mine):
            for j in nbrs[i]:
                near[j] += 1
        self._near = near

    def _place(self, first: int) -> None:
        cells = self.width * self.height
        rng = self._rng
        if self.first_click == "opening":
            # The cells in order less the nine banned: nine deletions in C
            # rather than a test per cell (the same list, so the same mines).
            free = list(range(cells))
            for i in sorted({first, *self._nbrs[first]}, reverse=True):
                del free[i]
            for i in rng.sample(free, self.mines):
                self._mine[i] = True
            return
        # Lay uniformly over the whole board first so the "safe" and "xp"
        # rules move a mine exactly as the real games do.
        for i in rng.sample(range(cells), self.mines):
            self._mine[i] = True
        if self.first_click == "none" or not self._mine[first]:
            return
        self._mine[first] = False
        if self.first_click == "safe":
            free = [i for i in range(cells) if not self._mine[i] and i != first]
            self._mine[rng.choice(free)] = True
        else:  # xp
            target = next(i for i in range(cells) if not self._mine[i] and i != first)
            self._mine[target] = True

    def _flood(self, start: int) -> None:
        # Iterative: a large empty area would overflow Python's recursion.
        view, mine, nbrs, near = self._view, self._mine, self._nbrs, self._near
        written = self._written
        stack = [start]
        opened = 0
        while stack:
            i = stack.pop()
            # Only a closed cell opens (not a flag, nor a cell opened since it
            # was stacked): every neighbour of a zero is stacked as it is, in
            # C, and sorted out here.
            if view[i] != UNKNOWN or mine[i]:
                continue
            n = near[i]
            view[i] = n
            if written is not None:
                written.append(i)
            opened += 1
            if n == 0:
                stack += nbrs[i]
        self.opened += opened

    def _lose(self, index: int) -> None:
        self.status = LOST
        self.exploded = index
        self._written = None  # the whole board may show
        for i, m in enumerate(self._mine):
            if i == index:
                self._view[i] = EXPLODED
            elif m and self._view[i] == UNKNOWN:
                self._view[i] = MINE
            elif not m and self._view[i] == FLAG:
                self._view[i] = WRONG_FLAG
