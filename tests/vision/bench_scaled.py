"""Read-time benchmark at display scales: how long one expert board takes to read.

    python -m tests.vision.bench_scaled [--reads 100] [--scales 1,1.25,1.5,1.75,2]

A scaled display draws the game larger; we stand in for it by enlarging the
recorded screenshots (linear interpolation, as a compositor does), calibrate
on the enlarged blank board as a user would, then time `read_board` on the
enlarged mid-game shot from memory. Every read is checked against the shot's
true board: a fast read that is wrong would be worthless. Prints the median
read time, the pitch found and whether the read was exact with no cell
reported unsure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from msolver.vision.image import Image

ROOT = Path(__file__).resolve().parents[2] / "screenshots"
# (game, blank shot, mid-game shot): the two expert-size boards of the corpus
CASES = (
    ("gnome-mines", "w1200-g0-start", "w1200-g1-f52"),
    ("sgt-mines", "t20-blank", "t20-mid2"),
)


def main(argv: list[str] | None = None) -> int:
    import cv2
    import numpy as np

    from msolver.vision.classify import read_board
    from msolver.vision.grid import calibrate

    ap = argparse.ArgumentParser(prog="python -m tests.vision.bench_scaled", description=__doc__)
    ap.add_argument("--reads", type=int, default=100)
    ap.add_argument("--scales", default="1,1.25,1.5,1.75,2")
    args = ap.parse_args(argv)
    scales = [float(s) for s in args.scales.split(",")]

    def load(game: str, name: str, scale: float) -> Image:
        bgr = cv2.imread(str(ROOT / game / f"{name}.png"))
        if bgr is None:
            raise SystemExit(f"bench_scaled: cannot read {ROOT / game / name}.png")
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        if scale != 1.0:
            rgb = cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        out: Image = np.asarray(rgb, dtype=np.uint8)
        return out

    all_exact = True
    for scale in scales:
        for game, blank, mid in CASES:
            profile = calibrate(load(game, blank, scale), mines=99)
            image = load(game, mid, scale)
            got = read_board(image, profile)
            truth = (ROOT / game / f"{mid}.txt").read_text().strip()
            exact = got.board.to_text().strip() == truth and not got.low_confidence
            all_exact &= exact
            times = []
            for _ in range(args.reads):
                t0 = time.perf_counter()
                read_board(image, profile)
                times.append((time.perf_counter() - t0) * 1000)
            print(
                f"{game} at {scale:.0%}: pitch {profile.pitch[0]:.2f} px, read median "
                f"{statistics.median(times):.2f} ms over {args.reads}, "
                f"{'exact' if exact else 'WRONG'} ({len(got.low_confidence)} unsure)"
            )
    return 0 if all_exact else 1


if __name__ == "__main__":
    sys.exit(main())
