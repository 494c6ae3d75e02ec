"""The learning reader's `content` of many cell boxes at once.

`learning_reader.content` takes one box at a time: some twenty small numpy
calls, 75-120 us a cell, and a click that opens forty cells paid them forty
times. Here the steps that are the same for every box (the face's median,
each pixel's distance from it, the ink threshold, the mask, the glyph's
weights and moments) run once over the stacked boxes; only the glyph's
resampling and the ink's median stay per box. Every step does, per box, the
same float operations on the same numbers in the same order as `content`
(medians pick and average the same elements; sums run over each box's
contiguous row of values), so the results are bit-identical; the tests
check it on recorded frames.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from msolver.vision.image import Image

F64 = npt.NDArray[np.float64]
# face, ink, shape, aspect, a sprite's pixels (see `sprite_ink`), whether
# the ink is a faint glyph's (see `faint_ink`), and its tones (`ink_tones`)
Tones = tuple[F64 | None, F64 | None]
Parts = tuple[F64, F64 | None, F64 | None, float, F64 | None, bool, Tones]
NO_TONES: Tones = (None, None)


@dataclass(frozen=True)
class InkRule:
    """`learning_reader`'s constants for ink and glyphs (INK, INK_TEXTURE, ...)."""

    ink: float
    texture: float
    min_pixels: int
    min_share: float
    glyph: int
    span: float
    faint: float


# A sprite on a textured face (kmines' green theme draws each number as a
# signpost over grass): when no ink stands out of the whole box's median, the
# face is taken again from the half of the pixels nearest it, and its texture
# from the nearest quarter (twice the 25th percentile is about the median of a
# face's own texture). What then stands out is ink if it covers between these
# shares of the box: a glyph or a sprite, never half a cell or a whole one.
SPRITE_SHARE = (0.1, 0.4)
# A heavy glyph on a smooth face (kmines' default theme at 19 px cells draws
# bold digits over half of the cell's inside): the whole box's median is
# pulled toward the ink, so the plain rule sees a tinted face and a texture
# that is not there (and a 3 or a 4 reads inkless, or tinted one cell and not
# the next). Where the pixels nearest that median form a smooth face, what
# differs from it by INK is ink, up to HEAVY_SHARE of the box. Smooth: the
# median step between neighbouring pixels within INK/2 of that face is at most
# SMOOTH_STEP levels. A gradient is smooth; a texture is not (measured over the
# battery's recorded games: kmines' default and classic faces 0, minegauler's
# 0-1; kmines' green grass 2-7, its graveyard 2-8).
HEAVY_SHARE = 0.6
SMOOTH_STEP = 1.0
# Two sprites are one look only if at most this many of their pixels differ by
# more than SPRITE_DIFF (0..255) in a channel. Measured on kmines' green theme:
# one number's sprites differ in no pixel; a 4 and a 5 at 19 px cells in 7.
SPRITE_DIFF = 80.0
SPRITE_PIXELS = 1
# A faint digit on a flat face: a pastel digit, or a dim one in a dark mode,
# can lie within INK of its face in every channel, and every number then read
# as the empty opened look. A flat face is one colour: the inside's commonest
# colour, with over FAINT_FACE of the inside within FAINT_FLAT levels of it
# (not the median, which a bold digit pulls toward itself) and its face-like
# pixels smooth. What stands out of it by the rule's `faint` levels is ink, if
# it covers FAINT_SHARE of the inside and no side of the inside for over
# FAINT_SIDE of its length: a bevel's or a neighbour's edge shows so in a cell
# cut at a fractional phase, or a shade's darker side, never a digit (sgt's 1
# at 18 px reaches the inside's top for 5 of its 12 pixels, a 2's foot runs 8
# of 12).
FAINT_FLAT = 2.0
FAINT_FACE = 0.3
FAINT_SHARE = (0.03, 0.5)
FAINT_SIDE = 0.75


