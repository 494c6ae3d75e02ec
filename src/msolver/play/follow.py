"""Where the board is on screen now: found from scratch, or a profile followed to it.

A window may have moved since calibration; a board of the same shape and
scale found elsewhere takes the profile with it (to the whole pixel, as a
window moves), and a click new-game button moves along.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msolver.play.target import NewGame
from msolver.vision.profile import Profile


class LocateError(Exception):
    """No board on screen fits: one sentence saying what was seen."""


def find_board(
    image: Any, origin: tuple[int, int], mines: int | None, say: Callable[[str], None]
) -> Profile:
    """A profile for the board in `image` (screen px from `origin`), of a theme msolver knows."""
    from msolver.vision.grid import CalibrationError, calibrate

    try:
        prof = calibrate(image, mines=mines, screen_origin=origin, name="auto")
    except CalibrationError as exc:
        raise LocateError(f"no board on screen: {exc}") from exc
    say(
        f"found a {prof.cols}x{prof.rows} board ({prof.theme}) at "
        f"({prof.origin[0]:.0f}, {prof.origin[1]:.0f})"
    )
    if "1" not in prof.tiles:
        raise LocateError(
            f"the board's theme is not one msolver knows: calibrate it first "
            f"(msolver calibrate --name NAME --mines {prof.mines} --new-game KEY)"
        )
    return prof


def follow(
    image: Any, prof: Profile, name: str, origin: tuple[int, int], say: Callable[[str], None]
) -> Profile:
    """`prof` where its board is in `image` now; LocateError when no board fits."""
    from msolver.vision.classify import board_visible
    from msolver.vision.grid import CalibrationError, find_grid

    reason = board_visible(image, prof, image_origin=origin)
    if reason is None or _blank_in_place(image, prof, origin):
        return prof
    # The window may simply have moved since calibration: look for a board
    # of the same shape and scale and move the profile there.
    try:
        found = find_grid(image)
    except CalibrationError as exc:
        raise LocateError(
            f"profile {name!r} does not match the screen ({reason}) and no board "
            f"was found elsewhere ({exc})"
        ) from exc
    same = (found.rows, found.cols) == (prof.rows, prof.cols) and all(
        abs(a - b) <= 0.01 * b for a, b in zip(found.pitch, prof.pitch, strict=True)
    )
    if not same:
        raise LocateError(
            f"profile {name!r} ({prof.cols}x{prof.rows}, pitch {prof.pitch[0]:.1f}) "
            f"does not match the board on screen ({found.cols}x{found.rows}, pitch "
            f"{found.pitch[0]:.1f})"
        )
    dx = found.origin[0] + origin[0] - prof.origin[0]
    dy = found.origin[1] + origin[1] - prof.origin[1]
    dx, dy = snap_shift(image, prof, dx, dy, origin)
    moved = shift_profile(prof, dx, dy)
    reason = board_visible(image, moved, image_origin=origin)
    if reason is not None and not _blank_in_place(image, moved, origin):
        raise LocateError(f"profile {name!r} does not match the screen: {reason}")
    say(f"the board moved by ({dx:+.0f}, {dy:+.0f}) since calibration; following it")
    return moved


def _blank_in_place(image: Any, prof: Profile, origin: tuple[int, int]) -> bool:
    """Whether every cell of the profile's board shows its own blank look where
    the profile puts it. The tile classifier reads a learned profile by its one
    unopened tile, the median cell; on a board whose gaps a zoomed page draws
    one or two pixels wide (or drops), most cells are unlike that median, and
    the board, in place and blank, was taken to have moved: it was followed a
    pixel off (our page's seed 1362 at 80%), and the reader then saw cells
    unlike the blank board."""
    from msolver.vision.learning_reader import reads_blank

    if prof.blank is None:
        return False
    left, top, width, height = prof.grid.rect()
    x, y = left - origin[0], top - origin[1]
    if x < 0 or y < 0 or y + height > image.shape[0] or x + width > image.shape[1]:
        return False
    return reads_blank(prof, image[y : y + height, x : x + width])


def _blank_distance(image: Any, prof: Profile, origin: tuple[int, int]) -> float | None:
    """The mean squared difference (0..255 levels) of the board's cells from
    the profile's blank looks of them, or None when the image does not hold
    the board."""
    import numpy as np

    from msolver.vision.profile import grid_patches

    assert prof.blank is not None
    got = grid_patches(image, prof.grid, offset=origin)
    if got is None:
        return None
    diff = got.astype(np.float32) - prof.blank.astype(np.float32)
    return float((diff**2).mean())


def snap_shift(
    image: Any, prof: Profile, dx: float, dy: float, origin: tuple[int, int]
) -> tuple[int, int]:
    """The whole-pixel move (a window moves by whole pixels) that reads the board best.

    The board found now and the calibrated origin may differ by a fraction of
    a pixel in how each was fitted, so the neighbours of the rounded move are
    tried and the one whose cells match the profile's tiles best is kept.
    """
    import numpy as np

    from msolver.vision.classify import ReadError, read_board

    best: tuple[float, int, int] | None = None
    for ox in (0, -1, 1):
        for oy in (0, -1, 1):
            x, y = round(dx) + ox, round(dy) + oy
            if prof.blank is not None:
                # Each cell against its own blank look: the tile classifier's
                # one median tile reads a board of uneven gaps alike at every
                # move (see _blank_in_place).
                near = _blank_distance(image, shift_profile(prof, x, y), origin)
                if near is not None and (best is None or -near > best[0] + 1e-9):
                    best = (-near, x, y)
                continue
            try:
                res = read_board(image, shift_profile(prof, x, y), image_origin=origin)
            except ReadError:
                continue
            score = float(np.mean(res.confidence))
            if best is None or score > best[0] + 1e-9:
                best = (score, x, y)
    return (round(dx), round(dy)) if best is None else (best[1], best[2])


def shift_profile(prof: Profile, dx: float, dy: float) -> Profile:
    """`prof` moved by (dx, dy) screen px, its click new-game button with it."""
    moved = prof.moved_to((prof.origin[0] + dx, prof.origin[1] + dy))
    if prof.new_game:
        try:
            ng = NewGame.parse(prof.new_game)
        except ValueError:
            return moved
        if ng.clicks:
            # The button moves with the window.
            moved = moved.with_changes(new_game=f"{ng.kind}:{ng.x + round(dx)},{ng.y + round(dy)}")
    return moved
