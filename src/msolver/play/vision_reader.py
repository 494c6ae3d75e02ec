"""The real reader: `msolver.vision` behind the player's `Reader` interface."""

from __future__ import annotations

from msolver.core.board import Board
from msolver.io.capture import Image
from msolver.play.target import Grid, Reading
from msolver.vision.classify import ReadError, read_board
from msolver.vision.profile import Profile


def grid_of(profile: Profile) -> Grid:
    return Grid(origin=profile.origin, pitch=profile.pitch, rows=profile.rows, cols=profile.cols)


class VisionReader:
    """Reads grabs of the board's rectangle with the profile's tiles."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self._grid = grid_of(profile)
        rect = self._grid.rect()
        self._origin = (rect[0], rect[1])

    @property
    def grid(self) -> Grid:
        return self._grid

    @property
    def mines(self) -> int:
        return self.profile.mines

    def read(self, image: Image) -> Reading:
        p = self.profile
        try:
            res = read_board(image, p, image_origin=self._origin)
        except ReadError as exc:
            return Reading(
                Board.blank(p.cols, p.rows, p.mines), tuple(range(p.rows * p.cols)), str(exc)
            )
        low = tuple(r * p.cols + c for r, c in res.low_confidence)
        return Reading(res.board, low)

    def learn(self, image: Image, board: Board) -> None:
        # The classifier's theme learning hooks in here once it exists.
        return None
