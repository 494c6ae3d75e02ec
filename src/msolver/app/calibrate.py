"""`msolver calibrate`: find the board in a screenshot (or on screen) and save a profile."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from msolver.app.errors import fail as _fail_to
from msolver.core.game import FIRST_CLICK_RULES


def register(sub: Any) -> None:
    p = sub.add_parser(
        "calibrate",
        help="find the board in a screenshot (or on the screen) and save a profile",
        description="Find the board from a screenshot of a blank board and save a profile.",
    )
    p.add_argument(
        "--image",
        help="screenshot PNG (default: the wizard on a terminal, else one grab of all screens)",
    )
    p.add_argument(
        "--name", default=None, help="profile name (default: the theme found, or 'custom')"
    )
    p.add_argument("--mines", type=int, default=None, help="mine count (standard sizes: guessed)")
    p.add_argument(
        "--new-game",
        default=None,
        metavar="KEY|click:X,Y|menu:X,Y",
        help=(
            "how to start a new game: a key such as n, ctrl+n, F2, click:X,Y (screen px), "
            "or menu:X,Y (a button the game shows where the board was once a game ends)"
        ),
    )
    p.add_argument(
        "--theme",
        default=None,
        help="use this built-in theme's tiles; 'custom' learns the board's own looks",
    )
    p.add_argument(
        "--first-click",
        default=None,
        choices=FIRST_CLICK_RULES,
        help="the game's first-click rule: safe (the clicked cell), opening (a zero "
        "opens), xp (a mine under it moves to the top-left corner, as Windows XP did), "
        "none (mines laid before the first click); default: the built-in theme's, else safe",
    )
    p.add_argument(
        "--flag",
        default=None,
        choices=("right", "ctrl+left", "alt+left", "shift+left"),
        help="the click that flags a cell: right (default), or a left click with a key "
        "held, for games that flag so (a web game: a right click opens the browser's menu)",
    )
    p.add_argument("--json", action="store_true", help="print the profile summary as JSON")
    p.set_defaults(handler=calibrate_command)


def _fail(msg: str) -> int:
    return _fail_to(f"msolver: {msg}")


def check_new_game(text: str | None) -> str | None:
    """A --new-game value, as the player will read it; ValueError names what is wrong.

    The player's own parser decides, so a profile saved here is one `play` accepts.
    """
    from msolver.app.errors import CommandError
    from msolver.app.keys import check_combo
    from msolver.play.target import NewGame

    if text is None:
        return None
    try:
        action = NewGame.parse(text)
    except ValueError as exc:
        raise ValueError(f"--new-game {text!r}: {exc}") from exc
    if action.kind == "key":
        try:
            check_combo(action.key, "--new-game")
        except CommandError as exc:
            raise ValueError(str(exc)) from exc
    return str(action)


def check_click_off_board(new_game: str | None, rect: tuple[int, int, int, int]) -> None:
    """ValueError when a click:X,Y new-game action would land on the board (left, top, w, h)."""
    from msolver.play.target import NewGame

    if new_game is None:
        return
    action = NewGame.parse(new_game)
    left, top, w, h = rect
    if action.kind == "click" and left <= action.x < left + w and top <= action.y < top + h:
        raise ValueError(
            f"--new-game {new_game}: ({action.x}, {action.y}) is on the board itself "
            f"(x {left}-{left + w - 1}, y {top}-{top + h - 1}); give the new-game button's "
            f"place (menu:{action.x},{action.y} if the game shows that button there only once "
            "the board is gone, as a menu after each game)"
        )


def calibrate_command(args: argparse.Namespace) -> int:
    """Handler for `msolver calibrate` (the player's wizard may call it with its own args)."""

    from msolver.vision.grid import CalibrationError, calibrate
    from msolver.vision.image import ImageError, read_png
    from msolver.vision.profile import ProfileError, save_profile

    if not args.image and sys.stdin.isatty():
        # A person at a terminal gets the wizard (it shows what it found and
        # asks what it cannot see); a script without --image gets one grab.
        from msolver.app.wizard import run_wizard

        return run_wizard(args)
    try:
        new_game = check_new_game(getattr(args, "new_game", None))
    except ValueError as exc:
        return _fail(str(exc))
    screen_origin = (0, 0)
    try:
        if args.image:
            img = read_png(args.image)
            where = args.image
        else:
            from msolver.io.capture import CaptureError, open_capture

            where = "screen"
            try:
                cap = open_capture()
                screen = cap.screen()
                img = cap.grab(screen)
            except CaptureError as exc:
                return _fail(f"calibrate: cannot grab the screen: {exc}")
            # The profile's grid is in the grab's pixels (the display's scale
            # may put several in a point); the player clicks in points.
            from msolver.io.capture import ScreenScale

            px_screen = ScreenScale(cap.scale()).screen_pixels(screen)
            screen_origin = (px_screen[0], px_screen[1])
        prof = calibrate(
            img,
            mines=args.mines,
            screen_origin=screen_origin,
            name=args.name or "custom",
            new_game=new_game,
            theme=getattr(args, "theme", None),
        )
        first_click = getattr(args, "first_click", None)
        if first_click:
            prof = prof.with_changes(first_click=first_click)
        flag = getattr(args, "flag", None)
        if flag:
            prof = prof.with_changes(flag=flag)
        # The band above the board (a face, counters) as the blank board shows
        # it: the player looks there when the board alone cannot tell an end.
        from msolver.vision.image import as_rgb
        from msolver.vision.strip import strip_above

        strip = strip_above(as_rgb(img), prof.grid.rect(), prof.pitch[1], screen_origin)
        if strip is not None:
            prof = prof.with_changes(strip=strip)
        name = args.name or (prof.theme if prof.theme != "custom" else "custom")
        check_click_off_board(new_game, prof.grid.rect())
        # Beside the profile, what was found, for a person to check at a glance
        # (drawn first: a drawing that fails leaves the old profile alone).
        from msolver.app.wizard import calibration_picture
        from msolver.vision.image import write_png

        drawn = calibration_picture(img, prof, screen_origin)
        path = save_profile(prof, name)
        picture = path.with_suffix(".png")
        write_png(picture, drawn)
    except (ImageError, CalibrationError, ProfileError, ValueError) as exc:
        return _fail(f"calibrate {where if 'where' in locals() else ''}: {exc}".replace(" :", ":"))
    summary = {
        "name": name,
        "theme": prof.theme,
        "path": str(path),
        "origin": [round(v, 2) for v in prof.origin],
        "pitch": [round(v, 3) for v in prof.pitch],
        **{
            key: [round(v, 2) for v in edges]
            for key, edges in (("col_edges", prof.grid.xs), ("row_edges", prof.grid.ys))
            if edges is not None
        },
        "rows": prof.rows,
        "cols": prof.cols,
        "mines": prof.mines,
        "labels": sorted(prof.tiles),
        "new_game": prof.new_game,
        "first_click": prof.first_click,
        "flag": prof.flag,
        "picture": str(picture),
    }
    if getattr(args, "json", False):
        print(json.dumps(summary))
    else:
        print(
            f"profile {name!r} ({prof.theme}): {prof.cols}x{prof.rows}, {prof.mines} mines, "
            f"origin {summary['origin']}, pitch {summary['pitch']}, tiles {len(prof.tiles)} kinds, "
            f"first click {prof.first_click}, flag {prof.flag}"
        )
        print(f"saved {path}")
        print(f"check the grid drawn on the board: {picture}")
    return 0
