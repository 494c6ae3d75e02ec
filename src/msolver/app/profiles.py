"""`msolver profiles`: list the saved and built-in profiles, show one, delete a saved one."""

from __future__ import annotations

import argparse
from typing import Any

from msolver.app.errors import fail


def register(sub: Any) -> None:
    q = sub.add_parser(
        "profiles",
        help="list, show or delete calibration profiles",
        description="List the saved and built-in profiles, show one, or delete a saved one.",
    )
    q.add_argument("action", nargs="?", default="list", choices=("list", "show", "delete"))
    q.add_argument("name", nargs="?", default=None)
    q.set_defaults(handler=profiles_command)


def profiles_command(args: argparse.Namespace) -> int:
    from msolver.vision.profile import (
        ProfileError,
        delete_profile,
        list_profiles,
        load_profile,
        shadowed_builtins,
    )

    try:
        if args.action == "list":
            if args.name is not None:
                raise ProfileError("`profiles list` takes no name")
            rows = list_profiles()
            if not rows:
                print("no profiles yet: run `msolver calibrate`")
            hidden = set(shadowed_builtins())
            for name, kind in rows:
                try:
                    p = load_profile(name)
                    desc = f"{p.cols}x{p.rows}, {p.mines} mines, theme {p.theme}"
                except ProfileError as exc:
                    desc = f"broken: {exc}"
                if name in hidden:
                    desc += " (hides the built-in profile of that name)"
                print(f"{name:20s} {kind:8s} {desc}")
            return 0
        if args.name is None:
            raise ProfileError(f"`profiles {args.action}` needs a profile name")
        if args.action == "show":
            p = load_profile(args.name)
            print(f"name      {p.name}")
            print(f"theme     {p.theme}")
            print(f"board     {p.cols} columns x {p.rows} rows, {p.mines} mines")
            print(f"origin    ({p.origin[0]:.1f}, {p.origin[1]:.1f}) screen px")
            print(f"pitch     {p.pitch[0]:.2f} x {p.pitch[1]:.2f} px")
            print(f"rect      {p.grid.rect()}")
            print(f"new game  {p.new_game or '(none)'}")
            print(f"tiles     {', '.join(sorted(p.tiles))}")
            return 0
        delete_profile(args.name)
        print(f"deleted profile {args.name!r}")
        return 0
    except ProfileError as exc:
        return fail(f"msolver profiles: {exc}")
