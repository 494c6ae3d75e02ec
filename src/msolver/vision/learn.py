"""Tiles of a theme from examples: with known boards, or with no labels at all.

`profile_from_examples` builds a profile from screenshots whose true boards
are known (how the built-in profiles are made from the recorded corpus).

`learn_theme` needs no labels. Given a blank board (for the grid and the
unopened tile) and one or more finished boards (lost boards show every mine),
it groups the cells of the finished boards into appearance classes and names
each class from the rules of the game:

- the class matching the blank board's tile is ``unknown``;
- some set S of classes (one to three: shown mines, the exploded mine,
  flags) holds the mines. For the right S, every other class shows one
  constant number: each of its cells has exactly that many neighbours in S;
  that number is the class's name (0-8). S is found by trying the small sets
  and keeping the one that explains every class;
- inside S, the class seen once per lost board, on a cell no flag covers, is
  the ``exploded`` mine, the most common is ``mine``, any other is ``flag``.

A class that no rule explains (e.g. a wrong-flag cross) stays unnamed: the
reader then reports such cells as low-confidence instead of guessing. Digits
that never occur in the examples cannot be learned either, for the same
reason they are reported, not guessed.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, product

import numpy as np

from msolver.core.board import Board, neighbours_table
from msolver.vision.distinct import sample_cells
from msolver.vision.features import K, _features
from msolver.vision.geometry import Grid
from msolver.vision.grid import CalibrationError, find_grid
from msolver.vision.image import Image, as_rgb, px
from msolver.vision.profile import LABELS, STATE_OF_LABEL, Profile

_LABEL_OF_STATE = {v: k for k, v in STATE_OF_LABEL.items()}
_SAME = 0.002  # mean squared feature distance within one appearance class
_MAX_UNEXPLAINED = 0.01  # share of cells in unnamed classes above which learning gives up


class LearnError(ValueError):
    """The examples do not determine a theme; one-line reason."""


def snap_grid(grid: Grid) -> Grid:
    """Whole-pixel pitch when the lattice is within 0.1 px of it (native-size themes).

    A grid with each line's own edges (a toolkit that lays its lines out
    unevenly) keeps them: its mean pitch is fractional by nature."""
    if not grid.uniform:
        return grid
    p = tuple(float(round(v)) if abs(v - round(v)) < 0.1 else v for v in grid.pitch)
    return Grid(origin=grid.origin, pitch=(p[0], p[1]), rows=grid.rows, cols=grid.cols)


def align_grid(grid: Grid, examples: Sequence[tuple[Image, Board]]) -> Grid:
    """The whole-pixel origin (within a pixel of `grid`'s) that cuts the truest tiles.

    The lattice fit places a board's edge only to half a pixel (a bevel
    shifts the flat face inside its box), so with known boards we pick the
    origin where cells of one label are most often pixel-identical.
    """
    best: tuple[int, Grid] | None = None
    ox, oy = px(grid.origin[0]), px(grid.origin[1])
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if grid.uniform:
                g = Grid((float(ox + dx), float(oy + dy)), grid.pitch, grid.rows, grid.cols)
            else:
                # each line's own edge moves by the whole pixel
                g = grid.moved(float(dx), float(dy))
            odd = 0
            per_label: dict[int, Counter[bytes]] = {}
            for img, board in examples:
                rgb = as_rgb(img)
                if g.origin[0] < 0 or g.origin[1] < 0:
                    odd = 1 << 60
                    break
                for tile, state in zip(cell_tiles(rgb, g), board.cells, strict=True):
                    per_label.setdefault(state, Counter())[tile.tobytes()] += 1
            for counts in per_label.values():
                odd += sum(counts.values()) - counts.most_common(1)[0][1]
            if best is None or odd < best[0]:
                best = (odd, g)
    assert best is not None
    return best[1]


def cell_tiles(rgb: Image, grid: Grid) -> list[Image]:
    """Raw tile image of every cell (row-major), cut at whole pixels, one pitch square."""
    w, h = grid.cell_size
    xs, ys = grid.cell_edges()
    out = []
    for y in ys[:-1]:
        for x in xs[:-1]:
            out.append(np.ascontiguousarray(rgb[y : y + h, x : x + w]))
    return out


def profile_from_examples(
    name: str,
    theme: str,
    examples: Sequence[tuple[Image, Board]],
    *,
    grid: Grid | None = None,
    new_game: str | None = None,
    max_variants: int = 3,
    min_count: int = 2,
) -> Profile:
    """Profile whose tiles are the most frequent exact tile per true label.

    A label gets extra variants (hover highlight, a lost board's greyed tiles)
    when another exact tile occurs at least `min_count` times for it.
    """
    if not examples:
        raise LearnError("no examples")
    first = as_rgb(examples[0][0])
    g = align_grid(snap_grid(grid or find_grid(first)), examples)
    found: dict[str, Counter[str]] = {}
    tiles: dict[str, Image] = {}
    for img, board in examples:
        rgb = as_rgb(img)
        if (board.height, board.width) != (g.rows, g.cols):
            raise LearnError(f"example board {board.width}x{board.height} does not fit the grid")
        for tile, state in zip(cell_tiles(rgb, g), board.cells, strict=True):
            key = hashlib.sha1(tile.tobytes()).hexdigest()
            label = _LABEL_OF_STATE[state]
            found.setdefault(label, Counter())[key] += 1
            tiles.setdefault(key, tile)
    out: dict[str, tuple[Image, ...]] = {}
    for label in LABELS:
        if label not in found:
            continue
        common = found[label].most_common()
        keep = [tiles[common[0][0]]]
        for key, n in common[1:]:
            if len(keep) >= max_variants or n < min_count:
                break
            feats = _features(_sample_tile(tiles[key]))
            if min(float(((feats - _features(_sample_tile(t))) ** 2).mean()) for t in keep) > 1e-4:
                keep.append(tiles[key])
        out[label] = tuple(keep)
    mines = examples[0][1].mines
    return Profile(
        name=name,
        theme=theme,
        grid=g,
        mines=mines,
        tiles=out,
        new_game=new_game,
    )


def _sample_tile(tile: Image) -> np.ndarray:
    import cv2

    s = cv2.resize(tile, (K, K), interpolation=cv2.INTER_AREA)
    return (s.astype(np.float32) / 255.0).reshape(1, K, K, 3)


@dataclass(frozen=True)
class Learned:
    """The learned profile and how each appearance class was named."""

    profile: Profile
    names: dict[int, str]
    unnamed: tuple[int, ...]


def _cluster(feats: np.ndarray) -> np.ndarray:
    """Greedy clustering: a cell joins the first class whose seed is within _SAME."""
    labels = np.full(len(feats), -1, dtype=np.int64)
    seeds: list[np.ndarray] = []
    for i in range(len(feats)):
        if seeds:
            d = ((np.stack(seeds) - feats[i]) ** 2).mean(axis=1)
            j = int(np.argmin(d))
            if d[j] <= _SAME:
                labels[i] = j
                continue
        seeds.append(feats[i])
        labels[i] = len(seeds) - 1
    return labels


def learn_theme(
    blank: Image,
    finished: Sequence[Image],
    *,
    mines: int,
    name: str = "learned",
    theme: str = "learned",
) -> Learned:
    """Name the tile classes of an unseen theme from game rules (see module docstring)."""
    if not finished:
        raise LearnError("learning needs at least one finished (lost or won) board")
    try:
        found = snap_grid(find_grid(as_rgb(blank)))
    except CalibrationError as exc:
        raise LearnError(f"blank board: {exc}") from exc
    rows, cols = found.rows, found.cols
    n = rows * cols
    grid = found
    feats = np.concatenate(
        [
            _features(sample_cells(as_rgb(img), grid.origin, grid.pitch, rows, cols))
            for img in finished
        ]
    )
    cls = _cluster(feats)
    blank_tiles = cell_tiles(as_rgb(blank), grid)
    unknown_tile = np.median(np.stack(blank_tiles), axis=0).astype(np.uint8)
    unknown_feat = _features(_sample_tile(unknown_tile))[0]
    tiles = [t for img in finished for t in cell_tiles(as_rgb(img), grid)]
    ncls = int(cls.max()) + 1
    per_board = cls.reshape(len(finished), n)
    centre = np.stack([feats[cls == c].mean(axis=0) for c in range(ncls)])
    d_unknown = ((centre - unknown_feat) ** 2).mean(axis=1)
    unknown_cls = {int(c) for c in np.nonzero(d_unknown <= 4 * _SAME)[0]}
    if not unknown_cls:
        raise LearnError("no cell of the finished boards looks like the blank board's tiles")
    others = [c for c in range(ncls) if c not in unknown_cls]
    nb = neighbours_table(cols, rows)
    nbr = np.full((n, 8), n, dtype=np.int64)
    for i, js in enumerate(nb):
        nbr[i, : len(js)] = js
    # A finished board is lost (it shows its mines; unopened cells are safe)
    # or won (every cell left unopened is a mine). Which one each board is,
    # is part of the explanation searched for.
    nboards = len(finished)
    ways = list(product((False, True), repeat=nboards)) if nboards <= 4 else [(False,) * nboards]
    unknown_ids = sorted(unknown_cls)
    best: tuple[int, tuple[int, ...], dict[int, int], list[int], tuple[bool, ...]] | None = None
    for size in (1, 2, 3):
        for S in combinations(others, size):
            for won in ways:
                counts_by_cls: dict[int, set[int]] = {}
                mine_total = 0
                for b in range(nboards):
                    mine_cls = (*S, *unknown_ids) if won[b] else S
                    is_mine = np.append(np.isin(per_board[b], mine_cls), False)
                    mine_total += int(is_mine.sum())
                    cnt = is_mine[nbr].sum(axis=1)
                    for c in others:
                        if c in S:
                            continue
                        sel = per_board[b] == c
                        if sel.any():
                            counts_by_cls.setdefault(c, set()).update(cnt[sel].tolist())
                if mine_total != mines * nboards:
                    continue
                named = {c: next(iter(v)) for c, v in counts_by_cls.items() if len(v) == 1}
                bad = [c for c in counts_by_cls if c not in named]
                # more classes explained is better; then fewer mine classes
                score = len(named) * 10 - len(bad) * 100 - size
                if best is None or score > best[0]:
                    best = (score, S, named, bad, won)
        if best is not None and not best[3]:
            break
    if best is None:
        raise LearnError("no set of classes explains the numbers as mines")
    _, S, named, bad, won = best
    names: dict[int, str] = {c: "unknown" for c in unknown_cls}
    # One kind per number: a second kind with the same count is something
    # else that happens to fit (a lone wrong-flag cross); left unnamed, its
    # cells are reported as unsure rather than read as that number.
    for v in sorted(set(named.values())):
        kinds_v = sorted((c for c in named if named[c] == v), key=lambda c: -int((cls == c).sum()))
        names[kinds_v[0]] = str(v)
    # Inside S: the exploded mine is seen once on each lost board; a class
    # seen on a won board is the flag (a won game flags, it shows no mine);
    # else the mine is the class drawn most like the exploded one.
    lost = [b for b in range(nboards) if not won[b]]
    singles = [
        c
        for c in S
        if lost
        and all(int((per_board[b] == c).sum()) == 1 for b in lost)
        and not any((per_board[b] == c).any() for b in range(nboards) if won[b])
    ]
    exploded = singles[0] if singles and len(S) > 1 else None
    rest = [c for c in S if c != exploded]
    on_won = {c for c in rest if any((per_board[b] == c).any() for b in range(nboards) if won[b])}
    kk = K * K
    if exploded is not None:
        names[exploded] = "exploded"
        like = sorted(
            rest, key=lambda c: float(((centre[c, -kk:] - centre[exploded, -kk:]) ** 2).mean())
        )
    else:
        like = sorted(rest, key=lambda c: -int((cls == c).sum()))
    shown_mine = [c for c in like if c not in on_won][:1]
    for c in rest:
        names[c] = "mine" if c in shown_mine else "flag"
    unexplained = sum(int((cls == c).sum()) for c in range(ncls) if c not in names)
    if unexplained > _MAX_UNEXPLAINED * len(cls):
        raise LearnError(
            f"{unexplained} of {len(cls)} cells fall in tile kinds no rule explains "
            "(anti-aliased or animated tiles?): not learning this theme"
        )
    out: dict[str, list[Image]] = {}
    for c, label in names.items():
        members = np.nonzero(cls == c)[0]
        d = ((feats[members] - centre[c]) ** 2).mean(axis=1)
        out.setdefault(label, []).append(tiles[int(members[int(np.argmin(d))])])
    out.setdefault("unknown", []).insert(0, unknown_tile)
    prof = Profile(
        name=name,
        theme=theme,
        grid=Grid(grid.origin, grid.pitch, rows, cols),
        mines=mines,
        tiles={k: tuple(v) for k, v in out.items()},
    )
    unnamed = tuple(sorted(c for c in range(ncls) if c not in names))
    return Learned(profile=prof, names=names, unnamed=unnamed)
