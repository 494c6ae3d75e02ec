"""`msolver calibrate`, `msolver read`, `msolver dryrun`: argument parsing and printing only.

Heavy imports (cv2, mss) happen inside the handlers. Every bad input ends as
one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

EXIT_BAD_INPUT = 2


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
        metavar="KEY|click:X,Y",
        help="how to start a new game: a key such as n, ctrl+n, F2, or click:X,Y (screen px)",
    )
    p.add_argument(
        "--theme",
        default=None,
        help="use this built-in theme's tiles; 'custom' learns the board's own looks",
    )
    p.add_argument("--json", action="store_true", help="print the profile summary as JSON")
    p.set_defaults(handler=calibrate_command)

    r = sub.add_parser(
        "read",
        help="read a board from a screenshot",
        description="Read every cell of the board in a screenshot; print text or JSON.",
    )
    r.add_argument("image", help="screenshot PNG")
    g = r.add_mutually_exclusive_group()
    g.add_argument("--profile", default=None, help="profile name or path")
    g.add_argument("--auto", action="store_true", help="calibrate from this image first")
    r.add_argument("--mines", type=int, default=None, help="mine count for --auto")
    r.add_argument("--json", action="store_true")
    r.add_argument(
        "--bench", type=int, default=0, metavar="N", help="also time N reads (in memory)"
    )
    r.add_argument(
        "--origin",
        default="0,0",
        metavar="X,Y",
        help="screen position of the image's top-left pixel (for a crop; default 0,0)",
    )
    r.set_defaults(handler=read_command)

    d = sub.add_parser(
        "dryrun",
        help="play simulated games through synthetic screenshots and the real reader",
        description=(
            "Each frame is a synthetic screenshot built from the profile's recorded tiles, "
            "read by the classifier, solved, and clicked into the simulator."
        ),
    )
    d.add_argument("--profile", required=True, help="profile name (built-in: sgt-mines, ...)")
    d.add_argument("--level", default="expert", help="beginner|intermediate|expert")
    d.add_argument("--first-click", default="opening", choices=("safe", "opening", "xp", "none"))
    d.add_argument("--games", type=int, default=100)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--noise", type=float, default=0.0, help="Gaussian pixel noise sigma (0-255)")
    d.add_argument("--recolour", action="store_true", help="shift digit colours in every frame")
    d.add_argument("--json", action="store_true")
    d.set_defaults(handler=dryrun_command)


def _fail(msg: str) -> int:
    print(f"msolver: {msg}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _parse_xy(text: str, what: str) -> tuple[int, int]:
    try:
        a, b = text.split(",")
        return int(a), int(b)
    except ValueError as exc:
        raise ValueError(f"{what} {text!r} is not X,Y") from exc


def check_new_game(text: str | None) -> str | None:
    """Validate a --new-game value; ValueError names what is wrong."""
    if text is None:
        return None
    if text.startswith("click:"):
        _parse_xy(text[len("click:") :], "--new-game click")
        return text
    if not text or any(ch.isspace() for ch in text):
        raise ValueError(f"--new-game {text!r} is not a key name or click:X,Y")
    return text


def calibrate_command(args: argparse.Namespace) -> int:
    """Handler for `msolver calibrate` (the player's wizard may call it with its own args)."""

    from msolver.vision.grid import CalibrationError, calibrate
    from msolver.vision.image import ImageError, read_png
    from msolver.vision.profile import ProfileError, save_profile

    if not args.image and sys.stdin.isatty():
        # A person at a terminal gets the wizard (it shows what it found and
        # asks what it cannot see); a script without --image gets one grab.
        from msolver.play.wizard import run_wizard

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
            screen_origin = (screen[0], screen[1])
        prof = calibrate(
            img,
            mines=args.mines,
            screen_origin=screen_origin,
            name=args.name or "custom",
            new_game=new_game,
            theme=getattr(args, "theme", None),
        )
        name = args.name or (prof.theme if prof.theme != "custom" else "custom")
        path = save_profile(prof, name)
    except (ImageError, CalibrationError, ProfileError) as exc:
        return _fail(f"calibrate {where if 'where' in locals() else ''}: {exc}".replace(" :", ":"))
    summary = {
        "name": name,
        "theme": prof.theme,
        "path": str(path),
        "origin": [round(v, 2) for v in prof.origin],
        "pitch": [round(v, 3) for v in prof.pitch],
        "rows": prof.rows,
        "cols": prof.cols,
        "mines": prof.mines,
        "labels": sorted(prof.tiles),
        "new_game": prof.new_game,
    }
    if getattr(args, "json", False):
        print(json.dumps(summary))
    else:
        print(
            f"profile {name!r} ({prof.theme}): {prof.cols}x{prof.rows}, {prof.mines} mines, "
            f"origin {summary['origin']}, pitch {summary['pitch']}, tiles {len(prof.tiles)} kinds"
        )
        print(f"saved {path}")
    return 0


def read_command(args: argparse.Namespace) -> int:
    from msolver.vision.classify import ReadError, read_board
    from msolver.vision.grid import CalibrationError, calibrate
    from msolver.vision.image import ImageError, read_png
    from msolver.vision.profile import ProfileError, load_profile

    try:
        origin = _parse_xy(args.origin, "--origin")
        img = read_png(args.image)
        if args.profile:
            prof = load_profile(args.profile)
        else:
            prof = calibrate(img, mines=args.mines, screen_origin=origin)
            if prof.theme == "custom":
                return _fail(
                    f"{args.image}: --auto found a board but no known theme; "
                    "calibrate and learn it first"
                )
        res = read_board(img, prof, image_origin=origin)
    except (ValueError, ImageError, CalibrationError, ProfileError, ReadError) as exc:
        return _fail(f"read {args.image}: {exc}")
    out: dict[str, Any] = {
        "board": res.board.to_text(),
        "rows": res.board.height,
        "cols": res.board.width,
        "low_confidence": [list(rc) for rc in res.low_confidence],
    }
    if args.bench:
        times = []
        for _ in range(args.bench):
            t0 = time.perf_counter()
            read_board(img, prof, image_origin=origin)
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        out["bench"] = {
            "reads": args.bench,
            "median_ms": round(times[len(times) // 2], 3),
            "p95_ms": round(times[min(len(times) - 1, int(0.95 * len(times)))], 3),
        }
    if args.json:
        print(json.dumps(out))
    else:
        print(out["board"])
        if res.low_confidence:
            cells = " ".join(f"({r},{c})" for r, c in res.low_confidence)
            print(f"low confidence (read as unknown): {cells}", file=sys.stderr)
        if args.bench:
            b = out["bench"]
            print(
                f"read {b['reads']}x: median {b['median_ms']} ms, p95 {b['p95_ms']} ms",
                file=sys.stderr,
            )
    return 0


def dryrun_command(args: argparse.Namespace) -> int:
    from msolver.core.game import LEVELS
    from msolver.dryrun import DryRunError, run_dryrun
    from msolver.vision.profile import ProfileError, load_profile

    if args.level not in LEVELS:
        return _fail(f"dryrun: unknown level {args.level!r} ({', '.join(LEVELS)})")
    if args.games < 1:
        return _fail(f"dryrun: --games {args.games} must be at least 1")
    if args.noise < 0:
        return _fail(f"dryrun: --noise {args.noise} must not be negative")
    try:
        prof = load_profile(args.profile)
        rep = run_dryrun(
            prof,
            level=args.level,
            first_click=args.first_click,
            games=args.games,
            seed=args.seed,
            noise=args.noise,
            recolour=args.recolour,
        )
    except (ProfileError, DryRunError) as exc:
        return _fail(f"dryrun: {exc}")
    data = rep.to_json()
    if args.json:
        print(json.dumps(data))
    else:
        lo, hi = data["ci95"]
        print(
            f"{data['games']} games on {args.profile} ({args.level}, first click "
            f"{args.first_click}, noise {args.noise}): {data['wins']} wins, win rate "
            f"{data['win_rate']:.1%} (95% CI {lo:.1%}-{hi:.1%})"
        )
        print(
            f"solver alone on the same seeds: {data['solver_wins']} wins, "
            f"{data['solver_win_rate']:.1%}"
        )
        print(
            f"frames {data['frames']}, misread cells {data['misreads']}, low-confidence cells "
            f"{data['low_confidence_cells']}, read {data['ms_per_frame']:.2f} ms/frame "
            f"({data['fps']:.0f} frames/s)"
        )
    return 0
