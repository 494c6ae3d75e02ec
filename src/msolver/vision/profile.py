"""The calibration profile: where a board is on the screen and what its tiles look like.

A profile is a frozen value. Its `grid` is in *screen* pixels: the pixels of
a grab of all monitors (mss monitor 0), placed so that pixel x = point x *
the display's scale (so it may be negative on a left/top monitor). On a
display with one pixel per point (Linux, Windows) these are the mouse's
coordinates too; elsewhere (macOS Retina) the player converts to points
(`msolver.io.capture.ScreenScale`). A click new-game button is in the same frame.

Cell (row, col) occupies the box whose top-left corner is
``origin + (col * pitch_x, row * pitch_y)`` and whose size is one pitch; the
box includes any gap between tiles, so boxes tile the board without holes.

Tile appearances are kept as raw RGB tile images per class label (the box of
one cell at the size the game drew it), possibly several variants per label
(e.g. a hovered unknown tile), possibly at several sizes (a game drawn at
several tile sizes: each size draws its digits differently). Reading uses the
variants at the profile's own cell size (`tiles_at`), rescaled from the
nearest recorded size when none was recorded at that size.

A profile of a theme msolver does not know also keeps the blank board's look
of every cell (`blank`: one BLANK_K x BLANK_K RGB patch per cell, row by row,
zlib-compressed base64 in the JSON), so a gradient, texture or vignette
behind the tiles is part of each cell's own blank look. Older profiles
without it still load (`blank` is None).

Facts about the game, not its looks, kept once found: `chord` is the mouse
button that chords on a number ("middle", "left", "none" when the game does
not chord; None until a game has shown it), and `first_click` the game's
first-click rule ("safe", "opening", "xp": a mine under the first click moves
to the top-left corner, as Windows XP did, "none": some games lay their mines
before the first click). Older profiles without them still load: the chord is probed
again, the rule comes from the built-in theme (or "safe"). `flag` is the
click that flags a cell: "right" (the default, also for older profiles) or a
modified left click such as "ctrl+left" (a web game in a browser, where a
right click opens the browser's context menu). `flood` is "sides" for a game
whose 0 opens only its four side neighbours, learned from the rules in play
(absent: all eight).

Profiles are saved as one JSON file (tiles embedded as base64 PNG) under the
user's config directory (MSOLVER_PROFILE_DIR overrides it), written
atomically. Built-in profiles for the known themes are data files in the
repository's ``calibration/`` folder (or ``msolver/data/`` in an installed
package).
"""

from __future__ import annotations

import base64
import json
import os
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from msolver.core import game
from msolver.core.board import EXPLODED, FLAG, MINE, UNKNOWN, WRONG_FLAG
from msolver.files import atomic_open
from msolver.vision.geometry import Grid, GridError, line_of
from msolver.vision.image import Image
from msolver.vision.strip import Strip
from msolver.vision.tiles import rescale_tiles

FORMAT_VERSION = 1

# Class labels a profile may carry tiles for, and the board state each means.
LABELS: tuple[str, ...] = (
    "unknown",
    "flag",
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "mine",
    "exploded",
    "wrong_flag",
)
STATE_OF_LABEL: dict[str, int] = {
    "unknown": UNKNOWN,
    "flag": FLAG,
    "mine": MINE,
    "exploded": EXPLODED,
    "wrong_flag": WRONG_FLAG,
    **{str(n): n for n in range(9)},
}

# Side of a cell's blank patch, in samples.
BLANK_K = 8

BUILTIN_NAMES: tuple[str, ...] = ("sgt-mines", "gnome-mines", "xdemineur")

