"""`msolver calibrate` without `--image`: the interactive calibration wizard.

It asks the user to show a blank board, grabs the whole screen, finds the
board, saves a picture of what it found (the grid drawn over the board) next
to the profile with a text summary, asks for what it cannot see (the mine
count of a non-standard board, how a new game starts) and saves the profile.
Answers given on the command line (--name, --mines, --new-game, --first-click)
are not asked again. `ask` and `capture` are parameters so the wizard can be driven by tests.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from msolver.core.game import FIRST_CLICK_RULES
from msolver.io.capture import Capture, CaptureError, Region, ScreenScale
from msolver.play.target import NewGame
from msolver.vision.image import Image

if TYPE_CHECKING:
    from msolver.vision.geometry import Grid
    from msolver.vision.profile import Profile

Ask = Callable[[str], str]


class WizardError(Exception):
    """The wizard cannot go on; the message says why."""


def _stdin_ask(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError as exc:
        raise WizardError("no answer on standard input (run it in a terminal)") from exc


def draw_grid(image: Image, grid: Grid, margin: int = 30) -> Image:
    """A crop of `image` around the board (grid in image pixels) with every cell edge
    drawn in magenta."""
    rows, cols = grid.rows, grid.cols
    h, w = image.shape[:2]
    x0 = max(0, int(grid.col_edge(0)) - margin)
    y0 = max(0, int(grid.row_edge(0)) - margin)
    x1 = min(w, int(grid.col_edge(cols)) + margin)
    y1 = min(h, int(grid.row_edge(rows)) + margin)
    out = np.array(image[y0:y1, x0:x1, :3], dtype=np.uint8, copy=True)
    magenta = np.array([255, 0, 255], dtype=np.uint8)
    top, bottom = round(grid.row_edge(0)) - y0, round(grid.row_edge(rows)) - y0
    left, right = round(grid.col_edge(0)) - x0, round(grid.col_edge(cols)) - x0
    for c in range(cols + 1):
        x = round(grid.col_edge(c)) - x0
        if 0 <= x < out.shape[1]:
            out[max(0, top) : max(0, bottom), x] = magenta
    for r in range(rows + 1):
        y = round(grid.row_edge(r)) - y0
        if 0 <= y < out.shape[0]:
            out[y, max(0, left) : max(0, right)] = magenta
    return out


def calibration_picture(image: Image, prof: Profile, image_origin: tuple[int, int]) -> Image:
    """What calibration found, for a person to check: the grid drawn over the board,
    and above it the theme's name and one sample of each tile kind it knows."""
    import cv2

    board = draw_grid(image, prof.grid.moved(-image_origin[0], -image_origin[1]))
    w, h = prof.cell_size
    tiles = prof.tiles_at((w, h))
    known = [label for label in _TILE_ORDER if label in tiles]
    side = max(24, min(48, w, h))
    gap = 6
    width = max(board.shape[1], 8 + len(known) * (side + gap), 420)
    band = np.full((30 + side + 22, width, 3), 255, dtype=np.uint8)
    kind = "built-in tiles" if prof.theme != "custom" else "a new theme, learned in play"
    title = f"{prof.cols}x{prof.rows}, {prof.mines} mines, theme {prof.theme} ({kind})"
    cv2.putText(band, title, (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1, cv2.LINE_AA)
    for n, label in enumerate(known):
        x = 6 + n * (side + gap)
        tile = cv2.resize(
            np.ascontiguousarray(tiles[label][0][:, :, :3]),
            (side, side),
            interpolation=cv2.INTER_NEAREST,
        )
        band[28 : 28 + side, x : x + side] = tile
        short = {"unknown": "?", "flag": "F", "mine": "*", "exploded": "X"}.get(label, label)
        cv2.putText(
            band,
            short[:3],
            (x + 2, 28 + side + 16),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.45,
            (0, 0, 0),
            1,
            cv2.LINE_AA,
        )
    out = np.full((band.shape[0] + board.shape[0], width, 3), 255, dtype=np.uint8)
    out[: band.shape[0]] = band
    out[band.shape[0] :, : board.shape[1]] = board
    return out


_TILE_ORDER = (
    "unknown",
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "flag",
    "mine",
    "exploded",
    "wrong_flag",
)


def find_face(image: Image, board: Region, image_origin: tuple[int, int]) -> tuple[int, int] | None:
    """Screen position of a yellow face button above the board, or None.

    Classic Minesweeper looks (xdemineur, Windows) start a new game from a
    yellow smiley centred above the board. Looked for only in the band just
    above the board; the biggest yellow patch there, if big enough to click.
    """
    left, top, width, _ = board
    ix, iy = left - image_origin[0], top - image_origin[1]
    band_top = max(0, iy - max(60, width // 8))
    band = image[band_top:iy, max(0, ix) : max(0, ix + width), :3].astype(np.int16)
    if band.size == 0:
        return None
    r, g, b = band[..., 0], band[..., 1], band[..., 2]
    yellow = (r > 180) & (g > 160) & (b < 110) & (r - b > 100)
    if int(yellow.sum()) < 30:
        return None
    import cv2

    n, _labels, stats, centroids = cv2.connectedComponentsWithStats(
        yellow.astype(np.uint8), connectivity=8
    )
    if n < 2:
        return None
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[best, cv2.CC_STAT_AREA] < 30:
        return None
    cx, cy = centroids[best]
    return (
        round(cx) + max(0, ix) + image_origin[0],
        round(cy) + band_top + image_origin[1],
    )


def run_wizard(
    args: argparse.Namespace,
    *,
    ask: Ask | None = None,
    capture: Capture | None = None,
    out: Callable[[str], None] | None = None,
) -> int:
    """The whole wizard; returns the exit status (0 saved, 1 no board, 2 bad answer)."""
    say = out or (lambda msg: print(msg, flush=True))
    try:
        path = _wizard(args, ask or _stdin_ask, capture, say)
    except WizardError as exc:
        print(f"msolver calibrate: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"msolver calibrate: {exc}", file=sys.stderr)
        return 2
    say(f"saved {path}")
    return 0


def _wizard(
    args: argparse.Namespace, ask: Ask, capture: Capture | None, say: Callable[[str], None]
) -> Path:
    from msolver.core.game import LEVELS
    from msolver.vision.grid import CalibrationError, calibrate, find_grid
    from msolver.vision.image import write_png
    from msolver.vision.profile import ProfileError, save_profile, user_dir

    own = capture is None
    if capture is None:
        from msolver.io.capture import open_capture

        try:
            capture = open_capture()
        except CaptureError as exc:
            raise WizardError(f"no display available: {exc}") from exc
    try:
        ask("Show a new, untouched board of the game on screen, then press Enter: ")
        screen = capture.screen()
        image = capture.grab(screen)
        # The profile is in the grab's pixels (several per point on a scaled display).
        screen = ScreenScale(capture.scale()).screen_pixels(screen)
    except CaptureError as exc:
        raise WizardError(f"cannot grab the screen: {exc}") from exc
    finally:
        if own:
            capture.close()
    origin = (screen[0], screen[1])
    try:
        grid = find_grid(image)
    except CalibrationError as exc:
        raise WizardError(f"no board found on the screen: {exc}") from exc
    say(
        f"found a board of {grid.cols} columns x {grid.rows} rows at screen "
        f"({grid.origin[0] + origin[0]:.0f}, {grid.origin[1] + origin[1]:.0f}), "
        f"cells {grid.pitch[0]:.1f} x {grid.pitch[1]:.1f} px"
    )
    mines = getattr(args, "mines", None)
    standard = {(lv.width, lv.height): lv.mines for lv in LEVELS.values()}
    if mines is None:
        guess = standard.get((grid.cols, grid.rows))
        hint = f" [{guess}]" if guess is not None else ""
        answer = ask(f"How many mines does this board have?{hint} ").strip()
        if not answer and guess is not None:
            mines = guess
        else:
            try:
                mines = int(answer)
            except ValueError as exc:
                raise ValueError(f"mine count {answer!r} is not a whole number") from exc
    name = getattr(args, "name", None)
    try:
        prof = calibrate(
            image,
            mines=mines,
            screen_origin=origin,
            name=name or "custom",
            theme=getattr(args, "theme", None),
        )
    except CalibrationError as exc:
        raise WizardError(str(exc)) from exc
    new_game = getattr(args, "new_game", None)
    if new_game is None:
        new_game = _ask_new_game(image, prof, origin, ask, say)
    else:
        NewGame.parse(new_game)
    first_click = getattr(args, "first_click", None) or _ask_first_click(prof, ask)
    prof = prof.with_changes(first_click=first_click)
    if not name:
        default = prof.theme if prof.theme != "custom" else "custom"
        name = ask(f"Name for this profile [{default}]: ").strip() or default
    prof = prof.with_changes(new_game=new_game, name=name)
    try:
        path = save_profile(prof, name)
    except ProfileError as exc:
        raise ValueError(str(exc)) from exc
    picture = user_dir() / f"{name}.png"
    write_png(picture, calibration_picture(image, prof, origin))
    known = "built-in tiles" if prof.theme != "custom" else "a new theme: tiles are learned in play"
    say(
        f"profile {name!r}: {prof.cols}x{prof.rows}, {prof.mines} mines, theme {prof.theme} "
        f"({known}), new game: {new_game or 'none'}, first click: {prof.first_click}"
    )
    say(f"check the grid drawn on the board: {picture}")
    return path


def _ask_first_click(prof: Profile, ask: Ask) -> str:
    """The game's first-click rule; the theme's own (or safe) on an empty answer."""
    default = prof.first_click
    answer = (
        ask(
            "What does the game's first click do? safe (never a mine), opening (always opens "
            "an empty area), xp (a mine under it moves to the top-left corner, as in Windows "
            f"XP), none (can hit a mine) [{default}]: "
        )
        .strip()
        .lower()
    )
    if not answer:
        return default
    if answer not in FIRST_CLICK_RULES:
        raise ValueError(f"first-click rule {answer!r}: expected safe, opening, xp or none")
    return answer


def _ask_new_game(
    image: Image, prof: Profile, origin: tuple[int, int], ask: Ask, say: Callable[[str], None]
) -> str | None:
    face = find_face(image, prof.grid.rect(), origin)
    if face is not None:
        say(f"found a face button above the board at screen ({face[0]}, {face[1]})")
        default = f"click:{face[0]},{face[1]}"
    else:
        default = "n"
    answer = ask(
        f"How does a new game start? A key (n, ctrl+n, F2), click:X,Y, menu:X,Y, or 'none' "
        f"[{default}]: "
    ).strip()
    if answer.lower() == "none":
        return None
    text = answer or default
    NewGame.parse(text)
    return text