def sprite_ink(
    inner: F64, dist: F64, med: float, rule: InkRule, found: bool = False
) -> tuple[F64, F64, float, npt.NDArray[np.bool_]] | None:
    """(face, distances, threshold, mask) of a sprite or a heavy glyph that the
    texture rule missed or read against a pulled face on one box's inside
    (`inner`, with `dist` from its median face and `med` their median), or None.
    `found`: the plain rule found ink; only a heavy glyph then reads again. One
    rule for `content` and `contents_of`."""
    if rule.texture * med <= rule.ink:
        return None  # a flat face: the plain rule already looked with INK
    near = dist.reshape(-1) <= med
    face: F64 = np.median(inner.reshape(-1, 3)[near], axis=0)
    dist2: F64 = np.abs(inner - face).max(axis=2)
    smooth = _smooth(inner, dist2 <= 0.5 * rule.ink)
    if found and not smooth:
        return None  # ink on a textured face: the plain rule's reading stands
    threshold = float(rule.ink)
    if not smooth:
        threshold = max(threshold, 2.0 * rule.texture * float(np.percentile(dist2, 25)))
    mask = dist2 > threshold
    count = int(mask.sum())
    lo, hi = SPRITE_SHARE[0], HEAVY_SHARE if smooth else SPRITE_SHARE[1]
    if not (max(rule.min_pixels, lo * mask.size) <= count <= hi * mask.size):
        return None
    return face, dist2, threshold, mask


def faint_ink(
    inner: F64, dist: F64, med: float, rule: InkRule, rim: tuple[Image, Box] | None = None
) -> tuple[F64, F64, npt.NDArray[np.bool_]] | None:
    """(face, distances, mask) of a faint glyph on a flat face (see FAINT_FLAT)
    of one box's inside whose ink the plain rule did not find, or None. `dist`:
    each pixel's distance from the inside's median face, `med` their median.
    One rule for `content` and `contents_of`."""
    if rule.texture * med > rule.ink:
        return None  # a textured face: no faint glyph is told from its texture
    if float(dist.max()) < 0.5 * rule.faint:
        return None  # a faint glyph stands out of any median between it and the face
    flat = inner.reshape(-1, 3)
    colours, counts = np.unique(flat, axis=0, return_counts=True)
    face: F64 = colours[int(np.argmax(counts))]
    dist2: F64 = np.abs(inner - face).max(axis=2)
    if float((dist2 <= FAINT_FLAT).mean()) <= FAINT_FACE:
        return None
    mask = dist2 > rule.faint
    count, lo = int(mask.sum()), max(rule.min_pixels, FAINT_SHARE[0] * mask.size)
    if not lo <= count <= FAINT_SHARE[1] * mask.size:
        return None
    if max(side_shares(mask)) > FAINT_SIDE and not _clear_when_grown(rim, face, rule.faint):
        return None
    if not _smooth(inner, dist2 <= 0.5 * rule.faint):
        return None
    return face, dist2, mask


def _clear_when_grown(rim: tuple[Image, Box] | None, face: F64, threshold: float) -> bool:
    """Whether ink that runs along a side of the inside `box` of `tile` (`rim`)
    is a glyph cut by the rim: grown over the rim lines it runs into
    (`rim_grown`), it runs along no side of the box for over FAINT_SIDE. A
    look that sets its digits in the cell's bottom-right corner, at 12.8 px
    cells (our page's seed 2213 at 75%, a pale 1 on a light grey face): the
    1's stem ran the inside's right side, the cell read as a 0 beside
    unopened cells, and no numbering fitted the first opening. A bevel's or
    a neighbour's edge runs on along the rim line past it, a line
    `rim_grown` does not grow over."""
    if rim is None:
        return False
    tile, box = rim
    grown = rim_grown(tile, box, face, threshold)
    if grown is None:
        return False
    g0, g1, h0, h1 = grown
    mask = np.abs(tile[g0:g1, h0:h1, :3].astype(np.float64) - face).max(axis=2) > threshold
    return max(side_shares(mask)) <= FAINT_SIDE


