"""Test-side drawing of Flood-It screens, after the way sgt-flood draws them.

Cells are `tile` px; a cell edge facing a different colour (or the board's
edge) gets `sep` px of black on its own side, so two different neighbours are
split by 2*sep px; the board sits in a black frame `sep` px wide on a grey window.
"""

from __future__ import annotations

import numpy as np

from msolver.flood.core import FloodBoard

SGT_PALETTE = ((255, 0, 0), (255, 255, 0), (0, 255, 0), (51, 76, 255), (255, 128, 0), (128, 0, 179))


def draw(
    board: FloodBoard,
    palette: tuple[tuple[int, int, int], ...] = SGT_PALETTE,
    *,
    tile: int = 32,
    sep: int = 1,
    origin: tuple[int, int] = (16, 40),
    size: tuple[int, int] = (640, 520),
    black: bool = False,
) -> np.ndarray:
    img = np.full((size[1], size[0], 3), 214, dtype=np.uint8)
    w, h = board.width, board.height
    x0, y0 = origin
    img[y0 - sep : y0 + h * tile + sep, x0 - sep : x0 + w * tile + sep] = 0
    cells = board.cells
    for r in range(h):
        for c in range(w):
            v = cells[r * w + c]
            tx, ty = x0 + c * tile, y0 + r * tile
            img[ty : ty + tile, tx : tx + tile] = (0, 0, 0) if black else palette[v]
            if sep == 0 or black:
                continue

            def differs(rr: int, cc: int, v: int = v) -> bool:
                return not (0 <= rr < h and 0 <= cc < w) or cells[rr * w + cc] != v

            if differs(r, c - 1):
                img[ty : ty + tile, tx : tx + sep] = 0
            if differs(r, c + 1):
                img[ty : ty + tile, tx + tile - sep : tx + tile] = 0
            if differs(r - 1, c):
                img[ty : ty + sep, tx : tx + tile] = 0
            if differs(r + 1, c):
                img[ty + tile - sep : ty + tile, tx : tx + tile] = 0
            for dr, dc, ys, xs in (
                (-1, -1, slice(ty, ty + sep), slice(tx, tx + sep)),
                (-1, 1, slice(ty, ty + sep), slice(tx + tile - sep, tx + tile)),
                (1, -1, slice(ty + tile - sep, ty + tile), slice(tx, tx + sep)),
                (1, 1, slice(ty + tile - sep, ty + tile), slice(tx + tile - sep, tx + tile)),
            ):
                if differs(r + dr, c + dc):
                    img[ys, xs] = 0
    return img


def random_board(rng: np.random.Generator, w: int, h: int, colours: int) -> FloodBoard:
    cells = rng.integers(0, colours, size=w * h)
    text = "\n".join("".join(str(1 + int(v)) for v in cells[r * w : (r + 1) * w]) for r in range(h))
    return FloodBoard.parse(text)


def sgt_board(game_id: str) -> tuple[FloodBoard, int]:
    """A board and move limit from an sgt-flood game ID such as "12x12:0123...,23"."""
    size, rest = game_id.strip().split(":")
    digits, limit = rest.split(",")
    w, h = (int(v) for v in size.split("x"))
    text = "\n".join(digits[r * w : (r + 1) * w] for r in range(h))
    # sgt numbers colours from 0; the text form starts at 1.
    return FloodBoard.parse(text.translate(str.maketrans("0123456789", "123456789a"))), int(limit)
