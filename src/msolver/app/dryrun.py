"""`msolver dryrun`: simulated games through synthetic screenshots and the real reader."""

from __future__ import annotations

import argparse
import json
from typing import Any

from msolver.app.errors import fail as _fail_to
from msolver.core.game import FIRST_CLICK_RULES


def register(sub: Any) -> None:
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
    d.add_argument("--first-click", default="opening", choices=FIRST_CLICK_RULES)
    d.add_argument("--games", type=int, default=100)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--noise", type=float, default=0.0, help="Gaussian pixel noise sigma (0-255)")
    d.add_argument("--recolour", action="store_true", help="shift digit colours in every frame")
    d.add_argument("--json", action="store_true")
    d.set_defaults(handler=dryrun_command)


def _fail(msg: str) -> int:
    return _fail_to(f"msolver: {msg}")


def dryrun_command(args: argparse.Namespace) -> int:
    from msolver.core.game import LEVELS
    from msolver.vision.classify import ReadError
    from msolver.vision.dryrun import DryRunError, run_dryrun
    from msolver.vision.profile import ProfileError, load_profile

    if args.level not in LEVELS:
        return _fail(f"dryrun: unknown level {args.level!r} ({', '.join(LEVELS)})")
    if args.games < 1:
        return _fail(f"dryrun: --games {args.games} must be at least 1")
    if not 0 <= args.noise <= 255:  # also refuses nan
        return _fail(f"dryrun: --noise {args.noise} must be between 0 and 255")
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
    except ReadError as exc:
        # Noise this strong hides the board from the reader: a setting, not a bug.
        return _fail(f"dryrun: the reader lost the board at --noise {args.noise} ({exc})")
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
        eff = data["mean_efficiency"]
        print(
            f"mean 3BV {data['mean_bbbv']:.1f}, games needing a guess {data['guess_share']:.0%}"
            + (f", efficiency {eff:.2f}" if eff is not None else "")
        )
    return 0
