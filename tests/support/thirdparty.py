"""Test-side harness for Minesweeper games msolver was not built around.

Test-only (xdotool, Xvfb, Chromium, subprocess); product code never imports this.

Every `Variant` is one game in one look at one board size. `launch(variant,
display)` starts it on a blank board and returns the window plus the board's
true geometry, measured from the game's own configuration and its pixels by
a rule written for that game alone (never by msolver's grid finder):

- sgt-mines in seeded random palettes (MINES_COLOUR_<n>) and tile sizes
  (MINES_TILESIZE): GTK, GtkDrawingArea;
- gnome-mines at other window sizes (GTK, rounded tiles with gaps);
- minegauler (PyPI, PyQt6): a Windows-classic clone in five button styles,
  in its own venv under ~/.cache/msolver-tests, board size and button size
  from its settings.cfg, run without network (unshare -n);
- xbomb (Debian, plain X / Athena): stippled tiles between 2 px black lines;
- ace-minesweeper (Debian's Ace of Penguins, its own Xlib toolkit): a fixed
  32x32 board of 200 mines in 11 px bevelled tiles on a dotted green grid,
  opened cells green with every digit white (read by shape alone), mines
  laid before the first click;
- minesweeper-for-web (npm, a Lit web component) in Chromium at page zoom
  100% and 150%, served by a static server on 127.0.0.1; a test-only wrapper
  page writes the board's position and mine layout into the window title;
- KDE's kmines (Debian, Qt5/KDE Frameworks) in its four themes and three
  levels, with a private config file and its own D-Bus session.
- web-own (tests/support/webmines.html): our own test-only web game in the
  CSS looks of hobby web clones (dark rounded tiles, soft gradients, flat
  grid lines, big checkered cells, the browser's own buttons, a lineless
  checkerboard of two greens), served and shown like the npm game; it
  writes its cells' rects and every game's layout into the title; any other
  look or size as `_webown("dark", 1.1, 16, 16, 40)`.

Geometry convention (as for the built-in games): origin is the top-left pixel
of cell (0, 0)'s face and pitch the distance between neighbouring cells; a
game that draws lines or gaps between cells has them after each face
(`gap`), so any origin from origin - gap to origin cuts the cells the same way.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tests.support import xgames
from tests.support.xgames import GameWindow, HarnessError

CACHE = Path(os.environ.get("MSOLVER_TEST_CACHE", Path.home() / ".cache" / "msolver-tests"))
MINEGAULER_VENV = CACHE / "minegauler-venv"
MINEGAULER_VERSION = "4.2.0"
PYGAME_VENV = CACHE / "pygame-minesweeper-venv"
PYGAME_VERSION = "1.0.11"
MVC_VENV = CACHE / "minesweeper-mvc-venv"
MVC_VERSION = "1.1.0"
WEB_DIR = CACHE / "web-minesweeper-for-web"
WEB_PACKAGE = "minesweeper-for-web@3.0.4"
CHROMIUM = "chromium"


class Unavailable(RuntimeError):
    """The game cannot be installed or started on this machine (a skip outside CI)."""


@dataclass(frozen=True)
class Truth:
    """Where the board is, in pixels of the window's own screenshot."""

    rows: int
    cols: int
    mines: int
    origin: tuple[float, float]
    pitch: tuple[float, float]
    gap: tuple[float, float] = (0.0, 0.0)
    # Where each column/row's face starts, for a game that spaces its cells
    # unevenly (gnome-mines lays tiles at whole pixels: 27 px then 26 px);
    # empty when every cell is at origin + k * pitch.
    col_starts: tuple[float, ...] = ()
    row_starts: tuple[float, ...] = ()


@dataclass(frozen=True)
class Variant:
    """One game in one look at one size.

    new_game: the key (xdotool / msolver syntax) that starts a new game.
    first_click: "safe", "opening", "xp" (a mine under the first click moves to the
    top left, as Windows XP did) or "none" (mines laid before the first click).
    builtin: the msolver built-in theme this look is (None: a theme msolver never saw).
    blank_builtin: the built-in theme whose blank board this look's is, pixel for
    pixel, though its numbers differ (gnome-mines' other tile themes): calibration
    may name it from a blank board; play must find out at the first numbers.
    """

    name: str
    game: str
    toolkit: str
    theme: str
    rows: int
    cols: int
    mines: int
    new_game: str
    first_click: str
    end_signal: str
    builtin: str | None = None
    blank_builtin: str | None = None
    params: tuple[tuple[str, Any], ...] = ()
    # The click that flags (msolver calibrate --flag): a right click in the web
    # game opens Chromium's context menu over the board; ctrl+click flags there.
    flag: str = "right"

    def param(self, key: str, default: Any = None) -> Any:
        return dict(self.params).get(key, default)


@dataclass
class ThirdPartyWindow(GameWindow):
    """A game window plus the helper processes (a web server) that die with it."""

    helpers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    # the new-game action in msolver's syntax (a key, or click:X,Y on the screen)
    new_game: str = ""

    def close(self) -> None:
        super().close()
        for proc in self.helpers:
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=3)
        self.helpers.clear()

    def title(self) -> str:
        return xgames._xdotool(self.display, "getwindowname", str(self.wid)).strip()


# -- palettes -------------------------------------------------------------------


def _hex(rgb: tuple[int, int, int]) -> str:
    return "".join(f"{max(0, min(255, v)):02x}" for v in rgb)


def _lum(rgb: tuple[int, int, int]) -> float:
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]


def sgt_palette(seed: int, kind: str) -> dict[str, str]:
    """MINES_COLOUR_<n> values for a reproducible random palette.

    kind: "light" (pale faces, saturated digits), "dark" (dark faces, light
    digits), "low" (faces within a few levels of each other, digits still
    apart from the face and from each other by a margin a person sees) or
    "mono" (light faces, all eight digits in one colour: told apart by their
    glyphs alone, as in themes with white or black digits) or "faint" (light
    faces, digits 24-44 levels from the opened face in every channel: under
    the reader's INK of 48, as a pastel digit can be) or "faintdark" (dark
    faces, digits 24-44 levels lighter: a dim dark mode) or "any" (every
    colour drawn from the whole cube: faces, bevels, the opened face the same
    as the unopened one one time in four; each digit 24 levels or more off
    the opened face in some channel and 24 apart from the others in all).
    """
    rnd = random.Random(f"{kind}-{seed}")

    def rand_colour(lo: int, hi: int) -> tuple[int, int, int]:
        return (rnd.randint(lo, hi), rnd.randint(lo, hi), rnd.randint(lo, hi))

    if kind in ("dark", "faintdark"):
        face = rand_colour(30, 80)
        opened = tuple(max(0, v - rnd.randint(12, 25)) for v in face)
        digit_range = (130, 255)
    elif kind == "low":
        face = rand_colour(170, 220)
        opened = tuple(v - rnd.randint(6, 10) for v in face)
        digit_range = (0, 120)
    else:
        face = rand_colour(150, 240)
        opened = tuple(max(0, v - rnd.randint(20, 45)) for v in face)
        digit_range = (0, 150)
    if kind == "any":
        face = rand_colour(0, 255)
        opened = face if rnd.random() < 0.25 else rand_colour(0, 255)
    opened3 = (int(opened[0]), int(opened[1]), int(opened[2]))
    digits: list[tuple[int, int, int]] = []
    while kind == "any" and len(digits) < 8:
        c3 = rand_colour(0, 255)
        if max(abs(a - b) for a, b in zip(c3, opened3, strict=True)) < 24:
            continue
        if any(sum(abs(a - b) for a, b in zip(c3, d, strict=True)) < 24 for d in digits):
            continue
        digits.append(c3)
    while kind in ("faint", "faintdark") and len(digits) < 8:
        # each channel 0-44 levels darker or lighter than the opened face, the
        # one that differs most by 24 or more; apart from each other by 24 in
        # all (in a dark mode only lighter: a dim digit)
        sign = 1 if kind == "faintdark" else rnd.choice((-1, 1))
        c = tuple(max(0, min(255, v + sign * rnd.randint(0, 44))) for v in opened3)
        c3 = (int(c[0]), int(c[1]), int(c[2]))
        if max(abs(a - b) for a, b in zip(c3, opened3, strict=True)) < 24:
            continue
        if any(sum(abs(a - b) for a, b in zip(c3, d, strict=True)) < 24 for d in digits):
            continue
        digits.append(c3)
    while kind == "mono" and not digits:
        c = rand_colour(*digit_range)
        if abs(_lum(c) - _lum(opened3)) >= 60:
            digits = [c] * 8
    while len(digits) < 8:
        c = rand_colour(*digit_range)
        if abs(_lum(c) - _lum(opened3)) < 60:
            continue
        if any(sum(abs(a - b) for a, b in zip(c, d, strict=True)) < 90 for d in digits):
            continue
        digits.append(c)
    hi = tuple(min(255, v + 35) for v in face)
    lo = tuple(max(0, v - 55) for v in face)
    if kind == "any":
        hi, lo = rand_colour(0, 255), rand_colour(0, 255)
    env = {
        "MINES_COLOUR_0": _hex(face),
        "MINES_COLOUR_1": _hex(opened3),
        "MINES_COLOUR_16": _hex((int(hi[0]), int(hi[1]), int(hi[2]))),
        "MINES_COLOUR_17": _hex((int(lo[0]), int(lo[1]), int(lo[2]))),
    }
    for i, d in enumerate(digits):
        env[f"MINES_COLOUR_{i + 2}"] = _hex(d)
    return env


