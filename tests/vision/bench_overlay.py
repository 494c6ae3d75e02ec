"""Hint picture benchmark: how long `overlay.render` takes on a 1920x1080 screenshot.

    python -m tests.vision.bench_overlay [--runs 30] [--limit-ms 300]

Each built-in game's recorded mid-game shot is pasted on a 1920x1080
desktop (and once more as BGRA, as mss grabs it), and the picture is drawn
from its true board, the solver's probabilities, best move and reason. Only
the drawing is timed first; then the whole hint (read the board with the
built-in profile, decide, explain, draw), which is what a user waits for.
Prints the median and worst wall and CPU time per game; exits 1 when a
median is over the limit.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from msolver.core.board import Board
    from msolver.vision.image import Image
    from msolver.vision.profile import Profile


def main(argv: list[str] | None = None) -> int:
    import numpy as np

    from msolver.core.solver import Solver, analyse
    from msolver.core.solver.reason import explain
    from msolver.vision.classify import read_board
    from msolver.vision.geometry import Grid
    from msolver.vision.overlay import render
    from msolver.vision.profile import load_profile
    from tests.vision.conftest import desktop
    from tests.vision.test_overlay import CASES, case

    ap = argparse.ArgumentParser(prog="python -m tests.vision.bench_overlay", description=__doc__)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--limit-ms", type=float, default=300.0)
    args = ap.parse_args(argv)
    at = (400, 200)
    worst_median = 0.0
    for game in sorted(CASES):
        window, grid, board, prob, best, reason, action = case(game)
        screen = desktop(window, at)
        on_screen = Grid(
            (grid.origin[0] + at[0], grid.origin[1] + at[1]), grid.pitch, grid.rows, grid.cols
        )
        bgra = np.dstack([screen[:, :, ::-1], np.full(screen.shape[:2], 255, np.uint8)])
        for name, image in (("RGB", screen), ("BGRA", bgra)):
            render(image, on_screen, board, prob, best, reason, action=action)  # warm-up
            wall: list[float] = []
            cpu: list[float] = []
            for _ in range(args.runs):
                t0, c0 = time.perf_counter(), time.process_time()
                out = render(image, on_screen, board, prob, best, reason, action=action)
                wall.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.process_time() - c0) * 1000)
            med = statistics.median(wall)
            worst_median = max(worst_median, med)
            print(
                f"{game:12s} {name:4s} {screen.shape[1]}x{screen.shape[0]} -> "
                f"{out.shape[1]}x{out.shape[0]}: wall median {med:.1f} ms, max {max(wall):.1f} ms; "
                f"cpu median {statistics.median(cpu):.1f} ms"
            )
    for game in sorted(CASES):
        window, grid, board, *_ = case(game)
        screen = desktop(window, at)
        prof = load_profile(game)
        prof = prof.moved_to((prof.origin[0] + at[0], prof.origin[1] + at[1]))
        on_screen = Grid(prof.origin, prof.pitch, prof.rows, prof.cols)

        def hint(
            screen: Image = screen, prof: Profile = prof, on_screen: Grid = on_screen
        ) -> Board:
            read = read_board(screen, prof).board
            d = Solver().decide(read)
            move = d.moves[0]
            why = explain(read, d, move)
            prob = (d.analysis or analyse(read)).prob
            render(screen, on_screen, read, prob, move.index, why, action=move.kind)
            return read

        assert hint() == board, f"{game}: the board read differs from its true board"
        wall, cpu = [], []
        for _ in range(max(3, args.runs // 3)):
            t0, c0 = time.perf_counter(), time.process_time()
            hint()
            wall.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        med = statistics.median(wall)
        worst_median = max(worst_median, med)
        print(
            f"{game:12s} whole hint (read, decide, explain, draw): wall median {med:.1f} ms, "
            f"max {max(wall):.1f} ms; cpu median {statistics.median(cpu):.1f} ms"
        )
    ok = worst_median <= args.limit_ms
    print(
        f"worst median {worst_median:.1f} ms (limit {args.limit_ms:.0f} ms): "
        + ("ok" if ok else "OVER")
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
