"""The board as the player knows it, and its text form.

A board is what can be seen: a width, a height, the total mine count, and a
state per cell. It never holds the mine layout; that truth lives only in the
simulator (`msolver.core.game`) or in the real game on screen.

Text form (round-trips, like FEN), one line per row, top row first:
``.`` or ``?`` unknown, ``F`` flag (a known mine), ``0``-``8`` opened,
``*`` a shown mine, ``X`` the exploded mine, ``W`` a wrongly placed flag
(the last two only appear on a lost board). ``?`` is read as unknown and
written back as ``.``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

# Cell states. Opened cells hold their number 0-8; the rest are negative so a
# single `>= 0` test tells "opened" apart.
UNKNOWN = -1
FLAG = -2
MINE = -3
EXPLODED = -4
WRONG_FLAG = -5

_CHAR_OF = {UNKNOWN: ".", FLAG: "F", MINE: "*", EXPLODED: "X", WRONG_FLAG: "W"}
_STATE_OF = {".": UNKNOWN, "?": UNKNOWN, "F": FLAG, "*": MINE, "X": EXPLODED, "W": WRONG_FLAG}
for _n in range(9):
    _CHAR_OF[_n] = str(_n)
    _STATE_OF[str(_n)] = _n


Result = Literal["won", "lost"]

# The largest board the text form describes: far past any real game (expert
# is 480 cells), small enough that a typo of a file cannot eat the memory.
MAX_CELLS = 250_000


class BoardError(ValueError):
    """Board text or parameters that cannot describe a board.

    The message is one line and names the row and column (counted from 0,
    as the JSON results and the README's cells are) when a single place is
    at fault.
    """


@dataclass(frozen=True, slots=True)
class Cell:
    """A cell address: row 0 is the top row."""

    row: int
    col: int


@cache
def neighbours_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """For each flat index, the flat indices of its up-to-8 neighbours.

    Cached per size because every solver frame walks neighbours and an expert
    board has only one shape.
    """
    table: list[tuple[int, ...]] = []
    for r in range(height):
        for c in range(width):
            nbrs = []
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and 0 <= r + dr < height and 0 <= c + dc < width:
                        nbrs.append((r + dr) * width + c + dc)
            table.append(tuple(nbrs))
    return tuple(table)


@cache
def side_neighbours_table(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """For each flat index, the flat indices of its up-to-4 neighbours across a side:
    the cells some games' cascade opens around a 0 (they flood sideways only)."""
    table: list[tuple[int, ...]] = []
    for r in range(height):
        for c in range(width):
            nbrs = []
            for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
                if 0 <= r + dr < height and 0 <= c + dc < width:
                    nbrs.append((r + dr) * width + c + dc)
            table.append(tuple(nbrs))
    return tuple(table)


def zero_beside_unknown(cells: Sequence[int | None], opens: Sequence[Sequence[int]]) -> int | None:
    """The first cell showing 0 with an unknown cell among `opens[i]` (the
    neighbours a 0's cascade opens in this game), if any. A game opens a 0's
    neighbours in the same redraw as the 0, so such a picture is one still
    being drawn, or misread."""
    for i, s in enumerate(cells):
        if s == 0 and any(cells[j] == UNKNOWN for j in opens[i]):
            return i
    return None


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable snapshot of what the player can see.

    `cells` is row-major: index = row * width + col.
    """

    width: int
    height: int
    mines: int
    cells: tuple[int, ...]
    # What changed since an earlier board of the same game, when whoever made
    # this one knows: (that board's cells, the indices that may differ).
    # Every index that differs is listed (one listed may not differ). Only a
    # speed hint for the solver, which checks that it saw those very cells;
    # not part of what the board is.
    since: tuple[tuple[int, ...], tuple[int, ...]] | None = field(
        default=None, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise BoardError(f"board size {self.width}x{self.height} is empty")
        if len(self.cells) != self.width * self.height:
            raise BoardError(
                f"board has {len(self.cells)} cells, expected {self.width}x{self.height}"
            )
        if self.mines < 0:
            raise BoardError(f"mine count {self.mines} is negative")
        if self.mines > self.width * self.height:
            raise BoardError(
                f"mine count {self.mines} exceeds the {self.width * self.height} cells"
            )

    # -- construction -------------------------------------------------------

    @classmethod
    def blank(cls, width: int, height: int, mines: int) -> Board:
        return cls(width, height, mines, (UNKNOWN,) * (width * height))

    @classmethod
    def parse(cls, text: str, mines: int) -> Board:
        """Read the text form; raise BoardError naming row and column (from 0).

        A byte-order mark and blank lines before or after the board are
        ignored; a blank line inside it is refused, since dropping it would
        shift every row below.
        """
        lines = [line.strip() for line in text.removeprefix("\ufeff").splitlines()]
        while lines and not lines[-1]:
            lines.pop()
        first = next((k for k, line in enumerate(lines) if line), len(lines))
        rows = lines[first:]
        if not rows:
            raise BoardError("board text is empty")
        width = len(rows[0])
        if width * len(rows) > MAX_CELLS:
            raise BoardError(
                f"board of {width}x{len(rows)} cells is over the limit of {MAX_CELLS} cells"
            )
        cells: list[int] = []
        for r, line in enumerate(rows):
            if not line:
                raise BoardError(
                    f"row {r} (line {first + r + 1}) is blank: a blank line inside the board"
                )
            if len(line) != width:
                raise BoardError(f"row {r} has {len(line)} cells, row 0 has {width} (ragged board)")
            for c, ch in enumerate(line):
                state = _STATE_OF.get(ch)
                if state is None:
                    raise BoardError(f"row {r}, col {c}: unknown character {ch!r}")
                cells.append(state)
        height = len(rows)
        table = neighbours_table(width, height)
        for i, state in enumerate(cells):
            if state > len(table[i]):
                r, c = divmod(i, width)
                raise BoardError(
                    f"row {r}, col {c}: number {state} exceeds its {len(table[i])} neighbours"
                )
        return cls(width, height, mines, tuple(cells))

    # -- views ----------------------------------------------------------------

    def outcome(self) -> Result | None:
        """Won or lost, from the board alone (as the player sees it); None while it goes on.

        A mine shown (exploded, revealed or a wrong flag) is a loss; every safe
        cell open is a win.
        """
        if any(s in (MINE, EXPLODED, WRONG_FLAG) for s in self.cells):
            return "lost"
        opened = sum(1 for s in self.cells if s >= 0)
        if opened == self.size - self.mines:
            return "won"
        return None

    def to_text(self) -> str:
        w = self.width
        return "\n".join(
            "".join(_CHAR_OF[s] for s in self.cells[r * w : (r + 1) * w])
            for r in range(self.height)
        )

    def __str__(self) -> str:
        return self.to_text()

    def at(self, row: int, col: int) -> int:
        return self.cells[row * self.width + col]

    def index(self, row: int, col: int) -> int:
        return row * self.width + col

    def cell(self, index: int) -> Cell:
        return Cell(*divmod(index, self.width))

    def neighbours(self, index: int) -> tuple[int, ...]:
        return neighbours_table(self.width, self.height)[index]

    @property
    def size(self) -> int:
        return self.width * self.height

    def count(self, state: int) -> int:
        return self.cells.count(state)

    def known_mines(self) -> int:
        """Cells the player treats as mines: flags and shown mines."""
        return sum(1 for s in self.cells if s in (FLAG, MINE, EXPLODED, WRONG_FLAG))

    def replace(self, changes: dict[int, int]) -> Board:
        cells = list(self.cells)
        for i, s in changes.items():
            cells[i] = s
        return Board(self.width, self.height, self.mines, tuple(cells))


# A board's fields set straight through their slots: what `Board(...)` does
# less the checks and the frozen class's Python-level set-ups.
_new_board = object.__new__
_slot = Board.__dict__
_set_width: Callable[[Board, int], None] = _slot["width"].__set__
_set_height: Callable[[Board, int], None] = _slot["height"].__set__
_set_mines: Callable[[Board, int], None] = _slot["mines"].__set__
_set_cells: Callable[[Board, tuple[int, ...]], None] = _slot["cells"].__set__
_set_since: Callable[[Board, tuple[tuple[int, ...], tuple[int, ...]] | None], None] = _slot[
    "since"
].__set__


def trusted_board(
    width: int,
    height: int,
    mines: int,
    cells: tuple[int, ...],
    since: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
) -> Board:
    """A `Board` of fields known to hold together, made without checking them.

    For the simulator, whose size and mine count were checked when the game
    was made and whose cells are always its own: it hands out a board every
    move, and the checks took half of making one.
    """
    board: Board = _new_board(Board)
    _set_width(board, width)
    _set_height(board, height)
    _set_mines(board, mines)
    _set_cells(board, cells)
    _set_since(board, since)
    return board


def state_char(state: int) -> str:
    return _CHAR_OF[state]