# -- the battery ----------------------------------------------------------------

SGT_END = "status bar 'BOOM!'/'COMPLETED!'; the board shows every mine after a loss"
MG_END = (
    "face turns sad or cool; a new best at a standard size opens a high-score window "
    "(which kills minegauler 4.2.0: see _MINEGAULER_LAUNCH)"
)
XBOMB_END = "all bombs drawn; the UXB counter and clock stop"
WEB_END = "every bomb drawn on a loss, flags on a win; no face, no dialog"
GNOME_END = "a scores dialog over the board after a win; mines shown after a loss"
KMINES_END = "every mine shown after a loss; the clock stops"


def _sgt(
    name: str, kind: str | None, seed: int, tile: int, cols: int, rows: int, mines: int
) -> Variant:
    params: tuple[tuple[str, Any], ...] = (("tilesize", tile), ("seed", seed))
    if kind is not None:
        params += (("palette", kind),)
    return Variant(
        name=name,
        game="sgt-mines",
        toolkit="GTK",
        theme=f"sgt-{kind}-{seed}" if kind else "sgt-default",
        rows=rows,
        cols=cols,
        mines=mines,
        new_game="n",
        first_click="opening",
        end_signal=SGT_END,
        builtin=None if kind else "sgt-mines",
        params=params,
    )


def _mg(
    style: str, btn: int, cols: int, rows: int, mines: int, numbers: str = "Standard"
) -> Variant:
    return Variant(
        name=f"minegauler-{style.lower()}-b{btn}-{cols}x{rows}",
        game="minegauler",
        toolkit="Qt6 (PyQt6)",
        theme=f"minegauler-{style.lower()}",
        rows=rows,
        cols=cols,
        mines=mines,
        new_game="F2",
        # its "Safe start" (on by default) lays no mine on the first click or
        # its neighbours when it can (minegauler's core/regular/game.py)
        first_click="opening",
        end_signal=MG_END,
        params=(("style", style), ("btn_size", btn), ("numbers", numbers)),
    )


def _xbomb(level: int) -> Variant:
    cols, rows, mines = {1: (8, 8, 10), 2: (16, 16, 40), 3: (30, 16, 99)}[level]
    return Variant(
        name=f"xbomb-{cols}x{rows}",
        game="xbomb",
        toolkit="plain X (Athena)",
        theme="xbomb",
        rows=rows,
        cols=cols,
        mines=mines,
        new_game="s",
        first_click="safe",
        end_signal=XBOMB_END,
        params=(("level", level),),
    )


ACE_END = "the penguin button frowns or smiles; every mine drawn after a loss (the hit one red)"


def _ace() -> Variant:
    # The game has no size or level: 32x32 with 200 mines, window 401x427.
    return Variant(
        name="ace-minesweeper-32x32",
        game="ace-minesweeper",
        toolkit="plain X (Ace of Penguins' own Xlib toolkit)",
        theme="ace",
        rows=32,
        cols=32,
        mines=200,
        new_game="click:face",  # the penguin button; its place is known after launch
        first_click="none",  # measured: 6 of 40 first clicks hit a mine
        end_signal=ACE_END,
    )


PYGAME_END = "the face button turns dead or cool; mines shown after a loss"


def _pygame(sheet: str, cols: int, rows: int, mines: int) -> Variant:
    return Variant(
        name=f"pygame-{sheet}-{cols}x{rows}",
        game="pygame-minesweeper",
        toolkit="SDL2 (pygame)",
        theme=f"pygame-{sheet}",
        rows=rows,
        cols=cols,
        mines=mines,
        new_game="click:face",  # the face button; its place is known after launch
        first_click="opening",
        end_signal=PYGAME_END,
        params=(("sheet", sheet),),
    )


MVC_END = "'YOU LOSE!' or 'YOU WIN!' over the whole window for 5 s, then the menu"
# minesweeper-mvc's modes: (cols, rows, mines, cell px, the menu button's y)
MVC_MODES = {
    "easy": (9, 9, 10, 60, 326),
    "medium": (16, 16, 40, 40, 386),
    "hard": (30, 16, 99, 40, 446),
}


def _mvc(mode: str) -> Variant:
    """minesweeper-mvc (PyPI, pygame): pixel-art tiles, every digit one red in a
    pixel font; each game starts from its menu (a button per mode)."""
    cols, rows, mines, _cell, _y = MVC_MODES[mode]
    return Variant(
        name=f"mvc-{mode}",
        game="minesweeper-mvc",
        toolkit="SDL2 (pygame)",
        theme="mvc",
        rows=rows,
        cols=cols,
        mines=mines,
        # Its menu's mode buttons lie where the board is during play, a place
        # msolver rightly refuses to click for a new game: one game a launch
        # (F2 does nothing there).
        new_game="F2",
        # mines laid after the first click, never under it (its model's pick_bombs)
        first_click="safe",
        end_signal=MVC_END,
        params=(("mode", mode),),
    )


def _web(zoom: float, cols: int, rows: int, mines: int) -> Variant:
    return Variant(
        name=f"web-mfw-z{int(zoom * 100)}-{cols}x{rows}",
        game="web-mfw",
        toolkit="web (Chromium, Lit web component)",
        theme=f"web-mfw-{int(zoom * 100)}",
        rows=rows,
        cols=cols,
        mines=mines,
        new_game="F5",
        first_click="none",
        end_signal=WEB_END,
        params=(("zoom", zoom),),
        flag="ctrl+left",
    )


WEBOWN_END = (
    "every mine drawn after a loss (the hit one on red), a flag on every mine after a "
    "win; the timer stops; no face, no dialog"
)
# web-own (tests/support/webmines.html): each look's cell size and the space
# after each cell face (the dark and soft looks' gaps, the flat and big looks'
# 1 px grid lines), in CSS px.
WEBOWN_STYLES: dict[str, tuple[int, int]] = {
    "dark": (30, 3),
    "dim": (30, 3),  # the dark look, its digits 24-44 levels off the opened face
    "soft": (28, 2),
    "flat": (24, 1),
    "big": (44, 1),
    "buttons": (30, 2),  # the browser's own buttons; opened ones disabled
    "checker": (30, 0),  # no lines: a checkerboard of two greens, opened two tans
}
# "random<N>": the look the page draws from seed N (cells of 16-40 px, gaps of
# at most 4): the window is sized for the largest.
WEBOWN_RANDOM = "random"
WEBOWN_RANDOM_MAX = (40, 4)
WEBOWN_PAGE = Path(__file__).resolve().parent / "webmines.html"


def _webown_seed(style: str) -> int | None:
    """N of a "random<N>" look, else None."""
    rest = style.removeprefix(WEBOWN_RANDOM)
    return int(rest) if rest != style and rest.isdigit() else None


def _webown(
    style: str,
    zoom: float,
    cols: int,
    rows: int,
    mines: int,
    sideways: bool = False,
    anim: int = 0,
    wave: int = 0,
    glyph: int = 0,
) -> Variant:
    """Our own test-only web Minesweeper in one of its looks (WEBOWN_STYLES), in
    Chromium at a device scale factor: hobby web clones msolver was never tuned on.
    anim: ms an opened cell takes to fade in; wave: ms a cascade takes a step;
    glyph: ms a glyph takes to fade in on a face drawn at once."""
    if style not in WEBOWN_STYLES and _webown_seed(style) is None:
        raise ValueError(f"unknown web-own style {style!r}")
    motion = (
        (f"-anim{anim}" if anim else "")
        + (f"-wave{wave}" if wave else "")
        + (f"-glyph{glyph}" if glyph else "")
    )
    return Variant(
        name=f"web-own-{style}-z{int(zoom * 100)}-{cols}x{rows}{'-sideways' if sideways else ''}"
        f"{motion}",
        game="web-own",
        toolkit="web (Chromium, CSS grid of divs)",
        theme=f"web-own-{style}-{int(zoom * 100)}",
        rows=rows,
        cols=cols,
        mines=mines,
        new_game="F2",
        # the mines are laid at the first click, never under the clicked cell
        first_click="safe",
        end_signal=WEBOWN_END,
        params=(
            ("style", style),
            ("zoom", zoom),
            ("cascade", "sides" if sideways else "all"),
            ("anim", anim),
            ("wave", wave),
            ("glyph", glyph),
        ),
        flag="right",
    )


