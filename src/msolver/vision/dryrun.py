"""Dry run: the whole read -> solve -> click loop on synthetic screenshots, no live game.

Each frame is assembled from the profile's recorded tiles (the real game's
pixels, cell box by cell box, so it is pixel-exact to a real screenshot of
that theme) at the profile's screen position, optionally with Gaussian noise
and digit recolouring; the real classifier reads it, the real solver decides,
and the moves go into the simulator. Misread cells (a confident label that is
not the truth) are counted; so are low-confidence cells, which the reader
turns into unknowns rather than guesses. The same seeds are also played by the
solver alone, reading the true board, for comparison.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from msolver.core.bench import apply_moves
from msolver.core.board import EXPLODED, FLAG, MINE, UNKNOWN, WRONG_FLAG, Board
from msolver.core.game import LEVELS, FirstClick, Game, Status
from msolver.core.gamestats import (
    ClickCount,
    GameStats,
    apply_counted,
    bench_stats,
    simulated_stats,
)
from msolver.core.solver import Solver
from msolver.core.stats import wilson_interval
from msolver.vision.classify import read_board
from msolver.vision.image import Image, ink_of, px
from msolver.vision.profile import Profile

_LABEL_OF_STATE = {
    UNKNOWN: "unknown",
    FLAG: "flag",
    MINE: "mine",
    EXPLODED: "exploded",
    WRONG_FLAG: "wrong_flag",
    **{n: str(n) for n in range(9)},
}
_MARGIN = 12


class DryRunError(ValueError):
    """The profile cannot drive a dry run (size, missing tiles)."""


@dataclass(frozen=True)
class DryRunReport:
    games: int
    wins: int
    solver_wins: int
    frames: int
    misreads: int
    low_confidence_cells: int
    stopped: int
    read_ms: float
    frame_ms: float
    stats: tuple[GameStats, ...] = ()  # per game: 3BV, clicks by button, efficiency

    def to_json(self) -> dict[str, Any]:
        lo, hi = wilson_interval(self.wins, self.games)
        slo, shi = wilson_interval(self.solver_wins, self.games)
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / self.games,
            "ci95": [lo, hi],
            "misreads": self.misreads,
            "low_confidence_cells": self.low_confidence_cells,
            "stopped": self.stopped,
            "frames": self.frames,
            "ms_per_frame": self.read_ms / max(1, self.frames),
            "ms_per_frame_total": self.frame_ms / max(1, self.frames),
            "fps": 1000.0 * self.frames / max(1e-9, self.frame_ms),
            "solver_wins": self.solver_wins,
            "solver_win_rate": self.solver_wins / self.games,
            "solver_ci95": [slo, shi],
            **bench_stats(list(self.stats)).as_json(),
        }


class Renderer:
    """Builds a synthetic screen crop of a board from a profile's tiles."""

    def __init__(self, profile: Profile, rows: int, cols: int) -> None:
        w, h = profile.cell_size
        # A board whose lines lie unevenly (each line's own edge, at whole
        # pixels) is drawn tile by tile at those edges; its mean pitch is
        # fractional, its tiles are not.
        self.edges: tuple[list[int], list[int]] | None = None
        if not profile.grid.uniform:
            if (rows, cols) != (profile.rows, profile.cols):
                raise DryRunError(
                    f"profile {profile.name!r} lays its {profile.cols}x{profile.rows} board's "
                    f"lines unevenly; dry runs of it play that size only, not {cols}x{rows}"
                )
            edges = profile.grid.edges()
            if any(abs(v - round(v)) > 1e-6 for axis in edges for v in axis):
                raise DryRunError(
                    f"profile {profile.name!r} has line edges off whole pixels; "
                    "dry runs need the tiles at their recorded size"
                )
            self.profile = profile
            xs, ys = profile.grid.cell_edges()
            self.edges = ([x - xs[0] for x in xs], [y - ys[0] for y in ys])
        elif abs(profile.pitch[0] - w) > 1e-6 or abs(profile.pitch[1] - h) > 1e-6:
            raise DryRunError(
                f"profile {profile.name!r} has a non-integer pitch {profile.pitch}; "
                "dry runs need the tiles at their recorded size"
            )
        else:
            self.profile = profile.with_changes(rows=rows, cols=cols)
        self.w, self.h = w, h
        self.tiles: dict[str, Image] = {}
        for label, variants in profile.tiles.items():
            if variants and variants[0].shape[:2] == (h, w):
                self.tiles[label] = variants[0]
        if "unknown" not in self.tiles:
            raise DryRunError(f"profile {profile.name!r} has no unopened tile at its pitch")
        # the crop's top-left in screen pixels
        self.left = px(profile.origin[0]) - _MARGIN
        self.top = px(profile.origin[1]) - _MARGIN
        bg = np.median(self.tiles["unknown"].reshape(-1, 3), axis=0).astype(np.uint8)
        width, height = cols * w, rows * h
        if self.edges is not None:
            width, height = self.edges[0][-2] + w, self.edges[1][-2] + h
        self.blank = np.empty((height + 2 * _MARGIN, width + 2 * _MARGIN, 3), np.uint8)
        self.blank[:] = bg

    def missing(self, board: Board) -> set[str]:
        return {_LABEL_OF_STATE[s] for s in set(board.cells)} - set(self.tiles)

    def render(
        self,
        board: Board,
        rng: np.random.Generator | None = None,
        noise: float = 0.0,
        recolour: bool = False,
    ) -> Image:
        tiles = self.tiles
        if recolour and rng is not None:
            tiles = dict(tiles)
            for n in range(1, 9):
                if str(n) in tiles:
                    tiles[str(n)] = _recolour(tiles[str(n)], rng)
        img = self.blank.copy()
        m, w, h = _MARGIN, self.w, self.h
        if self.edges is not None:
            xs, ys = self.edges
            for i, state in enumerate(board.cells):
                r, c = divmod(i, board.width)
                x, y = m + xs[c], m + ys[r]
                img[y : y + h, x : x + w] = tiles[_LABEL_OF_STATE[state]]
            return _noisy(img, rng, noise)
        view = img[m : m + board.height * h, m : m + board.width * w].reshape(
            board.height, h, board.width, w, 3
        )
        cells = np.array(board.cells).reshape(board.height, board.width)
        for state in np.unique(cells):
            rs, cs = np.nonzero(cells == state)
            view[rs, :, cs] = tiles[_LABEL_OF_STATE[int(state)]]
        return _noisy(img, rng, noise)