# A glyph set at the cell's edge runs into the rim `content` leaves out as
# lines and bevels (15% a side): a look that sets its digits in the cell's
# bottom-right corner, at 11 px cells, had a 3 at one sub-pixel phase cut to a
# sliver of one column, and named apart from the other 3s. A rim line (a row or
# column of the box beyond the inside) is a grid line, a gap or a bevel when
# its pixels stand out of the face along RIM_LINE of the box's whole side or
# more; a glyph never spans a whole side. Any other rim line the glyph's ink
# runs into is face, and the inside grows over it.
RIM_LINE = 0.9
# top, bottom, left, right: the inside is tile[top:bottom, left:right]
Box = tuple[int, int, int, int]


# A glyph drawn in two tones (a light fill in a dark outline, a digit over its
# drop shadow) has each tone where at least this share of its ink pixels, and
# at least TONE_PIXELS of them, lie on that side of the face.
TONE_SHARE = 0.2
TONE_PIXELS = 2


def ink_tones(ink: F64, face: F64) -> Tones:
    """The median colour of the ink pixels lighter than the face, and of those
    darker (None for a side with too few). The ink's one median flips between
    the tones of a two-tone glyph as its phase shifts the pixel counts: our
    page's seed 2208 at 90%, a pale green 2 in a dark outline measured once
    by its fill (170, 200, 170) and once by its outline (70, 83, 70)."""
    side = (ink - face).sum(axis=1)
    least = max(TONE_PIXELS, TONE_SHARE * len(ink))
    light, dark = ink[side > 0], ink[side < 0]
    return (
        np.median(light, axis=0) if len(light) >= least else None,
        np.median(dark, axis=0) if len(dark) >= least else None,
    )


def inside_box(tile: Image) -> Box:
    """The box's inside: all but the rim (15% a side, at least a pixel)."""
    h, w = tile.shape[:2]
    m = max(1, round(0.15 * min(h, w)))
    return m, h - m, m, w - m


def rim_grown(tile: Image, box: Box, face: F64, threshold: float) -> Box | None:
    """The inside `box` grown, a rim line at a time, on each side where the
    glyph's ink (what stands out of `face` by over `threshold`) runs into a
    rim line that is no line (RIM_LINE); None when it does not grow."""
    h, w = tile.shape[:2]
    ink = np.abs(tile[:, :, :3].astype(np.float64) - face).max(axis=2) > threshold
    # Each line's share of ink along the box's whole side, once.
    rows, cols = ink.mean(axis=1), ink.mean(axis=0)
    top, bottom, left, right = box
    while True:
        mask = ink[top:bottom, left:right]
        grown = [top, bottom, left, right]
        for side, (edge, at) in enumerate(
            (
                (mask[0], top - 1),
                (mask[-1], bottom),
                (mask[:, 0], left - 1),
                (mask[:, -1], right),
            )
        ):
            if not 0 <= at < (h if side < 2 else w) or not edge.any():
                continue
            if float(rows[at] if side < 2 else cols[at]) >= RIM_LINE:
                continue
            beside = ink[at, left:right] if side < 2 else ink[top:bottom, at]
            near = edge.copy()
            near[1:] |= edge[:-1]
            near[:-1] |= edge[1:]
            if (beside & near).any():
                grown[side] += -1 if side in (0, 2) else 1
        if grown == [top, bottom, left, right]:
            break
        top, bottom, left, right = grown
    return None if (top, bottom, left, right) == box else (top, bottom, left, right)