TK_END = (
    "mines drawn as '*' (the hit one on red) after a loss, flags on every mine after a "
    "win; with --dialog a message box over the window"
)


def _tk(
    style: str,
    cell: int,
    cols: int,
    rows: int,
    mines: int,
    dialog: bool = False,
    first_click: str = "safe",
) -> Variant:
    size = {"image": f"c{cell}", "text": "text", "stock": "stock", "checker": f"checker{cell}"}[
        style
    ]
    xp = "-xp" if first_click == "xp" else ""
    return Variant(
        name=f"tk-{size}{'-dialog' if dialog else ''}{xp}-{cols}x{rows}",
        game="tk-mines",
        toolkit="Tk (tkinter Buttons)",
        theme=f"tk-{style}",
        rows=rows,
        cols=cols,
        mines=mines,
        new_game="F2",
        first_click=first_click,
        end_signal=TK_END,
        params=(("style", style), ("cell", cell), ("dialog", dialog)),
    )


def _gnome(w: int, h: int, theme: str | None = None, gtk: str | None = None) -> Variant:
    """gnome-mines at a window size; `theme`: one of its tile themes other than its
    default (bgcolors, msolver's built-in gnome-mines), learned in play; `gtk`: a
    desktop theme GTK draws it in (GTK_THEME, e.g. Adwaita:dark: the gaps
    between tiles and the window take the theme's colours)."""
    name = f"gnome-mines-{theme}-{w}x{h}" if theme else f"gnome-mines-{w}x{h}"
    if gtk:
        name += "-gtk-" + gtk.lower().replace(":", "-")
    return Variant(
        name=name,
        game="gnome-mines",
        toolkit=f"GTK ({gtk})" if gtk else "GTK",
        theme=f"gnome-mines-{theme}" if theme else "gnome-mines",
        rows=16,
        cols=30,
        mines=99,
        # ctrl+r replays at the same size ("Play Again" / "Start Over"); ctrl+n
        # opens the size chooser, which is no board.
        new_game="ctrl+r",
        # mines laid after the first click, around it and its neighbours
        # (gnome-mines' minefield.vala, place_mines)
        first_click="opening",
        end_signal=GNOME_END,
        builtin=None if theme or gtk else "gnome-mines",
        blank_builtin="gnome-mines" if theme or gtk else None,
        params=(("size", (w, h)), ("theme", theme), ("gtk", gtk)),
    )


# kmines levels: (cols, rows, mines) as its [KgDifficulty] Level names them.
KMINES_LEVELS = {"Easy": (9, 9, 10), "Medium": (16, 16, 40), "Hard": (30, 16, 99)}


def _kmines(theme: str, level: str, scale: float = 1.0) -> Variant:
    """kmines in one of its themes at a level; `scale`: Qt's display scaling
    (QT_SCALE_FACTOR: at 125% its pictures are scaled by whole pixels, every
    fourth doubled, so no two cells are alike pixel for pixel)."""
    cols, rows, mines = KMINES_LEVELS[level]
    return Variant(
        name=f"kmines-{theme}-{level.lower()}" + (f"-qt{round(scale * 100)}" if scale != 1 else ""),
        game="kmines",
        toolkit="Qt5 (KDE Frameworks)" + (f", scaled {scale:g}x" if scale != 1 else ""),
        theme=f"kmines-{theme}",
        rows=rows,
        cols=cols,
        mines=mines,
        # The toolbar's New button (its place is known after launch). Not
        # ctrl+n: after a loss kmines asks "Reset the Game?" in a modal box
        # that takes the keyboard focus and, closed, leaves it nowhere, so
        # a key never reaches the game again (measured); a click does.
        new_game="click:new",
        # measured: the first click opened an area in every try (an opening)
        first_click="opening",
        end_signal=KMINES_END,
        params=(("theme", theme), ("level", level), ("scale", scale)),
    )


