"""`msolver replay DIR`: read a `play --record` recording again with the current code.

Every kept frame is read again, in order, with the recorded profile; each
frame whose read differs from the one recorded is listed with the cells
that changed. Exit 0 when none differ, 1 when any does, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from msolver.app.errors import EXIT_OK, EXIT_STOPPED, CommandError, reporting


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="re-read a play --record recording; list the frames whose read differs",
        description=(
            "Read every frame of a recording again with the current code and report each "
            "frame whose read differs from the recorded one (exit 1 if any)."
        ),
    )
    p.add_argument("folder", metavar="DIR", help="a folder written by msolver play --record")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(handler=reporting("msolver replay: ", replay_command))


def replay_command(args: argparse.Namespace) -> int:
    from msolver.core.clock import FakeClock
    from msolver.play.readers import reader_for
    from msolver.play.record import PROFILE, RecordError, replay
    from msolver.vision.image import ImageError
    from msolver.vision.profile import ProfileError, load_profile

    folder = Path(args.folder)
    if not folder.is_dir():
        raise CommandError(f"{folder}: no such folder")
    try:
        profile = load_profile(folder / PROFILE)
        # The recording's own time: a frame is held as long as the player held it.
        clock = FakeClock()
        read, diffs = replay(folder, reader_for(profile, clock=clock), clock.advance)
    except (RecordError, ProfileError, ImageError) as exc:
        raise CommandError(str(exc)) from exc
    if args.json:
        print(
            json.dumps(
                {
                    "frames": read,
                    "differ": [
                        {"frame": d.frame, "png": d.png, "cells": [list(c) for c in d.cells()]}
                        for d in diffs
                    ],
                }
            )
        )
    else:
        for d in diffs:
            cells = " ".join(f"({r},{c})" for r, c in d.cells())
            print(f"frame {d.frame} ({d.png}): read differs at {cells}")
        print(f"{read} frames re-read, {len(diffs)} differ")
    return EXIT_STOPPED if diffs else EXIT_OK
