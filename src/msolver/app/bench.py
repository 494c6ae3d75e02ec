"""`msolver bench`: the solver's win rate over simulated games (and against mine count)."""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import IO, Any

from msolver.app.errors import CommandError, reporting
from msolver.core.game import FIRST_CLICK_RULES, LEVELS, FirstClick
from msolver.files import OutputPathError, check_output_path

# Stated limits, checked before any game: a typo must not start a run that
# eats the memory or the week. 10 000 cells is 20 expert boards.
MAX_GAMES = 1_000_000_000  # streamed: memory does not grow with the count
MAX_CELLS = 10_000
MAX_WORKERS = 256


def _bench_size(args: argparse.Namespace) -> tuple[int, int, int]:
    if args.level:
        lv = LEVELS[args.level]
        width, height, mines = lv.width, lv.height, lv.mines
    else:
        width, height, mines = 30, 16, 99
    width = args.width if args.width is not None else width
    height = args.height if args.height is not None else height
    mines = args.mines if args.mines is not None else mines
    _check_size(width, height)
    room = width * height - (9 if args.first_click == "opening" else 1)
    if not 0 <= mines <= room:
        raise CommandError(
            f"{mines} mines do not fit a {width}x{height} board with the "
            f"{args.first_click!r} first click (at most {max(room, 0)})"
        )
    return width, height, mines


def _check_size(width: int, height: int) -> None:
    if width < 1 or height < 1:
        raise CommandError(f"board size {width}x{height} is empty")
    if width * height > MAX_CELLS:
        raise CommandError(f"board size {width}x{height} is over the limit of {MAX_CELLS} cells")


def _run_with_progress(
    width: int,
    height: int,
    mines: int,
    rule: FirstClick,
    games: int,
    seed: int,
    workers: int,
    label: str,
) -> Any:
    from msolver.core import bench

    # Running totals, not a list of games: a run of any length holds bounded memory.
    if not sys.stderr.isatty():
        return bench.tally(width, height, mines, rule, games, seed, workers)
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task(label, total=games)
        return bench.tally(
            width,
            height,
            mines,
            rule,
            games,
            seed,
            workers,
            progress=lambda n: bar.advance(task, n),
        )


def _atomic_write(path: Path, write: Any) -> None:
    from msolver.files import atomic_open

    with atomic_open(path, "wb" if path.suffix == ".png" else "w") as fh:
        write(fh)


def cmd_bench(args: argparse.Namespace) -> int:
    from msolver.core import bench

    if not 1 <= args.games <= MAX_GAMES:
        raise CommandError(f"--games {args.games} must be between 1 and {MAX_GAMES}")
    if not 1 <= args.workers <= MAX_WORKERS:
        raise CommandError(f"--workers {args.workers} must be between 1 and {MAX_WORKERS}")
    if not args.sweep_mines:
        for opt, value in (("--plot", args.plot), ("--csv", args.csv)):
            if value is not None:
                raise CommandError(f"{opt} draws a mine sweep: use it with --sweep-mines LO:HI")
    elif args.level:
        raise CommandError(
            "--level sets the mine count, which --sweep-mines varies: give --width and "
            "--height instead"
        )
    # Before the sweep, which takes minutes: a bad path must cost nothing.
    try:
        if args.plot is not None:
            check_output_path(args.plot, "--plot")
            if not args.plot.lower().endswith(".png"):
                raise CommandError(f"--plot {args.plot}: the plot is a PNG; name it FILE.png")
        if args.csv is not None:
            check_output_path(args.csv, "--csv")
    except OutputPathError as exc:
        raise CommandError(str(exc)) from exc
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        # Before the sweep: matplotlib is an extra, and a sweep takes minutes.
        raise CommandError("--plot needs matplotlib: pip install 'msolver[plot]'")
    if args.sweep_mines:
        return _sweep(args)
    width, height, mines = _bench_size(args)
    # Wall time shows how --workers scales; solver time alone cannot.
    started = time.perf_counter()
    results = _run_with_progress(
        width,
        height,
        mines,
        args.first_click,
        args.games,
        args.seed,
        args.workers,
        f"{width}x{height}/{mines}",
    )
    wall = time.perf_counter() - started
    s = bench.summarise(results)
    if args.json:
        out = s.as_json()
        out.update(results.bench_stats().as_json())
        out.update(
            width=width,
            height=height,
            mines=mines,
            first_click=args.first_click,
            seed=args.seed,
            workers=args.workers,
            wall_seconds=wall,
        )
        print(json.dumps(out))
        return 0
    lo, hi = s.ci95
    print(f"board       {width}x{height}, {mines} mines, first click {args.first_click}")
    print(f"games       {s.games}  (seed {args.seed}, workers {args.workers})")
    print(f"wins        {s.wins}")
    print(f"win rate    {s.win_rate:.2%}  (95% CI {lo:.2%} - {hi:.2%}, Wilson)")
    print(
        f"solver time {s.ms_per_game:.1f} ms per game; per move mean "
        f"{s.ms_per_move_mean:.2f} ms, p99 {s.ms_per_move_p99:.2f} ms, "
        f"max {s.ms_per_move_max:.1f} ms"
    )
    print(f"cpu time    {s.cpu_ms_per_game:.1f} ms per game (process time, all workers)")
    print(f"wall time   {wall:.1f} s ({s.games / wall:.1f} games/s)")
    return 0