BATTERY: tuple[Variant, ...] = (
    # sgt-mines: the built-in look at other tile sizes, then 12 seeded palettes.
    _sgt("sgt-default-t16", None, 1, 16, 30, 16, 99),
    _sgt("sgt-default-t27", None, 2, 27, 16, 16, 40),
    _sgt("sgt-light-1-t18", "light", 1, 18, 30, 16, 99),
    _sgt("sgt-light-2-t23", "light", 2, 23, 16, 16, 40),
    _sgt("sgt-light-3-t31", "light", 3, 31, 9, 9, 10),
    _sgt("sgt-light-4-t21", "light", 4, 21, 24, 20, 80),
    _sgt("sgt-dark-1-t20", "dark", 1, 20, 30, 16, 99),
    _sgt("sgt-dark-2-t26", "dark", 2, 26, 16, 16, 40),
    _sgt("sgt-dark-3-t17", "dark", 3, 17, 30, 16, 99),
    _sgt("sgt-dark-4-t34", "dark", 4, 34, 9, 9, 10),
    _sgt("sgt-low-1-t22", "low", 1, 22, 16, 16, 40),
    _sgt("sgt-low-2-t19", "low", 2, 19, 30, 16, 99),
    _sgt("sgt-low-3-t28", "low", 3, 28, 12, 10, 20),
    _sgt("sgt-low-4-t24", "low", 4, 24, 20, 14, 45),
    # A hobby tkinter clone (tests/support/tkmines.py): stock Tk buttons.
    _tk("image", 22, 16, 16, 40),
    _tk("text", 0, 9, 9, 10, dialog=True),
    _tk("checker", 30, 10, 8, 10),
    # the same clone with Windows XP's first click (a mine under it moves to
    # the top left): the one game here that needs the solver's XP count
    _tk("image", 22, 16, 16, 40, first_click="xp"),
    # gnome-mines at other window sizes (other tile sizes).
    _gnome(1000, 560),
    _gnome(1500, 800),
    _gnome(900, 560),
    _gnome(1800, 1000),
    # sizes where GTK lays the board in two steps far apart (10 columns of 37
    # px and 20 of 36 at 1300x750): no even lattice holds the whole board
    _gnome(1300, 750),
    _gnome(1100, 650),
    _gnome(950, 600),
    # gnome-mines in its two other tile themes (digits on plain tiles).
    _gnome(1200, 700, "default"),
    _gnome(1000, 560, "classic"),
    # minegauler in its five button styles and four button sizes.
    _mg("Standard", 16, 30, 16, 99),
    _mg("Standard", 24, 16, 16, 40),
    _mg("Textured", 20, 16, 16, 40),
    _mg("Textured", 32, 9, 9, 10),
    # grass at 26 px: on a whole black screen the combs' strong pairs are
    # multiples and near-misses of it
    _mg("Textured", 26, 9, 9, 10),
    _mg("Dark", 20, 16, 16, 40, numbers="Dark"),
    _mg("Dark", 16, 30, 16, 99, numbers="Dark"),
    _mg("Butterfly", 24, 16, 12, 30),
    _mg("Christmas", 20, 16, 16, 40),
    # xbomb at its three levels.
    _xbomb(1),
    _xbomb(2),
    _xbomb(3),
    # Ace of Penguins' minesweeper: one size, white digits of one colour.
    _ace(),
    # pygame-minesweeper (SDL) in four of its tile sheets, 16 px tiles.
    _pygame("2000", 16, 16, 40),
    _pygame("95", 9, 9, 10),
    _pygame("fiorito-xp", 30, 16, 99),
    _pygame("monochrome", 16, 16, 40),
    # minesweeper-mvc (PyPI, pygame): flat pixel-art tiles with 1 px dark
    # lines, its digits one red in a pixel font.
    _mvc("medium"),
    _mvc("easy"),
    # the web game at page zoom 100% and 150%.
    _web(1.0, 16, 16, 40),
    _web(1.0, 9, 9, 10),
    _web(1.5, 16, 12, 30),
    _web(1.5, 9, 9, 10),
    _web(1.25, 16, 16, 40),
    _web(2.0, 9, 9, 10),
    # Held out: recorded after the finder was last tuned, to check it was not
    # fitted to the shots above (other sizes, zooms and palette seeds).
    _sgt("sgt-default-t22", None, 3, 22, 16, 16, 40),
    _sgt("sgt-dark-5-t29", "dark", 5, 29, 9, 9, 10),
    _sgt("sgt-light-5-t15", "light", 5, 15, 30, 16, 99),
    _sgt("sgt-low-5-t25", "low", 5, 25, 16, 16, 40),
    _gnome(1200, 700),
    _mg("Standard", 20, 9, 9, 10),
    _mg("Dark", 32, 9, 9, 10, numbers="Dark"),
    _mg("Textured", 16, 16, 16, 40),
    _mg("Christmas", 28, 9, 9, 10),
    _pygame("2000", 30, 16, 99),
    _web(1.75, 9, 9, 10),
    # KDE's kmines: its four themes (a gradient, a graveyard and a garden
    # picture behind the board; flat white cells) at its three levels.
    *(
        _kmines(t, lv)
        for t in ("default", "classic", "graveyard-mayhem", "green")
        for lv in KMINES_LEVELS
    ),
    # kmines under Qt's display scaling of 125%: no two cells alike pixel for
    # pixel, beside a window background that is a smooth gradient.
    _kmines("default", "Easy", 1.25),
    # The web game at 67% zoom: 26.79 px cells whose bevels Chromium blends
    # at each cell's own phase, so a cell's inside holds bits of bevel or none.
    _web(0.67, 16, 16, 40),
    # kmines' seamless grass at 125% and 150%: the texture, scaled by whole
    # pixels, repeats with no edge between cells (its phase only the frame
    # tells) or with edges of its own that the cells' fold takes for theirs.
    _kmines("green", "Easy", 1.25),
    _kmines("green", "Easy", 1.5),
    # kmines' flat classic cells at 150% in the game's small default window:
    # 16.5 px, lines 15 levels off the face, exact only every 33 px; on a whole
    # screen no comb and no whole-picture repeat shows the pitch.
    _kmines("classic", "Medium", 1.5),
    # Stock Tk buttons sized in text units as many clones size them (4
    # characters by 2 lines, Tk's own padding): oblong cells.
    _tk("stock", 0, 16, 16, 40),
    # Our own web page in its four CSS looks (tests/support/webmines.html):
    # rounded cells with gaps, gradient faces that fade in, 1 px grid lines,
    # big cells.
    _webown("dark", 1.0, 16, 16, 40),
    _webown("soft", 1.25, 16, 16, 40),
    _webown("flat", 1.0, 9, 9, 10),
    _webown("big", 1.5, 9, 9, 10),
    # The browser's own buttons, opened ones disabled (a tutorial's clone):
    # at 67% their 1 px borders fall a fraction of a pixel apart in every
    # cell, and a cell sampled at points showed its border or missed it.
    _webown("buttons", 1.0, 16, 16, 40),
    _webown("buttons", 0.67, 16, 16, 40),
    # and at 50% on 9x9, a small board on a whole screen whose combs drift
    _webown("buttons", 0.5, 9, 9, 10),
    # 1 px grid lines zoomed out: Chromium draws a 0.67-0.75 px line on one
    # pixel or drops it, up to three in a row, so some flat faces span two to
    # four cells; the soft look's shaded buttons at 80%, the page's margin
    # below them once taken for a row of cells
    _webown("flat", 0.75, 16, 16, 40),
    _webown("big", 0.67, 16, 16, 40),
    _webown("soft", 0.8, 16, 16, 40),
    # no lines at all: a checkerboard of two greens (many web clones' look)
    _webown("checker", 1.0, 16, 16, 40),
    # looks the page draws from a seed, zoomed out: 1 px lines round gradient
    # faces at 80%, three of them dropped (the faces' ramps are no flat face
    # to span them); lines round flat faces at 90%, one dropped each way
    _webown("random30", 0.8, 16, 16, 40),
    _webown("random33", 0.9, 16, 16, 40),
    # no lines, and each cell's face a ramp lit from above: a checkerboard of
    # two shades whose cells no flat face and no shape but the ramp tell apart
    _webown("random4", 1.0, 16, 16, 40),
    _webown("random15", 1.25, 16, 16, 40),
    # the same at 90% (26.1 px cells): the two shades' ramps blend at each
    # cell's own phase and their shapes part (correlation 0.8), so only a
    # block of 2x2 repeats; found as 8x8 blocks before _checker_cut
    _webown("random1042", 0.9, 16, 16, 40),
    # lit faces in two shades, no lines, at 80% (24 px cells): each cell's
    # halves side by side are as alike as the cells, and no square pitch
    # came out of the combs: found as 32x16 cells of 12 x 24 px before
    _webown("random1142", 0.8, 16, 16, 40),
    # two lit shades at 80% (20.8 px cells): the blocks of 2x2 found start a
    # row in, and the board's top row of cells lies outside them
    _webown("random1192", 0.8, 16, 16, 40),
    # gnome-mines under a dark and a high-contrast desktop theme (the gaps
    # and the window dark, the tiles its own): at 1200x700 its last two rows
    # are a pixel shorter, which the dark gaps make matter.
    _gnome(1200, 700, gtk="Adwaita:dark"),
    _gnome(1000, 560, gtk="HighContrastInverse"),
)

# Harder looks, for `bench_battery --game` only (no corpus shots, not live in
# CI): digits of one colour. Measured 2026-11-26 (docs/vision.md): about one
# run in 30 stops or loses a game the board did not make it guess.
STRESS: tuple[Variant, ...] = (
    _sgt("sgt-mono-7-t30", "mono", 7, 30, 9, 9, 10),
    _sgt("sgt-mono-3-t30", "mono", 3, 30, 9, 9, 10),
    _sgt("sgt-mono-1-t24", "mono", 1, 24, 16, 16, 40),
)

# Digits under the reader's INK (sgt_palette's "faint" and "faintdark"): no
# corpus shots (the board's looks are sgt's own, only the digits differ).
FAINT: tuple[Variant, ...] = (
    _sgt("sgt-faint-3-t18", "faint", 3, 18, 16, 16, 40),
    _sgt("sgt-faint-5-t25", "faint", 5, 25, 30, 16, 99),
    _sgt("sgt-faintdark-1-t22", "faintdark", 1, 22, 16, 16, 40),
)

BY_NAME = {v.name: v for v in BATTERY + STRESS + FAINT}

# One variant per game for the live benchmark (small boards keep CI short).
LIVE: tuple[str, ...] = (
    "sgt-default-t27",  # the control: msolver's own look at another tile size
    "sgt-dark-2-t26",
    "sgt-low-1-t22",
    # digits 24-44 levels off the opened face: ink only by the faint rule
    "sgt-faint-3-t18",
    "minegauler-standard-b24-16x16",
    "minegauler-textured-b20-16x16",
    "xbomb-16x16",
    "pygame-2000-16x16",
    "web-mfw-z100-16x16",
    "web-mfw-z150-16x12",
    "tk-c22-16x16",  # stock Tk buttons: opened cells differ from unopened in the bevel alone
    "tk-c22-xp-16x16",  # Windows XP's first click: the solver's XP count, live
    # GTK's own 50 px tiles, not the recorded 33 px: learned in play
    "gnome-mines-1800x1000",
    # KDE's kmines, flat classic cells: 5/5 games to the end in 6 bench runs
    # in a row (2026-11-25, branch kmines)
    "kmines-classic-medium",
)


# -- installs -------------------------------------------------------------------


def in_ci() -> bool:
    return os.environ.get("MSOLVER_REQUIRE_DISPLAY") == "1" or os.environ.get("CI") == "true"


