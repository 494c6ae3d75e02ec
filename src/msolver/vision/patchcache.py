"""Each cell's blank-look patch, recut only where the frame changed.

Between two frames of a game only the cells a click opened (and the cells a
zero floods open) change; the rest of the board is the same bytes. Resizing
every cell to its BLANK_K x BLANK_K patch each frame cost the learning reader
1.5 ms on an expert board of 33 px cells. `PatchCache` keeps the last frame
and every patch cut from it; a new frame is compared with the last one over
each cell's box (the box `profile.cell_patches` cuts from, and more), and only
the cells whose box changed are cut again. A patch is a function of its box's
pixels alone (`cell_patches` resizes each box to whole output rows), so a
cell whose box holds the same bytes keeps the same patch.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from msolver.vision.geometry import Grid
from msolver.vision.image import Image
from msolver.vision.profile import BLANK_K, grid_patches


class PatchCache:
    """`grid_patches` of one board's cells over a sequence of frames."""

    def __init__(self, grid: Grid, offset: tuple[int, int] = (0, 0)) -> None:
        # Boxes where `grid_patches` cuts them: each line's own edge (uneven
        # boards), one whole-pixel cell size.
        self._grid = grid
        self._offset = offset
        rows, cols = grid.rows, grid.cols
        self._n = rows * cols
        w, h = grid.cell_size
        self._w, self._h = w, h
        ex, ey = grid.cell_edges()
        self._xs = np.array([v - offset[0] for v in ex[:-1]])
        self._ys = [v - offset[1] for v in ey[:-1]]
        self._cols = cols
        self._even = bool(
            np.all(np.diff(self._xs) == w) and np.all(np.diff(np.array(self._ys)) == h)
        )
        self._last: Image | None = None
        self._patches = np.zeros((self._n, BLANK_K, BLANK_K, 3), dtype=np.uint8)
        self._valid = np.zeros(self._n, dtype=np.bool_)
        # Frames seen (by `get`), and per cell the frame since which its box holds
        # the bytes it holds now: a result computed from the box at frame f >=
        # since[i] still holds.
        self.frame = 0
        self.since = np.zeros(self._n, dtype=np.int64)

    def _changed(self, image: Image) -> npt.NDArray[np.bool_]:
        """Per cell, whether any pixel of its box differs from the last frame."""
        last = self._last
        if last is None or last.shape != image.shape:
            return np.ones(self._n, dtype=np.bool_)
        out = np.zeros(self._n, dtype=np.bool_)
        if np.array_equal(last, image):
            return out
        top, bottom = self._ys[0], self._ys[-1] + self._h
        # Pixel rows flattened, so the comparison reduces along long rows: an
        # any() over the 3 channels of every pixel costs 25x more.
        span = image.shape[1]
        diff = image[top:bottom].reshape(bottom - top, -1) != last[top:bottom].reshape(
            bottom - top, -1
        )
        if self._even:
            # Boxes side by side on whole pixels: one reduction over every box.
            x0, rows = int(self._xs[0]), len(self._ys)
            ch = diff.shape[1] // span  # values per pixel
            boxes = diff[:, ch * x0 : ch * (x0 + self._cols * self._w)]
            return np.asarray(
                boxes.reshape(rows, self._h, self._cols, ch * self._w).any(axis=(1, 3)).ravel()
            )
        moved = diff.any(axis=1)
        for r, y in enumerate(self._ys):
            if not moved[y - top : y - top + self._h].any():
                continue
            cols = diff[y - top : y - top + self._h].any(axis=0).reshape(span, -1).any(axis=1)
            total = np.concatenate(([0], np.cumsum(cols, dtype=np.int64)))
            out[r * self._cols : (r + 1) * self._cols] = total[self._xs + self._w] > total[self._xs]
        return out

    def get(self, image: Image, which: list[int]) -> Image | None:
        """The patches of cells `which` in `image`, as `cell_patches` cuts them (None
        when the image does not hold the board)."""
        h, w = image.shape[:2]
        if (
            min(int(self._xs[0]), self._ys[0]) < 0
            or h < self._ys[-1] + self._h
            or w < int(self._xs[-1]) + self._w
        ):
            self._last = None
            self._valid[:] = False
            self.frame += 1
            self.since[:] = self.frame
            return grid_patches(image, self._grid, which, self._offset)
        changed = self._changed(image)
        self.frame += 1
        self.since[changed] = self.frame
        self._valid &= ~changed
        self._last = image.copy()
        ask = np.asarray(which, dtype=np.intp)
        need = [int(i) for i in ask[~self._valid[ask]]] if ask.size else []
        if need:
            fresh = grid_patches(image, self._grid, need, self._offset)
            assert fresh is not None
            self._patches[need] = fresh
            self._valid[need] = True
        out: Image = self._patches[ask]
        return out


class PatchMemo:
    """Per cell, a yes/no verdict taken on its patch (and on a whole-number key
    the caller gives, such as the look a cell matched), kept while both hold.

    The verdict must be a function of the cell's patch, its key and things
    that stay fixed while the memo is kept (`reset` it when they change):
    then a cell whose patch holds the same bytes gets the same verdict.
    """

    def __init__(self, n: int) -> None:
        self._n = n
        self._seen: Image | None = None
        self._keys = np.zeros(n, dtype=np.int64)
        self._verdict = np.zeros(n, dtype=np.bool_)
        self._known = np.zeros(n, dtype=np.bool_)

    def reset(self) -> None:
        self._known[:] = False

    def get(
        self,
        patches: Image,
        cells: list[int],
        compute: Callable[[Image, list[int], list[int]], npt.NDArray[np.bool_]],
        keys: list[int] | None = None,
    ) -> npt.NDArray[np.bool_]:
        """The verdicts of `cells` (their uint8 `patches`, their `keys`), asking
        compute(patches, cells, keys) only for those not known on the same bytes."""
        at = np.asarray(cells, dtype=np.intp)
        key = np.zeros(len(cells), dtype=np.int64) if keys is None else np.asarray(keys)
        if self._seen is None or self._seen.shape[1:] != patches.shape[1:]:
            self._seen = np.zeros((self._n, *patches.shape[1:]), dtype=np.uint8)
            self._known[:] = False
        hit = self._known[at] & (self._keys[at] == key)
        hit &= (self._seen[at] == patches).reshape(len(cells), -1).all(axis=1)
        if not hit.all():
            miss = ~hit
            where = at[miss]
            self._verdict[where] = compute(
                patches[miss], [int(i) for i in where], [int(k) for k in key[miss]]
            )
            self._seen[where] = patches[miss]
            self._keys[where] = key[miss]
            self._known[where] = True
        out: npt.NDArray[np.bool_] = self._verdict[at]
        return out