CHORD_BUTTONS: tuple[str, ...] = ("middle", "left", "none")
FIRST_CLICK_RULES: tuple[str, ...] = game.FIRST_CLICK_RULES
FLOODS = ("", "sides")  # how a 0 opens its neighbours: all eight, or the four sides
# The clicks that can flag a cell (mouse.parse_click reads them).
FLAG_ACTIONS: tuple[str, ...] = ("right", "ctrl+left", "alt+left", "shift+left")
# What each built-in game does on its first click: sgt-mines always opens a
# zero; so does gnome-mines, whose mines are laid after the first click
# avoiding it and its neighbours (its minefield.vala, `place_mines`; every
# first click of the battery's gnome games showed a zero); xdemineur opens
# an area at launch, so a later click can hit a mine. "opening" rather than
# "safe" moves the first click off the corner: expert wins about 54% from
# (3, 3) under "opening" against 41% from a corner (docs/solver.md).
THEME_FIRST_CLICK: dict[str, str] = {
    "sgt-mines": "opening",
    "gnome-mines": "opening",
    "xdemineur": "none",
}


def default_first_click(theme: str) -> str:
    """The first-click rule a profile of `theme` gets unless told otherwise."""
    return THEME_FIRST_CLICK.get(theme, "safe")


_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class ProfileError(ValueError):
    """A profile that is missing, corrupt, stale or does not fit; one-line message."""


