"""Paired win-rate runs: ``python -m tests.core.bench_pair --arm-a base --arm-b NAME``.

Each game (game g of seed S, seeded as ``msolver bench`` seeds it) is played
once by each arm, so the two arms meet the same layouts. What decides between
them is the games one arm wins and the other loses: the count of each and a
two-sided sign test on them (under "no difference" each such game is a fair
coin). An arm is a change to the solver made for the run only (the guess
tier's choice, or the endgame's reach), installed by patching a module
attribute and undone after the game.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager

from msolver.core.bench import play_one
from msolver.core.game import LEVELS, FirstClick
from tests.core import winrate_arms


def arm_context(name: str) -> AbstractContextManager[None]:
    return contextmanager(winrate_arms.ARMS[name])()


def _chunk(
    args: tuple[str, str, str, FirstClick, int, int, int],
) -> tuple[list[tuple[bool, bool]], float, float]:
    level, a, b, rule, seed, start, stop = args
    lv = LEVELS[level]
    out: list[tuple[bool, bool]] = []
    cpu_a = cpu_b = 0.0
    for i in range(start, stop):
        won: list[bool] = []
        for k, name in enumerate((a, b)):
            t0 = time.process_time()
            with arm_context(name):
                won.append(play_one(lv.width, lv.height, lv.mines, rule, seed, i).won)
            dt = time.process_time() - t0
            if k == 0:
                cpu_a += dt
            else:
                cpu_b += dt
        out.append((won[0], won[1]))
    return out, cpu_a, cpu_b


def sign_test(x: int, y: int) -> float:
    """Two-sided p of a split at least as uneven as x:y of fair coins."""
    n = x + y
    if n == 0:
        return 1.0
    k = min(x, y)
    if n > 2000:
        z = (abs(x - y) - 1) / math.sqrt(n)
        return math.erfc(max(z, 0.0) / math.sqrt(2))
    tail: float = sum(math.comb(n, j) for j in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--level", default="intermediate", choices=sorted(LEVELS))
    ap.add_argument("--first-click", default="opening")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--arm-a", default="base")
    ap.add_argument("--arm-b", required=True)
    ap.add_argument("--chunk", type=int, default=250)
    args = ap.parse_args(argv)
    for name in (args.arm_a, args.arm_b):
        if name not in winrate_arms.ARMS:
            print(
                f"unknown arm {name!r}; known: {', '.join(sorted(winrate_arms.ARMS))}",
                file=sys.stderr,
            )
            return 2
    rule: FirstClick = args.first_click
    jobs = [
        (
            args.level,
            args.arm_a,
            args.arm_b,
            rule,
            args.seed,
            s,
            min(s + args.chunk, args.start + args.games),
        )
        for s in range(args.start, args.start + args.games, args.chunk)
    ]
    wins_a = wins_b = only_a = only_b = 0
    cpu_a = cpu_b = 0.0
    t0 = time.perf_counter()
    results: Iterator[tuple[list[tuple[bool, bool]], float, float]]
    if args.workers > 1:
        pool = ProcessPoolExecutor(max_workers=args.workers)
        results = pool.map(_chunk, jobs)
    else:
        results = map(_chunk, jobs)
    for pairs, ca, cb in results:
        cpu_a += ca
        cpu_b += cb
        for wa, wb in pairs:
            wins_a += wa
            wins_b += wb
            only_a += wa and not wb
            only_b += wb and not wa
    n = args.games
    report = {
        "level": args.level,
        "first_click": rule,
        "seed": args.seed,
        "games": n,
        "start": args.start,
        "arm_a": args.arm_a,
        "arm_b": args.arm_b,
        "wins_a": wins_a,
        "wins_b": wins_b,
        "rate_a": wins_a / n,
        "rate_b": wins_b / n,
        "won_only_by_a": only_a,
        "won_only_by_b": only_b,
        "sign_test_p": sign_test(only_a, only_b),
        "cpu_ms_per_game_a": 1000 * cpu_a / n,
        "cpu_ms_per_game_b": 1000 * cpu_b / n,
        "wall_seconds": time.perf_counter() - t0,
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
