"""A reader for a theme msolver does not know: it learns the tiles while it plays.

All it starts from is the profile of a blank board: the grid, the mine count
and what the blank board showed in every cell (`Profile.blank`; an older
profile has only the unopened tile, taken as every cell's blank look). A cell
that still looks like itself on the blank board is unopened, whatever its
shade: a gradient, texture or vignette behind the tiles is part of each
cell's own look. Any other cell is read by its content: the colour of its
face, and the colour and shape of its ink (the pixels far from the face),
the shape normalised to the glyph's own box, so a small 1 and a small 2 in a
big cell are as far apart as big ones. A look never seen before is named
from the rules of the game (`msolver.vision.naming`).

What keeps it from learning nonsense, or acting on it:
- nothing is learned from a board nobody clicked: a new look may only appear
  on a cell our clicks could have opened (the cells clicked, and the cells
  joined to them through newly opened cells that show no ink, as a 0's
  opening spreads); a change anywhere else (the board changed where we did
  not click) is reported as unread with the reason, and the player stops
  rather than guess. A lost game may show its mines anywhere: only after a
  guess, and then only names a loss explains are given;
- an opened cell that changes its look (a click ripple, a focus ring, a
  hover) is read again, never named;
- a cell whose content matches a look but whose whole patch (its rim too)
  is nearer its own blank look than that look's tile (a hover, a focus ring
  or a faint preview over a blank cell) is read again, and nothing of that
  frame is kept;
- a new look is named only from a frame that held still for HOLD seconds;
- a look that could be one of several numbers stays unnamed; the reading
  then carries every board that fits (`Reading.alternatives`) and the player
  acts only on moves that are sure in all of them;
- a named look is proven only by a finished board that it explains (a won
  board, or a lost one showing every mine); only proven looks are kept in
  the profile (`learned_profile`), and only when the blank board still
  reads all unopened with them (`blank_reads_blank`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from msolver.core.board import (
    EXPLODED,
    FLAG,
    MINE,
    UNKNOWN,
    WRONG_FLAG,
    Board,
    neighbours_table,
    side_neighbours_table,
    zero_beside_unknown,
)
from msolver.core.clock import Clock, RealClock
from msolver.vision import digits
from msolver.vision.contentbatch import (
    NO_TONES,
    InkRule,
    Tones,
    around_glyph,
    contents_of,
    face_apart,
    face_texture,
    faint_ink,
    glyph_shape,
    ink_tones,
    inside_box,
    rim_grown,
    rim_lines_off,
    side_shares,
    sprite_apart,
    sprite_ink,
    sprite_pixels,
)
from msolver.vision.geometry import Grid
from msolver.vision.image import Image
from msolver.vision.lookmatch import LookTable, best_look
from msolver.vision.naming import Naming, name_looks
from msolver.vision.patchcache import PatchCache, PatchMemo
from msolver.vision.profile import BLANK_K, STATE_OF_LABEL, Profile, cell_patches
from msolver.vision.reader import VisionReader
from msolver.vision.reading import Reader, Reading

K = BLANK_K  # patch side, in samples
# Mean squared difference (channels in 0..1) under which a cell still shows its
# blank look, when the blank cells are all alike: about 6/255 RMS. An opened and
# an unopened cell of sgt-mines differ by about 0.002.
SAME = 0.0006
# Cells that differ among themselves on the blank board (a texture) are still
# themselves up to this share of the typical difference between neighbours.
SPREAD_SHARE = 0.25
SAME_MAX = 0.004
# A sample inside a cell's rim this far (0..255, any channel) from its blank
# look is a mark on it, however small against the cell: a text "F" on a 66 x
# 48 px Tk button moves the mean by less than SAME, and its samples by 39-41
# levels. Blank cells of every recorded game differ there by 0 (47,346 cell
# frames of 38 recorded runs, 2026-11-27).
SPOT = 24
# A cell whose patch differs only along two touching edges (a sliver of the
# neighbour) still shows its blank look when the rest is this close (a share
# of the cell's SAME).
RIM_SHARE = 0.5
# A box whose every side differs from its blank look by SPOT on this share of
# its length has lost its bevel: opened (`_opened_by_rim`).
RIM_SIDES = 0.5
# Content of an opened cell. Ink: a channel at least this far (0..255) from the
# face, or several times the face's own texture, whichever is more.
INK = 48
INK_TEXTURE = 4.0
INK_MIN_PIXELS = 3
INK_MIN_SHARE = 0.003
# Ink of a faint digit on a flat face (contentbatch.faint_ink): a third of INK.
INK_FAINT = 16.0
GLYPH = 10  # side of the glyph's shape, in samples
GLYPH_SPAN = 1.8  # the shape covers the ink's centre +- this many spreads
# Two cells show one look when every part agrees within these (0..255 per
# channel for colours; mean absolute difference for the 0..1 shape; log of the
# width/height ratio for the glyph's proportions).
FACE_TOL = 12.0
# How far a translucent opened face's shade may move across a board (kmines'
# default theme over its gradient: 173-190, measured on one board)
SHADE_TOL = 36.0
SHADE_HUE = 8.0  # the most the channels' shifts may differ in a shade
INK_TOL = 56.0
SHAPE_TOL = 0.06
ASPECT_TOL = 0.25
# A built-in theme's confidence (see vision.classify) on every opened cell of a
# game's first frame for its tiles to be taken as the game's. Its own tiles at
# their recorded size read at 0.96 and up; gnome-mines drawn by GTK at other
# window sizes (its own tiles at 26, 43 and 50 px, not the recorded 33 px
# scaled) reads its digits at 0.73 at best, many of them under 0.35.
SURE = 0.85
# A new look in a named number's colours (face and ink within FACE_TOL and
# INK_TOL) whose glyph differs by at most VARIANT_SHAPE times SHAPE_TOL (and
# VARIANT_ASPECT times ASPECT_TOL) may be that number drawn at another
# sub-pixel phase; the rules decide which it is. gnome-mines lays its tiles at
# whole pixels unevenly and draws the digits at fractional ones: one digit in
# two columns differed by up to 2.46 SHAPE_TOL at 23 px, by 1.13 at 26 px,
# its colours within 0.75 of the tolerances.
VARIANT_SHAPE = 5.0
# A new look's glyph this far (in SHAPE_TOL) from a named number's accounts
# for it as well as a number not seen yet does: between the redraws measured
# (up to 2.46) and two digits of one colour (3.8 and more apart). Only a guess
# goes by it (`naming.decide_among`), never a certain move.
NEW_NUMBER_STRAIN = 3.0
VARIANT_ASPECT = 2.0
# More kinds of new look at once than a game has kinds of tiles: not a board
# we know. Looks that may be one tile drawn again (`_redrawn`: a glyph at
# another phase, a shade of its face) are one kind: under a fractional display
# scale, over a gradient, a first opening shows one number in many looks
# (kmines Medium at Qt's 125%: 19 looks of 6 kinds).
MAX_NEW_LOOKS = 12
# How long a frame with new looks must hold still before they are named (s).
# A game starved of CPU can leave a half-drawn tile on screen for a good
# fraction of a second, and a look named from it never matches again.
HOLD = 0.25
_LABEL_OF_STATE = {v: k for k, v in STATE_OF_LABEL.items()}
_INK_RULE = InkRule(INK, INK_TEXTURE, INK_MIN_PIXELS, INK_MIN_SHARE, GLYPH, GLYPH_SPAN, INK_FAINT)
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
_SHOWN_MINES = (MINE, EXPLODED, FLAG, WRONG_FLAG)
_LOOK_KEY = 100  # a cell's key for an unnamed look k is _LOOK_KEY + k
# 0s bordering unopened cells corner to corner that show a sideways cascade.
_SIDEWAYS_ZEROS = 2
_SHOWN_PER_CELL = 12  # contents kept per cell by their pixels (see _content)
_SHOWN_BYTES = 32 << 20  # and their keys' bytes in all
# Levels (of 255, any channel) by which two cells' blank looks may differ at a
# pixel and still show the same thing there: a gradient behind translucent
# cells shifts a few levels across a board; a frame or a gap line, tens.
_SURROUNDINGS = 24.0


@dataclass(frozen=True)
class Content:
    """What an opened (or flagged) cell shows: its face, and its ink if any."""

    face: F64
    ink: F64 | None = None  # the ink's colour
    shape: F64 | None = None  # GLYPH x GLYPH samples of the ink around its centre
    aspect: float = 0.0  # log(width / height) of the ink's spread
    sprite: F64 | None = None  # a sprite's pixels (contentbatch.sprite_pixels)
    faint: bool = False  # the ink is a faint glyph's (contentbatch.faint_ink)
    tones: Tones = NO_TONES  # its light and dark tones (contentbatch.ink_tones)

    def distance(self, other: Content) -> float:
        """How far apart, in tolerances: at most 1 for one look."""
        d = float(np.abs(self.face - other.face).max()) / FACE_TOL
        if (self.ink is None) != (other.ink is None):
            return max(d, 10.0)
        if self.ink is None or other.ink is None:
            return d
        assert self.shape is not None and other.shape is not None
        d = max(
            d,
            float(np.abs(self.ink - other.ink).max()) / INK_TOL,
            self.glyph_gap(other) / SHAPE_TOL,
            abs(self.aspect - other.aspect) / ASPECT_TOL,
        )
        return max(d, self.sprite_gap(other))

    def glyph_gap(self, other: Content) -> float:
        """The mean difference of two glyphs' shapes (both looks have ink)."""
        assert self.shape is not None and other.shape is not None
        return float(np.abs(self.shape - other.shape).mean())

    def sprite_gap(self, other: Content) -> float:
        """Beyond 1 when two sprites differ in the pixels their features blur
        (the digit painted on one signpost): two looks, alike for the rules."""
        if self.sprite is None or other.sprite is None:
            return 0.0
        return 1.5 if sprite_apart(self.sprite, other.sprite) else 0.0