def rim_lines_off(tile: Image, box: Box, face: F64, threshold: float) -> Box | None:
    """The inside `box` less its outer lines that are rim (None when none is):
    a line of the inside that stands out of `face` by over `threshold` along
    RIM_LINE of its length or more, as the line past it does (or the line is
    the tile's own edge), is a grid line, a gap or a bevel that the cell's
    phase moved inside: a glyph never spans a whole side. At most two lines a
    side. Our page's seed 2314 at 80% (19.33 px cells, gaps drawn 3 or 4 px
    wide): one row's tiles began a pixel into the gap above, every cell of
    the row had a grey line of ink along its top, its 0 read as a number,
    and no numbering fitted."""
    h, w = tile.shape[:2]
    ink = np.abs(tile[:, :, :3].astype(np.float64) - face).max(axis=2) > threshold
    top, bottom, left, right = box
    for _ in range(2):
        before = (top, bottom, left, right)
        if bottom - top > 4:
            if ink[top, left:right].mean() >= RIM_LINE and (
                top == 0 or ink[top - 1, left:right].mean() >= RIM_LINE
            ):
                top += 1
            if ink[bottom - 1, left:right].mean() >= RIM_LINE and (
                bottom == h or ink[bottom, left:right].mean() >= RIM_LINE
            ):
                bottom -= 1
        if right - left > 4:
            if ink[top:bottom, left].mean() >= RIM_LINE and (
                left == 0 or ink[top:bottom, left - 1].mean() >= RIM_LINE
            ):
                left += 1
            if ink[top:bottom, right - 1].mean() >= RIM_LINE and (
                right == w or ink[top:bottom, right].mean() >= RIM_LINE
            ):
                right -= 1
        if (top, bottom, left, right) == before:
            break
    return None if (top, bottom, left, right) == box else (top, bottom, left, right)


def side_shares(mask: npt.NDArray[np.bool_]) -> tuple[float, float, float, float]:
    """The share of each side of a box's `mask` that is set: top, bottom, left, right."""
    return (
        float(mask[0].mean()),
        float(mask[-1].mean()),
        float(mask[:, 0].mean()),
        float(mask[:, -1].mean()),
    )


def around_glyph(tile: Image, inner: F64, dist: F64, ink: float) -> tuple[F64, F64] | None:
    """(face, distances) of a box whose glyph fills half its inside, or None.

    A glyph over half the inside (kmines' digits in 17 px cells at Qt's 125%:
    a 1's stem 4 px wide in an inside of 11) puts the inside's median on the
    glyph, or between it and the face, and few pixels lie near it (`dist`,
    from that median, within `ink`). The face shows around the glyph: the
    median of the box but its outer pixel, taken when more of the inside lies
    near it. One rule for `content` and `contents_of`."""
    near = float((dist <= ink).mean())
    if near >= 0.5:
        return None
    h, w = tile.shape[:2]
    wide: F64 = np.median(tile[1 : h - 1, 1 : w - 1, :3].reshape(-1, 3).astype(np.float64), axis=0)
    wide_dist: F64 = np.abs(inner - wide).max(axis=2)
    if float((wide_dist <= ink).mean()) <= near:
        return None
    return wide, wide_dist


def face_texture(dist: F64, ink: float) -> float:
    """How much a face found around its glyph (`around_glyph`) varies: the median
    distance from it of the inside's pixels within `ink` of it (none: 0).

    The texture rule takes ink to stand out of the face by INK_TEXTURE times
    the inside's median distance, which is the face's own texture while the
    face is most of the inside. Around a glyph over half of it, that median
    lies on the glyph: the npm web game's bold 4 at 50% zoom (62% of a 14 px
    inside) set the bar at 536 levels, found no ink, and read as an empty
    opened cell, a 0. One rule for `content` and `contents_of`."""
    near = dist[dist <= ink]
    return float(np.median(near)) if near.size else 0.0


def face_apart(inner: F64, face: F64, dist: F64, threshold: float) -> F64:
    """The face of an inked box from its pixels well apart from the ink.

    The inside's median counts the glyph's edge pixels, part ink part face,
    and per channel they pull it apart: an orange 3 over a grey face made it
    (170, 168, 161) where the face is (173, 173, 173), a hue no grey picture
    behind a translucent face gives, so the same 3 on a darker shade was no
    shade of it. The median of the pixels within half the ink threshold of
    that face is the face itself; kept as it was when they are under a
    quarter of the inside. One rule for `content` and `contents_of`."""
    near = dist <= 0.5 * threshold
    if int(near.sum()) < 0.25 * near.size:
        return face
    out: F64 = np.median(inner[near], axis=0)
    return out


