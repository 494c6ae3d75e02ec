"""The hint picture for a board, and a small always-on-top window that shows it.

`hint_for` decides, explains and draws (what `msolver hint` writes to a file
and the window shows). `HintWindow` is a Tk window that only shows pictures:
it has no mouse and never clicks. `watch` is `play --hint`'s loop: read the
board, and redraw the window each time the read changes.

tkinter is imported only when a window is opened, so the rest of msolver
works on a Python without Tk; `HintWindowError` then says what to install.
"""

from __future__ import annotations

import base64
import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from msolver.core.board import Board
from msolver.core.solver import Decision, Solver, analyse
from msolver.core.solver.reason import explain
from msolver.vision.geometry import Grid
from msolver.vision.image import Image
from msolver.vision.overlay import render

# The window is a companion beside the game, not a second screen: pictures
# wider than this are shrunk to it.
MAX_WIDTH = 720


class HintWindowError(RuntimeError):
    """No window can be opened (no Tk, no display); one-line message."""


@dataclass(frozen=True, eq=False)
class Hint:
    """One board's hint: the decision, each cell's mine chance, the ringed move and why."""

    decision: Decision
    prob: tuple[float | None, ...]
    best: int | None
    action: str
    reason: str

    def picture(self, image: Image, grid: Grid, board: Board) -> Image:
        return render(image, grid, board, self.prob, self.best, self.reason, action=self.action)


def hint_for(board: Board, solver: Solver | None = None) -> Hint:
    decision = (solver or Solver()).decide(board)
    if decision.status == "inconsistent":
        a = None
        prob: tuple[float | None, ...] = tuple(None for _ in board.cells)
    else:
        a = decision.analysis or analyse(board)
        prob = tuple(a.prob) if a.status == "ok" else tuple(None for _ in board.cells)
    # Ring an opening when there is one: it is what a person clicks next.
    opens = [m for m in decision.moves if m.kind == "open"]
    move = opens[0] if opens else (decision.moves[0] if decision.moves else None)
    reason = explain(board, decision, move)
    if move is None:
        return Hint(decision, prob, None, "open", reason)
    return Hint(decision, prob, move.index, move.kind, reason)


def _photo_data(picture: Image) -> str:
    import cv2

    h, w = picture.shape[:2]
    if w > MAX_WIDTH:
        size = (MAX_WIDTH, round(h * MAX_WIDTH / w))
        picture = np.asarray(cv2.resize(picture, size, interpolation=cv2.INTER_AREA), np.uint8)
    # PNG at the lowest compression: Tk decodes it natively and it costs
    # a few ms, where base64 of raw PPM would be larger to push through Tcl.
    ok, buf = cv2.imencode(
        ".png", np.ascontiguousarray(picture[:, :, ::-1]), [cv2.IMWRITE_PNG_COMPRESSION, 1]
    )
    if not ok:
        raise HintWindowError("could not encode the hint picture")
    return base64.b64encode(buf.tobytes()).decode("ascii")


class HintWindow:
    """A small always-on-top window showing the latest hint picture; it never clicks."""

    TITLE = "msolver hint"

    def __init__(self, title: str = TITLE) -> None:
        try:
            import tkinter
        except ImportError as exc:
            raise HintWindowError(
                "the hint window needs Tk (python3-tk on Debian/Ubuntu; Tk comes with the "
                "python.org installers); use --hint --text for the terminal grid"
            ) from exc
        try:
            # No module-wide default root: it would keep the interpreter (and
            # its display connection) alive after the window closes.
            self._root = tkinter.Tk()
            if tkinter._default_root is self._root:  # type: ignore[attr-defined]
                tkinter._default_root = None  # type: ignore[attr-defined]
        except tkinter.TclError as exc:
            raise HintWindowError(f"cannot open the hint window ({exc})") from exc
        self._tk = tkinter
        self._root.title(title)
        self._root.attributes("-topmost", True)
        self._root.protocol("WM_DELETE_WINDOW", self.close)
        self._label = tkinter.Label(self._root)
        self._label.pack()
        self._photo: Any = None
        self.closed = threading.Event()
        self.shown = 0
        self.pump()

    def show(self, picture: Image) -> None:
        """Replace the picture and draw it now."""
        if self.closed.is_set():
            return
        photo = self._tk.PhotoImage(master=self._root, data=_photo_data(picture), format="png")
        self._label.configure(image=photo)
        self._photo = photo  # Tk drops an image Python no longer holds
        self.shown += 1
        self.pump()

    def pump(self) -> None:
        """Let Tk draw and handle the window's events (call often)."""
        if self.closed.is_set():
            return
        try:
            self._root.update()
        except self._tk.TclError:
            self.closed.set()

    def close(self) -> None:
        if not self.closed.is_set():
            self.closed.set()
            with contextlib.suppress(self._tk.TclError):
                self._root.destroy()
            # Drop every handle on the Tcl interpreter so it is deleted with
            # its display connection (a later Tk must not service a dead one).
            self._photo = None
            del self._label, self._root


Shower = Callable[[Image], None]


def watch(
    reader: Any,
    capture: Any,
    stop: threading.Event,
    show: Shower,
    *,
    pump: Callable[[], None] = lambda: None,
    interval: float = 0.02,
    on_board: Callable[[Board, Hint], None] | None = None,
    until_over: Callable[[Board], str | None] | None = None,
    stopped: threading.Event | None = None,
) -> str | None:
    """Read the board until `stop`; show a new hint picture each time the read changes.

    reader: a `Reader` (grid, read(image) -> Reading); capture: grabs the
    board region. Unclear reads (a redraw in progress) are skipped. Returns
    the game's end ("won"/"lost") when `until_over` reports one, else None;
    `stopped` (the window closed) ends it too.
    """
    grid: Grid = reader.grid
    region = grid.rect()
    local = grid.moved(-region[0], -region[1])
    shown: Board | None = None
    while not stop.is_set() and not (stopped is not None and stopped.is_set()):
        image = capture.grab(region)
        reading = reader.read(image)
        if not (reading.low_confidence or reading.alternatives) and reading.board != shown:
            shown = reading.board
            hint = hint_for(shown)
            show(hint.picture(image, local, shown))
            if on_board is not None:
                on_board(shown, hint)
            over = until_over(shown) if until_over is not None else None
            if over is not None:
                return over
        pump()
        time.sleep(interval)
    return None


def grid_json(grid: Grid, size: Sequence[int]) -> dict[str, object]:
    """The image geometry of a hint: where the board is on the picture (pixels)."""
    return {
        "origin": [grid.origin[0], grid.origin[1]],
        "pitch": [grid.pitch[0], grid.pitch[1]],
        "rows": grid.rows,
        "cols": grid.cols,
        "image_width": int(size[0]),
        "image_height": int(size[1]),
    }