def _noisy(img: Image, rng: np.random.Generator | None, noise: float) -> Image:
    """`img` with Gaussian noise of `noise` levels (none without a generator)."""
    if noise > 0 and rng is not None:
        noisy = img.astype(np.float32) + rng.normal(0.0, noise, img.shape).astype(np.float32)
        img = np.clip(np.rint(noisy), 0, 255).astype(np.uint8)
    return img


def _recolour(tile: Image, rng: np.random.Generator) -> Image:
    """The digit redrawn in a random other colour (as a noisy contest server did).

    Each pixel inside the cell is a blend of the background and the ink
    (anti-aliased edges are part ink); the blend is kept and the ink colour
    replaced: its channels permuted and shifted, and kept visible against
    the background. Border lines and bevels are left alone.
    """
    flat, bg, dev, peak = ink_of(tile)
    if peak < 40:
        return tile
    ink = flat[int(np.argmax(dev))]
    new = np.clip(ink[rng.permutation(3)] + rng.integers(-50, 51, size=3), 0, 255)
    if np.abs(new - bg).max() < 80:
        new = np.clip(new - 120, 0, 255)
    alpha = (dev / peak)[:, None]
    out = np.where(alpha > 0.05, bg + alpha * (new - bg), flat)
    result: Image = np.clip(np.rint(out), 0, 255).astype(np.uint8).reshape(tile.shape)
    return result


def _play_solver_only(game: Game, solver: Solver) -> bool:
    while game.status is Status.PLAYING:
        dec = solver.decide(game.board)
        if dec.status != "ok" or not dec.moves:
            return False
        apply_moves(game, dec.moves)
    return game.board.outcome() == "won"


def run_dryrun(
    profile: Profile,
    *,
    level: str = "expert",
    first_click: FirstClick = "opening",
    games: int = 100,
    seed: int = 1,
    noise: float = 0.0,
    recolour: bool = False,
) -> DryRunReport:
    lv = LEVELS[level]
    renderer = Renderer(profile, lv.height, lv.width)
    prof = renderer.profile.with_changes(mines=lv.mines)
    origin = (renderer.left, renderer.top)
    rng = np.random.default_rng(seed)
    wins = solver_wins = frames = misreads = low_cells = stopped = 0
    read_ms = frame_ms = 0.0
    per_game: list[GameStats] = []
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        solver = Solver(first_click=first_click)
        game = Game(lv.width, lv.height, lv.mines, seed=game_seed, first_click=first_click)
        count, guesses, started = ClickCount(), 0, frame_ms
        while game.status is Status.PLAYING:
            truth = game.board
            if renderer.missing(truth):
                raise DryRunError(
                    f"profile {profile.name!r} has no recorded tile for "
                    f"{', '.join(sorted(renderer.missing(truth)))}"
                )
            t0 = time.perf_counter()
            frame = renderer.render(truth, rng, noise, recolour)
            t1 = time.perf_counter()
            res = read_board(frame, prof, image_origin=origin)
            t2 = time.perf_counter()
            frames += 1
            got = np.array(res.board.cells)
            want = np.array(truth.cells)
            low = np.zeros(got.shape, bool)
            for r, c in res.low_confidence:
                low[r * lv.width + c] = True
            misreads += int(np.sum((got != want) & ~low))
            low_cells += int(low.sum())
            dec = solver.decide(res.board)
            frame_ms += (time.perf_counter() - t0) * 1000
            read_ms += (t2 - t1) * 1000
            if dec.status != "ok" or not dec.moves:
                stopped += 1
                break
            guesses += not dec.certain
            apply_counted(game, dec.moves, count)
        wins += game.board.outcome() == "won"
        # Seconds: the frames' read and solve time, as a live player would spend it.
        secs = (frame_ms - started) / 1000
        per_game.append(simulated_stats(game, count, seconds=secs, guesses=guesses))
        ref = Game(lv.width, lv.height, lv.mines, seed=game_seed, first_click=first_click)
        solver_wins += _play_solver_only(ref, Solver(first_click=first_click))
    return DryRunReport(
        games=games,
        wins=wins,
        solver_wins=solver_wins,
        frames=frames,
        misreads=misreads,
        low_confidence_cells=low_cells,
        stopped=stopped,
        read_ms=read_ms,
        frame_ms=frame_ms,
        stats=tuple(per_game),
    )


def frame_for(profile: Profile, board: Board) -> tuple[npt.NDArray[np.uint8], tuple[int, int]]:
    """One synthetic frame of `board` and the screen position of its top-left pixel."""
    r = Renderer(profile, board.height, board.width)
    return r.render(board), (r.left, r.top)