@dataclass(frozen=True, eq=False)
class Profile:
    """Where the board is and how its tiles look. See the module docstring for geometry."""

    name: str
    theme: str
    grid: Grid  # screen pixels
    mines: int
    tiles: Mapping[str, tuple[Image, ...]] = field(default_factory=dict)
    new_game: str | None = None
    version: int = FORMAT_VERSION
    # Each cell's look on the blank board: (rows * cols, BLANK_K, BLANK_K, 3) uint8.
    blank: Image | None = None
    # The button that chords ("middle", "left", "none"); None: not found yet.
    chord: str | None = None
    # The game's first-click rule; "" means the theme's default.
    first_click: str = ""
    # The click that flags a cell (one of FLAG_ACTIONS).
    flag: str = "right"
    # How a 0 opens its neighbours: "" all eight (every game we know but
    # one), "sides" only the four side by side (a hobby clone's flood fill),
    # once a session's games showed it.
    flood: str = ""
    # The window's band above the board on the blank board (faces, counters);
    # None: not kept (older profiles, or no room above the board).
    strip: Strip | None = None

    def __post_init__(self) -> None:
        if not self.first_click:
            object.__setattr__(self, "first_click", default_first_click(self.theme))

    # -- the grid's numbers, for reading ----------------------------------------

    @property
    def origin(self) -> tuple[float, float]:
        return self.grid.origin

    @property
    def pitch(self) -> tuple[float, float]:
        return self.grid.pitch

    @property
    def rows(self) -> int:
        return self.grid.rows

    @property
    def cols(self) -> int:
        return self.grid.cols

    @property
    def cell_size(self) -> tuple[int, int]:
        return self.grid.cell_size

    def tiles_at(self, size: tuple[int, int] | None = None) -> dict[str, tuple[Image, ...]]:
        """Tile variants per label at `size` (width, height; default: the cell size).

        Variants recorded at exactly that size are used as they are; a label
        with none at that size gets its variants from the nearest recorded
        size, resampled.
        """
        w, h = size or self.cell_size
        out: dict[str, tuple[Image, ...]] = {}
        for label, variants in self.tiles.items():
            exact = tuple(t for t in variants if t.shape[:2] == (h, w))
            if exact:
                out[label] = exact
                continue
            if not variants:
                continue
            near = min(abs(t.shape[0] - h) + abs(t.shape[1] - w) for t in variants)
            picked = [t for t in variants if abs(t.shape[0] - h) + abs(t.shape[1] - w) == near]
            out[label] = rescale_tiles({label: picked}, (w, h))[label]
        return out

    def tile_sizes(self) -> list[tuple[int, int]]:
        """The (width, height) sizes at which tiles were recorded, most common first."""
        from collections import Counter

        sizes = Counter(
            (t.shape[1], t.shape[0]) for variants in self.tiles.values() for t in variants
        )
        return [s for s, _ in sizes.most_common()]

    def moved_to(self, origin: tuple[float, float]) -> Profile:
        """The same profile with the board at another screen position."""
        return self.with_changes(origin=(float(origin[0]), float(origin[1])))

    def with_changes(self, **changes: Any) -> Profile:
        """A copy with fields changed; origin, pitch, rows and cols change the grid."""
        geometry = {k: changes.pop(k) for k in ("origin", "pitch", "rows", "cols") if k in changes}
        if geometry:
            grid = self.grid
            if "origin" in geometry:
                # a board's own line edges move with it
                grid = grid.moved_to(geometry.pop("origin"))
            if geometry:
                # another pitch or size is another, even lattice
                grid = replace(grid, xs=None, ys=None, **geometry)
            changes["grid"] = grid
        return replace(self, **changes)

    # -- serialisation -------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "msolver-profile",
            "version": self.version,
            "name": self.name,
            "theme": self.theme,
            "origin": list(self.origin),
            "pitch": list(self.pitch),
            "rows": self.rows,
            "cols": self.cols,
            **({} if self.grid.xs is None else {"col_edges": list(self.grid.xs)}),
            **({} if self.grid.ys is None else {"row_edges": list(self.grid.ys)}),
            "mines": self.mines,
            "new_game": self.new_game,
            "chord": self.chord,
            "first_click": self.first_click,
            "flag": self.flag,
            **({"flood": self.flood} if self.flood else {}),
            "tiles": {
                label: [_png_b64(t) for t in variants] for label, variants in self.tiles.items()
            },
            **({} if self.blank is None else {"blank": _blank_b64(self.blank)}),
            **({} if self.strip is None else {"strip": _strip_json(self.strip)}),
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "profile") -> Profile:
        """Build from parsed JSON; ProfileError names what is wrong and where."""
        if not isinstance(data, dict) or data.get("format") != "msolver-profile":
            raise ProfileError(f"{where}: not an msolver profile")
        version = data.get("version")
        if version != FORMAT_VERSION:
            raise ProfileError(
                f"{where}: profile format v{version} is stale (this msolver reads "
                f"v{FORMAT_VERSION}); recalibrate"
            )
        try:
            if not isinstance(data.get("tiles"), dict):
                raise ProfileError(f"{where}: corrupt profile (tiles is not a mapping of labels)")
            for key in ("origin", "pitch"):
                if not isinstance(data.get(key), list) or len(data[key]) != 2:
                    raise ProfileError(f"{where}: corrupt profile ({key} is not [x, y])")
            tiles: dict[str, tuple[Image, ...]] = {}
            for label, variants in data["tiles"].items():
                if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
                    raise ProfileError(f"{where}: corrupt profile (tiles {label!r} is not a list)")
                if label not in STATE_OF_LABEL:
                    raise ProfileError(f"{where}: unknown tile label {label!r}")
                tiles[label] = tuple(_png_decode(v) for v in variants)
            prof = cls(
                name=str(data["name"]),
                theme=str(data["theme"]),
                grid=_grid_of(data, where),
                mines=int(data["mines"]),
                tiles=tiles,
                new_game=None if data.get("new_game") is None else str(data["new_game"]),
                blank=None if data.get("blank") is None else _blank_decode(data["blank"]),
                chord=None if data.get("chord") is None else str(data["chord"]),
                first_click=str(data.get("first_click") or ""),
                flag=str(data.get("flag") or "right"),
                flood=str(data.get("flood") or ""),
                strip=None if data.get("strip") is None else _strip_decode(data["strip"]),
            )
        except ProfileError:
            raise
        except (
            KeyError,
            TypeError,
            ValueError,
            IndexError,
            AttributeError,
            OverflowError,
            zlib.error,
        ) as exc:
            raise ProfileError(f"{where}: corrupt profile ({type(exc).__name__}: {exc})") from exc
        prof.validate(where)
        return prof

    def validate(self, where: str = "profile") -> None:
        if self.rows < 1 or self.cols < 1:
            raise ProfileError(f"{where}: board size {self.rows}x{self.cols} is empty")
        if not (self.pitch[0] >= 4 and self.pitch[1] >= 4):
            raise ProfileError(f"{where}: cell pitch {self.pitch} is too small")
        if not 0 <= self.mines <= self.rows * self.cols:
            raise ProfileError(f"{where}: mine count {self.mines} does not fit the board")
        if self.chord is not None and self.chord not in CHORD_BUTTONS:
            raise ProfileError(
                f"{where}: chord button {self.chord!r} is not one of {', '.join(CHORD_BUTTONS)}"
            )
        if self.first_click not in FIRST_CLICK_RULES:
            raise ProfileError(
                f"{where}: first-click rule {self.first_click!r} is not one of "
                f"{', '.join(FIRST_CLICK_RULES)}"
            )
        if self.flag not in FLAG_ACTIONS:
            raise ProfileError(
                f"{where}: flag click {self.flag!r} is not one of {', '.join(FLAG_ACTIONS)}"
            )
        if self.flood not in FLOODS:
            raise ProfileError(
                f"{where}: flood {self.flood!r} is not one of {', '.join(repr(f) for f in FLOODS)}"
            )
        if "unknown" not in self.tiles:
            raise ProfileError(f"{where}: has no tile for unopened cells")
        if self.blank is not None and self.blank.shape != (
            self.rows * self.cols,
            BLANK_K,
            BLANK_K,
            3,
        ):
            raise ProfileError(
                f"{where}: the blank board's looks ({self.blank.shape}) do not fit the "
                f"{self.rows}x{self.cols} board; recalibrate"
            )