def _smooth(inner: F64, near: npt.NDArray[np.bool_]) -> bool:
    """Whether the face-like (`near`) pixels of a box's inside form a smooth face:
    the median step between two neighbours both face-like is SMOOTH_STEP or less."""
    pairs = near[:, 1:] & near[:, :-1]
    if not pairs.any():
        return False
    step = np.abs(inner[:, 1:] - inner[:, :-1]).max(axis=2)
    return float(np.median(step[pairs])) <= SMOOTH_STEP


def sprite_pixels(inner: F64, face: F64) -> F64:
    """A sprite's own pixels against its face: where its glyph is painted on it.

    A sprite's ink is mostly the sprite (a signpost), the same for every
    number; the digit painted on it is a few pixels, too few for the glyph's
    shape to tell a 4 from a 5 in a small cell. The pixels themselves do: the
    game draws one number's sprite alike in every cell."""
    out: F64 = inner - face
    return out


def sprite_apart(a: F64, b: F64) -> bool:
    """Whether two sprites' pixels (`sprite_pixels`) are two drawings: more than
    SPRITE_PIXELS of their common box differ by over SPRITE_DIFF in a channel."""
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    diff = np.abs(a[:h, :w] - b[:h, :w]).max(axis=2)
    return int((diff > SPRITE_DIFF).sum()) > SPRITE_PIXELS


def glyph_shape(
    weight: npt.NDArray[np.float32],
    centre: tuple[float, float],
    spread: tuple[float, float],
    glyph: int,
    span: float,
) -> npt.NDArray[np.float64]:
    """The ink's weights resampled to a glyph x glyph square covering its
    centre +- `span` spreads on each axis: the glyph's shape whatever its
    size in the cell (one rule for `content` and `contents_of`)."""
    import cv2

    (cx, cy), (sx, sy) = centre, spread
    ax, ay = 2 * span * sx / glyph, 2 * span * sy / glyph
    to_glyph = np.array(
        [[ax, 0.0, cx - ax * (glyph / 2 - 0.5)], [0.0, ay, cy - ay * (glyph / 2 - 0.5)]]
    )
    shape: npt.NDArray[np.float64] = cv2.warpAffine(
        weight,
        to_glyph,
        (glyph, glyph),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0.0,
    ).astype(np.float64)
    return shape


