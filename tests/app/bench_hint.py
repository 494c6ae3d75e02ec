"""`msolver hint` on a 1920x1080 screenshot, end to end: how long a user waits.

    python -m tests.app.bench_hint [--runs 10] [--limit-ms 300]

Each built-in game's recorded mid-game shot is pasted on a 1920x1080
desktop and written as a PNG; then the command runs in-process on it
(decode the PNG, read the board with the built-in profile, decide, explain,
draw, encode and write the picture). The first run of each game is a
warm-up (tile banks are built once per process). Prints the median and
worst wall and CPU time per game; exits 1 when a median is over the limit.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    from msolver.app.main import main as msolver
    from msolver.vision.image import read_png, write_png
    from tests.vision.conftest import SHOTS, desktop
    from tests.vision.test_overlay import CASES

    ap = argparse.ArgumentParser(prog="python -m tests.app.bench_hint", description=__doc__)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--limit-ms", type=float, default=300.0)
    args = ap.parse_args(argv)
    at = (400, 200)
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for game in sorted(CASES):
            shot = read_png(SHOTS / game / f"{CASES[game]}.png")
            src = Path(tmp) / f"{game}.png"
            write_png(src, desktop(shot, at))
            argv_ = [
                "hint",
                str(src),
                "--profile",
                game,
                f"--origin={-at[0]},{-at[1]}",
                "-o",
                str(Path(tmp) / f"{game}-hint.png"),
            ]
            wall: list[float] = []
            cpu: list[float] = []
            for k in range(args.runs + 1):
                t0, c0 = time.perf_counter(), time.process_time()
                with contextlib.redirect_stdout(io.StringIO()):
                    code = msolver(argv_)
                if code != 0:
                    print(f"{game}: msolver hint failed ({code})", file=sys.stderr)
                    return 1
                if k:
                    wall.append((time.perf_counter() - t0) * 1000)
                    cpu.append((time.process_time() - c0) * 1000)
            med = statistics.median(wall)
            worst = max(worst, med)
            print(
                f"{game:12s} 1920x1080 hint: wall median {med:.0f} ms, max {max(wall):.0f} ms; "
                f"cpu median {statistics.median(cpu):.0f} ms ({args.runs} runs)"
            )
    return 1 if worst > args.limit_ms else 0


if __name__ == "__main__":
    sys.exit(main())
