"""The real reader: `msolver.vision` behind the player's `Reader` interface.

Between two frames of one game only the cells the last batch touched change
(plus those a zero floods open), so the reader compares the new grab with the
last one cell by cell and classifies only the cells whose pixels changed,
laid side by side in a one-row strip. When the pitch is a whole number of
pixels the strip holds exactly the pixels the full read would sample, so the
result is the same, several times faster. A frame where many cells changed
(a new game, a moved window) is read in full.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from msolver.core.board import Board
from msolver.vision.classify import ReadError, read_board
from msolver.vision.geometry import Grid
from msolver.vision.image import Image
from msolver.vision.profile import Profile
from msolver.vision.reading import Reading

# Above this fraction of changed cells a full read is as cheap and simpler.
_STRIP_MAX = 0.35


class VisionReader:
    """Reads grabs of the board's rectangle with the profile's tiles."""

    def __init__(self, profile: Profile, *, incremental: bool = True) -> None:
        self.profile = profile
        self._grid = profile.grid
        rect = self._grid.rect()
        self._origin = (rect[0], rect[1])
        # Cell edges in a grab of the board's rectangle, rounded as the classifier samples.
        xs, ys = self._grid.moved(-rect[0], -rect[1]).cell_edges()
        self._xs = np.array(xs, dtype=np.int64)
        self._ys = np.array(ys, dtype=np.int64)
        whole = all(abs(p - round(p)) < 1e-6 for p in profile.pitch)
        self._incremental = incremental and whole
        self._even = whole and bool(
            np.all(np.diff(self._xs) == round(profile.pitch[0]))
            and np.all(np.diff(self._ys) == round(profile.pitch[1]))
        )
        self._last: tuple[Image, Reading] | None = None
        self.full_reads = 0
        self.strip_reads = 0

    @property
    def grid(self) -> Grid:
        return self._grid

    @property
    def mines(self) -> int:
        return self.profile.mines

    def forget(self) -> None:
        """Drop the last frame, so the next read is a full one."""
        self._last = None

    def read(self, image: Image) -> Reading:
        reading = None
        if self._incremental and self._last is not None:
            reading = self._read_changed(image, *self._last)
        if reading is None:
            reading = self._read_full(image)
        if reading.problem or reading.low_confidence:
            self._last = None
        else:
            self._last = (image, reading)
        return reading

    def _read_full(self, image: Image) -> Reading:
        p = self.profile
        self.full_reads += 1
        try:
            res = read_board(image, p, image_origin=self._origin)
        except ReadError as exc:
            blank = Board.blank(p.cols, p.rows, p.mines)
            return Reading(blank, tuple(range(p.rows * p.cols)), str(exc))
        low = tuple(r * p.cols + c for r, c in res.low_confidence)
        return Reading(res.board, low)

    def confidence(self, image: Image) -> npt.NDArray[np.float64] | None:
        """Every cell's confidence in a full read of `image` (row-major), or None
        when the board cannot be read at all."""
        try:
            res = read_board(image, self.profile, image_origin=self._origin)
        except ReadError:
            return None
        return res.confidence.ravel()

    def _changed(self, image: Image, last: Image) -> npt.NDArray[np.intp]:
        xs, ys = self._xs, self._ys
        p = self.profile
        w, h = round(p.pitch[0]), round(p.pitch[1])
        if self._even:
            # Whole-pixel pitch: cells are equal blocks, one reshape away.
            a = image[ys[0] : ys[-1], xs[0] : xs[-1], :3]
            b = last[ys[0] : ys[-1], xs[0] : xs[-1], :3]
            blocks = (a != b).reshape(p.rows, h, p.cols, w * 3)
            return np.flatnonzero(blocks.any(axis=(1, 3)))
        diff = np.any(
            image[ys[0] : ys[-1], xs[0] : xs[-1]] != last[ys[0] : ys[-1], xs[0] : xs[-1]], axis=2
        )
        # Any changed pixel inside a cell box marks the cell.
        rows_hit = np.add.reduceat(diff, ys[:-1] - ys[0], axis=0)
        cells = np.add.reduceat(rows_hit, xs[:-1] - xs[0], axis=1)
        return np.flatnonzero(cells.ravel())

    def _read_changed(self, image: Image, last: Image, before: Reading) -> Reading | None:
        if image.shape != last.shape:
            return None
        changed = self._changed(image, last)
        if changed.size == 0:
            return before
        p = self.profile
        if changed.size > _STRIP_MAX * p.rows * p.cols:
            return None
        w, h = round(p.pitch[0]), round(p.pitch[1])
        strip = np.empty((h, w * changed.size, 3), dtype=np.uint8)
        for k, i in enumerate(changed):
            r, c = divmod(int(i), p.cols)
            strip[:, k * w : (k + 1) * w] = image[
                self._ys[r] : self._ys[r] + h, self._xs[c] : self._xs[c] + w, :3
            ]
        part = p.with_changes(origin=(0.0, 0.0), rows=1, cols=int(changed.size), mines=0)
        try:
            res = read_board(strip, part)
        except ReadError:
            return None
        self.strip_reads += 1
        cells = list(before.board.cells)
        low = []
        for k, i in enumerate(changed):
            cells[int(i)] = res.board.cells[k]
        for _, k in res.low_confidence:
            low.append(int(changed[k]))
        board = Board(p.cols, p.rows, p.mines, tuple(cells))
        return Reading(board, tuple(sorted(low)))

    def sent(
        self, flagged: frozenset[int], guessed: frozenset[int], opened: frozenset[int] = frozenset()
    ) -> None:
        return None

    def learn(self, image: Image, board: Board) -> None:
        # Built-in themes know every tile already.
        return None

    def forget_unproven(self) -> None:
        # Built-in tiles are all proven.
        return None

    def zeros_alone(self, cells: frozenset[int]) -> None:
        # Nothing here refuses a frame for its 0s: the player judges them.
        return None
