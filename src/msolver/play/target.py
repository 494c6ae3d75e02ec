"""What the player needs to know about the board on screen, independent of vision.

`Grid` is the board's geometry in screen pixels, `NewGame` how the game starts
a new round, `Reading` one read of the board and `Reader` whatever turns a
grab of the board into a reading (the real classifier, or a test's fake).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal, Protocol

from msolver.core.board import Board
from msolver.io.capture import Image, Region
from msolver.io.mouse import split_combo


@dataclass(frozen=True, slots=True)
class Grid:
    """Cell (row, col) spans origin + (col, row) * pitch, one pitch wide and high."""

    origin: tuple[float, float]
    pitch: tuple[float, float]
    rows: int
    cols: int

    def center(self, index: int) -> tuple[int, int]:
        row, col = divmod(index, self.cols)
        return (
            int(self.origin[0] + (col + 0.5) * self.pitch[0]),
            int(self.origin[1] + (row + 0.5) * self.pitch[1]),
        )

    def rect(self) -> Region:
        """(left, top, width, height) of the whole board, rounded outward."""
        left, top = math.floor(self.origin[0]), math.floor(self.origin[1])
        right = math.ceil(self.origin[0] + self.cols * self.pitch[0])
        bottom = math.ceil(self.origin[1] + self.rows * self.pitch[1])
        return (left, top, right - left, bottom - top)

    def inside(self, x: int, y: int) -> bool:
        left, top, width, height = self.rect()
        return left <= x < left + width and top <= y < top + height

    def cell_at(self, x: int, y: int) -> int | None:
        col = math.floor((x - self.origin[0]) / self.pitch[0])
        row = math.floor((y - self.origin[1]) / self.pitch[1])
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return row * self.cols + col
        return None

    def park_point(self, screen: Region) -> tuple[int, int]:
        """A point just off the board, on the screen and off its corners.

        The pointer rests there while the screen is grabbed (some games
        light up the hovered cell). Close to the board so it most likely
        stays over the game's own window, which keeps keyboard focus for a
        new-game key on desktops where focus follows the pointer.
        """
        left, top, width, height = self.rect()
        gap = max(3, int(min(self.pitch) / 2))
        sl, st, sw, sh = screen
        candidates = [
            (left - gap, top + height // 2),
            (left + width + gap, top + height // 2),
            (left + width // 2, top + height + gap),
            (left + width // 2, top - gap),
        ]
        for x, y in candidates:
            if sl < x < sl + sw - 1 and st < y < st + sh - 1:
                return (x, y)
        raise ValueError("the board fills the whole screen: nowhere to rest the pointer")


_CLICK_RE = re.compile(r"^click:\s*(-?\d+)\s*,\s*(-?\d+)$")


@dataclass(frozen=True, slots=True)
class NewGame:
    """How a new game starts: a key combination, or a click on a button (screen px)."""

    kind: Literal["key", "click"]
    key: str = ""
    x: int = 0
    y: int = 0

    @classmethod
    def parse(cls, text: str) -> NewGame:
        """ "n", "ctrl+n", "F2" or "click:X,Y"; ValueError naming the problem."""
        m = _CLICK_RE.match(text.strip())
        if m:
            return cls("click", x=int(m.group(1)), y=int(m.group(2)))
        if text.strip().startswith("click"):
            raise ValueError(f"new-game action {text!r}: expected click:X,Y with whole pixels")
        split_combo(text)
        return cls("key", key=text.strip())

    def __str__(self) -> str:
        return f"click:{self.x},{self.y}" if self.kind == "click" else self.key


@dataclass(frozen=True, slots=True)
class Reading:
    """One read of the board: the board and the cells read with low confidence."""

    board: Board
    low_confidence: tuple[int, ...] = ()
    # Why the reader could not read the board at all (then every cell is low).
    problem: str = ""
    # A theme still being learned may show a look that could be one of several
    # numbers: then every board that fits is given (`board` is the first), and
    # `unsure` holds the opened cells whose number differs between them.
    alternatives: tuple[Board, ...] = ()
    unsure: frozenset[int] = frozenset()


class Reader(Protocol):
    """Reads the board from a grab of `grid.rect()`."""

    @property
    def grid(self) -> Grid: ...

    @property
    def mines(self) -> int: ...

    def read(self, image: Image) -> Reading: ...

    def sent(
        self, flagged: frozenset[int], guessed: frozenset[int], opened: frozenset[int] = frozenset()
    ) -> None:
        """Called after each batch with the cells it right-clicked, those it
        opened on a guess and all it clicked open (a reader learning a theme
        names a new look on exactly the flagged cells the flag, one on a
        guessed cell may be the mine that went off, and new looks appear only
        where the clicks could open cells)."""
        ...

    def learn(self, image: Image, board: Board) -> None:
        """Called with a finished board whose every cell is known from the game's rules,
        so a reader that is still learning a theme can add the tiles it saw."""
        ...
