"""Minesweeper themes msolver has never seen, drawn in numpy from a random palette.

A theme has raised unopened tiles with a per-cell texture, flat opened faces,
digits drawn small in big cells (Hershey glyphs), a gradient behind the tiles
(seen in the gaps), a vignette over the whole board and unopened edge cells a
shade lighter than the rest: the looks that misled the unseen-theme reader.
`ThemedScreen` is a `SimScreen` that draws its game in such a theme.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from msolver.core.board import EXPLODED, FLAG, MINE, UNKNOWN, WRONG_FLAG, Board
from msolver.core.game import Game, Status
from msolver.vision.geometry import Grid
from msolver.vision.image import Image
from msolver.vision.profile import Profile, cell_patches
from msolver.vision.reading import Reading
from tests.support.live import SimScreen

Colour = tuple[int, int, int]


def _far(rng: np.random.Generator, others: list[Colour], at_least: int) -> Colour:
    for _ in range(10_000):
        c = tuple(int(v) for v in rng.integers(0, 256, 3))
        if all(max(abs(a - b) for a, b in zip(c, o, strict=True)) >= at_least for o in others):
            return (c[0], c[1], c[2])
    raise AssertionError("no colour far enough from the others")


@dataclass(frozen=True)
class Theme:
    unopened: Colour
    opened: Colour
    digits: tuple[Colour, ...]  # 1..8
    flag: Colour
    mine: Colour
    exploded: Colour
    background: tuple[Colour, Colour]  # the gradient's two ends, left to right
    gap: int = 2
    texture: int = 10  # +- per pixel on unopened tiles
    face_texture: int = 3  # +- per pixel on opened faces
    edge_shade: int = 14  # unopened edge cells drawn this much lighter
    vignette: float = 0.035  # darkening at the board's corners
    digit_scale: float = 0.4

    @classmethod
    def random(cls, seed: int, *, one_ink: bool = False) -> Theme:
        """A random palette: faces apart, digits far from the opened face.

        one_ink: every digit in one colour, so only shapes tell them apart.
        """
        rng = np.random.default_rng(seed)
        unopened = _far(rng, [], 0)
        opened = _far(rng, [unopened], 40)
        digits: tuple[Colour, ...]
        if one_ink:
            ink = _far(rng, [opened], 110)
            digits = (ink,) * 8
        else:
            picked: list[Colour] = []
            for _ in range(8):
                picked.append(_far(rng, [opened, *picked], 110 if len(picked) < 3 else 100))
            digits = tuple(picked)
        flag = _far(rng, [unopened], 110)
        mine = _far(rng, [opened], 110)
        exploded = _far(rng, [opened, mine], 80)
        background = (_far(rng, [], 0), _far(rng, [], 0))
        return cls(unopened, opened, digits, flag, mine, exploded, background)


@dataclass
class ThemedScreen(SimScreen):
    """A SimScreen drawn in `theme`, on a canvas of `size` (width, height)."""

    theme: Theme = field(default_factory=lambda: Theme.random(0))
    size: tuple[int, int] = (1200, 720)
    # A lost game turns everything around its tiles this colour (pymines: red).
    loss_backdrop: Colour | None = None
    won_backdrop: Colour | None = None  # the same for a won game
    _tiles: dict[tuple[int, int], Image] = field(default_factory=dict)
    _canvas: Image | None = None
    _shade: np.ndarray | None = None

    def _backdrop(self) -> Image:
        if self._canvas is None:
            w, h = self.size
            a = np.array(self.theme.background[0], dtype=np.float32)
            b = np.array(self.theme.background[1], dtype=np.float32)
            t = np.linspace(0.0, 1.0, w, dtype=np.float32)[None, :, None]
            self._canvas = np.repeat(a + (b - a) * t, h, axis=0).astype(np.uint8)
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            left, top, bw, bh = self.grid.rect()
            cx, cy = left + bw / 2, top + bh / 2
            r2 = ((xx - cx) / (bw / 2)) ** 2 + ((yy - cy) / (bh / 2)) ** 2
            self._shade = (1.0 - self.theme.vignette * np.minimum(r2, 2.0) / 2.0)[:, :, None]
        return self._canvas

    def _tile(self, i: int, state: int) -> Image:
        """Cell i's tile in `state`, without the gap (cached: it never changes)."""
        key = (i, state)
        hit = self._tiles.get(key)
        if hit is not None:
            return hit
        import cv2

        th = self.theme
        w = round(self.grid.pitch[0]) - th.gap
        h = round(self.grid.pitch[1]) - th.gap
        rng = np.random.default_rng(1000 + i)
        rows, cols = self.grid.rows, self.grid.cols
        r, c = divmod(i, cols)
        if state in (UNKNOWN, FLAG, WRONG_FLAG):
            base = np.array(th.unopened, dtype=np.int32)
            if r in (0, rows - 1) or c in (0, cols - 1):
                base = base + th.edge_shade
            tile = np.empty((h, w, 3), dtype=np.int32)
            tile[:] = base
            tile += rng.integers(-th.texture, th.texture + 1, (h, w, 1))
            b = max(2, w // 10)
            tile[:b, :] += 45
            tile[:, :b] += 45
            tile[-b:, :] -= 45
            tile[:, -b:] -= 45
        else:
            face = th.exploded if state == EXPLODED else th.opened
            tile = np.empty((h, w, 3), dtype=np.int32)
            tile[:] = face
            tile += rng.integers(-th.face_texture, th.face_texture + 1, (h, w, 1))
        img = np.clip(tile, 0, 255).astype(np.uint8)
        if state in (FLAG, WRONG_FLAG):
            pts = np.array([[w * 0.35, h * 0.3], [w * 0.65, h * 0.42], [w * 0.35, h * 0.54]])
            cv2.fillPoly(img, [pts.astype(np.int32)], th.flag, lineType=cv2.LINE_AA)
            cv2.line(img, (int(w * 0.35), int(h * 0.3)), (int(w * 0.35), int(h * 0.72)), th.flag)
        elif state in (MINE, EXPLODED):
            cv2.circle(img, (w // 2, h // 2), max(2, w // 6), th.mine, -1, cv2.LINE_AA)
        elif state > 0:
            text = str(state)
            font = cv2.FONT_HERSHEY_SIMPLEX
            (tw, tht), _ = cv2.getTextSize(text, font, th.digit_scale, 1)
            org = ((w - tw) // 2, (h + tht) // 2)
            cv2.putText(img, text, org, font, th.digit_scale, th.digits[state - 1], 1, cv2.LINE_AA)
        self._tiles[key] = img
        return img

    def draw(self) -> Image:
        img = self._backdrop().copy()
        # (a test may show a bare board, its game a namespace with no status)
        status = getattr(self.game, "status", Status.PLAYING)
        lost = status is Status.LOST
        if lost and self.loss_backdrop is not None:
            img[:] = self.loss_backdrop
        if status is Status.WON and self.won_backdrop is not None:
            img[:] = self.won_backdrop
        g = self.grid
        gap = self.theme.gap
        board = self.game.board
        for i, s in enumerate(board.cells):
            if lost and not self.mines_on_loss and s in (MINE, WRONG_FLAG):
                s = UNKNOWN if s == MINE else FLAG
            r, c = divmod(i, g.cols)
            x0 = round(g.origin[0] + c * g.pitch[0]) + gap // 2
            y0 = round(g.origin[1] + r * g.pitch[1]) + gap // 2
            t = self._tile(i, s)
            img[y0 : y0 + t.shape[0], x0 : x0 + t.shape[1]] = t
        assert self._shade is not None
        shaded: Image = (img * self._shade).astype(np.uint8)
        return shaded


def themed_sim(
    seed: int,
    theme: Theme,
    *,
    pitch: float = 36.0,
    first_click: str = "opening",
    **kwargs: object,
) -> ThemedScreen:
    """An expert game in `theme`, drawn at (30, 40) with big cells."""
    grid = Grid(origin=(30.0, 40.0), pitch=(pitch, pitch), rows=16, cols=30)
    game = Game(30, 16, 99, seed=seed, first_click=first_click)  # type: ignore[arg-type]
    size = (int(60 + 30 * pitch), int(80 + 16 * pitch))
    return ThemedScreen(game=game, grid=grid, theme=theme, size=size, **kwargs)  # type: ignore[arg-type]


def blank_profile(screen: ThemedScreen, name: str = "learned") -> Profile:
    """A custom-theme profile from the screen's blank board alone, as calibration
    makes it: the grid, the mine count, the unopened tile and every cell's blank look."""
    from msolver.core.game import Game

    blank_game = Game(screen.game.board.width, screen.game.board.height, screen.game.mines)
    shown = ThemedScreen(
        game=blank_game, grid=screen.grid, theme=screen.theme, size=screen.size
    ).draw()
    g = screen.grid
    w, h = round(g.pitch[0]), round(g.pitch[1])
    x, y = round(g.origin[0]), round(g.origin[1])
    unknown = np.ascontiguousarray(shown[y : y + h, x : x + w])
    return Profile(
        name=name,
        theme="custom",
        grid=Grid(g.origin, g.pitch, g.rows, g.cols),
        mines=screen.game.mines,
        tiles={"unknown": (unknown,)},
        blank=cell_patches(shown, g.origin, g.pitch, g.rows, g.cols),
    )


@dataclass
class Tally:
    """What a checked run saw: reads against the game's truth, clicks, stops."""

    reads: int = 0
    misread: int = 0  # cells read confidently as a state they are not
    missed: int = 0  # opened cells read as unopened without a doubt raised
    clicks: int = 0
    misread_clicks: int = 0  # clicks sent while the board acted on had a misread
    certain_losses: int = 0
    games: int = 0
    wins: int = 0
    stops: list[str] = field(default_factory=list)
    read_seconds: float = 0.0


class CheckedReader:
    """A reader whose every read is checked against the simulated game's true board."""

    def __init__(self, reader: Any, screen: SimScreen, tally: Tally) -> None:
        self.reader = reader
        self.screen = screen
        self.tally = tally
        self.last_bad = False

    @property
    def grid(self) -> Grid:
        return self.reader.grid  # type: ignore[no-any-return]

    @property
    def mines(self) -> int:
        return self.reader.mines  # type: ignore[no-any-return]

    def read(self, image: Image) -> Reading:
        start = time.process_time()
        reading: Reading = self.reader.read(image)
        self.tally.read_seconds += time.process_time() - start
        truth = self.screen.game.board.cells
        low = set(reading.low_confidence)
        bad = 0
        for i, (a, b) in enumerate(zip(reading.board.cells, truth, strict=True)):
            if i in low or a == b:
                continue
            if i in reading.unsure:
                if not any(alt.cells[i] == b for alt in reading.alternatives):
                    bad += 1
            elif a == UNKNOWN:
                self.tally.missed += 1
            else:
                bad += 1
        self.tally.reads += 1
        self.tally.misread += bad
        self.last_bad = bad > 0
        return reading

    def sent(
        self, flagged: frozenset[int], guessed: frozenset[int], opened: frozenset[int] = frozenset()
    ) -> None:
        self.reader.sent(flagged, guessed, opened)

    def learn(self, image: Image, board: Board) -> None:
        self.reader.learn(image, board)

    def forget_unproven(self) -> None:
        self.reader.forget_unproven()

    def zeros_alone(self, cells: frozenset[int]) -> None:
        self.reader.zeros_alone(cells)


def play_checked(
    screen: ThemedScreen,
    reader: Any,
    games: int,
    next_game: Callable[[], Game],
    tally: Tally,
    settings: Any = None,
    clock: Any = None,
) -> None:
    """Play `games` games on `screen` through `reader`, every read checked; a stop
    is counted and play goes on with a new game (the reader keeps what it learned).
    `clock`: the player's, shared with a learning reader that times its looks."""
    from msolver.io.hotkeys import FakeHotkeys
    from msolver.io.mouse import RecordingMouse
    from msolver.play.loop import Player, Settings
    from msolver.play.target import NewGame

    checked = CheckedReader(reader, screen, tally)
    screen.new_game = next_game

    def click(x: int, y: int, button: Any) -> None:
        tally.clicks += 1
        if checked.last_bad:
            tally.misread_clicks += 1
        screen.on_click(x, y, button)

    left = games
    while left > 0:
        said: list[str] = []
        base = settings or Settings()
        player = Player(
            checked,
            screen.capture(),
            RecordingMouse(on_click=click, on_key=screen.on_key),
            FakeHotkeys(started=True),
            new_game=NewGame.parse("n"),
            settings=replace(base, games=left),
            say=said.append,
            clock=clock,
        )
        out = player.run()
        tally.games += len(out.games)
        tally.wins += out.wins
        tally.certain_losses += sum(1 for s in said if "called certain" in s)
        left -= len(out.games)
        if out.stopped is not None:
            tally.stops.append(out.stopped)
            left -= 1  # the game it stopped in
            screen.game = next_game()