def _edges_of(data: dict[str, Any], key: str, where: str) -> tuple[float, ...] | None:
    """A profile's optional list of one axis's box edges; ProfileError if it is not one."""
    got = data.get(key)
    if got is None:
        return None
    if not isinstance(got, list) or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in got
    ):
        raise ProfileError(f"{where}: corrupt profile ({key} is not a list of numbers)")
    return tuple(float(v) for v in got)


def _grid_of(data: dict[str, Any], where: str) -> Grid:
    """The board's grid from a profile's JSON: origin and pitch, and any line's own edges."""
    origin = (float(data["origin"][0]), float(data["origin"][1]))
    pitch = (float(data["pitch"][0]), float(data["pitch"][1]))
    rows, cols = int(data["rows"]), int(data["cols"])
    xs, ys = _edges_of(data, "col_edges", where), _edges_of(data, "row_edges", where)
    try:
        grid = Grid(origin, pitch, rows, cols, xs, ys)
    except GridError as exc:
        raise ProfileError(f"{where}: corrupt profile ({exc})") from exc
    if xs is not None or ys is not None:
        # where a line has its own edges, its origin and pitch follow from them
        (ox, px), (oy, py) = (line_of(e) for e in grid.edges())
        grid = Grid((ox, oy), (px, py), rows, cols, xs, ys)
    return grid


def cell_patches(
    image: Image,
    origin: tuple[float, float],
    pitch: tuple[float, float],
    rows: int,
    cols: int,
    which: list[int] | None = None,
    offset: tuple[int, int] = (0, 0),
) -> Image | None:
    """The BLANK_K x BLANK_K RGB patch of each cell `which` (default all), row by row,
    from its box less a pixel all round.

    origin is in screen pixels, and the image's top-left pixel is at `offset`
    on the screen. A cell box starts at the whole pixel nearest its exact
    corner (computed in screen pixels, so every cut of one profile rounds
    alike) and is one rounded pitch wide; None when the image does not hold
    the board.
    """
    return grid_patches(image, Grid(origin, pitch, rows, cols), which, offset)