def _pypi_venv(venv: Path, package: str, version: str) -> Path:
    """The python of `venv` with `package==version` installed from PyPI wheels
    (the venv made on first use; a stamp file marks a finished install)."""
    py = venv / "bin" / "python"
    stamp = venv / f".{package}-{version}"
    if stamp.exists() and py.exists():
        return py
    CACHE.mkdir(parents=True, exist_ok=True)
    try:
        if not py.exists():
            subprocess.run(
                [sys.executable, "-m", "venv", str(venv)],
                check=True,
                capture_output=True,
                timeout=120,
            )
        subprocess.run(
            [str(py), "-m", "pip", "install", "-q", "--only-binary=:all:", f"{package}=={version}"],
            check=True,
            capture_output=True,
            timeout=600,
        )
    except (subprocess.SubprocessError, OSError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        raise Unavailable(f"cannot install {package}: {exc} {detail[-300:]!r}") from exc
    stamp.touch()
    return py


def minegauler_python() -> Path:
    """The venv's python with minegauler installed (created from PyPI on first use)."""
    return _pypi_venv(MINEGAULER_VENV, "minegauler", MINEGAULER_VERSION)


def pygame_python() -> Path:
    """The venv's python with pygame-minesweeper (PyPI wheels), made on first use."""
    return _pypi_venv(PYGAME_VENV, "pygame-minesweeper", PYGAME_VERSION)


def mvc_python() -> Path:
    """The venv's python with minesweeper-mvc (PyPI wheels), made on first use."""
    return _pypi_venv(MVC_VENV, "minesweeper-mvc", MVC_VERSION)


def web_dir() -> Path:
    """The npm package's dist folder plus our test-only wrapper page."""
    dist = WEB_DIR / "node_modules" / "minesweeper-for-web" / "dist" / "custom-element.js"
    if not dist.exists():
        if shutil.which("npm") is None:
            raise Unavailable("npm is not installed (apt-get install npm)")
        WEB_DIR.mkdir(parents=True, exist_ok=True)
        try:
            subprocess.run(
                [
                    "npm",
                    "install",
                    "--no-audit",
                    "--no-fund",
                    "--prefix",
                    str(WEB_DIR),
                    WEB_PACKAGE,
                ],
                check=True,
                capture_output=True,
                timeout=300,
            )
        except (subprocess.SubprocessError, OSError) as exc:
            raise Unavailable(f"cannot install {WEB_PACKAGE} from npm: {exc}") from exc
    return dist.parent


def available(variant: Variant) -> str | None:
    """None when the variant can run here, else why not (installs on first use)."""
    if shutil.which("xdotool") is None:
        return "xdotool is not installed"
    try:
        if variant.game in ("sgt-mines", "gnome-mines"):
            if not xgames.available(variant.game):
                return f"{variant.game} is not installed"
        elif variant.game == "xbomb":
            if not Path("/usr/games/xbomb").exists():
                return "xbomb is not installed (apt-get install xbomb)"
        elif variant.game == "ace-minesweeper":
            if not Path("/usr/games/ace-minesweeper").exists():
                return "ace-minesweeper is not installed (apt-get install ace-of-penguins)"
        elif variant.game == "kmines":
            if not Path("/usr/games/kmines").exists():
                return "kmines is not installed (apt-get install kmines)"
            if shutil.which("dbus-run-session") is None:
                return "dbus-run-session is not installed (apt-get install dbus)"
        elif variant.game == "minegauler":
            minegauler_python()
        elif variant.game == "pygame-minesweeper":
            pygame_python()
        elif variant.game == "minesweeper-mvc":
            mvc_python()
        elif variant.game == "tk-mines":
            try:
                import tkinter  # noqa: F401
            except ImportError:
                return "tkinter is not installed (apt-get install python3-tk)"
        elif variant.game == "web-mfw":
            if shutil.which(CHROMIUM) is None:
                return "chromium is not installed (apt-get install chromium)"
            web_dir()
        elif variant.game == "web-own" and shutil.which(CHROMIUM) is None:
            return "chromium is not installed (apt-get install chromium)"
    except Unavailable as exc:
        return str(exc)
    return None


# -- launching ------------------------------------------------------------------


def _spawn(cmd: list[str], env: dict[str, str], tmpdir: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        cmd,
        env=env,
        cwd=tmpdir,
        stdout=subprocess.DEVNULL,
        stderr=open(tmpdir / "stderr.log", "wb"),  # noqa: SIM115 - closed with the process
        start_new_session=True,
    )
    proc._msolver_tmp = tmpdir  # type: ignore[attr-defined]
    return proc


def _no_network(cmd: list[str]) -> list[str]:
    """Prefix `unshare -n` where it works (root, or user namespaces allowed)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return cmd
    ok = subprocess.run([unshare, "-n", "true"], capture_output=True, timeout=10, check=False)
    return [unshare, "-n", *cmd] if ok.returncode == 0 else cmd


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


WRAPPER = """<!doctype html><html><head><meta charset="utf-8"><title>loading</title>
<style>body{margin:0;padding:12px;background:#fafafa;font-family:sans-serif}</style></head>
<body>
<minesweeper-game id="g" columns="COLS" rows="ROWS" bombs="MINES" long-press-threshold="0">
</minesweeper-game>
<script type="module">
// Test-only hook: the board's place and the mine layout go into the title,
// where the harness reads them with xdotool. The game itself is untouched.
import './custom-element.js';
const g = document.getElementById('g');
let result = 'playing';
g.addEventListener('minesweeper:game-won', () => { result = 'won'; setTimeout(report, 50); });
g.addEventListener('minesweeper:game-lost', () => { result = 'lost'; setTimeout(report, 50); });
function report() {
  const root = g.shadowRoot;
  const f = root ? root.querySelectorAll('.sweeper-field') : [];
  if (f.length === 0) { setTimeout(report, 100); return; }
  const a = f[0].getBoundingClientRect(), b = f[f.length - 1].getBoundingClientRect();
  const pos = g.engine.board.positions;
  const mines = [];
  // a bomb is the string 'BOMB' ('BOMB_EXPLODE' once hit); numbers are 0-8
  pos.forEach((row, r) => row.forEach((v, c) => {
    if (typeof v === 'string' && v.startsWith('BOMB')) mines.push(r * row.length + c);
  }));
  document.title = 'MSB ' + JSON.stringify({a: [a.left, a.top, a.width, a.height],
    b: [b.left, b.top, b.width, b.height], dpr: window.devicePixelRatio,
    mines: mines, result: result});
}
setTimeout(report, 300);
document.addEventListener('mouseup', () => setTimeout(report, 30));
</script></body></html>
"""


def _launch_web(
    variant: Variant, display: str, tmpdir: Path, env: dict[str, str]
) -> ThirdPartyWindow:
    src = web_dir()
    site = tmpdir / "site"
    site.mkdir()
    shutil.copy(src / "custom-element.js", site / "custom-element.js")
    page = (
        WRAPPER.replace("COLS", str(variant.cols))
        .replace("ROWS", str(variant.rows))
        .replace("MINES", str(variant.mines))
    )
    (site / "index.html").write_text(page)
    css_w = 24 + variant.cols * 40 + 40
    css_h = 24 + variant.rows * 40 + 40
    return _launch_chromium(variant, display, tmpdir, env, site, "index.html", (css_w, css_h))


def _launch_webown(
    variant: Variant, display: str, tmpdir: Path, env: dict[str, str]
) -> ThirdPartyWindow:
    """tests/support/webmines.html in its look, served like the npm game."""
    site = tmpdir / "site"
    site.mkdir()
    shutil.copy(WEBOWN_PAGE, site / "webmines.html")
    style = str(variant.param("style"))
    seed = _webown_seed(style)
    cell, gap = WEBOWN_RANDOM_MAX if seed is not None else WEBOWN_STYLES[style]
    # the outer grid line around the board
    lines = 1 if style in ("flat", "big") or seed is not None else 0
    board_w = variant.cols * cell + (variant.cols - 1) * gap + 2 * lines
    board_h = variant.rows * cell + (variant.rows - 1) * gap + 2 * lines
    # body padding 16 each side, header 40 + 10 above the board, 24 px spare
    css_w = max(board_w, 300) + 2 * 16 + 24
    css_h = board_h + 40 + 10 + 2 * 16 + 24
    if seed is not None:
        # sized for the largest look a seed may draw: kept on the 1920x1080
        # screen (a window past its edge cannot be grabbed), which still holds
        # the look the seed drew unless that look is near the largest
        zoom = float(variant.param("zoom", 1.0))
        css_w, css_h = min(css_w, int(1900 / zoom)), min(css_h, int(1060 / zoom))
    query = (
        f"webmines.html?cols={variant.cols}&rows={variant.rows}&mines={variant.mines}&style={style}"
        f"&cascade={variant.param('cascade', 'all')}"
        if seed is None
        else f"webmines.html?cols={variant.cols}&rows={variant.rows}&mines={variant.mines}"
        f"&style={WEBOWN_RANDOM}&seed={seed}&cascade={variant.param('cascade', 'all')}"
    )
    query += "".join(f"&{k}={variant.param(k, 0)}" for k in ("anim", "wave", "glyph"))
    return _launch_chromium(variant, display, tmpdir, env, site, query, (css_w, css_h))


def _launch_chromium(
    variant: Variant,
    display: str,
    tmpdir: Path,
    env: dict[str, str],
    site: Path,
    page: str,
    css_size: tuple[int, int],
) -> ThirdPartyWindow:
    """Serve `site` on 127.0.0.1 and show `page` (path and query) in a Chromium app
    window of `css_size` CSS px at the variant's zoom; returns once the page's
    title carries the board report ("MSB ...")."""
    port = _free_port()
    with open(tmpdir / "server.log", "wb") as log:  # its request log (webown_layouts)
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "http.server",
                str(port),
                "--bind",
                "127.0.0.1",
                "-d",
                str(site),
            ],
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
        )
    zoom = float(variant.param("zoom", 1.0))
    # --window-size counts device-independent pixels: the scale factor enlarges it
    w, h = css_size
    deadline = time.monotonic() + 10
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        if time.monotonic() > deadline:
            server.kill()
            raise HarnessError("web server did not start")
        time.sleep(0.05)
    cmd = [
        CHROMIUM,
        "--no-sandbox",
        "--test-type",  # no infobar about --no-sandbox over the page
        f"--app=http://127.0.0.1:{port}/{page}",
        "--window-position=0,0",
        f"--window-size={w},{h}",
        f"--user-data-dir={tmpdir / 'chrome'}",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-features=Translate,MediaRouter",
        f"--force-device-scale-factor={zoom}",
    ]
    proc = _spawn(cmd, env, tmpdir)
    win = ThirdPartyWindow(game=variant.game, display=display, proc=proc, wid=0, tmpdir=tmpdir)
    win.helpers.append(server)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        out = xgames._xdotool(display, "search", "--onlyvisible", "--name", "^MSB ")
        if out.split():
            win.wid = int(out.split()[0])
            return win
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    win.close()
    raise HarnessError("chromium showed no board within 30 s")


def launch(
    variant: Variant, display: str, *, timeout: float = 30.0
) -> tuple[ThirdPartyWindow, Truth]:
    """Start `variant` on a blank board; return its window and the board's true geometry."""
    why = available(variant)
    if why is not None:
        raise Unavailable(why)
    tmpdir = Path(tempfile.mkdtemp(prefix=f"msolver-{variant.game}-"))
    env = dict(os.environ, DISPLAY=display, HOME=str(tmpdir), XDG_CONFIG_HOME=str(tmpdir / "cfg"))
    env.pop("WAYLAND_DISPLAY", None)
    (tmpdir / "cfg").mkdir()
    win: ThirdPartyWindow
    if variant.game in ("sgt-mines", "gnome-mines") and variant.game == "gnome-mines":
        shutil.rmtree(tmpdir, ignore_errors=True)
        inner = xgames.launch(
            "gnome-mines",
            display,
            size=variant.param("size"),
            theme=variant.param("theme"),
            gtk_theme=variant.param("gtk"),
            timeout=timeout,
        )
        win = ThirdPartyWindow(
            game=inner.game, display=display, proc=inner.proc, wid=inner.wid, tmpdir=inner.tmpdir
        )
        inner._closed = True  # the new wrapper owns the process now
    elif variant.game == "web-mfw":
        win = _launch_web(variant, display, tmpdir, env)
    elif variant.game == "web-own":
        win = _launch_webown(variant, display, tmpdir, env)
    else:
        if variant.game == "sgt-mines":
            env["MINES_TILESIZE"] = str(variant.param("tilesize"))
            kind = variant.param("palette")
            if kind is not None:
                env.update(sgt_palette(int(variant.param("seed")), kind))
            # No "#seed": after a seeded ID, `n` starts games with another mine
            # count (FIELD_NOTES). A blank board looks the same for any seed.
            game_id = f"{variant.cols}x{variant.rows}n{variant.mines}"
            cmd = [xgames.BINARIES["sgt-mines"], game_id]
            cls = "sgt-mines"
        elif variant.game == "xbomb":
            cmd = ["/usr/games/xbomb", "-square", f"-{variant.param('level')}"]
            cls = "xbomb"
        elif variant.game == "ace-minesweeper":
            cmd = ["/usr/games/ace-minesweeper"]
            cls = "name:ace-minesweeper"  # it sets no WM_CLASS
        elif variant.game == "tk-mines":
            cmd = [
                sys.executable,
                "-m",
                "tests.support.tkmines",
                f"--cols={variant.cols}",
                f"--rows={variant.rows}",
                f"--mines={variant.mines}",
                f"--style={variant.param('style')}",
                f"--cell={variant.param('cell')}",
                f"--state={tmpdir / 'tk-state.jsonl'}",
            ] + (["--dialog"] if variant.param("dialog") else [])
            cmd += [f"--first-click={variant.first_click}"]
            env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
            cls = "tkmines"
        elif variant.game == "kmines":
            # kmines exits at once without a D-Bus session bus; its theme and
            # level come from ~/.config/kminesrc (a private one per launch).
            # A win that makes its high-score table opens a modal name dialog
            # that swallows the new-game key (seen: the second game never
            # started): the table is filled with times no game beats
            # (-1 s; measured: 3 wins in a row, no dialog).
            level = variant.param("level")
            scores = "".join(
                f"{i}_Name=msolver-test\n{i}_Score=-1\n{i}_Time=00:00\n" for i in range(1, 11)
            )
            (tmpdir / "cfg" / "kminesrc").write_text(
                f"[KgTheme]\nTheme=themes/{variant.param('theme')}.desktop\n\n"
                f"[KgDifficulty]\nLevel={level}\n\n"
                f"[KHighscore_{level}]\n0_LastPlayer=msolver-test\n{scores}"
            )
            if variant.param("scale") != 1:
                env["QT_SCALE_FACTOR"] = str(variant.param("scale"))
            cmd = ["dbus-run-session", "--", "/usr/games/kmines"]
            cls = "kmines"
        elif variant.game == "pygame-minesweeper":
            py = pygame_python()
            env["SDL_AUDIODRIVER"] = "dummy"
            cmd = [
                str(py),
                "-m",
                "minesweeper",
                "custom",
                "--rows",
                str(variant.rows),
                "--cols",
                str(variant.cols),
                "--mines",
                str(variant.mines),
                "--tile-sprite",
                str(variant.param("sheet")),
            ]
            cls = "minesweeper"
        elif variant.game == "minesweeper-mvc":
            py = mvc_python()
            env["SDL_AUDIODRIVER"] = "dummy"
            env["SDL_VIDEO_WINDOW_POS"] = "0,0"
            cmd = [str(py), "-m", "minesweeper"]
            cls = "__main__.py"
        elif variant.game == "minegauler":
            py = minegauler_python()
            _write_minegauler_settings(py, variant)
            # minegauler 4.2.0 dies (a PyQt6 TypeError in its high-score
            # window's sizeHint) when a win at a standard level sets a new
            # best: that window opens and takes the game with it. Its table
            # sits in the package folder, shared by every run, so whether a
            # run meets this depended on earlier runs. Each launch gets a table
            # of its own holding a record no game beats (a player with a
            # history), so the window never opens and no run depends on another.
            cmd = _no_network([str(py), "-c", _MINEGAULER_LAUNCH, str(tmpdir / "highscores.db")])
            cls = "minegauler"
        else:
            raise ValueError(f"unknown game {variant.game!r}")
        before = xgames._visible_by_class(display, cls)
        proc = _spawn(cmd, env, tmpdir)
        win = ThirdPartyWindow(game=variant.game, display=display, proc=proc, wid=0, tmpdir=tmpdir)
        try:
            win.wid = xgames._find_window(display, proc, cls, timeout, before)
        except BaseException:
            win.close()
            raise
    win.cols, win.rows, win.mines = variant.cols, variant.rows, variant.mines
    win.new_game = variant.new_game
    try:
        if variant.game == "pygame-minesweeper":
            # SDL centres its window; at the corner the face button's place
            # is fixed: centred, 2 frame offsets (18 px) down, 26 px tall.
            win.move(0, 0)
            win.new_game = f"click:{win.geometry()[2] // 2},{18 + 13}"
        elif variant.game == "minesweeper-mvc":
            # The menu's buttons are centred on its 600 px wide window; the
            # mode's window opens at the same corner.
            win.move(0, 0)
            _cols, _rows, _mines, _cell, by = MVC_MODES[str(variant.param("mode"))]
            time.sleep(1.0)
            win.click(300, by)
            time.sleep(1.0)
            # SDL makes the mode's window anew: the same process's largest window
            win.wid = xgames._find_window(display, proc, "__main__.py", 10.0, set())
        elif variant.game == "ace-minesweeper":
            # the penguin button, centred in the 34 px bar above the board
            x, y, w, _ = win.geometry()
            win.new_game = f"click:{x + w // 2},{y + 16}"
        elif variant.game == "kmines":
            # the toolbar's "New" under the menu bar, at the window's left
            x, y, _, _ = win.geometry()
            s = float(variant.param("scale"))
            win.new_game = f"click:{x + round(25 * s)},{y + round(37 * s)}"
        win.park_pointer()
        slow = ("gnome-mines", "web-mfw", "web-own", "kmines")
        img = win.wait_drawn(settle=0.8 if variant.game in slow else 0.3)
        truth = measure(variant, win, img)
    except BaseException:
        win.close()
        raise
    return win, truth


_MINEGAULER_LAUNCH = """
import pathlib, runpy, sys
import minegauler.app.paths as paths
paths.HIGHSCORES_FILE = pathlib.Path(sys.argv[1])
sys.argv[:] = ["minegauler"]
from minegauler.app import highscores as hs
from minegauler.app.highscores.base import HighscoreStruct
for level in "BIEM":
    hs.insert_highscore(
        HighscoreStruct("regular", level, 1, 8, False, "", 0, 0.001, 1, 1e9, 0.0),
        post_remote=False,
    )
runpy.run_module("minegauler.app", run_name="__main__")
"""


def _write_minegauler_settings(py: Path, variant: Variant) -> None:
    out = subprocess.run(
        [str(py), "-c", "import minegauler.app.paths as p; print(p.SETTINGS_FILE)"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    settings = {
        "x_size": variant.cols,
        "y_size": variant.rows,
        "mines": variant.mines,
        "first_success": True,
        "per_cell": 1,
        "reach": 8,
        "lives": 1,
        "mode": "REGULAR",
        "btn_size": variant.param("btn_size"),
        "drag_select": False,
        "name": "",
        "styles": {
            "BUTTONS": variant.param("style"),
            "NUMBERS": variant.param("numbers", "Standard"),
            "MARKERS": "Standard",
        },
    }
    Path(out.stdout.strip()).write_text(json.dumps(settings))


# -- ground truth ---------------------------------------------------------------


def tk_events(win: ThirdPartyWindow) -> list[dict[str, Any]]:
    """What tests/support/tkmines.py wrote to its state file, in order."""
    path = win.tmpdir / "tk-state.jsonl" if win.tmpdir is not None else None
    if path is None or not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def tk_layouts(win: ThirdPartyWindow) -> dict[int, set[int]]:
    """The mine layout of each game the player clicked in, numbered as the player does.

    The game counts every new game; one nobody clicked in (a new-game key
    sent twice) has no layout and is no game of the player's.
    """
    laid = [set(e["mines"]) for e in tk_events(win) if e.get("event") == "laid"]
    return {k + 1: mines for k, mines in enumerate(laid)}


def web_state(win: ThirdPartyWindow) -> dict[str, Any]:
    """What the wrapper page wrote into the title: rects, dpr, mines, result."""
    title = win.title()
    if not title.startswith("MSB "):
        raise HarnessError(f"web page title is {title!r}, not the board report")
    state: dict[str, Any] = json.loads(title[4:])
    return state


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """(start, length) of every run of True in a 1-D mask."""
    out: list[tuple[int, int]] = []
    start = -1
    for i, v in enumerate([*mask.tolist(), False]):
        if v and start < 0:
            start = i
        elif not v and start >= 0:
            out.append((start, i - start))
            start = -1
    return out


def measure(variant: Variant, win: ThirdPartyWindow, img: np.ndarray) -> Truth:
    """The board's geometry in the window screenshot `img`, by a rule for this game alone."""
    rows, cols, mines = variant.rows, variant.cols, variant.mines
    h, w = img.shape[:2]
    if variant.game == "sgt-mines":
        # sgt-mines draws the grid at BORDER = 3/2 tile (rounded down) from
        # its drawing area's corner, which sits under a 25 px menu bar and
        # spans the window's width (measured at tile 20: origin (30, 55)).
        t = float(variant.param("tilesize"))
        border = (w - cols * t) / 2.0
        ox, oy = border, 25.0 + border
        return Truth(rows, cols, mines, (ox, oy), (t, t))
    if variant.game == "gnome-mines":
        # unopened tiles are flat (186,189,182); gaps of 4 px between them
        mask = np.all(img == (186, 189, 182), axis=2)
        tile_ys, tile_xs = np.nonzero(mask)
        # Tiles are rounded: measure along the middle row and column of a
        # middle tile, found in two passes (a first guess may cut a corner).
        x_runs = [r for r in _runs(mask[int(np.median(tile_ys))]) if r[1] > 5]
        y_runs: list[tuple[int, int]] = []
        for _ in range(2):
            mid = x_runs[len(x_runs) // 2] if x_runs else (int(np.median(tile_xs)), 0)
            y_runs = [r for r in _runs(mask[:, mid[0] + mid[1] // 2]) if r[1] > 5]
            if not y_runs:
                break
            ymid = y_runs[len(y_runs) // 2]
            x_runs = [r for r in _runs(mask[ymid[0] + ymid[1] // 2]) if r[1] > 5]
        if len(x_runs) != cols or len(y_runs) != rows:
            raise HarnessError(
                f"gnome-mines: {len(x_runs)}x{len(y_runs)} tile runs, not {cols}x{rows}"
            )
        xs = [float(r[0]) for r in x_runs]
        ys = [float(r[0]) for r in y_runs]
        # the pitch most neighbours keep (the mean is skewed by a short row)
        px = float(np.median(np.diff(xs)))
        py = float(np.median(np.diff(ys)))
        even = all(abs(x - (xs[0] + k * px)) < 0.5 for k, x in enumerate(xs)) and all(
            abs(y - (ys[0] + k * py)) < 0.5 for k, y in enumerate(ys)
        )
        return Truth(
            rows,
            cols,
            mines,
            (xs[0], ys[0]),
            (px, py),
            (px - x_runs[0][1], py - y_runs[0][1]),
            () if even else tuple(xs),
            () if even else tuple(ys),
        )
    if variant.game == "xbomb":
        # 2 px black lines around every cell
        dark = img.astype(int).sum(axis=2) == 0
        mid_y = int(np.nonzero(~dark[:, w // 2])[0].mean())
        x_lines = [r for r in _runs(dark[mid_y]) if r[1] == 2]
        mid_x = x_lines[len(x_lines) // 2][0] + 8
        y_lines = [r for r in _runs(dark[:, mid_x]) if r[1] == 2]
        if len(x_lines) != cols + 1 or len(y_lines) != rows + 1:
            raise HarnessError(f"xbomb: {len(x_lines)}x{len(y_lines)} grid lines")
        px = (x_lines[-1][0] - x_lines[0][0]) / cols
        py = (y_lines[-1][0] - y_lines[0][0]) / rows
        return Truth(
            rows,
            cols,
            mines,
            (float(x_lines[0][0] + 2), float(y_lines[0][0] + 2)),
            (px, py),
            (2.0, 2.0),
        )
    if variant.game == "ace-minesweeper":
        # Tiles are the only pixels with red in them (white, grey 153, dark
        # 51 bevels); the grid lines and the window are pure greens.
        tile = img[:, :, 0].astype(int) > 0
        ty = int(np.median(np.nonzero(tile.any(axis=1))[0]))
        x_runs = [r for r in _runs(tile[ty]) if r[1] >= 5]
        tx = x_runs[len(x_runs) // 2][0] + 3 if x_runs else 0
        # (the penguin button above the board is no tile)
        y_runs = [r for r in _runs(tile[:, tx]) if abs(r[1] - x_runs[0][1]) <= 1]
        if len(x_runs) != cols or len(y_runs) != rows:
            raise HarnessError(f"ace-minesweeper: {len(x_runs)}x{len(y_runs)} tiles")
        px = (x_runs[-1][0] - x_runs[0][0]) / (cols - 1)
        py = (y_runs[-1][0] - y_runs[0][0]) / (rows - 1)
        return Truth(
            rows,
            cols,
            mines,
            (float(x_runs[0][0]), float(y_runs[0][0])),
            (px, py),
            (px - x_runs[0][1], py - y_runs[0][1]),
        )
    if variant.game == "minegauler":
        # The board sits in a sunken frame whose inner band is grey 159;
        # cells start right after it and end right before it.
        btn = float(variant.param("btn_size"))
        grey = np.all(img == (159, 159, 159), axis=2)
        cy = int(h * 0.6)
        xr = [r for r in _runs(grey[cy]) if r[1] >= 3]
        cx = w // 2
        yr = [r for r in _runs(grey[:, cx]) if r[1] >= 3]
        if len(xr) < 2 or len(yr) < 2:
            raise HarnessError("minegauler: frame not found")
        ox = float(xr[0][0] + xr[0][1])
        # a white band of 5 px separates the last cell from the bottom grey band
        oy = float(yr[-1][0] - 5 - rows * btn)
        if not any(r[0] + r[1] == oy for r in yr):
            raise HarnessError(f"minegauler: no frame band ends at y={oy}")
        if abs(xr[-1][0] - 5 - (ox + cols * btn)) > 1.0:
            raise HarnessError(f"minegauler: board width {xr[-1][0] - ox} != {cols} x {btn}")
        return Truth(rows, cols, mines, (ox, oy), (btn, btn))
    if variant.game == "minesweeper-mvc":
        # From its code: cell (c, r) is drawn at (10 + c * cell, 10 + r * cell)
        cell = float(MVC_MODES[str(variant.param("mode"))][3])
        return Truth(rows, cols, mines, (10.0, 10.0), (cell, cell))
    if variant.game == "pygame-minesweeper":
        # From its code: the board sits 9 px (2 x shadow 2 + grey 5) inside the
        # window's left, right and bottom edges; 16 px tiles.
        off = 9.0
        pitch = (w - 2 * off) / cols
        return Truth(rows, cols, mines, (off, h - rows * pitch - off), (pitch, pitch))
    if variant.game == "tk-mines":
        # The game reports its first and last cell buttons' outer boxes; each
        # has a 1 px focus ring in the window's grey around its bevel.
        deadline = time.monotonic() + 10
        geo = None
        while geo is None and time.monotonic() < deadline:
            geo = next((e for e in tk_events(win) if e.get("event") == "geometry"), None)
            time.sleep(0.05)
        if geo is None:
            raise HarnessError("tk-mines reported no geometry")
        (x0, y0, _, _), (x1, y1, _, _) = geo["first"], geo["last"]
        px = (x1 - x0) / (cols - 1)
        py = (y1 - y0) / (rows - 1)
        if variant.param("style") == "checker":
            # borderless flat cells side by side (no ring, no bevel)
            return Truth(rows, cols, mines, (float(x0), float(y0)), (px, py))
        return Truth(rows, cols, mines, (x0 + 1.0, y0 + 1.0), (px, py), (2.0, 2.0))
    if variant.game == "web-mfw":
        st = web_state(win)
        dpr = float(st["dpr"])
        a, b = st["a"], st["b"]
        px = (b[0] - a[0]) / (cols - 1) * dpr
        py = (b[1] - a[1]) / (rows - 1) * dpr
        return Truth(rows, cols, mines, (a[0] * dpr, a[1] * dpr), (px, py))
    if variant.game == "web-own":
        return _webown_truth(variant, win)
    if variant.game == "kmines":
        return _kmines_truth(variant, img)
    raise ValueError(variant.game)


def _webown_truth(variant: Variant, win: ThirdPartyWindow) -> Truth:
    """From the page's own report: each cell div's border box is its face (no
    border: the rounded, shaded or flat face fills the box), and the grid's
    gap (the dark and soft looks' spacing, the flat and big looks' 1 px lines
    on the board's background) follows each face. The page sits at the
    window's top left (a Chromium app window has no frame of its own)."""
    deadline = time.monotonic() + 10
    st = web_state(win)
    while st.get("game") != 1 and time.monotonic() < deadline:
        time.sleep(0.1)
        st = web_state(win)
    dpr = float(st["dpr"])
    a, b = st["a"], st["b"]
    rows, cols = variant.rows, variant.cols
    px = (b[0] - a[0]) / (cols - 1) * dpr
    py = (b[1] - a[1]) / (rows - 1) * dpr
    gx, gy = px - a[2] * dpr, py - a[3] * dpr
    return Truth(rows, cols, variant.mines, (a[0] * dpr, a[1] * dpr), (px, py), (gx, gy))


def webown_layouts(win: ThirdPartyWindow) -> dict[int, set[int]]:
    """The mine layout of each game the player clicked in, numbered as the player
    does (as tk_layouts): the page's `laid`, games nobody clicked in left out.

    Chromium cuts a title at 4096 characters (measured), which many games on a
    big board outgrow; the page also asks its server for
    `laid?game=G&mines=A.B.C` at each layout, so the server's request log
    holds them too and stands in for a title cut short.
    """
    try:
        laid = [list(m) for m in web_state(win).get("laid", [])]
    except (HarnessError, ValueError):
        laid = []
        log = win.tmpdir / "server.log"
        for line in log.read_text(errors="replace").splitlines() if log.exists() else []:
            hit = re.search(r"GET /laid\?game=(\d+)&mines=([\d.]*) ", line)
            if hit:
                g = int(hit.group(1))
                laid += [[] for _ in range(g - len(laid))]
                laid[g - 1] = [int(v) for v in hit.group(2).split(".") if v]
    return {k + 1: set(m) for k, m in enumerate(m for m in laid if m)}


# Where each kmines theme's cell picture puts its face inside the cell's square
# (measured on the shots; pixels from the square's first pixel): the default
# and graveyard cells start with a 1 px outline that meets the previous cell's
# (a 2 px line between faces), classic cells end with a 1 px line, green's
# grass texture has no line at all.
_KMINES_FACE = {"default": (1.0, 2.0), "classic": (0.0, 1.0), "graveyard-mayhem": (1.0, 2.0)}


def _kmines_truth(variant: Variant, img: np.ndarray) -> Truth:
    """kmines (minefielditem.cpp) sizes a cell to the whole pixels of
    min(view width / (cols + 2), view height / (rows + 2)) (a border of one cell
    on each side) and centres the field in its view; the view fills the window
    between the toolbar (ending at y = 54) and the 30 px status bar. A half
    pixel of centring rounds up (measured: default Easy cells start at 126, 87).
    The view's top and bottom are checked on the picture: the window's light
    grey toolbar and status bar end and start there. Under Qt's scaling
    (QT_SCALE_FACTOR) all of this holds in its logical pixels, each `scale`
    pixels of the picture."""
    sc = float(variant.param("scale"))
    h, w = img.shape[:2]
    top, bottom = 54, h / sc - 30
    bar = np.array([239, 239, 239])
    at = int(np.ceil(bottom * sc)) + (sc != 1)
    if not (np.abs(img[at, 2].astype(int) - bar).max() <= 2):
        raise HarnessError(f"kmines: no status bar at y={at}")
    vw, vh = w / sc, bottom - top
    cols, rows = variant.cols, variant.rows
    cell = int(min(vw / (cols + 2), vh / (rows + 2)))
    x0 = float(np.floor((vw - cols * cell) / 2 + 0.5))
    y0 = top + float(np.floor((vh - rows * cell) / 2 + 0.5))
    face, gap = _KMINES_FACE.get(str(variant.param("theme")), (0.0, 0.0))
    if variant.param("theme") == "classic":
        # A classic cell is a light line, the face, a dark line; at 11 logical
        # px under Qt's 150% (16.5 px) the dark line is not drawn (measured:
        # faces of 239 from 254, 270, 287 after light lines of 253, 1 or 2 px;
        # no pixel under 200 until the board's own edge), and the light line
        # is the one line between faces: it comes before each face.
        row = img[int((y0 + cell / 2) * sc), int(x0 * sc) : int((x0 + cell) * sc)]
        if int(row.min(axis=1).min()) > 200:
            face, gap = 1.0, 1.0
    return Truth(
        rows,
        cols,
        variant.mines,
        ((x0 + face) * sc, (y0 + face) * sc),
        (cell * sc, cell * sc),
        (gap * sc, gap * sc),
    )


def _first_in_grid(ys: list[int], t: float, rows: int) -> int:
    """The first y of a run of rows*t pixels in which the cell column colour recurs every t."""
    ys_set = set(ys)
    for y in ys:
        if all(int(y + k * t) in ys_set for k in range(rows)) and (y - 1) not in ys_set:
            return y
    raise HarnessError("sgt-mines: cell column not found")


def draw_grid(img: np.ndarray, truth: Truth) -> np.ndarray:
    """A copy of `img` with the true cell edges drawn in magenta (for a person to look at)."""
    out = img.copy()
    ox, oy = truth.origin
    px, py = truth.pitch
    for c in range(truth.cols + 1):
        x = round(ox + c * px)
        if 0 <= x < out.shape[1]:
            out[int(oy) : int(oy + truth.rows * py), x] = (255, 0, 255)
    for r in range(truth.rows + 1):
        y = round(oy + r * py)
        if 0 <= y < out.shape[0]:
            out[y, int(ox) : int(ox + truth.cols * px)] = (255, 0, 255)
    return out
