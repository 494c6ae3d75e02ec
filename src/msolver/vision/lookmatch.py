"""A cell's content against every look at once, for the learning reader.

`LearningReader` compares each opened cell's content (face colour, ink colour,
glyph shape and proportions) with every look it knows. One look at a time,
in Python, that cost about 20 us a pair: a learned profile holds a score of
looks, so a board of opened cells took 30 ms a frame. Here the looks' parts
are kept stacked, and one cell's distances to all of them come out of a few
array operations, each element computed as `Content.distance` computes it
(the same float64 operations on the same numbers; a mean over the shape's
contiguous last axis sums in the same order as over one shape), so the result
is bit-identical.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

F64 = npt.NDArray[np.float64]

# Two looks whose ink is and is not there are this far apart (Content.distance).
_NO_INK_MATCH = 10.0


class LookTable:
    """The parts of every look, stacked; looks are only ever appended."""

    def __init__(self, face_tol: float, ink_tol: float, shape_tol: float, aspect_tol: float):
        self._tols = (face_tol, ink_tol, shape_tol, aspect_tol)
        self._rows: list[tuple[F64, F64 | None, F64 | None, float]] = []
        self._stacked: tuple[F64, F64, F64, F64, npt.NDArray[np.bool_]] | None = None

    def __len__(self) -> int:
        return len(self._rows)

    def add(self, face: F64, ink: F64 | None, shape: F64 | None, aspect: float) -> None:
        self._rows.append((face, ink, shape, aspect))
        self._stacked = None

    def _arrays(self) -> tuple[F64, F64, F64, F64, npt.NDArray[np.bool_]]:
        if self._stacked is None:
            n = len(self._rows)
            dim = next((len(s) for _f, _i, s, _a in self._rows if s is not None), 1)
            faces = np.zeros((n, 3), dtype=np.float64)
            inks = np.zeros((n, 3), dtype=np.float64)
            shapes = np.zeros((n, dim), dtype=np.float64)
            aspects = np.zeros(n, dtype=np.float64)
            has = np.zeros(n, dtype=np.bool_)
            for k, (face, ink, shape, aspect) in enumerate(self._rows):
                faces[k] = face
                aspects[k] = aspect
                if ink is not None and shape is not None:
                    inks[k] = ink
                    shapes[k] = shape
                    has[k] = True
            self._stacked = (faces, inks, shapes, aspects, has)
        return self._stacked

    def distances(
        self, face: F64, ink: F64 | None, shape: F64 | None, aspect: float, start: int = 0
    ) -> F64:
        """The distance (in tolerances, as `Content.distance`) from the content
        given to looks start, start + 1, ... of the table."""
        faces, inks, shapes, aspects, has = self._arrays()
        face_tol, ink_tol, shape_tol, aspect_tol = self._tols
        faces, inks, shapes, aspects, has = (
            faces[start:],
            inks[start:],
            shapes[start:],
            aspects[start:],
            has[start:],
        )
        d: F64 = np.abs(faces - face).max(axis=1) / face_tol
        if ink is None or shape is None:
            return np.where(has, np.maximum(d, _NO_INK_MATCH), d)
        out = np.maximum(d, _NO_INK_MATCH)
        if has.any():
            di = np.abs(inks[has] - ink).max(axis=1) / ink_tol
            ds = np.abs(np.ascontiguousarray(shapes[has]) - shape).mean(axis=1) / shape_tol
            da = np.abs(aspects[has] - aspect) / aspect_tol
            out[has] = np.maximum(np.maximum(np.maximum(d[has], di), ds), da)
        return out


def best_look(row: F64) -> int | None:
    """The look a cell shows from its distances `row`: of those within 1, the
    nearest, the last of equals (as a scan keeping `d <= best` picks); None when
    none is within 1."""
    near = np.flatnonzero(row <= 1.0)
    if near.size == 0:
        return None
    m = row[near].min()
    return int(near[np.flatnonzero(row[near] == m)[-1]])
