"""The Flood-It board, its text form and its region graph (pure: no screen, no files).

A board is a grid of colours. A move picks a colour: the flood (the region
joined to the top-left cell) takes that colour and so absorbs every
neighbouring region of it. The game is won when one colour fills the board.

Text form: one line per row, one character per cell, top row first. A cell is
a digit 1-9 or a letter; the characters are the colours, so moves are written
with the same characters (``"6252..."``). A single line of n*n characters (n > 1) is
read as an n x n board (the pc19 benchmark layout); other single lines are one row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

MAX_COLOURS = 16
_ALLOWED = set("123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


class FloodBoardError(ValueError):
    """Board text that cannot describe a Flood-It board (one line, names the place).

    `row` is the board row at fault (from 0) when one is, so a file reader can
    name the file line.
    """

    def __init__(self, msg: str, row: int | None = None) -> None:
        super().__init__(msg)
        self.row = row


@dataclass(frozen=True)
class FloodBoard:
    """A rectangular grid of colour indices 0..len(symbols)-1, row-major."""

    width: int
    height: int
    cells: tuple[int, ...]
    # The character of each colour index, so moves print as the input wrote them.
    symbols: str

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise FloodBoardError(f"board size {self.width}x{self.height} is empty")
        if len(self.cells) != self.width * self.height:
            raise FloodBoardError(f"{len(self.cells)} cells for a {self.width}x{self.height} board")
        if not self.symbols or len(set(self.symbols)) != len(self.symbols):
            raise FloodBoardError(f"colour symbols {self.symbols!r} are empty or repeat")
        for i, v in enumerate(self.cells):
            if not 0 <= v < len(self.symbols):
                r, c = divmod(i, self.width)
                raise FloodBoardError(
                    f"row {r}, col {c}: colour index {v} outside 0..{len(self.symbols) - 1}"
                )

    @property
    def colours(self) -> int:
        return len(self.symbols)

    @staticmethod
    def parse(text: str, max_colours: int = MAX_COLOURS) -> FloodBoard:
        """Read the text form; raise `FloodBoardError` naming row and column (from 0)."""
        lines = [ln.rstrip("\r\n \t") for ln in text.splitlines()]
        while lines and not lines[0]:
            lines.pop(0)
        while lines and not lines[-1]:
            lines.pop()
        if not lines:
            raise FloodBoardError("no board: the text is empty")
        n = math.isqrt(len(lines[0]))
        if len(lines) == 1 and n > 1 and n * n == len(lines[0]):
            lines = [lines[0][k : k + n] for k in range(0, n * n, n)]
        width = len(lines[0])
        seen: dict[str, int] = {}
        cells: list[int] = []
        for r, line in enumerate(lines):
            if not line:
                raise FloodBoardError(f"row {r}: empty line inside the board", r)
            if len(line) != width:
                raise FloodBoardError(
                    f"row {r}: {len(line)} cells, expected {width} (ragged board)", r
                )
            for c, ch in enumerate(line):
                if ch not in _ALLOWED:
                    raise FloodBoardError(
                        f"row {r}, col {c}: unknown character {ch!r} "
                        "(a colour is a digit 1-9 or a letter)",
                        r,
                    )
                if ch not in seen:
                    if len(seen) >= max_colours:
                        raise FloodBoardError(
                            f"row {r}, col {c}: colour {ch!r} is one more than "
                            f"the {max_colours} colours allowed",
                            r,
                        )
                    seen[ch] = len(seen)
        # Order colours by their character so indices do not depend on layout.
        symbols = "".join(sorted(seen))
        index = {ch: k for k, ch in enumerate(symbols)}
        for line in lines:
            cells.extend(index[ch] for ch in line)
        return FloodBoard(width, len(lines), tuple(cells), symbols)

    def to_text(self) -> str:
        rows = []
        for r in range(self.height):
            row = self.cells[r * self.width : (r + 1) * self.width]
            rows.append("".join(self.symbols[v] for v in row))
        return "\n".join(rows)

    def symbol_index(self, ch: str) -> int:
        k = self.symbols.find(ch)
        if k < 0 or len(ch) != 1:
            raise FloodBoardError(f"move {ch!r} is not a colour of this board ({self.symbols})")
        return k

    @cached_property
    def regions(self) -> RegionGraph:
        return RegionGraph.build(self)

    def flood_cells(self) -> frozenset[int]:
        """The cells joined to the top-left cell by its colour."""
        g = self.regions
        return frozenset(g.cells_of(1 << g.start))

    def play(self, colour: int) -> FloodBoard:
        """The board after recolouring the flood with `colour`."""
        if not 0 <= colour < self.colours:
            raise FloodBoardError(f"colour index {colour} outside 0..{self.colours - 1}")
        flood = self.flood_cells()
        cells = tuple(colour if i in flood else v for i, v in enumerate(self.cells))
        return FloodBoard(self.width, self.height, cells, self.symbols)

    def is_solved(self) -> bool:
        return len(set(self.cells)) == 1


@dataclass(frozen=True, slots=True)
class RegionGraph:
    """Same-colour connected regions and their adjacency, as bitsets over regions.

    Bit k of a bitset stands for region k; Python ints make union and
    intersection a single operation whatever the region count.
    """

    region_of: tuple[int, ...]  # per cell
    colour: tuple[int, ...]  # per region
    adjacent: tuple[int, ...]  # per region: bitset of neighbouring regions
    colour_mask: tuple[int, ...]  # per colour: bitset of its regions
    start: int  # the region holding the top-left cell
    width: int

    @staticmethod
    def build(board: FloodBoard) -> RegionGraph:
        w, h = board.width, board.height
        cells = board.cells
        region_of = [-1] * (w * h)
        colour: list[int] = []
        for i in range(w * h):
            if region_of[i] >= 0:
                continue
            k = len(colour)
            col = cells[i]
            colour.append(col)
            region_of[i] = k
            stack = [i]
            while stack:
                j = stack.pop()
                r, c = divmod(j, w)
                for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= nr < h and 0 <= nc < w:
                        n = nr * w + nc
                        if region_of[n] < 0 and cells[n] == col:
                            region_of[n] = k
                            stack.append(n)
        adjacent = [0] * len(colour)
        for i in range(w * h):
            a = region_of[i]
            r, c = divmod(i, w)
            if c + 1 < w and region_of[i + 1] != a:
                b = region_of[i + 1]
                adjacent[a] |= 1 << b
                adjacent[b] |= 1 << a
            if r + 1 < h and region_of[i + w] != a:
                b = region_of[i + w]
                adjacent[a] |= 1 << b
                adjacent[b] |= 1 << a
        masks = [0] * board.colours
        for k, col in enumerate(colour):
            masks[col] |= 1 << k
        return RegionGraph(
            tuple(region_of), tuple(colour), tuple(adjacent), tuple(masks), region_of[0], w
        )

    @property
    def count(self) -> int:
        return len(self.colour)

    @property
    def all(self) -> int:
        return (1 << len(self.colour)) - 1

    def cells_of(self, regions: int) -> list[int]:
        return [i for i, k in enumerate(self.region_of) if regions >> k & 1]

    def neighbours(self, regions: int) -> int:
        """Regions adjacent to the set `regions` and outside it."""
        acc = 0
        x = regions
        adj = self.adjacent
        while x:
            low = x & -x
            acc |= adj[low.bit_length() - 1]
            x ^= low
        return acc & ~regions


def simulate(board: FloodBoard, moves: list[int] | tuple[int, ...]) -> FloodBoard:
    """Play `moves` (colour indices) on `board` cell by cell (slow, for checking)."""
    for m in moves:
        board = board.play(m)
    return board


def winning(board: FloodBoard, moves: list[int] | tuple[int, ...]) -> bool:
    """Whether `moves` (colour indices) leave one colour, replayed on the region graph."""
    g = board.regions
    flood = 1 << g.start
    for c in moves:
        if not 0 <= c < board.colours:
            return False
        flood |= g.neighbours(flood) & g.colour_mask[c]
    return flood == g.all


def read_boards(text: str, max_colours: int = MAX_COLOURS) -> list[FloodBoard]:
    """Boards from a file: one square board a line (n*n characters), or blocks.

    Blocks are separated by blank lines. Within a block whose lines all have
    the same length L, L = n*n with n > 1, and a line count other than L, each
    line is a board on its own (the pc19 layout); otherwise the block is one
    board, a line per row. Errors name the file line.
    """
    lines = text.splitlines()
    boards: list[FloodBoard] = []
    block: list[tuple[int, str]] = []

    def flush() -> None:
        if not block:
            return
        lengths = {len(s) for _, s in block}
        one = lengths.pop() if len(lengths) == 1 else 0
        n = math.isqrt(one)
        per_line = n > 1 and n * n == one and len(block) != one
        chunks = [[item] for item in block] if per_line else [block]
        for chunk in chunks:
            first = chunk[0][0]
            try:
                boards.append(FloodBoard.parse("\n".join(s for _, s in chunk), max_colours))
            except FloodBoardError as exc:
                # A one-line board's rows all sit on its line; a block's row r on line first + r.
                line = first if len(chunk) == 1 or exc.row is None else first + exc.row
                raise FloodBoardError(f"line {line}: board {len(boards) + 1}: {exc}") from exc
        block.clear()

    for i, raw in enumerate(lines, 1):
        s = raw.strip()
        if s:
            block.append((i, s))
        else:
            flush()
    flush()
    if not boards:
        raise FloodBoardError("no boards: the text is empty")
    return boards
