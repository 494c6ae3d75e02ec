"""A reader for a theme msolver does not know: it learns the tiles while it plays.

All it starts from is the profile of a blank board: the grid, the mine count
and the unopened tile. Every cell is cut out at the profile's geometry and
shrunk to a small colour patch; a cell whose patch is (almost) exactly that
of a known look gets that look's state. Cells of a look never seen before
are grouped into new looks and named from the rules of the game
(`msolver.vision.naming`). The matching is deliberately tight: native games
draw every tile of one kind pixel for pixel alike, and a look that is only
similar to a known one (a 4 next to a 1) must become a new look, never the
old name.

What keeps it from learning nonsense:
- a new look may only appear on cells that were unopened in the last clean
  read (a covered window, a moved board or a win flash changes opened cells
  too, and is reported as unread instead);
- a new look is named only from two identical grabs in a row (no half-drawn
  frame);
- a look that could be one of several numbers stays unnamed; the reading
  then carries every board that fits (`Reading.alternatives`) and the player
  acts only on moves that are sure in all of them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from msolver.core.board import UNKNOWN, Board
from msolver.core.clock import Clock, RealClock
from msolver.vision.geometry import Grid
from msolver.vision.image import Image
from msolver.vision.naming import name_looks
from msolver.vision.profile import STATE_OF_LABEL, Profile
from msolver.vision.reading import Reader, Reading

K = 8  # patch side, in samples
# Mean squared difference (channels in 0..1) under which two patches are one
# look: about 6/255 RMS. Distinct tiles of the known games differ by 10x more
# (an unopened and an opened cell of sgt-mines: about 0.002).
SAME = 0.0006
# More new looks at once than a game has kinds of tiles: not a board we know.
MAX_NEW_LOOKS = 12
# How long a frame with new looks must hold still before they are named (s).
# A game starved of CPU can leave a half-drawn tile on screen for a good
# fraction of a second, and a look named from it never matches again.
HOLD = 0.25
_LABEL_OF_STATE = {v: k for k, v in STATE_OF_LABEL.items()}
F32 = npt.NDArray[np.float32]


@dataclass
class _Look:
    patch: F32
    tile: Image
    state: int | None  # None while not named


class LearningReader:
    """Reads a board and learns the looks it has not seen.

    Without `base`, from the profile's tiles alone (for a new theme, just the
    unopened one); with `base`, the known tiles are read by it and only the
    cells it is unsure of are matched against, or learned as, new looks.
    """

    def __init__(
        self, profile: Profile, base: Reader | None = None, *, clock: Clock | None = None
    ) -> None:
        self.profile = profile
        self._clock: Clock = clock or RealClock()
        # A reader for the theme's known tiles (a built-in theme); this reader
        # then only learns the looks it reports unsure (a 6 no recording showed).
        self._base = base
        self._grid = profile.grid
        left, top, _, _ = self._grid.rect()
        self._w, self._h = self._grid.cell_size
        xs, ys = self._grid.cell_edges()
        # Cells cut from a grab of the board's rectangle.
        self._xs = [x - left for x in xs[:-1]]
        self._ys = [y - top for y in ys[:-1]]
        self.looks: list[_Look] = []
        for label, variants in profile.tiles.items() if base is None else ():
            for tile in variants:
                self.looks.append(_Look(self._patch(tile), tile, STATE_OF_LABEL[label]))
        self._last: list[int] | None = None  # states of the last clean read (opened: >= 0)
        self._flagged: set[int] = set()
        self._guessed: frozenset[int] = frozenset()
        self._candidate: tuple[Image, float] | None = None
        self.learned: list[str] = []  # names learned, in order (for the user and tests)

    @property
    def grid(self) -> Grid:
        return self._grid

    @property
    def mines(self) -> int:
        return self.profile.mines

    def sent(self, flagged: frozenset[int], guessed: frozenset[int]) -> None:
        self._flagged |= flagged
        self._guessed = guessed

    def learn(self, image: Image, board: Board) -> None:
        # Tiles are learned as they appear; nothing is left for the end.
        return None

    def learned_profile(self) -> Profile:
        """The profile with one tile per named look added (to save for the next session)."""
        tiles: dict[str, list[Image]] = {k: list(v) for k, v in self.profile.tiles.items()}
        for look in self.looks:
            if look.state is None:
                continue
            label = _LABEL_OF_STATE[look.state]
            if not any(
                t.shape == look.tile.shape and np.array_equal(t, look.tile)
                for t in tiles.get(label, [])
            ):
                tiles.setdefault(label, []).append(look.tile)
        return self.profile.with_changes(tiles={k: tuple(v) for k, v in tiles.items()})

    # -- pixels -> patches -------------------------------------------------------------

    def _patch(self, tile: Image) -> F32:
        import cv2

        small = cv2.resize(
            np.ascontiguousarray(tile[:, :, :3]), (K, K), interpolation=cv2.INTER_AREA
        )
        return (small.astype(np.float32) / 255.0).reshape(-1)

    def _cells(self, image: Image, which: list[int]) -> tuple[list[Image], F32] | None:
        """Tiles and patches of cells `which`; None when the image cannot hold the board."""
        import cv2

        if image.shape[0] < self._ys[-1] + self._h or image.shape[1] < self._xs[-1] + self._w:
            return None
        cols = self.profile.cols
        tiles = [
            image[self._ys[i // cols] : self._ys[i // cols] + self._h, self._xs[i % cols] :][
                :, : self._w, :3
            ]
            for i in which
        ]
        if not tiles:
            return [], np.zeros((0, K * K * 3), dtype=np.float32)
        # One resize for all cells: stacked tiles keep their borders on whole output rows.
        strip = np.ascontiguousarray(np.concatenate(tiles, axis=0))
        small = cv2.resize(strip, (K, K * len(tiles)), interpolation=cv2.INTER_AREA)
        patches = (small.astype(np.float32) / 255.0).reshape(len(tiles), K * K * 3)
        return tiles, patches

    # -- reading ---------------------------------------------------------------------------

    def read(self, image: Image) -> Reading:
        p = self.profile
        n = p.rows * p.cols
        states: list[int | None]
        if self._base is not None:
            first = self._base.read(image)
            if first.problem or not first.low_confidence:
                if not first.problem:
                    self._seen(first.board)
                self._candidate = None
                return first
            states = list(first.board.cells)
            ask = list(first.low_confidence)
        else:
            states = [None] * n
            ask = list(range(n))
        cut = self._cells(image, ask)
        if cut is None:
            blank = Board.blank(p.cols, p.rows, p.mines)
            return Reading(blank, tuple(range(n)), "the grab does not hold the board")
        tiles, patches = cut
        look_of: dict[int, int] = {}
        new: list[int] = []
        protos = np.stack([look.patch for look in self.looks]) if self.looks else None
        for k, i in enumerate(ask):
            states[i] = None
            if protos is not None:
                d = ((protos - patches[k]) ** 2).mean(axis=1)
                b = int(d.argmin())
                if d[b] <= SAME:
                    look_of[i] = b
                    states[i] = self.looks[b].state
                    continue
            new.append(i)
        if len(new) > 0.9 * n and self._last is not None:
            return self._unread(states, new, "most cells match no tile seen on this board")
        if new and self._last is not None:
            moved = [i for i in new if self._last[i] != UNKNOWN]
            if moved:
                # Opened cells never change look in a game: a flash, a cover, a move.
                return self._unread(states, new, "opened cells changed their look")
        if new:
            now = self._clock.monotonic()
            if self._candidate is None or not np.array_equal(self._candidate[0], image):
                # Name new looks only from a frame that holds still for a while (a
                # cell lit under the pointer, a half-drawn frame pass in a few ms).
                self._candidate = (image.copy(), now)
                return self._unread(states, new, "new tiles: looking again")
            if now - self._candidate[1] < HOLD:
                return self._unread(states, new, "new tiles: looking again")
            where = {i: k for k, i in enumerate(ask)}
            self._add_looks(
                new, [tiles[where[i]] for i in new], patches[[where[i] for i in new]], look_of
            )
        self._candidate = None
        return self._name(states, look_of)

    def _seen(self, board: Board) -> None:
        if not any(s >= 0 for s in board.cells):
            self._flagged.clear()  # a fresh board: a new game
        self._last = list(board.cells)

    def _unread(self, states: list[int | None], low: list[int], why: str) -> Reading:
        cells = tuple(UNKNOWN if s is None else s for s in states)
        board = Board(self.profile.cols, self.profile.rows, self.profile.mines, cells)
        return Reading(board, tuple(low), why)

    def _add_looks(
        self, new: list[int], tiles: list[Image], patches: F32, look_of: dict[int, int]
    ) -> None:
        first = len(self.looks)
        for k, i in enumerate(new):
            for j in range(first, len(self.looks)):
                if float(((patches[k] - self.looks[j].patch) ** 2).mean()) <= SAME:
                    look_of[i] = j
                    break
            else:
                self.looks.append(_Look(patches[k].copy(), np.array(tiles[k], copy=True), None))
                look_of[i] = len(self.looks) - 1

    def _name(self, states: list[int | None], look_of: dict[int, int]) -> Reading:
        p = self.profile
        known = list(states)
        groups: dict[int, list[int]] = {}
        for i, k in sorted(look_of.items()):
            if self.looks[k].state is None:
                groups.setdefault(k, []).append(i)
        if len(groups) > MAX_NEW_LOOKS:
            low = sorted(i for g in groups.values() for i in g)
            return self._unread(states, low, "too many new looks")
        if not groups:
            board = Board(
                p.cols, p.rows, p.mines, tuple(UNKNOWN if s is None else s for s in known)
            )
            self._seen(board)
            return Reading(board)
        numbers = frozenset(
            look.state for look in self.looks if look.state is not None and look.state >= 0
        ) | frozenset(int(label) for label in p.tiles if label.isdigit())
        naming = name_looks(
            p.cols,
            p.rows,
            p.mines,
            known,
            groups,
            flagged=frozenset(self._flagged),
            known_numbers=numbers,
            guessed=self._guessed,
        )
        for k, name in naming.names.items():
            state = STATE_OF_LABEL[name]
            self.looks[k].state = state
            self.learned.append(name)
            for i in groups[k]:
                known[i] = state
        if naming.unnamed and not naming.fits:
            low = sorted(i for k in naming.unnamed for i in groups[k])
            return self._unread(known, low, naming.reason)
        boards = []
        for fit in naming.fits or ({},):
            cells = list(known)
            for k, v in fit.items():
                for i in groups[k]:
                    cells[i] = v
            boards.append(
                Board(p.cols, p.rows, p.mines, tuple(UNKNOWN if c is None else c for c in cells))
            )
        unsure = frozenset(i for k in naming.unnamed for i in groups[k])
        self._last = [0 if i in unsure else s for i, s in enumerate(boards[0].cells)]
        if len(boards) == 1:
            return Reading(boards[0])
        return Reading(boards[0], alternatives=tuple(boards), unsure=unsure)
