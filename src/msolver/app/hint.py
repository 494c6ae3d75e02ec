"""`msolver hint IMAGE.png`: the hint picture for a screenshot of any Minesweeper.

Reads the board (a built-in or learned profile, or `--auto`: calibrating on
this screenshot), solves it and writes the screenshot with every unknown
cell tinted by its mine probability, certain cells marked, the best move
ringed and the reason as a caption. `--json` prints what `solve --json` does
plus `reason` and where the board is on the picture. Exit 0 done, 2 bad input
(nothing written).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from msolver.app.errors import CommandError, reporting


def register(sub: Any) -> None:
    p = sub.add_parser(
        "hint",
        help="draw the solver's view (mine chances, best move, why) on a screenshot",
        description=(
            "Read the board in a screenshot, solve it and write the picture with every "
            "unknown cell tinted by its mine probability, the best move ringed and the reason."
        ),
    )
    p.add_argument("image", help="screenshot PNG")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--profile", default=None, help="profile name or path (msolver profiles)")
    g.add_argument("--auto", action="store_true", help="calibrate on this screenshot (default)")
    p.add_argument("--mines", type=int, default=None, help="the board's mine count")
    p.add_argument(
        "-o", "--output", default=None, metavar="OUT.png", help="picture (default IMAGE-hint.png)"
    )
    p.add_argument("--json", action="store_true", help="print the solve result as JSON too")
    p.add_argument(
        "--origin",
        default="0,0",
        metavar="X,Y",
        help="screen position of the image's top-left pixel (with --profile; default 0,0)",
    )
    p.set_defaults(handler=reporting("msolver hint: ", hint_command))


def _output(args: argparse.Namespace) -> Path:
    if not args.image or Path(args.image).name in ("", ".", ".."):
        raise CommandError(f"{args.image!r}: not a screenshot file; give a .png path")
    if args.output:
        out = Path(args.output)
    else:
        src = Path(args.image)
        out = src.with_name(f"{src.stem}-hint.png")
    if out.suffix.lower() != ".png":
        raise CommandError(f"{out}: the picture is written as PNG; name it .png")
    if not out.parent.is_dir():
        raise CommandError(f"{out}: folder {out.parent} does not exist")
    if Path(args.image).resolve() == out.resolve():
        raise CommandError(f"{out}: would overwrite the screenshot; choose another -o")
    return out


def _write_fast_png(path: Path, rgb: Any) -> None:
    """PNG at compression 1, written whole or not at all.

    Level 9 (write_png's, for profiles kept for good) costs more CPU than all
    the rest of a 1920x1080 hint; level 1 takes about a third of that, 1.4x larger.
    """
    import cv2
    import numpy as np

    from msolver.files import atomic_open

    ok, buf = cv2.imencode(
        ".png", np.ascontiguousarray(rgb[:, :, ::-1]), [cv2.IMWRITE_PNG_COMPRESSION, 1]
    )
    if not ok:
        raise CommandError(f"{path}: could not encode the picture")
    with atomic_open(path, "wb") as fh:
        fh.write(buf.tobytes())


def hint_command(args: argparse.Namespace) -> int:
    from msolver.app.read import parse_xy
    from msolver.app.solve import solve_json
    from msolver.core.board import Board
    from msolver.play.hintwindow import grid_json, hint_for
    from msolver.vision.classify import ReadError, read_board
    from msolver.vision.grid import CalibrationError, calibrate
    from msolver.vision.image import ImageError, read_png
    from msolver.vision.overlay import OverlayError
    from msolver.vision.profile import ProfileError, load_profile

    if args.mines is not None and args.mines < 1:
        raise CommandError(f"--mines {args.mines}: must be at least 1")
    out = _output(args)
    t0 = time.perf_counter()
    try:
        origin = parse_xy(args.origin, "--origin")
        img = read_png(args.image)
        if args.profile:
            prof = load_profile(args.profile)
        else:
            origin = (0, 0)
            prof = calibrate(img, mines=args.mines)
            if prof.theme == "custom":
                raise CommandError(
                    f"{args.image}: found a {prof.cols}x{prof.rows} board but not its theme, "
                    "so its numbers cannot be read; play a game with it first (msolver play "
                    "--auto learns it) and pass --profile"
                )
        res = read_board(img, prof, image_origin=origin)
    except ImageError as exc:
        raise CommandError(str(exc)) from exc
    except (ValueError, CalibrationError, ProfileError, ReadError) as exc:
        raise CommandError(f"{args.image}: {exc}") from exc
    board = res.board
    if args.mines is not None:
        board = Board(board.width, board.height, args.mines, board.cells)
    grid = prof.grid.moved(-origin[0], -origin[1])
    hint = hint_for(board)
    try:
        picture = hint.picture(img, grid, board)
    except OverlayError as exc:
        raise CommandError(f"{args.image}: {exc}") from exc
    _write_fast_png(out, picture)
    ms = (time.perf_counter() - t0) * 1000
    if args.json:
        result = solve_json(board)
        # The ringed move and its reason: the solver's first move, which may
        # be another of the safe cells than the one `solve` names.
        if hint.best is not None:
            r, c = divmod(hint.best, board.width)
            result["best"] = {"row": r, "col": c, "p_mine": hint.prob[hint.best]}
            result["action"] = hint.action
        result["reason"] = hint.reason
        result["image"] = grid_json(grid, (img.shape[1], img.shape[0]))
        result["picture"] = str(out)
        result["low_confidence"] = [list(rc) for rc in res.low_confidence]
        print(json.dumps(result))
    else:
        print(f"{out}: {hint.reason} ({ms:.0f} ms)")
    return 0
