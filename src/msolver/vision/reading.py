"""One read of the board, and the reader's interface the player drives.

`Reading` is what a reader saw in one grab; `Reader` is whatever turns a
grab of `grid.rect()` into a reading (the classifier, the learner, a test's
fake). Both sit with the readers in vision: the player only uses them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from msolver.core.board import Board
from msolver.vision.geometry import Grid
from msolver.vision.image import Image


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
    # Per alternative, how ill its numbers fit the looks they name (glyph
    # distance, summed; lower is likelier): a guess may go by a clear best.
    strain: tuple[float, ...] = ()
    # Opened cells read through a look whose number the game's rules gave and
    # no finished board has proven yet: a mine that went off may be drawn in
    # a look that a number explains just as well.
    unproven: frozenset[int] = frozenset()
    # Cells caught in a look that passes (nearer their blank look than any
    # tile: a hover, a flag key's preview, a cell half drawn); the frame is
    # unread, and waiting is the cure.
    passing: frozenset[int] = frozenset()
    # The game opens only a 0's side neighbours (learned from an opening that
    # fits no other rule): a 0 may then show beside unopened cells corner to
    # corner, never side by side.
    sides_only: bool = False
    # 0s read beside cells read unopened, for which the frame was left unread
    # (`problem`): a game still drawing, or one that leaves a 0 so (a chord
    # that opens a 0 alone); the player, who knows which cells it clicked
    # and how long the frame held still, may tell the reader (`zeros_alone`).
    zeros_open: frozenset[int] = frozenset()


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

    def zeros_alone(self, cells: frozenset[int]) -> None:
        """Called with 0s the game left beside unopened cells (held still past
        every wait, on cells no click of ours touched): a reader refuses no
        frame of this game for them."""
        ...

    def forget_unproven(self) -> None:
        """Called when a game turned out lost on a cell read through an unproven
        look (the mine that went off, named as a number): a reader learning a
        theme forgets every name no finished board has proven."""
        ...