def content(tile: Image) -> Content:
    """The content of one cell box: face colour, ink colour and glyph shape."""

    # Leave out the cell's rim: grid lines, bevels and gaps are not content.
    box = inside_box(tile)
    y0, y1, x0, x1 = box
    inner = tile[y0:y1, x0:x1, :3].astype(np.float64)
    if inner.size == 0:
        inner = tile[:, :, :3].astype(np.float64)
    flat = inner.reshape(-1, 3)
    face = np.median(flat, axis=0)
    dist = np.abs(inner - face).max(axis=2)
    whole = inner.shape[:2] == (y1 - y0, x1 - x0)
    off = rim_lines_off(tile, box, face, INK) if whole else None
    if off is not None:
        box = off
        y0, y1, x0, x1 = box
        inner = tile[y0:y1, x0:x1, :3].astype(np.float64)
        flat = inner.reshape(-1, 3)
        face = np.median(flat, axis=0)
        dist = np.abs(inner - face).max(axis=2)
    around = around_glyph(tile, inner, dist, float(INK))
    if around is not None:
        face, dist = around
        med = face_texture(dist, float(INK))
    else:
        med = float(np.median(dist))
    threshold = max(float(INK), INK_TEXTURE * med)
    mask = dist > threshold
    count = int(mask.sum())
    pixels: F64 | None = None
    is_faint = False
    found = count >= max(INK_MIN_PIXELS, INK_MIN_SHARE * mask.size)
    sprite = sprite_ink(inner, dist, med, _INK_RULE, found)
    if sprite is not None:
        face, dist, threshold, mask = sprite
        pixels = sprite_pixels(inner, face)
    elif not found:
        faint = faint_ink(inner, dist, med, _INK_RULE, (tile, box) if whole else None)
        if faint is None:
            return Content(face)
        face, dist, mask = faint
        threshold, is_faint = INK_FAINT, True
    # Where the glyph runs into a rim line that is face, the line is glyph
    # too (rim_grown): the glyph is measured on the grown box, by the face
    # and threshold the inside gave (a sprite's textured face is left alone).
    grown = None if sprite is not None or not whole else rim_grown(tile, box, face, threshold)
    glyph_box, glyph_dist, glyph_mask = inner, dist, mask
    if grown is not None:
        g0, g1, h0, h1 = grown
        glyph_box = tile[g0:g1, h0:h1, :3].astype(np.float64)
        glyph_dist = np.abs(glyph_box - face).max(axis=2)
        glyph_mask = glyph_dist > threshold
    # The glyph's place and size from its ink's weighted centre and spread, not
    # from its outermost pixels: a faint anti-aliased edge pixel that the face's
    # texture or a vignette tips over a threshold moves the box of a 5-pixel
    # glyph by a fifth, but its moments hardly at all.
    top = float(glyph_dist[glyph_mask].max())
    weight = np.clip((glyph_dist - 0.5 * threshold) / max(1.0, top - 0.5 * threshold), 0.0, 1.0)
    weight = weight.astype(np.float32)
    ys, xs = np.mgrid[0 : weight.shape[0], 0 : weight.shape[1]]
    total = float(weight.sum())
    cx, cy = float((weight * xs).sum()) / total, float((weight * ys).sum()) / total
    sx = max(0.5, float(np.sqrt((weight * (xs - cx) ** 2).sum() / total)))
    sy = max(0.5, float(np.sqrt((weight * (ys - cy) ** 2).sum() / total)))
    shape = glyph_shape(weight, (cx, cy), (sx, sy), GLYPH, GLYPH_SPAN)
    inked = glyph_box[glyph_mask]
    ink = np.median(inked, axis=0)
    tones = ink_tones(inked, face)
    if sprite is None:
        face = face_apart(inner, face, dist, threshold)
    return Content(face, ink, shape.reshape(-1), float(np.log(sx / sy)), pixels, is_faint, tones)


def _joined(alike: Mapping[int, frozenset[int]]) -> dict[int, frozenset[int]]:
    """Each look's group: the looks joined to it by a chain of `alike` pairs, itself too."""
    group: dict[int, frozenset[int]] = {}
    for start in alike:
        if start in group:
            continue
        seen = {start}
        todo = [start]
        while todo:
            for j in alike.get(todo.pop(), frozenset()):
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        members = frozenset(seen)
        for k in members:
            group[k] = members
    return group


@dataclass
class _Look:
    content: Content
    tile: Image
    state: int | None  # None while not named
    proven: bool = False  # shown on a finished board that it explains
    patch: F32 | None = None  # the tile cut as a blank look is (BLANK_K samples a side)
    cell: int | None = None  # the cell it was first seen on (None: a profile's tile)
    digit_gaps: dict[int, float] | None = None  # digits.digit_gaps of its glyph ({}: none)
    read_clean: bool = False  # shown in a clean read
    retired: bool = False  # matched no more (see LearningReader._seen)

    def __post_init__(self) -> None:
        if self.patch is None:
            self.patch = _patch(self.tile)

    def digit_strain(self, v: int) -> float:
        """How unlike digit v its glyph is, whatever the font
        (`digits.digit_strain`; 0 for a look with no plain glyph: a sprite's
        digit is a small part of its picture)."""
        if self.digit_gaps is None:
            c, box = self.content, None
            if c.ink is not None and c.sprite is None:
                box = digits.glyph_box(self.tile, c.face, c.ink)
            self.digit_gaps = {} if box is None else digits.digit_gaps(box[0])
        return digits.digit_strain(self.digit_gaps, v) if self.digit_gaps else 0.0


def _patch(tile: Image) -> F32:
    """A cell box cut and shrunk as `profile.cell_patches` cuts one (float, 0..255)."""
    h, w = tile.shape[:2]
    patch = cell_patches(tile, (0.0, 0.0), (float(w), float(h)), 1, 1)
    assert patch is not None
    return np.asarray(patch[0], dtype=np.float32)


