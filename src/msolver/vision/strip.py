"""The band of the game's window just above the board, where faces and counters live.

Kept at calibration (from the blank board's screenshot) as a reference, and
grabbed with the board in play: a game that shows its end only on a face (a
smiley that turns to sunglasses or a dead face) or a status text changes it
as the game ends. The player looks at it only when the board alone cannot
tell whether the game ended (play/loop.py); it never decides against the board.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from msolver.vision.image import Image

# How far above the board the band reaches, in cell heights (a face and its
# counters sit within about two cells of the board in the games tested).
STRIP_CELLS = 3.0
# Thinner than this, there is no room for a face above the board.
STRIP_MIN = 8
# A pixel differs when a channel moves by more than this (not a shade of noise).
PIXEL_TOL = 24


@dataclass(frozen=True, eq=False)
class Strip:
    """The band's pixels (RGB) and where its top-left lies from the board's top-left."""

    pixels: Image
    offset: tuple[int, int]

    def rect(self, board: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        """The band's rectangle (left, top, width, height) for a board at `board`."""
        h, w = self.pixels.shape[:2]
        return (board[0] + self.offset[0], board[1] + self.offset[1], w, h)


def strip_above(
    image: Image, board: tuple[int, int, int, int], pitch_y: float, image_origin: tuple[int, int]
) -> Strip | None:
    """The band above the board in a screenshot (screen px from `image_origin`), or None
    when the board lies at the image's top edge."""
    left, top, width, _ = board
    x0, y0 = left - image_origin[0], top - image_origin[1]
    height = min(round(STRIP_CELLS * pitch_y), y0)
    if height < STRIP_MIN or x0 < 0 or x0 + width > image.shape[1]:
        return None
    pixels = np.ascontiguousarray(image[y0 - height : y0, x0 : x0 + width, :3], dtype=np.uint8)
    return Strip(pixels, (0, -height))


def changed(a: Image, b: Image) -> npt.NDArray[np.bool_]:
    """The pixels where two grabs of the band differ beyond noise."""
    d = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2)
    return np.asarray(d > PIXEL_TOL)
