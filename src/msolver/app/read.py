"""`msolver read`: read every cell of the board in a screenshot; print text or JSON."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from msolver.app.errors import fail as _fail_to


def register(sub: Any) -> None:
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


def _fail(msg: str) -> int:
    return _fail_to(f"msolver: {msg}")


def parse_xy(text: str, what: str) -> tuple[int, int]:
    try:
        a, b = text.split(",")
        return int(a), int(b)
    except ValueError as exc:
        raise ValueError(f"{what} {text!r} is not X,Y") from exc


def read_command(args: argparse.Namespace) -> int:
    from msolver.vision.classify import ReadError, read_board
    from msolver.vision.grid import CalibrationError, calibrate
    from msolver.vision.image import ImageError, read_png
    from msolver.vision.profile import ProfileError, load_profile

    if args.bench < 0:
        return _fail(f"read: --bench {args.bench} must not be negative")
    if args.mines is not None and args.mines < 0:
        return _fail(f"read: --mines {args.mines} must not be negative")
    if args.mines is not None and args.profile:
        return _fail("read: --mines is for --auto; a profile carries its own mine count")
    try:
        origin = parse_xy(args.origin, "--origin")
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
