"""Test-side harness: start the real Minesweeper games on an X display and drive them.

Test-only (xdotool, Xvfb, subprocess); product code never imports this.

Typical use, with the `xvfb` fixture from tests/conftest.py::

    from tests.support import xgames

    win = xgames.launch("sgt-mines", xvfb, seed="42")
    try:
        x, y, w, h = win.geometry()          # screen pixels
        img = win.screenshot()               # (H, W, 3) uint8 **RGB**, whole window
        cx, cy = win.cell_center_hint(0, 0)  # screen pixels, from FIELD_NOTES geometry
        win.click(cx, cy)                    # left click at screen coordinates
        win.key("n")                         # key(s) in xdotool syntax, e.g. "ctrl+n"
        win.move(400, 300)                   # move the window
    finally:
        win.close()                          # kills the process, removes its temp dir

Games: "sgt-mines", "gnome-mines", "xdemineur" (expert 30x16/99 by default).

- sgt-mines: `seed` gives a reproducible layout ("30x16n99#seed"); `layout`
  (set of flat mine indices, row-major) starts a game whose mines are exactly
  those (an unmasked sgt game ID, "30x16:u<hex>"): the first click is then NOT
  made safe, which is what a recording with known truth wants. `tilesize`
  sets MINES_TILESIZE.
- gnome-mines: `size=(w, h)` is the window size written to its keyfile settings
  (default 1200x640); each launch gets its own XDG_CONFIG_HOME under /tmp. Its
  pointer hover lightens a cell: call `park_pointer()` before a grab.
- xdemineur: opens a random empty area at launch and its timer runs at once.

Every wait has a timeout and raises `HarnessError` naming what did not happen.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

GAMES = ("sgt-mines", "gnome-mines", "xdemineur")
BINARIES = {
    "sgt-mines": "/usr/games/sgt-mines",
    "gnome-mines": "/usr/games/gnome-mines",
    "xdemineur": "/usr/games/xdemineur",
}

# Board geometry inside each window at default settings (FIELD_NOTES section 1,
# re-measured): origin of cell (0, 0)'s top-left and pitch, in window pixels.
# Test-side hints only; the product finds the grid itself (vision.grid).
_HINTS: dict[str, tuple[float, float, float]] = {
    "sgt-mines": (30.0, 55.0, 20.0),
    "gnome-mines": (25.0, 110.0, 33.0),
    "xdemineur": (17.0, 82.0, 21.0),
}


class HarnessError(RuntimeError):
    """A game did not start, map, draw or die in time."""


def available(game: str) -> bool:
    """True when the game binary and xdotool are installed."""
    return shutil.which("xdotool") is not None and Path(BINARIES[game]).exists()


def _xdotool(display: str, *args: str, timeout: float = 5.0) -> str:
    env = dict(os.environ, DISPLAY=display)
    try:
        out = subprocess.run(
            ["xdotool", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise HarnessError(f"xdotool {' '.join(args)} timed out") from exc
    return out.stdout


def grab(display: str, region: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """Screenshot of `region` (left, top, width, height) or the whole screen, RGB uint8."""
    import mss

    with mss.MSS(display=display) as sct:
        if region is None:
            mon = sct.monitors[0]
        else:
            left, top, width, height = region
            mon = {"left": left, "top": top, "width": width, "height": height}
        shot = np.asarray(sct.grab(mon))
    # mss gives BGRA; the vision API documents RGB.
    return np.ascontiguousarray(shot[:, :, 2::-1])


def sgt_layout_id(width: int, height: int, mines: set[int] | frozenset[int]) -> str:
    """An sgt-mines game ID with an explicit, unmasked mine bitmap (row-major, MSB first)."""
    n = width * height
    bits = [1 if i in mines else 0 for i in range(n)]
    bits += [0] * ((-n) % 4)
    hexdigits = "".join(
        "0123456789abcdef"[bits[i] * 8 + bits[i + 1] * 4 + bits[i + 2] * 2 + bits[i + 3]]
        for i in range(0, len(bits), 4)
    )
    return f"{width}x{height}:u{hexdigits}"


@dataclass
class GameWindow:
    """A running game: its process, X window id and private temp dir."""

    game: str
    display: str
    proc: subprocess.Popen[bytes]
    wid: int
    tmpdir: Path
    cols: int = 30
    rows: int = 16
    mines: int = 99
    _closed: bool = field(default=False, repr=False)

    # -- geometry -------------------------------------------------------------

    def geometry(self) -> tuple[int, int, int, int]:
        """(x, y, width, height) of the window on the screen, in pixels."""
        out = _xdotool(self.display, "getwindowgeometry", "--shell", str(self.wid))
        vals = dict(line.split("=", 1) for line in out.split() if "=" in line)
        try:
            return (int(vals["X"]), int(vals["Y"]), int(vals["WIDTH"]), int(vals["HEIGHT"]))
        except KeyError as exc:
            raise HarnessError(f"{self.game}: window {self.wid} has no geometry") from exc

    def cell_center_hint(self, row: int, col: int) -> tuple[int, int]:
        """Screen pixel at the centre of a cell, from the known default geometry.

        Valid at default tile size/window size only; tests that need other sizes
        should calibrate with msolver.vision.grid instead.
        """
        ox, oy, pitch = _HINTS[self.game]
        x, y, _, _ = self.geometry()
        return (int(x + ox + (col + 0.5) * pitch), int(y + oy + (row + 0.5) * pitch))

    def move(self, x: int, y: int) -> None:
        """Move the window so its top-left is at screen (x, y); waits until it is there."""
        _xdotool(self.display, "windowmove", "--sync", str(self.wid), str(x), str(y))
        deadline = time.monotonic() + 5
        while self.geometry()[:2] != (x, y):
            if time.monotonic() > deadline:
                raise HarnessError(f"{self.game}: window did not move to {x},{y}")
            time.sleep(0.02)
        self.wait_drawn()

    # -- pixels ---------------------------------------------------------------

    def screenshot(self, *, whole_screen: bool = False) -> np.ndarray:
        """RGB uint8 image of the window (or of the whole screen)."""
        if whole_screen:
            return grab(self.display)
        return grab(self.display, self.geometry())

    def wait_drawn(self, *, settle: float = 0.25, timeout: float = 15.0) -> np.ndarray:
        """Wait until the window's pixels stop changing for `settle` seconds; return them.

        A window that is still black (not yet drawn) never counts as settled.
        """
        deadline = time.monotonic() + timeout
        last: np.ndarray | None = None
        since = time.monotonic()
        while True:
            img = self.screenshot()
            drawn = img.size > 0 and int(img.max()) > 0
            if last is not None and drawn and img.shape == last.shape and np.array_equal(img, last):
                if time.monotonic() - since >= settle:
                    return img
            else:
                since = time.monotonic()
            last = img
            if time.monotonic() > deadline:
                raise HarnessError(f"{self.game}: window never settled within {timeout:.0f} s")
            time.sleep(0.05)

    # -- input ----------------------------------------------------------------

    def click(self, x: int, y: int, button: int = 1) -> None:
        """Click at screen (x, y): 1 left, 2 middle, 3 right."""
        _xdotool(self.display, "mousemove", str(x), str(y), "click", str(button))

    def key(self, keys: str) -> None:
        """Send a key chord in xdotool syntax ("n", "ctrl+n", "F2") to the game window."""
        _xdotool(self.display, "key", "--window", str(self.wid), keys)

    def park_pointer(self) -> None:
        """Move the pointer off the board but inside the window (bottom-right corner).

        Inside, because focus follows the pointer here and gnome-mines pauses
        (and hides the board) when its window loses focus.
        """
        x, y, w, h = self.geometry()
        _xdotool(self.display, "mousemove", str(x + w - 4), str(y + h - 4))

    # -- life -----------------------------------------------------------------

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        """Kill the game (its whole process group) and remove its temp dir. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=3)
        shutil.rmtree(self.tmpdir, ignore_errors=True)

    def __enter__(self) -> GameWindow:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _visible_by_class(display: str, game: str) -> set[int]:
    if game.startswith("name:"):  # a game that sets no WM_CLASS (ace-minesweeper)
        out = _xdotool(display, "search", "--onlyvisible", "--name", game[5:])
    else:
        out = _xdotool(display, "search", "--onlyvisible", "--classname", game)
    return {int(tok) for tok in out.split()}