class LearningReader:
    """Reads a board and learns the looks it has not seen.

    Without `base`, from the profile's tiles alone (for a new theme, just the
    unopened one and the blank board's looks); with `base`, the known tiles
    are read by it and only the cells it is unsure of are matched against, or
    learned as, new looks. `clock` times how long a new look holds still.
    """

    def __init__(
        self,
        profile: Profile,
        base: Reader | None = None,
        *,
        clock: Clock | None = None,
    ) -> None:
        self.profile = profile
        # A reader for the theme's known tiles (a built-in theme); this reader
        # then only learns the looks it reports unsure (a 6 no recording showed).
        self._base = base
        # Whether the profile's number tiles are this reader's own looks (no base).
        self._own_tiles = base is None
        self._clock: Clock = clock or RealClock()
        self._grid = profile.grid
        left, top, _, _ = self._grid.rect()
        self._offset = (left, top)
        self._w, self._h = round(profile.pitch[0]), round(profile.pitch[1])
        # each cell from its own line's edges (see Grid: uneven layouts)
        xs, ys = profile.grid.cell_edges()
        self._xs = [x - left for x in xs[:-1]]
        self._ys = [y - top for y in ys[:-1]]
        self._nbrs = neighbours_table(profile.cols, profile.rows)
        # A 0 opens all its neighbours, until an opening shows the game
        # floods sideways only (`_sideways`); then its side neighbours.
        self.sides_only = profile.flood == "sides"
        self._sides = side_neighbours_table(profile.cols, profile.rows)
        n = profile.rows * profile.cols
        self._blank, self._same = _blank_looks(profile)
        # Blank cells in two shades alternating as a checkerboard (Google's look):
        # its opened cells alternate two shades too, so each number has two looks.
        self._checker = _checkerboard(self._blank, profile.rows, profile.cols)
        # Opened cells may alternate two shades where the blank ones do not (or
        # not plainly enough for `_checkerboard`): learned from the opened
        # looks' faces (`_learn_opened_checker`).
        self._opened_checker = False
        # Cells of two pixel sizes (a fractional display scale or page zoom, a
        # toolkit that rounds each cell): one number is drawn to fit each, and
        # its glyphs differ by more than two numbers' of one colour do (kmines
        # classic Hard at Qt's 175%, 15.75 px: two 1s up to 5.8 SHAPE_TOL apart,
        # two 2s 5.55; two digits of one ink from 3.8). Any two looks of one face
        # and ink may then be one number (see _redrawn).
        self._two_sizes = any(
            len({round(b) - round(a) for a, b in pairwise(e)}) > 1 for e in (xs, ys)
        )
        self._patch_cache = PatchCache(self._grid, self._offset)
        # _still's and _halfway's verdicts, and the blank looks and thresholds
        # they hold for.
        self._still_memo = PatchMemo(profile.rows * profile.cols)
        self._halfway_memo = PatchMemo(profile.rows * profile.cols)
        self._memo_for = (self._blank, self._same)
        # What else _still's verdicts hold for: the last batch's cells and the
        # flat looks known (see _still_now), as (batch, number of looks).
        self._still_for: tuple[frozenset[int], int, bytes] = (frozenset(), 0, b"")
        self._opened_refs: F32 | None = None
        # With a base reader: whether each cell's blank look is known (the
        # profile's, or taken from the first fresh board); until then the base's
        # unopened cells are taken as read.
        self._base_blank: bool | None = True if profile.blank is not None else None
        self.looks: list[_Look] = []
        for label, variants in profile.tiles.items() if base is None else ():
            if label == "unknown":
                continue  # unopened cells are told by their blank look
            for tile in variants:
                self.looks.append(_Look(content(tile), tile, STATE_OF_LABEL[label], proven=True))
        # Per cell in the last clean read: its state, or _LOOK_KEY + look for an
        # unnamed look; None before the first clean read.
        self._last: list[int] | None = None
        self._last_looks: dict[int, int] = {}  # cell -> look, in the last clean read
        # The frame being read, and the frame of the last clean read (see _unmoved).
        self._reading: Image | None = None
        self._last_image: Image | None = None
        # The first blank board this reader saw: a learned profile must read it blank.
        self._blank_frame: Image | None = None
        self._flagged: set[int] = set()
        # Per cell, the right clicks sent to it this game (see _flag_clicked_off).
        self._flag_clicks: dict[int, int] = {}
        self._clicked: set[int] = set()  # cells our clicks opened this game
        self._batch: frozenset[int] = frozenset()  # those of the last batch
        self._guessed: frozenset[int] = frozenset()
        # Flags sent while a guess's look is still unnamed (see sent): the
        # solver's, on the readings where that guess was safe.
        self._flags_after_guess: frozenset[int] = frozenset()
        # 0s the player saw this game leave beside unopened cells (zeros_alone).
        self._left_alone: set[int] = set()
        self._candidate: tuple[Image, float] | None = None
        self._cache: dict[int, tuple[bytes, Content]] = {}
        self._shown: dict[int, dict[bytes, Content]] = {}
        self._shown_bytes = 0
        # Per cell, the patch cache's frame at which its cached content last matched.
        self._cache_frame = [-1] * n
        # Per cell: looks known, and the looks its cached content is near (see _near).
        self._near_looks: dict[
            int, tuple[tuple[int, int], Content, int | None, tuple[int, ...]]
        ] = {}
        self._retired_count = 0
        self._table = LookTable(FACE_TOL, INK_TOL, SHAPE_TOL, ASPECT_TOL)
        self.learned: list[str] = []  # names learned, in order (for the user and tests)
        self._n = n

    @property
    def grid(self) -> Grid:
        return self._grid

    @property
    def mines(self) -> int:
        return self.profile.mines

    def sent(
        self, flagged: frozenset[int], guessed: frozenset[int], opened: frozenset[int] = frozenset()
    ) -> None:
        self._flagged |= flagged
        for i in flagged:
            self._flag_clicks[i] = self._flag_clicks.get(i, 0) + 1
        # A guessed cell whose look is still not named stays a guess that may
        # have gone off: a game that takes flags after a loss (NiceGUI) let
        # the next batch, all flags, drop it, and no loss was asked of the
        # frame after; the mine that went off was named a 3.
        held = frozenset(i for i in self._guessed if self._unnamed_last(i))
        self._flags_after_guess = (self._flags_after_guess | flagged) if held else frozenset()
        self._guessed = guessed | held
        self._clicked |= opened | guessed
        self._batch = opened | guessed

    def _unnamed_last(self, i: int) -> bool:
        """Whether cell i showed a look not named yet in the last clean read."""
        last = self._last
        if last is None or last[i] < _LOOK_KEY:
            return False
        return self.looks[last[i] - _LOOK_KEY].state is None

    def learn(self, image: Image, board: Board) -> None:
        """A won board: the looks of the last clean read that it explains are proven.

        The board may be completed from earlier frames (a win flash, a dialog
        over the board); a look counts only where it shows the board's state.
        """
        if not explained(board):
            return
        for i, k in self._last_looks.items():
            if self.looks[k].state is not None and self.looks[k].state == board.cells[i]:
                self.looks[k].proven = True

    @property
    def proven(self) -> list[str]:
        """Names of the learned looks a finished board has proven."""
        return [
            _LABEL_OF_STATE[look.state]
            for look in self.looks
            if look.state is not None and look.proven
        ]

    def learned_profile(self) -> Profile | None:
        """The profile with one tile per proven new look (to keep for the next session).

        None when no new look is proven yet, or when the result would not read
        the calibration's blank board as all unopened.
        """
        tiles: dict[str, list[Image]] = {k: list(v) for k, v in self.profile.tiles.items()}
        changes: dict[str, object] = {}
        if self._base is None and not self._own_tiles:
            # The built-in theme was dropped in play: keep none of its tiles, and
            # keep each cell's blank look as read on the fresh board.
            tiles = {"unknown": list(self.profile.tiles["unknown"])}
            changes = {"theme": "custom"}
            if self.profile.blank is None and self._base_blank:
                changes["blank"] = np.clip(np.rint(self._blank), 0, 255).astype(np.uint8)
        added = False
        for look in self.looks:
            if look.state is None or not look.proven:
                continue
            label = _LABEL_OF_STATE[look.state]
            if not any(
                t.shape == look.tile.shape and np.array_equal(t, look.tile)
                for t in tiles.get(label, [])
            ):
                tiles.setdefault(label, []).append(look.tile)
                added = True
        if not added:
            return None
        out = self.profile.with_changes(tiles={k: tuple(v) for k, v in tiles.items()}, **changes)
        # Judged on the blank board this reader saw, pixel for pixel. A board
        # rebuilt from the profile's BLANK_K-sample looks is no stand-in for it
        # on a textured or stippled theme: cut again, its patches differ from the
        # ones it was built from by more than a cell may differ from itself, and
        # every such profile would be refused. The rebuilt board is asked only
        # when no blank board was seen (it is exact for an older profile's one
        # unopened tile).
        if self._blank_frame is not None:
            return out if reads_blank(out, self._blank_frame) else None
        return out if blank_reads_blank(out) else None

    # -- pixels ------------------------------------------------------------------------

    def _fits(self, image: Image) -> bool:
        h, w = image.shape[:2]
        return bool(h >= self._ys[-1] + self._h and w >= self._xs[-1] + self._w)

    def _tile(self, image: Image, i: int) -> Image:
        r, c = divmod(i, self.profile.cols)
        y, x = self._ys[r], self._xs[c]
        return image[y : y + self._h, x : x + self._w, :3]

    def _patches(self, image: Image, which: list[int]) -> Image | None:
        """`cell_patches` of cells `which`, recut only where the frame changed."""
        return self._patch_cache.get(image, which)

    def _content(self, image: Image, i: int) -> Content:
        hit = self._cache.get(i)
        frames = self._patch_cache
        if hit is not None and self._cache_frame[i] >= frames.since[i]:
            # The box holds the bytes it held when its content was taken (image
            # is the frame the patch cache saw last).
            self._cache_frame[i] = frames.frame
            return hit[1]
        tile = self._tile(image, i)
        key = tile.tobytes()
        self._cache_frame[i] = frames.frame
        if hit is not None and hit[0] == key:
            return hit[1]
        # A cell shows the same pixels in the same state game after game: the
        # contents it showed before are kept (a few per cell) by their bytes.
        found = self._shown.get(i, {}).get(key)
        if found is None:
            found = content(tile)
            self._keep_shown(i, key, found)
        self._cache[i] = (key, found)
        return found

    def _keep_shown(self, i: int, key: bytes, found: Content) -> None:
        # Bounded per cell and in all (a big board of big cells whose pixels
        # keep changing would otherwise hold hundreds of MB of keys).
        if self._shown_bytes > _SHOWN_BYTES:
            self._shown.clear()
            self._shown_bytes = 0
        shown = self._shown.setdefault(i, {})
        if len(shown) >= _SHOWN_PER_CELL:
            self._shown_bytes -= len(next(iter(shown)))
            shown.pop(next(iter(shown)))
        shown[key] = found
        self._shown_bytes += len(key)

    def _prefetch(self, image: Image, cells: list[int]) -> None:
        """The contents `_content` is about to take of cells whose box shows pixels
        not seen there before, taken for all of them at once (`contents_of`)."""
        frames = self._patch_cache
        todo: list[tuple[int, bytes, Image]] = []
        for i in cells:
            hit = self._cache.get(i)
            if hit is not None and self._cache_frame[i] >= frames.since[i]:
                continue
            tile = self._tile(image, i)
            key = tile.tobytes()
            if (hit is None or hit[0] != key) and key not in self._shown.get(i, {}):
                todo.append((i, key, tile))
        found = contents_of([t for *_, t in todo], _INK_RULE) if len(todo) > 1 else None
        if found is None:
            return
        for (i, key, _tile), parts in zip(todo, found, strict=True):
            if parts is not None:
                self._keep_shown(i, key, Content(*parts))

    def _near(self, c: Content, i: int | None) -> tuple[int | None, tuple[int, ...]]:
        """The look nearest c within 1 (`best_look`) and the other looks within 1,
        kept per cell i while its content is the cached one and no look is added."""
        looks = len(self.looks)
        stamp = (looks, self._retired_count)
        got = self._near_looks.get(i) if i is not None else None
        if got is not None and got[0] == stamp and got[1] is c:
            return got[2], got[3]
        table = self._table
        while len(table) < looks:
            a = self.looks[len(table)].content
            table.add(a.face, a.ink, a.shape, a.aspect)
        row = table.distances(c.face, c.ink, c.shape, c.aspect)
        if self._retired_count:
            row[[k for k, look in enumerate(self.looks) if look.retired]] = np.inf
        if c.sprite is not None:
            # The table leaves out the sprites' pixels: the few looks near
            # enough are judged by them too.
            for k in np.flatnonzero(row <= 1.0):
                row[k] = max(row[k], c.sprite_gap(self.looks[int(k)].content))
        best = best_look(row)
        others = tuple(int(k) for k in np.flatnonzero(row <= 1.0) if k != best)
        if i is not None:
            self._near_looks[i] = (stamp, c, best, others)
        return best, others

    def _match(self, c: Content, i: int | None = None) -> tuple[int | None, bool]:
        """The look `c` (cell i's content, if given) shows (or None), and whether it
        is clear of every other name."""
        best, others = self._near(c, i)
        if best is None or self._ink_elsewhere(c, best):
            return None, True
        if not others:
            return best, True
        state = self.looks[best].state
        return best, all(self.looks[k].state == state for k in others)

    def _ink_elsewhere(self, c: Content, best: int) -> bool:
        """Whether c, within 1 of a number's look, shows an ink of its own: past
        half of INK_TOL from the look's, and neither ink the other's blended
        into its face (`_thinned`, a glyph drawn thinner at another phase) nor
        their two tones agreeing (`_tones_agree`). INK_TOL is wide for those
        blends; an ink apart in any other way is another colour, so another
        number. Such a cell is taken as a new look, which may be that number
        (`_variant_of`) or another, and the rules decide. Our page's seed 2195
        at 67% (17.4 px cells, thin italic digits): a purple 4 (202, 169, 250)
        lay 0.89 from the blue 1s' look (168, 182, 250), by a glyph two 1s
        differ by more than, and 2.15 from the 4s' (204, 172, 250); in the
        next game, no 4 named yet, a 4 again read as a 1. Read as 1s, the 4s
        left no board that fits (play stopped). Our page's seed 1146 (one
        ink) has a corner 3 drawn half face, its ink on the line from the 3s'
        to the face: that 3 stays a 3."""
        a = self.looks[best].content
        if c.ink is None or a.ink is None or self.looks[best].state is None:
            return False
        if float(np.abs(c.ink - a.ink).max()) <= 0.5 * INK_TOL:
            return False
        return not (_thinned(c, a) or _thinned(a, c) or _tones_agree(c, a))

    def _kept(self, c: Content, i: int, b: int, clear: bool) -> tuple[int | None, bool]:
        """The look cell i (content c, nearest look b) shows, given what it showed in
        the last clean read: an opened cell keeps its look, so a look it matched
        then and still matches (within 1) is kept, though a look added since
        lies nearer (one glyph at many sub-pixel phases gives alike looks).
        Else `_unmuddle` when c is near looks of two names."""
        prev = None if self._last is None else self._last[i]
        if prev is not None and prev != UNKNOWN:
            best, others = self._near(c, i)
            near = (best, *others) if best is not None else ()
            for k in near:
                if (prev >= _LOOK_KEY and k == prev - _LOOK_KEY) or (
                    prev < _LOOK_KEY and self.looks[k].state == prev
                ):
                    return k, True
        if not clear:
            return self._unmuddle(c, i)
        return b, clear

    def _unmuddle(self, c: Content, i: int) -> tuple[int | None, bool]:
        """A cell near looks of two names, when every one of them is one number
        drawn again (`_redrawn`: another sub-pixel phase, another shade, each pair) and all but one
        name are unnamed looks: the cell joins the nearest unnamed look, whose
        number the rules give (the named one's number among those it may be);
        else it stays muddled. A cell that is not that number leaves no
        numbering that fits, and is read again rather than named."""
        best, others = self._near(c, i)
        assert best is not None
        near = (best, *others)
        named = {self.looks[k].state for k in near if self.looks[k].state is not None}
        unnamed = [k for k in near if self.looks[k].state is None]
        alike = all(
            self._redrawn(self.looks[a].content, self.looks[b].content)
            for a in near
            for b in near
            if a < b
        )
        if len(named) > 1 or not unnamed or not alike:
            return best, False
        return min(unnamed, key=lambda k: c.distance(self.looks[k].content)), True

    # -- reading ---------------------------------------------------------------------------

    def read(self, image: Image) -> Reading:
        reading = self._read(image)
        return replace(reading, sides_only=True) if self.sides_only else reading

    def _read(self, image: Image) -> Reading:
        p = self.profile
        n = self._n
        self._reading = image
        states: list[int | None]
        if self._base is not None:
            first = self._base.read(image)
            if self._fresh() and self._fits(image) and not self._base_sure(image, first):
                # The first frame of a game that the base's tiles do not read
                # surely: the game draws its tiles otherwise than the recording
                # (gnome-mines lays out and draws its own tiles at each window
                # size; scaled, the recorded ones read its digits by colour at
                # best). Its tiles are no evidence here: drop it and learn every
                # look from the rules, as for a theme never seen. Judged on a
                # frame that holds still (a half-drawn tile is unsure too).
                now = self._clock.monotonic()
                if self._candidate is None or not np.array_equal(self._candidate[0], image):
                    self._candidate = (image.copy(), now)
                if now - self._candidate[1] < HOLD:
                    doubt = set(first.low_confidence)
                    return self._unread(
                        [
                            UNKNOWN if s == UNKNOWN and i not in doubt else None
                            for i, s in enumerate(first.board.cells)
                        ],
                        [],
                        "tiles unlike the theme's",
                    )
                self._base = None
            if self._base is None:
                ask = list(range(n))
            elif first.problem:
                self._candidate = None
                return first
            else:
                ask = self._doubt_base(image, first)
            if self._base is None:
                # The base's theme only looked like the game's: read as a new theme.
                states = [None] * n
                ask = list(range(n))
            elif not ask:
                if self._blank_frame is None and all(s == UNKNOWN for s in first.board.cells):
                    # A fresh board read by the base alone: the blank board a
                    # learned profile must read blank.
                    self._blank_frame = image.copy()
                self._seen(list(first.board.cells), first.board)
                self._candidate = None
                return first
            else:
                states = list(first.board.cells)
        else:
            states = [None] * n
            ask = list(range(n))
        if not self._fits(image):
            blank = Board.blank(p.cols, p.rows, p.mines)
            return Reading(blank, tuple(range(n)), "the grab does not hold the board")
        patches = self._patches(image, ask)
        assert patches is not None
        still = self._still(patches, ask)
        if self._blank_frame is not None and bool(still.any()):
            still = self._opened_by_rim(image, ask, still)
        if bool(still.any()):
            still = self._unmoved(image, ask, still)
        self._prefetch(image, [i for k, i in enumerate(ask) if not still[k]])
        look_of: dict[int, int] = {}
        new: list[int] = []
        muddled: list[int] = []
        contents: dict[int, Content] = {}
        matched: list[tuple[int, int]] = []  # (place in ask, look) of each matched cell
        for k, i in enumerate(ask):
            states[i] = None
            if still[k]:
                # Still its own blank look: unopened, whatever else it resembles.
                states[i] = UNKNOWN
                continue
            c = self._content(image, i)
            contents[i] = c
            b, clear = self._match(c, i)
            if b is not None:
                b, clear = self._kept(c, i, b, clear)
            if b is None:
                new.append(i)
            elif not clear:
                muddled.append(i)
            else:
                look_of[i] = b
                states[i] = self.looks[b].state
                matched.append((k, b))
        ours = [contents[i] for i in new if i in self._flagged]

        def flagged_like(i: int) -> bool:
            """Read as the flag, or in the new look of a cell we flagged."""
            if states[i] == FLAG:
                return True
            c = contents.get(i)
            return states[i] is None and c is not None and any(c.distance(o) <= 1.0 for o in ours)

        # No cell left unopened, and as many flags as mines: a won game. Some
        # games flag the mines left as they end won (sgt-mines), where we never
        # clicked; a loss always leaves a safe cell unopened. (On a small board
        # our first flags may show on that same frame: a new look, which the
        # game's own flags then share.) A cell the last batch clicked open
        # shows a number on a won board, never a flag: react-minesweeper's
        # loss opens every cell and draws its mines over our flags, in a look
        # that, on our flagged cells, passed for the flag; the guess that went
        # off showed it too, and the loss was read as won (and its mine kept
        # as a second flag look).
        won = (
            UNKNOWN not in states
            and sum(map(flagged_like, range(n))) == p.mines
            and not any(flagged_like(i) for i in self._batch)
        )
        if self._guessed and not won:
            # A loss shows its mines, and a game may draw one through a look
            # like the flag's (gnome-mines: the mine on the unopened face, the
            # face darkening after): a flag look where we placed no flag, after
            # a guess, is a mine shown, on the guessed cell the one that went off.
            for i in ask:
                if states[i] == FLAG and i not in self._flagged:
                    states[i] = EXPLODED if i in self._guessed else MINE
        # A faint glyph on a cell whose plain face is a look already named may be
        # a preview drawn over a blank look (a 25% flag under the pointer): its
        # patch decides, as for a cell that matched that look by content.
        faint_as = [
            (k, b)
            for k, i in enumerate(ask)
            if i in contents and contents[i].faint and states[i] is None
            for b in (self._match(Content(contents[i].face), i)[0],)
            if b is not None
        ]
        # A cell we flagged whose content (no faint preview) matched the flag
        # is that flag: drawn on the blank face, a small flag at another
        # sub-pixel phase than the cell its look was learned on lies nearer
        # its own blank look than that look's patch (seed 1307 at 90%: play
        # stopped on it as half drawn, frame after frame).
        judged = [
            (k, b)
            for k, b in matched
            if not (
                ask[k] in self._flagged
                and self.looks[b].state == FLAG
                and not contents[ask[k]].faint
            )
        ]
        halfway = self._halfway(patches, ask, judged + faint_as)
        if halfway:
            # Not yet what it turns into: a look half drawn, or its blank look under
            # a hover, a focus ring or a faint preview that the content alone (which
            # leaves out the rim) takes for an opened cell. Read again; nothing of
            # this frame is kept.
            for i in halfway:
                look_of.pop(i, None)
                states[i] = None
            return self._unread(
                states,
                new + [i for i in halfway if i not in new],
                "cells nearer their blank look than any tile (a hover or a half-drawn frame)",
                passing=halfway,
            )
        if len(ask) == n and bool(still.all()):
            # Every cell shows its blank look: a fresh board (a new game).
            if self._blank_frame is None:
                self._blank_frame = image.copy()
            board = Board.blank(p.cols, p.rows, p.mines)
            self._seen(list(board.cells), board)
            self._candidate = None
            return Reading(board)
        if muddled:
            return self._unread(states, new + muddled, "a cell looks like two different tiles")
        if len(new) > 0.9 * n and self._last is not None:
            return self._unread(states, new, "most cells match no tile seen on this board")
        keys = self._keys(states, look_of)
        if self._last is not None:
            moved = [
                i
                for i in range(n)
                if self._last[i] != UNKNOWN
                and not self._same_key(self._last[i], keys[i])
                and not self._pressed(i)
                and not self._flag_redrawn(i, keys[i])
                and not self._flag_clicked_off(i, keys[i])
            ]
            if moved:
                # Opened cells never change look in a game: a ripple, a focus ring
                # or a hover passes; a flash, a cover or a moved board does not.
                row, col = divmod(moved[0], p.cols)
                return self._unread(
                    states,
                    new + moved,
                    f"opened cells changed their look ({len(moved)}, first at row {row}, "
                    f"col {col})",
                )
        appeared = (
            [i for i in range(n) if keys[i] != UNKNOWN]
            if self._last is None
            else [i for i in range(n) if self._last[i] == UNKNOWN and keys[i] != UNKNOWN]
        )
        if new and (self._last is None or not (self._clicked or self._flagged)):
            return self._unread(
                states,
                new,
                "cells look unlike the blank board before any click: show a new, unplayed "
                "board (or recalibrate)",
            )
        outside: list[int] = []
        if appeared and self._last is not None:
            reach = self._reach(keys, contents)
            outside = [i for i in appeared if i not in reach]
        if won and all(flagged_like(i) for i in outside):
            outside = []  # the game's own flags on its win
        if outside and not any(self._maybe_mine(i, keys, contents) for i in self._guessed):
            row, col = divmod(outside[0], p.cols)
            return self._unread(
                states,
                sorted(set(new) | set(outside)),
                f"the board changed where we did not click (row {row}, col {col})",
            )
        if new:
            now = self._clock.monotonic()
            if self._candidate is None or not np.array_equal(self._candidate[0], image):
                # Name new looks only from a frame that holds still for a while (a
                # cell lit under the pointer, a half-drawn frame pass in a few ms).
                self._candidate = (image.copy(), now)
                return self._unread(states, new, "new tiles, not yet holding still")
            if now - self._candidate[1] < HOLD:
                return self._unread(states, new, "new tiles, not yet holding still")
            self._add_looks(image, new, contents, look_of)
        self._candidate = None
        # A guess that may have hit a mine: a lost game shows its mines anywhere,
        # but only mines (and flags) may appear where we did not click.
        return self._name(states, look_of, outside)

    def _fresh(self) -> bool:
        """Whether the last clean read was a blank board (the next frame is a game's first)."""
        return self._last is not None and all(k == UNKNOWN for k in self._last)

    def _base_sure(self, image: Image, first: Reading) -> bool:
        """Whether the base reads every cell it calls opened (or cannot read) with a
        confidence of at least SURE: its tiles are the game's, not look-alikes.

        A base that cannot read the board at all (`first.problem`) is judged only
        when most cells still show their blank look: a board covered or moved is
        no verdict on the theme."""
        base = self._base
        if not isinstance(base, VisionReader):
            return True  # a reader of its own kind (a test's) vouches for itself
        if first.problem:
            patches = self._patches(image, list(range(self._n)))
            assert patches is not None
            return float(np.mean(self._still(patches, list(range(self._n))))) < 0.5
        cells = set(first.low_confidence)
        cells.update(i for i, s in enumerate(first.board.cells) if s != UNKNOWN)
        if not cells:
            return True
        conf = base.confidence(image)
        return conf is not None and bool(np.all(conf[sorted(cells)] >= SURE))

    def _still(self, patches: F32 | Image, ask: list[int]) -> npt.NDArray[np.bool_]:
        """`_still_now`, taken again only for the cells whose patch differs from the
        one it was last taken on: each cell's verdict is a function of its patch
        and its blank look alone, and between frames most patches are the same."""
        if patches.dtype != np.uint8 or not ask:
            return self._still_now(patches, ask)
        self._check_memos()
        self._opened_refs = self._opened_looks(patches, ask)
        now = (
            self._batch,
            len(self.looks),
            b"" if self._opened_refs is None else self._opened_refs.tobytes(),
        )
        if now != self._still_for:
            self._still_memo.reset()
            self._still_for = now
        raw: Image = np.asarray(patches, dtype=np.uint8)
        return self._still_memo.get(raw, ask, lambda got, at, _k: self._still_now(got, at))

    def _opened_by_rim(
        self, image: Image, ask: list[int], still: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.bool_]:
        """`still` less the clicked cells that opened in their rim alone, and the 0s
        their opening spread to.

        A patch leaves out a pixel all round (a neighbour's sliver in a box cut
        at a fractional phase must not count). Where the opened face is the
        unopened face's colour and the bevel is that pixel (sgt-mines at 18 px
        in such a palette), an opened 0 is its blank look but for the rim, and
        the clicked 0 read unopened. A cell of the last batch, one read opened
        before, or one beside a cell that opened since the last read (a
        browser's disabled button at 67%: an opening's 0 differs from its blank
        look by 1 level inside), whose box changed from the blank board's on
        all four sides (RIM_SIDES) is opened; a cell beside it that looks as
        blank inside and changed so is a 0's neighbour, never a mine: opened
        too, and so on out. A cell taken so reads by its content as any other."""
        assert self._blank_frame is not None
        out = np.array(still, dtype=np.bool_)
        last = self._last or [UNKNOWN] * self._n
        place = {i: k for k, i in enumerate(ask)}
        # Cells that opened since the last read (an opening spreading): a cell
        # beside one may be a 0 of that opening whose own change is its rim.
        opening = {i for k, i in enumerate(ask) if not out[k] and last[i] == UNKNOWN}
        todo = [
            i
            for k, i in enumerate(ask)
            if out[k]
            and (
                i in self._batch
                or last[i] not in (UNKNOWN, FLAG)
                or any(j in opening for j in self._nbrs[i])
            )
        ]
        if not todo:
            return out
        seen: set[int] = set()
        while todo:
            i = todo.pop()
            if i in seen:
                continue
            seen.add(i)
            now = self._tile(image, i)[..., :3].astype(np.int16)
            was = self._tile(self._blank_frame, i)[..., :3].astype(np.int16)
            if now.shape != was.shape:
                continue
            d = np.abs(now - was).max(axis=2) > SPOT
            if min(side_shares(d)) < RIM_SIDES:
                continue
            out[place[i]] = False
            todo.extend(j for j in self._nbrs[i] if j in place and out[place[j]] and j not in seen)
        return out

    def _unmoved(
        self, image: Image, ask: list[int], still: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.bool_]:
        """`still` less the cells read opened in the last clean read whose box holds
        the very bytes it held then.

        A cell cannot close again, and a box that has not changed by a single
        level cannot have changed state either: it is read by its content, as it
        was then. The blank-look test alone may judge the same pixels twice
        apart, as its verdict leans on what the batch clicked (a Tk button drawn
        sunken differs from its blank look only in its bevel: read opened on the
        frame its click showed, blank on the next, and play stopped on "opened
        cells changed their look")."""
        last, seen = self._last, self._last_image
        if last is None or seen is None or seen.shape != image.shape:
            return still
        out = np.array(still, dtype=np.bool_)
        for k, i in enumerate(ask):
            if (
                out[k]
                and last[i] not in (UNKNOWN, FLAG)
                and np.array_equal(self._tile(image, i), self._tile(seen, i))
            ):
                out[k] = False
        return out

    def _opened_looks(self, patches: F32 | Image, ask: list[int]) -> F32 | None:
        """Whole patches of looks known to be opened cells, for `_still_now`: the
        looks without ink (a 0, say), named or not yet (a look is made only from a
        cell that opened), and the patches of the last batch's cells that no
        longer show their blank look (what a click opened, this frame). A Tk 0
        read opened on the frame its click showed must not read unopened on the
        next, before the rules have named its look."""
        refs = [
            look.patch
            for look in self.looks
            if look.content.ink is None
            and (look.state is None or look.state >= 0)
            and look.patch is not None
            and not look.retired
        ]
        at = {c: k for k, c in enumerate(ask)}
        for cell in sorted(self._batch):
            k = at.get(cell)
            if k is None:
                continue
            got = np.asarray(patches[k], dtype=np.float32)
            if float((((got - self._blank[cell]) / 255.0) ** 2).mean()) > self._same[cell]:
                refs.append(got)
        return np.stack(refs).astype(np.float32) if refs else None

    def _check_memos(self) -> None:
        """Forget the memos' verdicts when the blank looks they were taken against
        changed (a base reader's first fresh board sets them)."""
        blank, same = self._memo_for
        if blank is not self._blank or same is not self._same:
            self._still_memo.reset()
            self._halfway_memo.reset()
            self._memo_for = (self._blank, self._same)

    def _still_now(self, patches: F32 | Image, ask: list[int]) -> npt.NDArray[np.bool_]:
        """Which of the cells `ask` (their patches) still show their own blank look.

        Judged on the whole patch, or on the patch less one row and one column
        at two touching edges: a board origin off by a pixel or two puts a
        sliver of the neighbour into the patch's edge, and a neighbour that
        opens must not make a cell look opened. An opened cell changes inside
        or all round (a face, a glyph, a bevel that goes), so it never passes;
        nor does a cell with a mark inside its rim (SPOT), however small.
        """
        got = patches.astype(np.float32)
        off = got - self._blank[ask]
        inside = np.abs(off[:, 1:-1, 1:-1]).reshape(len(ask), -1)
        marked = inside.max(axis=1) >= SPOT if inside.size else np.zeros(len(ask), np.bool_)
        d = (off / 255.0) ** 2
        same = self._same[ask]
        whole = d.reshape(len(ask), -1).mean(axis=1) <= same
        # The sliver lies along one vertical and one horizontal edge (the way the
        # origin is off); a bevel that goes when a cell opens runs along all four.
        rim = np.zeros(len(ask), dtype=np.bool_)
        for rows in (slice(1, None), slice(None, -1)):
            for cols in (slice(1, None), slice(None, -1)):
                rest = d[:, rows, cols].reshape(len(ask), -1).mean(axis=1)
                rim |= rest <= RIM_SHARE * same
        still = (whole | rim) & ~marked
        only_rim = np.flatnonzero(rim & ~whole & ~marked)
        if only_rim.size:
            # Unless the cell itself opened with a change only there: a toolkit
            # button drawn sunken instead of raised (Tk) changes just its bevel,
            # which the cut can leave on two touching edges. A cell the last
            # batch clicked, or one whose whole patch shows what a clicked cell
            # opened into or a flat look named since (that sunken 0, opened by
            # the 0 beside it), is not a sliver of its neighbour.
            flat = self._opened_refs
            for k in only_rim:
                cell = ask[int(k)]
                if cell in self._batch:
                    still[k] = False
                elif flat is not None:
                    near = (((got[k] - flat) / 255.0) ** 2).reshape(len(flat), -1).mean(axis=1)
                    still[k] = not bool((near <= same[k]).any())
        return np.asarray(still)

    def _halfway(self, patches: Image, ask: list[int], matched: list[tuple[int, int]]) -> list[int]:
        """The matched cells whose whole patch is nearer their own blank look than
        the look their content matched (`matched`: place in `ask`, look).

        The content of a cell leaves out its rim, so a blank cell with something
        faint inside (a hover, a focus ring, a 25% preview of a flag) can match
        a flat opened look such as a 0 by content alone; its rim (a bevel still
        there) and the faint drawing tell it apart. A cell that truly opened is
        nearer the tile it matched (and within the cell's SAME of it, it is
        that tile whatever its blank look).
        """
        if not matched:
            return []
        places = [k for k, _ in matched]
        cells = [ask[k] for k in places]
        near = self._halfway_verdicts(patches[places], cells, [b for _, b in matched])
        return [i for i, h in zip(cells, near, strict=True) if h]

    def _halfway_verdicts(
        self, got: F32 | Image, cells: list[int], looks: list[int]
    ) -> npt.NDArray[np.bool_]:
        """`_halfway_now`, taken again only for the cells whose patch or matched look
        differs from those it was last taken on: a verdict is a function of the
        patch, the look's patch (fixed once the look is made) and the cell's
        blank look, and between frames most matched cells are the same."""
        if got.dtype != np.uint8:
            return self._halfway_now(got, cells, looks)
        self._check_memos()
        raw: Image = np.asarray(got, dtype=np.uint8)
        return self._halfway_memo.get(raw, cells, self._halfway_now, looks)

    def _halfway_now(
        self, patches: F32 | Image, cells: list[int], looks: list[int]
    ) -> npt.NDArray[np.bool_]:
        """Per cell (its patch in `patches`, the look it matched): whether its whole patch is
        nearer its own blank look than that look's patch, and not within the
        cell's SAME of the look."""
        got = patches.astype(np.float32)
        tiles = np.stack([self.looks[b].patch for b in looks])  # type: ignore[misc]
        blanks = self._blank[cells]
        # Where this cell's blank look and the blank look of the cell the look was
        # first seen on differ, the pixel shows the cell's surroundings, not its
        # state: a window frame over the last column's rim, a gap a pixel wider
        # where a fractional scale lays cells 17 and 18 px apart. There a truly
        # opened cell is nearer its own blank look, so those pixels are left out
        # (unless they are most of the patch: a checkerboard's cells differ all
        # over, and are compared whole as before).
        sources = [self.looks[b].cell for b in looks]
        alike = np.ones(got.shape[:3], dtype=np.bool_)
        for k, s in enumerate(sources):
            if s is None:
                continue
            agree = np.abs(blanks[k] - self._blank[s]).max(axis=-1) <= _SURROUNDINGS
            if agree.mean() >= 0.5:
                alike[k] = agree
        weight = np.broadcast_to(alike[..., None], got.shape).astype(np.float32)
        kept = weight.reshape(len(cells), -1).sum(axis=1)

        def mean(d: F32) -> F32:
            sq = ((d / 255.0) ** 2) * weight
            return np.asarray(sq.reshape(len(cells), -1).sum(axis=1) / kept)

        to_look = mean(got - tiles)
        to_blank = mean(got - blanks)
        return np.asarray((to_blank < to_look) & (to_look > self._same[cells]))

    def _doubt_base(self, image: Image, first: Reading) -> list[int]:
        """The cells to read here: those the base reader is unsure of, and those it
        reads unopened although they no longer show their blank look (a built-in
        theme that looks like the game's but draws opened cells otherwise).

        The blank looks are the profile's, else those of the first fresh board
        the base read (all unopened, none unsure)."""
        ask = set(first.low_confidence)
        unknown = [i for i, s in enumerate(first.board.cells) if s == UNKNOWN and i not in ask]
        if self._base_blank is None and self._fits(image):
            if len(unknown) == self._n:
                all_cells = list(range(self._n))
                patches = self._patches(image, all_cells)
                assert patches is not None
                self._blank = patches.astype(np.float32)
                self._base_blank = True
            return sorted(ask)
        if unknown and self._fits(image):
            patches = self._patches(image, unknown)
            assert patches is not None
            still = self._still(patches, unknown)
            fresh = self._last is not None and all(k == UNKNOWN for k in self._last)
            if not bool(still.all()) and fresh:
                # The base reads unopened a cell that no longer looks blank, on
                # the first frame after a fresh board: its theme draws opened cells
                # otherwise than this game. Its tiles are no evidence here at all
                # (a number it reads may be misread too): drop it and learn every
                # look from the rules, as for a theme never seen.
                self._base = None
                return list(range(self._n))
            ask |= {i for i, ok in zip(unknown, still, strict=True) if not ok}
        return sorted(ask)

    def _maybe_mine(self, i: int, keys: list[int], contents: dict[int, Content]) -> bool:
        """Whether guessed cell i may show a mine that went off (any look not yet
        known as a number: a flat theme draws its mines without ink)."""
        return not (0 <= keys[i] <= 8 or keys[i] == UNKNOWN)

    def _keys(self, states: list[int | None], look_of: dict[int, int]) -> list[int]:
        return [
            s if s is not None else _LOOK_KEY + look_of[i] if i in look_of else _LOOK_KEY - 1
            for i, s in enumerate(states)
        ]

    def _pressed(self, i: int) -> bool:
        """Whether cell i last read as a 0 beside an unopened or flagged cell: no
        game shows that (a 0 opens its neighbours; we flag only proven mines), so
        it was a cell drawn sunken while the button was down (minegauler, Qt),
        not an opened cell. The player acts on no such board (a 0 beside an
        unopened cell is refused, beside a flag it reads inconsistent), so the
        cell's look then is no evidence of anything."""
        last = self._last
        assert last is not None
        opens = self._sides if self.sides_only else self._nbrs
        return last[i] == 0 and any(last[j] in (UNKNOWN, FLAG) for j in opens[i])

    def _flag_redrawn(self, i: int, key: int) -> bool:
        """Whether cell i, read as our flag last time, now shows a look not seen
        before: the flag drawn again otherwise (a browser that re-rasterised
        its CSS triangle at 125% moved its edges' shading by up to 12 levels,
        and play stopped on "opened cells changed their look"). The look is
        named like any new one: the flag when it shows only on cells we
        flagged, else the frame is unread."""
        assert self._last is not None
        # a look not named yet, or none seen before (_LOOK_KEY - 1, see _keys)
        return self._last[i] == FLAG and i in self._flagged and key >= _LOOK_KEY - 1

    def _flag_clicked_off(self, i: int, key: int) -> bool:
        """Whether cell i, read as our flag last time, now blank, was sent an
        even number of right clicks: the last one took the flag off. (A
        starved browser drew nothing of a batch for seconds; the batch was
        sent again, the first flag click drew, then the second toggled it off,
        and play stopped on "opened cells changed their look".)"""
        assert self._last is not None
        sends = self._flag_clicks.get(i, 0)
        return self._last[i] == FLAG and key == UNKNOWN and sends >= 2 and sends % 2 == 0

    def _same_key(self, last: int, now: int) -> bool:
        if last == now:
            return True
        if last >= _LOOK_KEY:
            # An unnamed look named since: the same look.
            return self.looks[last - _LOOK_KEY].state == now
        return False

    def _reach(self, keys: list[int], contents: dict[int, Content]) -> set[int]:
        """The cells our clicks could have opened: the clicked cells and flags, the
        neighbours of a clicked cell that shows a number (a click on a number a
        cascade had opened first is a chord), and the cells joined to those
        through opened cells that show a 0 (a 0 opens its neighbours).

        A 0 is a look without ink, or a look that some cell shows with every
        neighbour opened: a number of 1 or more needs a hidden or flagged mine
        beside it, so that look can only be a 0, whatever it draws (kmines'
        green theme draws its 0 as a signpost)."""
        closed = (UNKNOWN, FLAG, MINE, EXPLODED, WRONG_FLAG)
        unnamed = _LOOK_KEY - 1  # a cell that matches no look yet (see _keys)
        surrounded = [
            i
            for i in range(len(keys))
            if keys[i] >= unnamed
            and all(keys[j] not in closed and j not in self._flagged for j in self._nbrs[i])
        ]
        zero_keys = {keys[i] for i in surrounded if keys[i] != unnamed}
        zero_new: list[Content] = []
        for i in surrounded:
            c = contents.get(i)
            if keys[i] == unnamed and c is not None and all(c.distance(z) > 1.0 for z in zero_new):
                zero_new.append(c)

        def blank_face(i: int) -> bool:
            if keys[i] == 0 or keys[i] in zero_keys:
                return True
            c = contents.get(i)
            if c is not None and keys[i] == unnamed and any(c.distance(z) <= 1.0 for z in zero_new):
                return True
            return c is not None and c.ink is None and keys[i] not in (UNKNOWN, FLAG)

        reach = set(self._clicked) | self._flagged
        todo = list(self._clicked)
        done: set[int] = set()
        while todo:
            i = todo.pop()
            if i in done:
                continue
            done.add(i)
            # A click on a cell an earlier click of the batch had opened chords
            # in many games (sgt-mines): it opens the cell's neighbours too.
            chord = i in self._batch and keys[i] not in (UNKNOWN, FLAG)
            if chord or blank_face(i):
                reach.update(self._nbrs[i])
                # A cell already done would be popped and passed over: not queued.
                todo.extend(j for j in self._nbrs[i] if j not in done)
        return reach

    def _seen(self, keys: list[int], board: Board, looks: dict[int, int] | None = None) -> None:
        self._last_looks = dict(looks or {})
        was_fresh = self._last is not None and all(k == UNKNOWN for k in self._last)
        if not was_fresh and not any(s >= 0 or s == FLAG for s in board.cells):
            # A fresh board after a board in play: a new game. (Fresh again is
            # the same game: a page that fades its cells in shows our first
            # click's cell blank for a frame or two, and that click is ours.)
            self._flagged.clear()
            self._flag_clicks.clear()
            self._clicked.clear()
            self._batch = frozenset()
            self._guessed = frozenset()
            self._flags_after_guess = frozenset()
            self._left_alone.clear()
            # A look never named and never part of a clean read was seen only
            # on frames read as nothing (a lost board under the game's box,
            # where the box's own pieces made looks): it is no tile of this
            # game. Kept, a flat piece of Tk's box matched the 0s of the next
            # game's opening, which then read as half drawn, frame after frame.
            for look in self.looks:
                if look.state is None and not look.read_clean and not look.retired:
                    look.retired = True
                    self._retired_count += 1
        for k in set((looks or {}).values()):
            self.looks[k].read_clean = True
        self._last = keys
        # A copy: a caller may reuse its frame buffer.
        self._last_image = None if self._reading is None else self._reading.copy()

    def _unread(
        self, states: list[int | None], low: list[int], why: str, passing: Sequence[int] = ()
    ) -> Reading:
        cells = tuple(UNKNOWN if s is None else s for s in states)
        board = Board(self.profile.cols, self.profile.rows, self.profile.mines, cells)
        # Cells of looks not named yet are as unread as the new ones.
        unread = set(low) | {i for i, s in enumerate(states) if s is None}
        return Reading(board, tuple(sorted(unread)), why, passing=frozenset(passing))

    def _add_looks(
        self, image: Image, new: list[int], contents: dict[int, Content], look_of: dict[int, int]
    ) -> None:
        first = len(self.looks)
        for i in new:
            c = contents[i]
            near = [(c.distance(self.looks[j].content), j) for j in range(first, len(self.looks))]
            d, j = min(near, default=(2.0, -1))
            if d <= 1.0:
                look_of[i] = j
                continue
            self.looks.append(_Look(c, np.array(self._tile(image, i), copy=True), None, cell=i))
            look_of[i] = len(self.looks) - 1

    def _name(
        self, states: list[int | None], look_of: dict[int, int], outside: list[int]
    ) -> Reading:
        p = self.profile
        known = list(states)
        why = "the board changed where we did not click"
        groups: dict[int, list[int]] = {}
        for i, k in sorted(look_of.items()):
            if self.looks[k].state is None:
                groups.setdefault(k, []).append(i)
        self._learn_opened_checker(look_of)
        # Beyond 4 * MAX_NEW_LOOKS looks, not worth comparing pairwise: no game
        # draws its tiles in so many ways.
        alike = (
            {
                k: frozenset(
                    j
                    for j in groups
                    if j != k and self._redrawn(self.looks[k].content, self.looks[j].content)
                )
                for k in groups
            }
            if len(groups) <= 4 * MAX_NEW_LOOKS
            else None
        )
        # Counted by kind, not by look: the looks of one group may be one number.
        joined = _joined(alike) if alike is not None else None
        if joined is None or len(set(joined.values())) > MAX_NEW_LOOKS:
            low = sorted(i for g in groups.values() for i in g)
            return self._unread(states, low, "too many new looks")
        # Looks joined by a chain of alike pairs may all be one number: under a
        # fractional display scale one digit comes in many looks (cells of two
        # widths, the glyph at several phases), each alike its neighbours in
        # the chain but not every other one (kmines' graveyard at Qt's 125%:
        # look 5 alike 1, 4, 6 and 8, not 2, 3 or 7), and asking every pair
        # left no numbering that fits, the true one included. Letting more
        # looks share a number only adds numberings; a look is named when
        # every one that fits agrees.
        alike = {k: g - {k} for k, g in joined.items()}
        if not groups:
            if any(known[i] not in _SHOWN_MINES for i in outside):
                return self._unread(states, outside, why)
            board = Board(
                p.cols, p.rows, p.mines, tuple(UNKNOWN if s is None else s for s in known)
            )
            self._seen(self._keys(known, look_of), board, look_of)
            self._prove(board, look_of)
            return Reading(board, unproven=self._unproven(look_of))
        zeros = self._zeros_beside_unopened(known)
        if zeros:
            # A frame the game is still drawing: a 0 opens its neighbours in the
            # same redraw, so a 0 beside an unopened cell is a cell whose face is
            # drawn and its glyph not yet (a glyph that fades in; a cascade drawn
            # a step at a time). Its rules are not the board's: our page's seed
            # 2123 at 90%, a 2 fading in read as the 0 there, and with it the 2s'
            # look was named a 1 for good; three safe cells were flagged or
            # opened on it and a mine opened as certain. Nothing is named from it
            # (the player may find the 0s are the game's: `zeros_alone`).
            low = sorted(i for g in groups.values() for i in g)
            why = "a 0 beside unopened cells: the game is still drawing"
            return replace(self._unread(states, low, why), zeros_open=zeros)
        numbers = frozenset(
            look.state for look in self.looks if look.state is not None and look.state >= 0
        )
        if self._own_tiles:
            numbers |= frozenset(int(label) for label in p.tiles if label.isdigit())

        # With a base reader its tiles say nothing about these cells: it was unsure
        # of them, or read them unopened where they are not (a built-in theme
        # that only looks like the game's), so a number it knows may be drawn here
        # in a look it does not know.
        # Looks that differ only by the shade of their face may show one number
        # (a translucent opened cell over a picture: kmines' default theme).
        zeros = frozenset() if outside else self._cascaded(known)

        # Flags the solver sent while a guess's look was unnamed rest on the
        # readings where that guess was safe: the loss asks the board without them.
        asked = [
            UNKNOWN if s == FLAG and i in self._flags_after_guess else s
            for i, s in enumerate(known)
        ]

        def named(sides_only: bool) -> Naming:
            return name_looks(
                p.cols,
                p.rows,
                p.mines,
                asked,
                groups,
                flagged=frozenset(self._flagged),
                known_numbers=numbers,
                guessed=self._guessed,
                clicked=frozenset(self._clicked),
                variants={k: self._variant_of(k) for k in groups},
                alike=alike,
                mines_only=frozenset(outside),
                sides_only=sides_only,
                inkless=self._blank_on_number_face(groups),
                zeros=zeros,
            )

        naming = named(self.sides_only)
        if not self.sides_only and naming.unnamed and not naming.fits and not outside:
            sideways = named(True)
            if self._sideways(known, groups, sideways):
                self.sides_only = True
                naming = sideways
        for i in outside:
            look = look_of.get(i)
            shown = known[i]
            if shown is None and look is not None and look in naming.names:
                shown = STATE_OF_LABEL[naming.names[look]]
            if shown not in _SHOWN_MINES:
                # Only a lost game's mines may show where we did not click: name
                # nothing from a board that shows anything else there.
                return self._unread(states, [i for g in groups.values() for i in g] + outside, why)
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
        self._seen(self._keys(known, look_of), boards[0], look_of)
        if len(boards) == 1 and not unsure:
            self._prove(boards[0], look_of)
            return Reading(boards[0], unproven=self._unproven(look_of))
        return Reading(
            boards[0],
            alternatives=tuple(boards),
            unsure=unsure,
            unproven=self._unproven(look_of) - unsure,
            strain=self._strains(naming.fits),
        )

    def _zeros_beside_unopened(self, known: Sequence[int | None]) -> frozenset[int]:
        """The cells read as a 0 with an unopened side neighbour: every game's
        cascade opens those (a game that floods only sideways leaves a 0 beside
        unopened cells corner to corner, learned from the rules), but for the
        0s the player saw this game leave so (`zeros_alone`)."""
        if zero_beside_unknown(known, self._sides) is None:
            return frozenset()  # (most frames: one pass, stopped at the first such 0)
        return frozenset(
            i
            for i, s in enumerate(known)
            if s == 0
            and i not in self._left_alone
            and any(known[j] == UNKNOWN for j in self._sides[i])
        )

    def zeros_alone(self, cells: frozenset[int]) -> None:
        self._left_alone |= cells

    def _cascaded(self, known: Sequence[int | None]) -> frozenset[int]:
        """The cell of a batch of one click on an unopened cell that opened a
        neighbour of it too: only a 0 cascades, so that cell is a 0 whatever
        its look (a number opens itself alone). Our page's seed 1170 floods
        sideways: its first click opened (0, 0), a 0 on a face of its own
        shade, and its two side neighbours; numbered 1, the opening fitted a
        game that opens all a 0's neighbours, and the player flagged a safe
        cell. Asked only where nothing changed beyond our clicks' reach (a
        lost game's mines may show beside the cell that was hit)."""
        last = self._last
        if len(self._batch) != 1 or last is None:
            return frozenset()
        (c,) = self._batch
        if last[c] != UNKNOWN:
            return frozenset()  # a click on an opened number: a chord
        opened = any(
            last[j] == UNKNOWN and ((k := known[j]) is None or k >= 0) for j in self._nbrs[c]
        )
        return frozenset({c}) if opened else frozenset()

    def _blank_on_number_face(self, groups: Mapping[int, Sequence[int]]) -> frozenset[int]:
        """The new looks that draw nothing on a face that another look draws a
        glyph on (within FACE_TOL, or a shade of it: a checkerboard's other
        opened shade): each can only be a 0 (a number is drawn on that face).
        A look of a face of its own may still be any number (a game could
        tell its numbers by their face alone)."""
        faces = [
            look.content.face
            for look in self.looks
            if look.content.ink is not None and (look.state is None or look.state >= 1)
        ]
        return frozenset(
            k
            for k in groups
            if self.looks[k].content.ink is None
            and any(_face_alike(self.looks[k].content.face - f) for f in faces)
        )

    def _sideways(
        self, known: Sequence[int | None], groups: Mapping[int, Sequence[int]], naming: Naming
    ) -> bool:
        """Whether an opening that fits no numbering when a 0 opens all its
        neighbours shows a game whose cascade floods sideways only (a hobby
        clone's four-way flood fill): numbered so, the board fits (each look
        named, or some left to a guess among numberings that fit), and its
        0s border unopened cells corner to corner, as only such a
        cascade leaves them: at least _SIDEWAYS_ZEROS of them, or one joined
        through 0s side by side to a cell we clicked (our click's own
        cascade). One other cell alone may be a cell lit under the pointer,
        which the rule of all neighbours is there to refuse."""
        if naming.unnamed and not naming.fits:
            return False
        zeros = [i for k, name in naming.names.items() if name == "0" for i in groups[k]]
        zeros += [i for i, s in enumerate(known) if s == 0]
        cornered = [i for i in zeros if any(known[j] == UNKNOWN for j in self._nbrs[i])]
        if len(cornered) >= _SIDEWAYS_ZEROS:
            return True
        sides = self._sides
        zero = set(zeros)
        todo = [i for i in self._batch if i in zero]
        joined = set(todo)
        while todo:
            for j in sides[todo.pop()]:
                if j in zero and j not in joined:
                    joined.add(j)
                    todo.append(j)
        return any(i in joined for i in cornered)

    def _strains(self, fits: Sequence[Mapping[int, int]]) -> tuple[float, ...]:
        """How ill each numbering of new looks fits their glyphs: per look, its
        glyph's distance (in SHAPE_TOL) to the nearest named look of its
        number, or for a number no look names yet NEW_NUMBER_STRAIN plus how
        unlike that digit its glyph is in any font (`_Look.digit_strain`),
        summed. A new look far from every named look of a
        number is likelier a number not seen yet than that one drawn again."""
        gaps: dict[tuple[int, int], float] = {}  # (look, number): the numberings share them

        def gap(k: int, v: int) -> float:
            got = gaps.get((k, v))
            if got is None:
                c = self.looks[k].content
                near = [
                    c.glyph_gap(o.content) / SHAPE_TOL
                    for o in self.looks
                    if o.state == v and o.content.shape is not None and c.shape is not None
                ]
                # A number no look names yet is priced by how unlike that
                # digit the glyph is in any font; a named look of the number,
                # in this very font, says more.
                got = gaps[k, v] = (
                    min(near) if near else NEW_NUMBER_STRAIN + self.looks[k].digit_strain(v)
                )
            return got

        return tuple(sum(gap(k, v) for k, v in fit.items()) for fit in fits)

    def _redrawn(self, c: Content, o: Content) -> bool:
        """`_redrawn`; on a board of cells of two sizes any two looks of one face
        and ink; and on a checkerboard board the same number on the other shade:
        one ink and glyph (or none, a 0) on two faces. The rules decide."""
        if _redrawn(c, o) or _shade_of(c, o) or _turned(c, o) or _shadowed(c, o):
            return True
        if (
            self._two_sizes
            and c.ink is not None
            and o.ink is not None
            and _face_alike(c.face - o.face)
            and (_blended(c, o) or _blended(o, c))
        ):
            return True
        if not (self._checker or self._opened_checker):
            return False
        if c.ink is None or o.ink is None:
            return c.ink is None and o.ink is None
        assert c.shape is not None and o.shape is not None
        # as far apart as one digit at two sub-pixel phases may be (see
        # VARIANT_SHAPE): a shadow under the digit falls on each shade alike
        # and the glyph, measured against its face, shifts (our page's seed
        # 1157, one ink: a 1 on the two shades 1.23 SHAPE_TOL apart, named a
        # 1 and a 2 when no other numbering held two looks of one number).
        # The ink within INK_TOL, not half: a thin glyph's median pixel blends
        # with its face (seed 1299: a purple 4 32 levels darker on the dark
        # shade; barred from 4, it was named 5 and a safe cell flagged).
        return (
            float(np.abs(c.ink - o.ink).max()) <= INK_TOL
            and c.glyph_gap(o) <= VARIANT_SHAPE * SHAPE_TOL
            and abs(c.aspect - o.aspect) <= VARIANT_ASPECT * ASPECT_TOL
        )

    def _learn_opened_checker(self, look_of: dict[int, int]) -> None:
        """Whether the opened cells alternate two shades as a checkerboard: the
        looks of opened cells (0s and numbers, named or not) each lie on one
        parity of row + column only, at least four cells in all and one on
        each parity, each parity's faces alike and the two parities' apart.
        Our page's seed 2303 at 75%: plain and hatched blank cells (one hatched
        cell off its shade, so `_checkerboard` said no) and a green
        checkerboard of opened cells; the 1s on the two shades were taken for
        two numbers, and no numbering fitted the first opening (of 32 cells
        live once, of six another time, one 0 on each shade). Once seen, it
        holds for the game's looks from then on."""
        if self._checker or self._opened_checker:
            return
        cols = self.profile.cols
        parities: dict[int, set[int]] = {}
        counts = [0, 0]
        for i, k in look_of.items():
            state = self.looks[k].state
            if state is None or state >= 0:
                parity = (i // cols + i % cols) % 2
                parities.setdefault(k, set()).add(parity)
                counts[parity] += 1
        if min(counts) < 1 or sum(counts) < 4 or any(len(p) != 1 for p in parities.values()):
            return
        faces: dict[int, list[F64]] = {0: [], 1: []}
        for k, p in parities.items():
            faces[next(iter(p))].append(self.looks[k].content.face)
        a, b = (np.median(np.array(f), axis=0) for f in (faces[0], faces[1]))
        if _face_alike(a - b):
            return
        if all(_face_alike(f - a) for f in faces[0]) and all(_face_alike(f - b) for f in faces[1]):
            self._opened_checker = True

    def _variant_of(self, k: int) -> frozenset[int]:
        """The numbers whose named looks new look k may be drawn again (`_redrawn`).
        The rules decide."""
        c = self.looks[k].content
        return frozenset(
            look.state
            for look in self.looks
            if look.state is not None and look.state >= 0 and self._redrawn(c, look.content)
        )

    def _unproven(self, look_of: dict[int, int]) -> frozenset[int]:
        looks = self.looks
        return frozenset(
            i
            for i, k in look_of.items()
            if (state := looks[k].state) is not None and state >= 0 and not looks[k].proven
        )

    def forget_unproven(self) -> None:
        """A game was lost on a cell read through a number the rules named: that
        name (and any given beside it) may be wrong, so every number no finished
        board proved is forgotten and named again from the next boards."""
        for look in self.looks:
            if look.state is not None and look.state >= 0 and not look.proven:
                look.state = None

    def _prove(self, board: Board, look_of: dict[int, int]) -> None:
        if explained(board):
            for k in set(look_of.values()):
                if self.looks[k].state is not None:
                    self.looks[k].proven = True


def _redrawn(c: Content, o: Content) -> bool:
    """Whether looks c and o may be one number drawn at two sub-pixel phases: the
    same colours, glyphs alike (see VARIANT_SHAPE)."""
    if c.ink is None or o.ink is None:
        return False
    assert o.shape is not None and c.shape is not None
    return (
        _face_alike(c.face - o.face)
        and (_blended(c, o) or _blended(o, c))
        and c.glyph_gap(o) <= VARIANT_SHAPE * SHAPE_TOL
        and abs(c.aspect - o.aspect) <= VARIANT_ASPECT * ASPECT_TOL
    )


def _shadowed(c: Content, o: Content) -> bool:
    """Whether one look is the other, inkless one with a shadow or a light on its
    face: one face, and the one ink the face itself darker or lighter, no hue of
    its own. Our page's seed 1510 at 80% (12.8 px cells) draws an inset shadow
    along each opened cell's top and left: at one phase it falls inside the box
    measured, a grey sliver (173, 180, 183) on (226, 234, 238), and the 0 it lay
    on, forced by the rules (every neighbour opened), fitted no numbering: play
    stopped. Such looks may be one number (a 0, or the same digit lit); the
    rules decide."""
    if (c.ink is None) == (o.ink is None):
        return False
    inked, bare = (c, o) if o.ink is None else (o, c)
    assert inked.ink is not None
    if not _face_alike(inked.face - bare.face):
        return False
    face = inked.face
    ff = float(face @ face)
    if ff <= 0:
        return False
    t = float(inked.ink @ face) / ff
    return 0.3 <= t <= 1.5 and float(np.abs(face * t - inked.ink).max()) <= FACE_TOL


def _turned(c: Content, o: Content) -> bool:
    """Whether a sprite look was measured the other way round from another: its
    face is the other's ink and its ink the other's face. kmines' green theme at
    Qt's 125% (17.5 px cells) paints each number's signpost over more of some
    cells than the grass left: those cells measured the post as their face and
    the grass as ink, unlike every look of the same digit on grass, and the
    rules, told they were other numbers, named a 1 a 2 for sure (a wrong flag,
    a lost game). Such looks may be one number; the rules decide."""
    if c.ink is None or o.ink is None or (c.sprite is None and o.sprite is None):
        return False
    return _face_alike(c.face - o.ink) and _face_alike(c.ink - o.face)


# A stroke drawn across two pixels at a half-pixel phase shows at part
# coverage: its ink is the face and the full ink mixed, at least this much ink.
_BLEND_MIN = 0.4


def _blended(c: Content, o: Content) -> bool:
    """Whether c's ink is o's: within INK_TOL, or o's ink blended into c's face
    (on the line from the face to o's ink, within FACE_TOL of it). gnome-mines
    at 29 px draws a 1 whose one-pixel stem falls across two columns: its ink
    measured (130, 147, 121) against (46, 52, 54) at 30 px, on a face of
    (221, 250, 195): 0.52 of the way, 1 level off the line."""
    assert c.ink is not None and o.ink is not None
    if float(np.abs(c.ink - o.ink).max()) <= INK_TOL or _tones_agree(c, o):
        return True
    t, off = _along(c.face, o.ink, c.ink)
    return _BLEND_MIN <= t <= 1.0 and off <= FACE_TOL


def _along(start: F64, end: F64, point: F64) -> tuple[float, float]:
    """Where `point` projects on the line from `start` to `end` (0 at start, 1
    at end; -1 when the two are one colour) and how far it lies off the line
    (its largest channel)."""
    v = end - start
    vv = float(v @ v)
    if vv <= 0:
        return -1.0, float("inf")
    t = float((point - start) @ v) / vv
    return t, float(np.abs(start + t * v - point).max())


def _thinned(c: Content, o: Content) -> bool:
    """Whether c's ink lies on the line from o's ink to c's face, within half of
    FACE_TOL of it: o's glyph drawn thinner, its strokes part face (or no
    thinner: within half of FACE_TOL of o's ink)."""
    assert c.ink is not None and o.ink is not None
    t, off = _along(o.ink, c.face, c.ink)
    return 0.0 <= t <= 1.0 and off <= 0.5 * FACE_TOL


def _tones_agree(c: Content, o: Content) -> bool:
    """Whether two looks of a two-tone glyph show one ink: one of them in both
    tones (`ink_tones`), each tone both show within INK_TOL, and at least one
    tone shown by both. Their one median ink may have landed on different
    tones: our page's seed 2208 at 90% (a pale fill in a dark outline) took
    one 2's fill and another's outline, the two looks were not alike, so no
    numbering could make both 2s, and the rules then fitted only a reading
    with every number shifted by one (four certain clicks wrong)."""
    if (c.tones[0] is None or c.tones[1] is None) and (o.tones[0] is None or o.tones[1] is None):
        return False
    shared = [
        (a, b) for a, b in zip(c.tones, o.tones, strict=True) if a is not None and b is not None
    ]
    return bool(shared) and all(float(np.abs(a - b).max()) <= INK_TOL for a, b in shared)


def _checkerboard(blank: F32, rows: int, cols: int) -> bool:
    """Whether the blank looks alternate two distinct shades by the parity of
    row + column, each parity of one shade: its cells within 4 levels of it,
    or, where the shades lie further apart, within two fifths of their gap
    (nearer its own shade than the other by a fifth of the gap). At a
    fractional zoom a bevelled cell's mean moves with its phase (our page's
    seed 1507 at 125%: up to 5.5 levels in a parity, 15.8 between them); each
    cell still sits far nearer its own shade than the other's."""
    if rows < 2 or cols < 2:
        return False
    means = blank.reshape(rows, cols, -1, 3).mean(axis=2)
    parity = (np.add.outer(np.arange(rows), np.arange(cols)) % 2).astype(bool)
    shades, spread = [], 0.0
    for part in (parity, ~parity):
        group = means[part]
        shade = np.median(group, axis=0)
        spread = max(spread, float(np.abs(group - shade).max()))
        shades.append(shade)
    gap = float(np.abs(shades[0] - shades[1]).max())
    return gap > 4.0 and spread <= max(4.0, 0.4 * gap)


def _a_shade(d: F64) -> bool:
    """Whether two faces `d` apart are one grey picture seen through a translucent
    face: lighter or darker by at most SHADE_TOL, alike on every channel."""
    return float(np.abs(d).max()) <= SHADE_TOL and float(np.ptp(d)) <= SHADE_HUE


def _face_alike(d: F64) -> bool:
    """Whether two faces `d` apart may be one tile's: within FACE_TOL, or a shade."""
    return float(np.abs(d).max()) <= FACE_TOL or _a_shade(d)


def _shade_of(a: Content, b: Content) -> bool:
    """Whether two contents differ only by their face's shade: lighter or darker
    by at most SHADE_TOL, alike on every channel (a grey picture seen through the
    face), with the same ink, glyph and aspect or no ink on either. Faces of
    other hues are other tiles (a theme may tell its numbers by face colour)."""
    if not _a_shade(a.face - b.face):
        return False
    return Content(a.face, b.ink, b.shape, b.aspect).distance(a) <= 1.0


def explained(board: Board) -> bool:
    """True when `board` is a finished game whose every cell the rules explain.

    Won: every cell but the mines opened, and every number counts the cells
    left unopened (or flagged) around it. Lost: every mine shown (mines, the
    one that went off, and flags) and every number counts exactly those.
    """
    cells = board.cells
    nbrs = neighbours_table(board.width, board.height)
    if any(s == WRONG_FLAG for s in cells):
        return False
    shown = {i for i, s in enumerate(cells) if s in (MINE, EXPLODED)}
    if shown:
        mined = shown | {i for i, s in enumerate(cells) if s == FLAG}
        if len(mined) != board.mines:
            return False
    else:
        mined = {i for i, s in enumerate(cells) if s < 0}
        if len(mined) != board.mines:
            return False
    return all(s < 0 or sum(1 for j in nbrs[i] if j in mined) == s for i, s in enumerate(cells))


def _blank_looks(profile: Profile) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Each cell's blank patch (float, 0..255) and the mean squared difference under
    which a cell still shows it."""
    n = profile.rows * profile.cols
    if profile.blank is None:
        # An older profile: the one unopened tile is every cell's blank look.
        import cv2

        tile = profile.tiles_at()["unknown"][0][:, :, :3]
        h, w = tile.shape[:2]
        e = 1 if min(w, h) >= 8 else 0  # cut as profile.cell_patches cuts a cell
        tile = np.ascontiguousarray(tile[e : h - e, e : w - e])
        one = cv2.resize(tile, (K, K), interpolation=cv2.INTER_AREA).astype(np.float32)
        return np.repeat(one[None], n, axis=0), np.full(n, SAME, dtype=np.float32)
    blank = profile.blank.astype(np.float32)
    grid = blank.reshape(profile.rows, profile.cols, -1) / 255.0
    # How different neighbouring blank cells are (a texture, a gradient's step).
    diffs = [((grid[:, 1:] - grid[:, :-1]) ** 2).mean(axis=2).ravel()]
    diffs.append(((grid[1:] - grid[:-1]) ** 2).mean(axis=2).ravel())
    both = np.concatenate(diffs)
    spread = float(np.median(both)) if both.size else 0.0
    same = min(SAME_MAX, max(SAME, SPREAD_SHARE * spread))
    return blank, np.full(n, same, dtype=np.float32)


def blank_image(profile: Profile) -> Image:
    """The calibration's blank board as a grab of the profile's board rectangle,
    rebuilt from each cell's blank look (or the unopened tile)."""
    import cv2

    left, top, width, height = profile.grid.rect()
    xs, ys = profile.grid.cell_edges()
    w, h = round(profile.pitch[0]), round(profile.pitch[1])
    img = np.zeros((height + h, width + w, 3), dtype=np.uint8)
    unknown = profile.tiles_at()["unknown"][0][:, :, :3]
    for i in range(profile.rows * profile.cols):
        r, c = divmod(i, profile.cols)
        x, y = xs[c] - left, ys[r] - top
        if profile.blank is None:
            img[y : y + h, x : x + w] = unknown
        else:
            # A blank look covers the box less its rim (profile.cell_patches).
            e = 1 if min(w, h) >= 8 else 0
            tile = cv2.resize(
                profile.blank[i], (w - 2 * e, h - 2 * e), interpolation=cv2.INTER_NEAREST
            )
            img[y + e : y + h - e, x + e : x + w - e] = tile
    return img


def blank_reads_blank(profile: Profile) -> bool:
    """True when a fresh reader with `profile` reads its blank board as all unopened."""
    return reads_blank(profile, blank_image(profile))


def reads_blank(profile: Profile, image: Image) -> bool:
    """True when a fresh reader with `profile` reads `image` (a grab of the board's
    rectangle) as all unopened."""
    reading = LearningReader(profile).read(image)
    if reading.problem or reading.low_confidence:
        return False
    return all(s == UNKNOWN for s in reading.board.cells)
