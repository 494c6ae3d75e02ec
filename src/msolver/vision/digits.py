"""Which digit a glyph looks like, whatever its font: a prior for guesses only.

A theme learned in play names its number looks by the rules of the game
(`naming`): a look is named only when every numbering that fits the board
gives it one number. With all digits in one colour (a browser's grey text on
disabled buttons, a monochrome palette) the first opening often fits several
numberings, and a guess over them went by the one least kind to each cell.
Digits have the same shapes in every font, near enough: a glyph cut to its
ink's bounding box and shrunk to BOX_H x BOX_W cells is compared with
reference digits (drawn by games of several toolkits, OpenCV's own fonts
and three pixel fonts of our own), and the nearest reference of each digit says how much the glyph
looks like it. That may pick which reading of the board a guess trusts; it
never names a look and never makes a move certain.

Measured (docs/vision.md): over 549 looks of 97 recordings, each family of
games held out in turn and read against the other families and OpenCV's
fonts, 92% of looks had their own digit nearest; of those nearer one digit by
SURE_MARGIN than by any other, 98.7%.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from msolver.vision.image import Image

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

BOX_H, BOX_W = 16, 12  # a glyph's box, in samples
# Of a cell box's side, the rim left out (a bevel, a border, a neighbour's sliver).
_RIM = 0.12
# Bits of ink smaller than this share of the glyph's largest part are specks
# (anti-aliasing, a texture), not part of the digit (an i's dot has no digit).
_SPECK = 0.15
# A glyph farther than this (mean difference of the boxes) from every
# reference is no digit we know (a signpost sprite, a picture): no prior.
FAR = 0.2
# One digit this much nearer than another is a margin the measurements trust.
SURE_MARGIN = 0.06
REFS = Path(__file__).with_name("digit_refs.npz")
FONT_REFS = Path(__file__).with_name("digit_fonts.npz")


def glyph_box(tile: Image, face: F64, ink: F64) -> tuple[F32, float] | None:
    """The glyph of a cell box as BOX_H x BOX_W weights (1 = ink) over its
    bounding box, and log(width / height) of that box; None with no glyph.

    `face`, `ink`: the look's two colours. Which one the glyph is drawn in is
    told by the inside's outer ring, which is mostly face: a bold digit can
    cover over half of the inside and make its own colour the commoner one.
    """
    import cv2

    t = tile[:, :, :3].astype(np.float64)
    h, w = t.shape[:2]
    m = max(1, round(_RIM * min(h, w)))
    t = t[m : h - m, m : w - m]
    if t.shape[0] < 4 or t.shape[1] < 4:
        return None
    to_face = np.abs(t - face).max(axis=2)
    to_ink = np.abs(t - ink).max(axis=2)
    ring = np.ones(to_face.shape, bool)
    ring[1:-1, 1:-1] = False
    if ((to_ink < to_face) & ring).mean() > ((to_face < to_ink) & ring).mean():
        to_face, to_ink = to_ink, to_face
    top = float(to_face.max())
    if top <= 0:
        return None
    weight = np.clip(to_face / top, 0.0, 1.0) * (to_ink < to_face)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(
        (weight > 0.5).astype(np.uint8), connectivity=8
    )
    if n <= 1:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA]
    keep = 1 + np.flatnonzero(areas >= _SPECK * areas.max())
    part = np.isin(lab, keep)
    ys, xs = np.nonzero(part)
    y0, y1, x0, x1 = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
    crop = (weight * part)[y0:y1, x0:x1].astype(np.float32)
    box = cv2.resize(crop, (BOX_W, BOX_H), interpolation=cv2.INTER_AREA)
    return box.astype(np.float32), float(np.log((x1 - x0) / (y1 - y0)))


@cache
def references() -> tuple[npt.NDArray[np.int64], F32]:
    """(digit per reference, boxes): the shipped references, OpenCV's fonts
    and the pixel fonts."""
    digits: list[int] = []
    boxes: list[F32] = []
    if REFS.exists():
        with np.load(REFS) as data:
            digits += [int(d) for d in data["digits"]]
            boxes += list(data["boxes"].astype(np.float32))
    for d, box in _font_references() + _pixel_drawn():
        digits.append(d)
        boxes.append(box)
    return np.array(digits, np.int64), np.stack(boxes).astype(np.float32)


def _font_references() -> list[tuple[int, F32]]:
    """OpenCV's digits as drawn once and shipped (FONT_REFS), else as this
    build draws them.

    Each OpenCV build draws its fonts its own way (5.1's are 8% wider than
    5.0's, 4.x's another shape), so drawn here the prior would weigh a guess
    one way on one user's install and another way on the next.
    """
    if not FONT_REFS.exists():
        return drawn_fonts()
    with np.load(FONT_REFS) as data:
        return [
            (int(d), np.asarray(b, np.float32))
            for d, b in zip(data["digits"], data["boxes"], strict=True)
        ]


def drawn_fonts() -> list[tuple[int, F32]]:
    """Digits 1-8 in OpenCV's four plain fonts at four weights, as this build
    draws them (frozen in FONT_REFS by tests/vision/build_digit_refs.py)."""
    import cv2

    fonts = (
        cv2.FONT_HERSHEY_SIMPLEX,
        cv2.FONT_HERSHEY_DUPLEX,
        cv2.FONT_HERSHEY_COMPLEX,
        cv2.FONT_HERSHEY_TRIPLEX,
    )
    face, ink, size = (220.0, 220.0, 220.0), (0.0, 0.0, 160.0), 40
    out = []
    for d in range(1, 9):
        for font in fonts:
            for thick in (1, 2, 3, 4):
                img = np.full((size, size, 3), face, np.uint8)
                (tw, th), _ = cv2.getTextSize(str(d), font, 0.9, thick)
                org = ((size - tw) // 2, (size + th) // 2)
                cv2.putText(img, str(d), org, font, 0.9, ink, thick, cv2.LINE_AA)
                got = glyph_box(img, np.array(face), np.array(ink))
                if got is not None:
                    out.append((d, got[0]))
    return out


def digit_gaps(box: F32) -> dict[int, float]:
    """Per digit 1-8, the glyph's distance (mean difference) to its nearest reference."""
    digits, boxes = references()
    gaps = np.abs(boxes - box[None]).mean(axis=(1, 2))
    return {d: float(gaps[digits == d].min()) for d in range(1, 9)}