def contents_of(tiles: Sequence[Image], rule: InkRule) -> list[Parts | None] | None:
    """(face, ink, shape, aspect) of each box as `learning_reader.content` finds
    them; the boxes are all one size. None for boxes too small to have an inside
    (`content` then takes the whole box), and None in the list for a box whose
    glyph runs into its rim (`rim_grown`: `content` takes it alone)."""

    if not tiles:
        return []
    box = inside_box(tiles[0])
    top, bottom, left, right = box
    if bottom <= top or right <= left:
        return None
    stack = np.stack([t[top:bottom, left:right, :3] for t in tiles])
    inner = stack.astype(np.float64)
    b, ih, iw = inner.shape[:3]
    face = np.median(inner.reshape(b, ih * iw, 3), axis=1)
    dist = np.abs(inner - face[:, None, None, :]).max(axis=3)
    # A rim line inside a box: `content` takes the box alone (`rim_lines_off`).
    lines = dist > rule.ink
    edge = np.stack(
        [
            lines[:, 0, :].mean(1),
            lines[:, -1, :].mean(1),
            lines[:, :, 0].mean(1),
            lines[:, :, -1].mean(1),
        ]
    )
    lined = {
        int(k)
        for k in np.flatnonzero((edge >= RIM_LINE).any(axis=0))
        if rim_lines_off(tiles[int(k)], box, face[k], float(rule.ink)) is not None
    }
    med = np.median(dist.reshape(b, ih * iw), axis=1)
    for k in np.flatnonzero((dist <= rule.ink).reshape(b, -1).mean(axis=1) < 0.5):
        around = around_glyph(tiles[int(k)], inner[k], dist[k], float(rule.ink))
        if around is not None:
            face[k], dist[k] = around
            med[k] = face_texture(dist[k], float(rule.ink))
    threshold = np.maximum(float(rule.ink), rule.texture * med)
    mask = dist > threshold[:, None, None]
    count = mask.reshape(b, -1).sum(axis=1)
    inked = count >= max(rule.min_pixels, rule.min_share * ih * iw)
    sprites: dict[int, F64] = {}
    for k in np.flatnonzero(rule.texture * med > rule.ink):
        sprite = sprite_ink(inner[k], dist[k], float(med[k]), rule, bool(inked[k]))
        if sprite is not None:
            face[k], dist[k], threshold[k], mask[k] = sprite
            inked[k] = True
            sprites[int(k)] = sprite_pixels(inner[k], face[k])
    faints: set[int] = set()
    for k in np.flatnonzero(~inked):
        if int(k) in lined:
            continue  # read by `content`
        faint = faint_ink(inner[k], dist[k], float(med[k]), rule, (tiles[int(k)], box))
        if faint is not None:
            face[k], dist[k], mask[k] = faint
            threshold[k], inked[k] = rule.faint, True
            faints.add(int(k))
    result: list[Parts | None] = [
        None if k in lined else (face[k].copy(), None, None, 0.0, None, False, NO_TONES)
        for k in range(b)
    ]
    picked = np.flatnonzero(inked)
    if picked.size == 0:
        return result
    dist_i, mask_i, thr = dist[picked], mask[picked], threshold[picked]
    n = picked.size
    top = np.where(mask_i, dist_i, -np.inf).reshape(n, -1).max(axis=1)
    half = 0.5 * thr
    scale = np.maximum(1.0, top - half)
    weight = np.clip((dist_i - half[:, None, None]) / scale[:, None, None], 0.0, 1.0).astype(
        np.float32
    )
    ys, xs = np.mgrid[0:ih, 0:iw]
    total = weight.reshape(n, -1).sum(axis=1)
    sum_x = (weight * xs).reshape(n, -1).sum(axis=1)
    sum_y = (weight * ys).reshape(n, -1).sum(axis=1)
    centre_x = np.array([float(a) / float(t) for a, t in zip(sum_x, total, strict=True)])
    centre_y = np.array([float(a) / float(t) for a, t in zip(sum_y, total, strict=True)])
    var_x = (weight * (xs - centre_x[:, None, None]) ** 2).reshape(n, -1).sum(axis=1)
    var_y = (weight * (ys - centre_y[:, None, None]) ** 2).reshape(n, -1).sum(axis=1)
    glyph, span = rule.glyph, rule.span
    for j, k in enumerate(picked):
        if int(k) in lined:
            continue
        if int(k) not in sprites and rim_grown(tiles[int(k)], box, face[k], float(thr[j])):
            result[k] = None
            continue
        tot = float(total[j])
        cx, cy = float(centre_x[j]), float(centre_y[j])
        wk = weight[j]
        sx = max(0.5, float(np.sqrt(var_x[j] / tot)))
        sy = max(0.5, float(np.sqrt(var_y[j] / tot)))
        shape = glyph_shape(wk, (cx, cy), (sx, sy), glyph, span)
        pixels = inner[k][mask_i[j]]
        ink = np.median(pixels, axis=0)
        result[k] = (
            face[k].copy()
            if int(k) in sprites
            else face_apart(inner[k], face[k], dist_i[j], float(thr[j])),
            ink,
            shape.reshape(-1),
            float(np.log(sx / sy)),
            sprites.get(int(k)),
            int(k) in faints,
            ink_tones(pixels, face[k]),
        )
    return result
