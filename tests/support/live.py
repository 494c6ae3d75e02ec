"""A simulated screen for the live player's tests: a core `Game` drawn as coloured
cells on a fake desktop, a reader that decodes them, and a mouse that plays
the clicks into the game.

Every state is drawn as one flat colour per cell box, so the fake reader is
exact unless a test covers, moves or freezes the picture on purpose.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from msolver.core.board import EXPLODED, FLAG, MINE, UNKNOWN, WRONG_FLAG, Board
from msolver.core.game import Game, Status
from msolver.io.capture import RecordedCapture
from msolver.io.mouse import Button, RecordingMouse
from msolver.vision.geometry import Grid
from msolver.vision.image import Image
from msolver.vision.profile import Profile
from msolver.vision.reading import Reading

SCREEN = (800, 600)


def colour_of(state: int) -> tuple[int, int, int]:
    # States run -5..8; spread them so no two share a colour.
    return (40 + (state + 5) * 15, 200 - (state + 5) * 10, 90)


_DECODE = {colour_of(s): s for s in range(-5, 9)}


@dataclass
class SimScreen:
    """A fake desktop showing `game` at `grid`; clicks go through `mouse`.

    chords: buttons the fake game chords with ("middle", "left").
    lag: grabs after a click before the screen shows it (a slow redraw).
    frozen: the game ignores clicks (a hung or covered window).
    """

    game: Game
    grid: Grid
    chords: frozenset[str] = frozenset({"middle", "left"})
    lag: int = 0
    frozen: bool = False
    new_game: Callable[[], Game] | None = None
    cover: Callable[[int], bool] | None = None  # grab number -> draw a black screen
    shift: tuple[int, int] = (0, 0)  # move the drawn board (a moved window)
    # (left, top, right, bottom) of a dialog drawn over the board once the game is won
    win_dialog: tuple[int, int, int, int] | None = None
    # The win dialog is modal (a high-score window): it stays over the board
    # after the win, takes every key, and only Escape closes it.
    modal: bool = False
    dialog_up: bool = False
    # The keys that close the dialog (Tk's "OK" box: Return, not Escape), and
    # whether a key reaches it only with the pointer over it (focus follows
    # the pointer, the box in the board's middle).
    dialog_closes: tuple[str, ...] = ("esc",)
    dialog_under_pointer: bool = False
    # (left, top, right, bottom) of the game's window, when keys reach it only
    # with the pointer inside (focus follows the pointer)
    key_window: tuple[int, int, int, int] | None = None
    # The game draws its unflagged mines once won (in a look the reader may not know).
    mines_on_win: bool = False
    # The lost board shows only the mine that went off (its other mines stay unopened).
    mines_on_loss: bool = True
    # The lost game still takes flags (NiceGUI): a right click on a cell left
    # unopened draws the flag, or takes it off.
    flags_after_loss: bool = False
    # A chord opens a 0 without opening the 0's neighbours (react-minesweeper).
    chord_floods: bool = True
    left_floods: bool = True  # the same for a left click on an unopened cell
    # (left, top, right, bottom) of a new-game button on a menu the game
    # draws over the whole board once a game ends (minesweeper-mvc); a click
    # on it starts `new_game`. `menu_late`: grabs that show the finished board
    # first, its cells still taking clicks.
    menu: tuple[int, int, int, int] | None = None
    # A lost game opens every safe cell and draws its mines, over our flags and
    # on the one that went off, in one look (react-minesweeper).
    loss_opens_all: bool = False
    menu_late: int = 0
    _ended_grabs: int = 0
    # Clicks that reached the board's cells once the game had ended.
    clicks_after_end: list[tuple[int, int]] = field(default_factory=list)
    late_flags: set[int] = field(default_factory=set)
    # (left, top, right, bottom) of a face above the board: yellow in play,
    # green once won, red once lost (face_of overrides: status -> colour).
    face: tuple[int, int, int, int] | None = None
    face_of: Callable[[Status], tuple[int, int, int]] | None = None
    # (left, top, right, bottom) of a timer that changes every `tick` grabs in play.
    timer: tuple[int, int, int, int] | None = None
    tick: int = 3
    grabs: int = 0
    _ticks: int = 0
    _mouse: RecordingMouse | None = None
    clicks: list[tuple[int, int, Button]] = field(default_factory=list)
    _stale: Image | None = None
    _stale_left: int = 0

    def draw(self) -> Image:
        img = np.full((SCREEN[1], SCREEN[0], 3), 30, dtype=np.uint8)
        board = self.game.board
        ox, oy = self.grid.origin
        px, py = self.grid.pitch
        ox += self.shift[0]
        oy += self.shift[1]
        won_marks = (
            set(self.game.layout) if self.mines_on_win and self.game.status is Status.WON else set()
        )
        lost = self.game.status is Status.LOST
        for i, s in enumerate(board.cells):
            if i in won_marks and s == UNKNOWN:
                s = MINE
            if lost and not self.mines_on_loss and s in (MINE, WRONG_FLAG):
                s = UNKNOWN if s == MINE else FLAG
            if s == UNKNOWN and i in self.late_flags:
                s = FLAG
            if lost and self.loss_opens_all:
                s = MINE if self.game.is_mine(i) else self.game.numbers()[i]
            r, c = divmod(i, board.width)
            x0, y0 = round(ox + c * px), round(oy + r * py)
            img[y0 : round(y0 + py), x0 : round(x0 + px)] = colour_of(s)
        if (
            self.menu is not None
            and self.game.status is not Status.PLAYING
            and self._ended_grabs > self.menu_late
        ):
            left, top, w, h = self.grid.rect()
            img[top : top + h, left : left + w] = (120, 120, 40)
            ml, mt, mr, mb = self.menu
            img[mt:mb, ml:mr] = (20, 160, 220)
        if self.win_dialog is not None and (
            self.dialog_up or (self.game.status is Status.WON and not self.modal)
        ):
            left, top, right, bottom = self.win_dialog
            img[top:bottom, left:right] = (250, 250, 250)
        if self.face is not None:
            left, top, right, bottom = self.face
            img[top:bottom, left:right] = (self.face_of or face_colour)(self.game.status)
        if self.timer is not None:
            left, top, right, bottom = self.timer
            img[top:bottom, left:right] = 60 + (self._ticks // self.tick) % 6 * 30
        return img

    def grab(self) -> Image:
        self.grabs += 1
        if self.game.status is Status.PLAYING:
            self._ticks += 1
            self._ended_grabs = 0
        else:
            self._ended_grabs += 1
        if self.cover is not None and self.cover(self.grabs):
            return np.zeros((SCREEN[1], SCREEN[0], 3), dtype=np.uint8)
        if self._stale_left > 0 and self._stale is not None:
            self._stale_left -= 1
            return self._stale
        return self.draw()

    def capture(self) -> RecordedCapture:
        return RecordedCapture(self.grab)

    def mouse(self, **kwargs: object) -> RecordingMouse:
        self._mouse = RecordingMouse(on_click=self.on_click, on_key=self.on_key, **kwargs)
        return self._mouse

    def _before_change(self) -> None:
        if self.lag and self._stale_left == 0:
            self._stale = self.draw()
            self._stale_left = self.lag

    def on_click(self, x: int, y: int, button: Button) -> None:
        self.clicks.append((x, y, button))
        if self.frozen:
            return
        self._before_change()
        if (
            self.menu is not None
            and self.game.status is not Status.PLAYING
            and self._ended_grabs > self.menu_late
        ):
            ml, mt, mr, mb = self.menu
            if ml <= x < mr and mt <= y < mb and self.new_game is not None:
                self.game = self.new_game()
            return
        i = self.grid.cell_at(x, y)
        if i is None:
            return
        if self.game.status is not Status.PLAYING:
            self.clicks_after_end.append((x, y))
        state = self.game.board.cells[i]
        if self.flags_after_loss and button == "right" and self.game.status is Status.LOST:
            if state in (UNKNOWN, MINE):
                self.late_flags ^= {i}
            return
        if button == "right":
            self.game.flag(i)
        elif state >= 1 and button in self.chords:
            self.game.chord(i, flood=self.chord_floods)
        elif button == "left" and state == UNKNOWN:
            self.game.open(i, flood=self.left_floods)
        if self.modal and self.win_dialog is not None and self.game.status is Status.WON:
            self.dialog_up = True

    def on_key(self, combo: str) -> None:
        if self.key_window is not None and self._mouse is not None:
            x, y = self._mouse.position()
            left, top, right, bottom = self.key_window
            if not (left <= x < right and top <= y < bottom):
                return
        if self.dialog_up:
            if self.dialog_under_pointer and self._mouse is not None and self.win_dialog:
                x, y = self._mouse.position()
                left, top, right, bottom = self.win_dialog
                if not (left <= x < right and top <= y < bottom):
                    return  # to the game's window, which the modal box holds
            if combo in self.dialog_closes:
                self.dialog_up = False
            return
        if combo == "n" and self.new_game is not None:
            self._before_change()
            self.game = self.new_game()


def face_colour(status: Status) -> tuple[int, int, int]:
    if status is Status.WON:
        return (40, 200, 40)
    if status is Status.LOST:
        return (220, 30, 30)
    return (240, 220, 0)


class SimReader:
    """Decodes SimScreen pixels by cell centre colour; an unknown colour is low confidence."""

    def __init__(
        self,
        grid: Grid,
        mines: int,
        corrupt: Callable[[Board], Board] | None = None,
        unseen: frozenset[int] = frozenset(),
        exploded_as: Callable[[int], int] | None = None,
        unproven_numbers: bool = False,
    ):
        self._grid = grid
        self._mines = mines
        self.corrupt = corrupt
        # states whose look the reader has not learned: read with low confidence
        self.unseen = unseen
        # The mine that went off at cell i read as the number exploded_as(i),
        # through an unproven look (a learning reader's rules can name it so).
        self.exploded_as = exploded_as
        self.unproven_numbers = unproven_numbers  # every number read as unproven
        self.learned: list[Board] = []
        self.forgotten = 0  # forget_unproven calls

    @property
    def grid(self) -> Grid:
        return self._grid

    @property
    def mines(self) -> int:
        return self._mines

    def read(self, image: Image) -> Reading:
        g = self._grid
        left, top, _, _ = g.rect()
        cells = []
        low = []
        unproven = set()
        for i in range(g.rows * g.cols):
            x, y = g.centre(i)
            px = tuple(int(v) for v in image[y - top, x - left])
            state = _DECODE.get((px[0], px[1], px[2]))
            if state == EXPLODED and self.exploded_as is not None:
                state = self.exploded_as(i)
                unproven.add(i)
            elif state is None or state in self.unseen:
                low.append(i)
                state = UNKNOWN
            elif state >= 0 and self.unproven_numbers:
                unproven.add(i)
            cells.append(state)
        board = Board(g.cols, g.rows, self._mines, tuple(cells))
        if self.corrupt is not None:
            board = self.corrupt(board)
        return Reading(board, tuple(low), unproven=frozenset(unproven))

    def sent(
        self, flagged: frozenset[int], guessed: frozenset[int], opened: frozenset[int] = frozenset()
    ) -> None:
        return None

    def learn(self, image: Image, board: Board) -> None:
        self.learned.append(board)

    def forget_unproven(self) -> None:
        self.forgotten += 1

    def zeros_alone(self, cells: frozenset[int]) -> None:
        return None  # reads the game's own board: no 0 is refused


def expert_sim(seed: int, *, first_click: str = "opening", **kwargs: object) -> SimScreen:
    """An expert game drawn at (40, 60) with 20 px cells."""
    grid = Grid(origin=(40.0, 60.0), pitch=(20.0, 20.0), rows=16, cols=30)
    game = Game(30, 16, 99, seed=seed, first_click=first_click)  # type: ignore[arg-type]
    return SimScreen(game=game, grid=grid, **kwargs)  # type: ignore[arg-type]


def won(game: Game) -> bool:
    return game.status is Status.WON


def calibrate_window(
    win: object, *, new_game: str | None, theme: str | None = None, mines: int = 99
) -> Profile:
    """Calibrate from a whole-screen grab of a running game (tests/support/xgames window).

    The new-game action of a game without a key (xdemineur) is the face
    button the wizard finds above the board. MSOLVER_E2E_THEME names a theme
    profile to take tiles from when the built-in one is not wanted.
    """
    import os

    from msolver.app.wizard import find_face
    from msolver.vision.grid import calibrate

    image = win.screenshot(whole_screen=True)  # type: ignore[attr-defined]
    theme = theme or os.environ.get("MSOLVER_E2E_THEME") or None
    prof = calibrate(image, mines=mines, screen_origin=(0, 0), name="e2e", theme=theme)
    if new_game is None:
        face = find_face(image, prof.grid.rect(), (0, 0))
        if face is not None:
            new_game = f"click:{face[0]},{face[1]}"
    return prof.with_changes(new_game=new_game)