def digit_strain(gaps: dict[int, float], number: int) -> float:
    """How ill `number` fits a glyph whose `digit_gaps` these are, in
    SURE_MARGINs beyond the nearest digit; 0 when the glyph is no digit we
    know (FAR from every reference) or `number` is no digit 1-8 (nothing to
    compare, so no preference)."""
    best = min(gaps.values())
    if best > FAR or number not in gaps:
        return 0.0
    return (gaps[number] - best) / SURE_MARGIN


# Pixel fonts (retro and arcade games draw digits on a coarse grid), our own
# designs on a 5x7 grid: rounded, square-cornered, and seven-segment digits.
_PIXEL_FONTS: tuple[tuple[str, ...], ...] = (
    (
        "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
        ".###. #...# ....# ...#. ..#.. .#... #####",
        "####. ....# ....# .###. ....# ....# ####.",
        "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
        "##### #.... ####. ....# ....# #...# .###.",
        "..##. .#... #.... ####. #...# #...# .###.",
        "##### ....# ...#. ..#.. .#... .#... .#...",
        ".###. #...# #...# .###. #...# #...# .###.",
    ),
    (
        "..#.. .##.. ..#.. ..#.. ..#.. ..#.. ..#..",
        "####. ....# ....# .###. #.... #.... #####",
        "####. ....# ....# ####. ....# ....# ####.",
        "#..#. #..#. #..#. ##### ...#. ...#. ...#.",
        "##### #.... #.... ####. ....# ....# ####.",
        ".###. #.... #.... ####. #...# #...# .###.",
        "##### ....# ....# ...#. ..#.. ..#.. ..#..",
        ".###. #...# #...# ##### #...# #...# .###.",
    ),
    (
        "....# ....# ....# ....# ....# ....# ....#",
        "##### ....# ....# ##### #.... #.... #####",
        "##### ....# ....# ##### ....# ....# #####",
        "#...# #...# #...# ##### ....# ....# ....#",
        "##### #.... #.... ##### ....# ....# #####",
        "##### #.... #.... ##### #...# #...# #####",
        "##### ....# ....# ....# ....# ....# ....#",
        "##### #...# #...# ##### #...# #...# #####",
    ),
)


def _pixel_drawn() -> list[tuple[int, F32]]:
    """Digits 1-8 in the pixel fonts, plain and bold (each lit pixel also
    lighting the one right of it, and the one below it too)."""
    block = 5
    face, ink = np.array((220.0,) * 3), np.array((0.0, 0.0, 160.0))
    out = []
    for font in _PIXEL_FONTS:
        for d, rows in enumerate(font, start=1):
            bits = np.array([[ch == "#" for ch in row] for row in rows.split()], bool)
            for wide, tall in ((0, 0), (1, 0), (1, 1)):
                lit = np.zeros((bits.shape[0] + tall, bits.shape[1] + wide), bool)
                for dy in range(tall + 1):
                    for dx in range(wide + 1):
                        lit[dy : dy + bits.shape[0], dx : dx + bits.shape[1]] |= bits
                big = np.kron(lit, np.ones((block, block), bool))
                side = max(big.shape) + 4 * block
                img = np.empty((side, side, 3))
                img[:] = face
                y0, x0 = (side - big.shape[0]) // 2, (side - big.shape[1]) // 2
                img[y0 : y0 + big.shape[0], x0 : x0 + big.shape[1]][big] = ink
                got = glyph_box(img.astype(np.uint8), face, ink)
                if got is not None:
                    out.append((d, got[0]))
    return out
