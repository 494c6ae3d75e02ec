"""Tile images at another size: how a scaled display shows a theme's tiles.

A profile records its tiles at the sizes a game drew them; a board shown at
another scale is read with the recordings resampled here. Below both the
profile and the classifier, so neither needs the other for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from msolver.vision.image import Image


def rescale_tiles(
    tiles: Mapping[str, Sequence[Image]], size: tuple[int, int]
) -> dict[str, tuple[Image, ...]]:
    """Tiles resized to (width, height) pixels."""

    out: dict[str, tuple[Image, ...]] = {}
    for label, variants in tiles.items():
        scaled = []
        for t in variants:
            if (t.shape[1], t.shape[0]) == size:
                scaled.append(t)
            else:
                scaled.append(_rescale(t, size))
        out[label] = tuple(scaled)
    return out


def _rescale(tile: Image, size: tuple[int, int]) -> Image:
    """A tile as a scaled screen shows it: resampled amid tiles, not alone.

    A display scaler blends each tile's edge with its neighbour; scaling a
    3x3 mosaic of the tile and keeping the middle gets those edges right for
    a board of like tiles (a blank board) and close for the rest.
    """
    import cv2

    w, h = size
    interp = cv2.INTER_AREA if tile.shape[1] > w else cv2.INTER_LINEAR
    mosaic = np.tile(tile, (3, 3, 1))
    big = cv2.resize(mosaic, (3 * w, 3 * h), interpolation=interp)
    out: Image = np.ascontiguousarray(big[h : 2 * h, w : 2 * w], dtype=np.uint8)
    return out