def _find_window(
    display: str, proc: subprocess.Popen[bytes], game: str, timeout: float, before: set[int]
) -> int:
    """The largest visible window of the process (by _NET_WM_PID, else new by class name).

    xdemineur sets no _NET_WM_PID, so windows of its class that were not there
    before the launch are taken instead.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = ""
            log = Path(proc.args[0]).name if isinstance(proc.args, list) else ""
            del log
            cwd = getattr(proc, "_msolver_tmp", None)
            if cwd is not None:
                err = (Path(cwd) / "stderr.log").read_text(errors="replace").strip()
                err = " | ".join(err.splitlines()[-2:])
            raise HarnessError(
                f"{game} exited with code {proc.returncode} before mapping a window: {err}"
            )
        out = _xdotool(display, "search", "--onlyvisible", "--pid", str(proc.pid))
        if not out.split():
            out = " ".join(str(w) for w in _visible_by_class(display, game) - before)
        best: tuple[int, int] | None = None
        for tok in out.split():
            wid = int(tok)
            geo = _xdotool(display, "getwindowgeometry", "--shell", str(wid))
            vals = dict(line.split("=", 1) for line in geo.split() if "=" in line)
            area = int(vals.get("WIDTH", "0")) * int(vals.get("HEIGHT", "0"))
            if area > 100 * 100 and (best is None or area > best[1]):
                best = (wid, area)
        if best is not None:
            return best[0]
        time.sleep(0.05)
    raise HarnessError(f"{game}: no window mapped within {timeout:.0f} s")


def launch(
    game: str,
    display: str,
    *,
    seed: str | int | None = None,
    tilesize: int | None = None,
    size: tuple[int, int] | None = None,
    layout: set[int] | frozenset[int] | None = None,
    position: tuple[int, int] | None = None,
    theme: str | None = None,
    gtk_theme: str | None = None,
    timeout: float = 20.0,
) -> GameWindow:
    """Start `game` at expert size on `display`; return once its window is mapped and drawn.

    seed, tilesize, layout: sgt-mines only. size, theme: gnome-mines window size
    and tile theme (its own default is bgcolors, the one msolver has built in),
    and the desktop theme GTK draws its window in (GTK_THEME).
    position: move the window there after it is drawn.
    """
    if game not in BINARIES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    if not available(game):
        raise HarnessError(f"{game} or xdotool is not installed")
    tmpdir = Path(tempfile.mkdtemp(prefix=f"msolver-{game}-"))
    env = dict(os.environ, DISPLAY=display, HOME=str(tmpdir), XDG_CONFIG_HOME=str(tmpdir / "cfg"))
    env.pop("WAYLAND_DISPLAY", None)
    (tmpdir / "cfg").mkdir()
    cmd: list[str]
    if game == "sgt-mines":
        if layout is not None:
            game_id = sgt_layout_id(30, 16, layout)
        elif seed is not None:
            game_id = f"30x16n99#{seed}"
        else:
            game_id = "30x16n99"
        if tilesize is not None:
            env["MINES_TILESIZE"] = str(tilesize)
        cmd = [BINARIES[game], game_id]
    elif game == "gnome-mines":
        # Without the keyfile backend --big silently gives 8x8 (FIELD_NOTES).
        env["GSETTINGS_BACKEND"] = "keyfile"
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        w, h = size if size is not None else (1200, 640)
        settings = [("window-width", str(w)), ("window-height", str(h))]
        if theme is not None:
            settings.append(("theme", theme))
        for key, value in settings:
            subprocess.run(
                ["gsettings", "set", "org.gnome.Mines", key, value],
                env=env,
                check=True,
                timeout=10,
                capture_output=True,
            )
        if gtk_theme is not None:
            env["GTK_THEME"] = gtk_theme
        cmd = [BINARIES[game], "--big"]
    else:
        cmd = [BINARIES[game], "-geometry", "30x16+0+0", "-m", "99"]
    before = _visible_by_class(display, game)
    proc = subprocess.Popen(
        cmd,
        env=env,
        cwd=tmpdir,
        stdout=subprocess.DEVNULL,
        stderr=open(tmpdir / "stderr.log", "wb"),  # noqa: SIM115 - closed with the process
        start_new_session=True,  # own process group: close() kills helpers too
    )
    proc._msolver_tmp = tmpdir  # type: ignore[attr-defined]
    win = GameWindow(game=game, display=display, proc=proc, wid=0, tmpdir=tmpdir)
    try:
        win.wid = _find_window(display, proc, game, timeout, before)
        if game == "gnome-mines":
            # It lays its board out about 1 s after mapping (FIELD_NOTES).
            time.sleep(1.0)
        if position is not None:
            win.move(*position)
        win.park_pointer()
        # gnome-mines redraws once more after its late layout: demand a longer calm
        win.wait_drawn(settle=0.8 if game == "gnome-mines" else 0.25, timeout=timeout)
    except BaseException:
        win.close()
        raise
    return win