def grid_patches(
    image: Image,
    grid: Grid,
    which: list[int] | None = None,
    offset: tuple[int, int] = (0, 0),
) -> Image | None:
    """cell_patches of a grid in screen pixels, each cell from its own line's edges."""
    import cv2

    rows, cols = grid.rows, grid.cols
    w, h = grid.cell_size
    ex, ey = grid.cell_edges()
    xs = [v - offset[0] for v in ex[:-1]]
    ys = [v - offset[1] for v in ey[:-1]]
    if min(xs[0], ys[0]) < 0 or image.shape[0] < ys[-1] + h or image.shape[1] < xs[-1] + w:
        return None
    cells = list(range(rows * cols)) if which is None else which
    if not cells:
        return np.zeros((0, BLANK_K, BLANK_K, 3), dtype=np.uint8)
    # A pixel of rim left out: a board whose edge lies at half a pixel shows a
    # sliver of the neighbour's edge in each box, and that changes with the
    # neighbour's state, not with the cell's own.
    e = 1 if min(w, h) >= 8 else 0
    tiles = [
        image[
            ys[i // cols] + e : ys[i // cols] + h - e, xs[i % cols] + e : xs[i % cols] + w - e, :3
        ]
        for i in cells
    ]
    # One resize for all cells: stacked tiles keep their borders on whole output rows.
    strip = np.ascontiguousarray(np.concatenate(tiles, axis=0))
    small = cv2.resize(strip, (BLANK_K, BLANK_K * len(cells)), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(small.reshape(len(cells), BLANK_K, BLANK_K, 3))


def _blank_b64(blank: Image) -> dict[str, Any]:
    raw = zlib.compress(np.ascontiguousarray(blank, dtype=np.uint8).tobytes(), 9)
    return {"k": BLANK_K, "cells": int(blank.shape[0]), "zlib": base64.b64encode(raw).decode()}


def _blank_decode(data: Any) -> Image:
    if not isinstance(data, dict) or int(data["k"]) != BLANK_K:
        raise ValueError("the blank board's looks are in another format")
    n = int(data["cells"])
    raw = zlib.decompress(base64.b64decode(str(data["zlib"]), validate=True))
    if len(raw) != n * BLANK_K * BLANK_K * 3:
        raise ValueError("the blank board's looks are truncated")
    return np.frombuffer(raw, dtype=np.uint8).reshape(n, BLANK_K, BLANK_K, 3).copy()


def _strip_json(strip: Strip) -> dict[str, Any]:
    return {"dx": strip.offset[0], "dy": strip.offset[1], "png": _png_b64(strip.pixels)}


def _strip_decode(data: Any) -> Strip:
    if not isinstance(data, dict):
        raise ValueError("the band above the board is in another format")
    return Strip(_png_decode(str(data["png"])), (int(data["dx"]), int(data["dy"])))


def _png_b64(tile: Image) -> str:
    import cv2

    ok, buf = cv2.imencode(".png", np.ascontiguousarray(tile[:, :, ::-1]))
    if not ok:
        raise ProfileError("could not encode a tile image as PNG")
    return base64.b64encode(buf.tobytes()).decode("ascii")


def _png_decode(text: str) -> Image:
    import cv2

    raw = np.frombuffer(base64.b64decode(text, validate=True), dtype=np.uint8)
    img = cv2.imdecode(raw, cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError("a tile is not a PNG image")
    return np.ascontiguousarray(img[:, :, ::-1])


# -- storage --------------------------------------------------------------------


def user_dir() -> Path:
    """Where user profiles live (MSOLVER_PROFILE_DIR overrides, for tests).

    ProfileError when MSOLVER_PROFILE_DIR names a file or a folder whose parent is missing.
    """
    env = os.environ.get("MSOLVER_PROFILE_DIR")
    if env:
        folder = Path(env)
        if folder.exists() and not folder.is_dir():
            raise ProfileError(f"MSOLVER_PROFILE_DIR={env}: is a file, not a folder")
        if not folder.exists() and not folder.parent.is_dir():
            raise ProfileError(
                f"MSOLVER_PROFILE_DIR={env}: its folder {folder.parent} does not exist"
            )
        return folder
    import platformdirs

    return Path(platformdirs.user_config_dir("msolver")) / "profiles"


def builtin_dirs() -> list[Path]:
    """Folders holding the built-in profiles, first match wins.

    The repository's calibration/ folder (a source checkout or an editable
    install), then the package's data folder (an installed wheel).
    """
    here = Path(__file__).resolve()
    found = [here.parents[3] / "calibration", here.parents[1] / "data"]
    return [d for d in found if d.is_dir()]


def builtin_path(name: str) -> Path | None:
    for folder in builtin_dirs():
        path = folder / f"{name}.json"
        if path.is_file():
            return path
    return None


def _check_name(name: str) -> None:
    if not _NAME_RE.match(name):
        raise ProfileError(
            f"profile name {name!r} is not valid (letters, digits, '.', '_', '-'; max 64)"
        )


def save_profile(profile: Profile, name: str | None = None) -> Path:
    """Write the profile atomically as <user_dir>/<name>.json; return the path."""
    name = profile.name if name is None else name
    _check_name(name)
    profile = replace(profile, name=name)
    profile.validate(f"profile {name!r}")
    folder = user_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ProfileError(f"cannot create the profile folder {folder} ({exc.strerror})") from exc
    path = folder / f"{name}.json"
    if path.is_dir():
        raise ProfileError(f"{path}: is a directory; cannot save profile {name!r} there")
    write_json_atomic(path, profile.to_json())
    return path


def write_json_atomic(path: Path, data: Any) -> None:
    with atomic_open(path) as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")


def load_profile(name_or_path: str | os.PathLike[str]) -> Profile:
    """Load a profile by name (user profiles first, then built-ins) or by file path.

    A bare NAME is always a saved profile's name; a path (with a '/' or
    ending in .json) is a file.
    """
    text = os.fspath(name_or_path)
    candidates: list[Path]
    is_path = text.endswith(".json") or os.sep in text or "/" in text
    if is_path:
        candidates = [Path(text)]
        if Path(text).is_dir():
            raise ProfileError(f"{text}: is a directory, not a profile file")
    else:
        _check_name(text)
        candidates = [user_dir() / f"{text}.json"]
        builtin = builtin_path(text)
        if builtin is not None:
            candidates.append(builtin)
    for path in candidates:
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
                raise ProfileError(f"{path}: corrupt profile ({exc})") from exc
            return Profile.from_json(data, str(path))
    if is_path:
        raise ProfileError(f"{text}: no such profile file")
    if Path(f"{text}.json").is_file():
        raise ProfileError(
            f"no profile named {text!r}; to load the file {text}.json here, write ./{text}.json "
            "(a bare name is a saved profile)"
        )
    raise ProfileError(f"no profile named {text!r} (see `msolver profiles` or calibrate first)")


def shadowed_builtins() -> list[str]:
    """Built-in profile names that a user profile of the same name hides."""
    folder = user_dir()
    return [
        n for n in BUILTIN_NAMES if builtin_path(n) is not None and (folder / f"{n}.json").is_file()
    ]


def list_profiles() -> list[tuple[str, str]]:
    """(name, "user"|"builtin") for every loadable profile name; user ones shadow built-ins."""
    seen: dict[str, str] = {}
    folders = [("user", user_dir())] + [("builtin", d) for d in builtin_dirs()]
    for kind, folder in folders:
        if folder.is_dir():
            for path in sorted(folder.glob("*.json")):
                seen.setdefault(path.stem, kind)
    return sorted(seen.items())


def delete_profile(name: str) -> None:
    """Delete a user profile; built-ins cannot be deleted."""
    _check_name(name)
    path = user_dir() / f"{name}.json"
    if not path.is_file():
        if builtin_path(name) is not None:
            raise ProfileError(f"profile {name!r} is built in and cannot be deleted")
        raise ProfileError(f"no user profile named {name!r}")
    path.unlink()