def _sweep(args: argparse.Namespace) -> int:
    from msolver.core import bench

    try:
        lo_s, _, hi_s = args.sweep_mines.partition(":")
        lo, hi = int(lo_s), int(hi_s)
    except ValueError:
        raise CommandError(
            f"--sweep-mines {args.sweep_mines!r}: expected LO:HI, e.g. 10:35"
        ) from None
    if lo > hi or lo < 0:
        raise CommandError(f"--sweep-mines {args.sweep_mines!r}: need 0 <= LO <= HI")
    width = 10 if args.width is None else args.width
    height = 10 if args.height is None else args.height
    _check_size(width, height)
    room = width * height - (9 if args.first_click == "opening" else 1)
    if hi > room:
        raise CommandError(f"--sweep-mines: {hi} mines do not fit a {width}x{height} board")
    rows = []
    for m in range(lo, hi + 1):
        res = _run_with_progress(
            width, height, m, args.first_click, args.games, args.seed, args.workers, f"{m} mines"
        )
        s = bench.summarise(res)
        rows.append((m, s))
        if not args.json:
            print(f"{m:4d} mines  {s.win_rate:7.2%}  ({s.ci95[0]:.2%} - {s.ci95[1]:.2%})")
    if args.csv:

        def write_csv(fh: IO[str]) -> None:
            w = csv.writer(fh)
            w.writerow(["mines", "games", "wins", "win_rate", "ci_low", "ci_high"])
            for m, s in rows:
                w.writerow(
                    [
                        m,
                        s.games,
                        s.wins,
                        f"{s.win_rate:.6f}",
                        f"{s.ci95[0]:.6f}",
                        f"{s.ci95[1]:.6f}",
                    ]
                )

        _atomic_write(Path(args.csv), write_csv)
    if args.plot:
        _plot(Path(args.plot), rows, width, height, args)
    if args.json:
        print(json.dumps([{"mines": m, **s.as_json()} for m, s in rows]))
    return 0


def _plot(path: Path, rows: list[Any], width: int, height: int, args: argparse.Namespace) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ms = [m for m, _ in rows]
    rate = [s.win_rate for _, s in rows]
    low = [s.ci95[0] for _, s in rows]
    high = [s.ci95[1] for _, s in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.fill_between(ms, low, high, alpha=0.25, label="95% CI")
    ax.plot(ms, rate, marker="o", label="win rate")
    ax.set_xlabel("mines")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.set_title(
        f"msolver on {width}x{height}, first click {args.first_click}, {args.games} games per point"
    )
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    _atomic_write(path, lambda fh: fig.savefig(fh, format="png", dpi=110))
    plt.close(fig)


def register(sub: Any) -> None:
    b = sub.add_parser("bench", help="simulated win rate of the solver")
    b.add_argument("--level", choices=sorted(LEVELS))
    b.add_argument("--width", type=int)
    b.add_argument("--height", type=int)
    b.add_argument("--mines", type=int)
    b.add_argument("--first-click", choices=FIRST_CLICK_RULES, default="safe")
    b.add_argument("--games", type=int, default=1000)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--workers", type=int, default=1)
    b.add_argument("--json", action="store_true")
    b.add_argument("--sweep-mines", metavar="LO:HI")
    b.add_argument("--plot", metavar="FILE.png")
    b.add_argument("--csv", metavar="FILE.csv")
    b.set_defaults(handler=reporting("msolver: error: ", cmd_bench))
