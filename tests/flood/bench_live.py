"""Live benchmark: `msolver flood play` against the real sgt-flood on a private Xvfb screen.

    python -m tests.flood.bench_live [--games 10] [--settings default 14x14c6m0] [--json]

For each setting it starts Xvfb on a free display, launches sgt-flood
("default" = no arguments: 12x12, 6 colours, 5 spare moves), runs
`msolver flood play --games N --start-now --log-json FILE` in its own process
and checks the log (one line a move, a game_over line a game, a summary).
Prints, per setting: games won, moves a game (mean), games played at the
optimum the solver proved, the first game's moves against its known limit
(seeded settings only), and the wall time.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.flood import live, xflood
from tests.support.xvfb import private_display


def bench(setting: str, games: int, seed: int) -> dict[str, Any]:
    params = None if setting == "default" else f"{setting}#{seed}"
    first: tuple[str, int] | None = xflood.generate(params)[0] if params else None
    with private_display() as display, tempfile.TemporaryDirectory() as tmp:
        win = xflood.launch(display, params)
        try:
            t0 = time.monotonic()
            run = live.play(display, Path(tmp) / "log.jsonl", games, timeout=60 + 20 * games)
            wall = time.monotonic() - t0
        finally:
            win.close()
    over = live.games_of(run)
    out: dict[str, Any] = {
        "setting": setting,
        "games": len(over),
        "wins": sum(g["result"] == "won" for g in over),
        "mean_moves": round(sum(g["moves"] for g in over) / max(1, len(over)), 2),
        "optimal": sum(bool(g["optimal"]) for g in over),
        "seconds_a_game": round(sum(g["seconds"] for g in over) / max(1, len(over)), 2),
        "wall_s": round(wall, 1),
        "exit": run.returncode,
    }
    if first is not None and over:
        out["first_game_moves"] = over[0]["moves"]
        out["first_game_limit"] = first[1]
    if run.returncode != 0:
        out["stderr_tail"] = run.stderr.strip().splitlines()[-1:]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--settings", nargs="+", default=["default", "14x14c6m0"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not xflood.available():
        print("sgt-flood or xdotool is not installed", file=sys.stderr)
        return 2
    results = [bench(s, args.games, args.seed) for s in args.settings]
    for r in results:
        if args.json:
            print(json.dumps(r))
            continue
        line = (
            f"{r['setting']:>10}: {r['wins']}/{r['games']} won, {r['mean_moves']} moves a game, "
            f"{r['optimal']} proved optimal, {r['seconds_a_game']} s a game, "
            f"{r['wall_s']} s wall"
        )
        if "first_game_limit" in r:
            line += f"; game 1: {r['first_game_moves']} moves, limit {r['first_game_limit']}"
        print(line)
    ok = all(r["exit"] == 0 and r["wins"] == r["games"] == args.games for r in results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
