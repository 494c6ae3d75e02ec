"""`msolver solve` and `msolver bench`: the commands of the pure core.

This module is the core's door to the outside (files, stdin, terminal); the
core itself stays pure.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import IO, Any

from msolver.core.board import Board, BoardError
from msolver.core.game import FIRST_CLICK_RULES, LEVELS, FirstClick
from msolver.core.solver import Solver, analyse


class UsageError(Exception):
    """Bad input: printed as one line, exit status 2."""


def _fail(msg: str) -> int:
    print(f"msolver: error: {msg}", file=sys.stderr)
    return 2


def _parse_board(text: str, mines: int, where: str) -> Board:
    try:
        return Board.parse(text, mines)
    except BoardError as exc:
        raise UsageError(f"{where}: {exc}") from exc


def _check_mines(board: Board, where: str) -> None:
    if board.mines < 0:
        raise UsageError(f"{where}: mine count {board.mines} is negative")


def solve_json(board: Board) -> dict[str, Any]:
    """The `solve --json` result for one board."""
    a = analyse(board)
    w = board.width
    grid: list[list[float | None]] = [
        [a.prob[r * w + c] for c in range(w)] for r in range(board.height)
    ]
    out: dict[str, Any] = {
        "status": a.status,
        "width": w,
        "height": board.height,
        "probabilities": grid,
        "safe": [list(divmod(i, w)) for i in a.safe],
        "mines": [list(divmod(i, w)) for i in a.mines],
        "best": None,
    }
    if a.status != "ok":
        out["reason"] = a.reason
        return out
    if a.safe:
        pick = a.safe[0]
    else:
        decision = Solver().decide(board)
        opens = [m.index for m in decision.moves if m.kind == "open"]
        if not opens:
            return out
        pick = opens[0]
    r, c = divmod(pick, w)
    out["best"] = {"row": r, "col": c, "p_mine": a.prob[pick]}
    return out


def _format_grid(board: Board, result: dict[str, Any]) -> str:
    lines = [f"status: {result['status']}"]
    if result["status"] != "ok":
        lines.append(f"reason: {result.get('reason', '')}")
        return "\n".join(lines)
    for r in range(board.height):
        row = []
        for c in range(board.width):
            s = board.at(r, c)
            p = result["probabilities"][r][c]
            if s >= 0:
                row.append(f"  {s}  ")
            elif s != -1:
                row.append("  F  ")
            else:
                row.append(f"{p:5.3f}"[1:] if p < 1 else " 1.0 ")
        lines.append(" ".join(row))
    best = result["best"]
    if best:
        lines.append(
            f"best: row {best['row']}, col {best['col']} (p_mine {best['p_mine']:.4f}); "
            f"{len(result['safe'])} safe, {len(result['mines'])} certain mines"
        )
    return "\n".join(lines)


def cmd_solve(args: argparse.Namespace) -> int:
    try:
        if args.batch:
            return _solve_batch(sys.stdin, sys.stdout)
        if args.mines is None:
            raise UsageError("--mines N is required (the board's total mine count)")
        if args.mines < 0:
            raise UsageError(f"--mines {args.mines} is negative")
        src = args.file
        if src in (None, "-"):
            text, where = sys.stdin.read(), "<stdin>"
        else:
            try:
                text, where = Path(src).read_text(), src
            except (OSError, UnicodeDecodeError) as exc:
                raise UsageError(f"{src}: cannot read board text ({exc})") from exc
        board = _parse_board(text, args.mines, where)
        result = solve_json(board)
    except UsageError as exc:
        return _fail(str(exc))
    if args.json:
        print(json.dumps(result))
    else:
        print(_format_grid(board, result))
    return 0


def _solve_batch(inp: IO[str], out: IO[str]) -> int:
    for lineno, line in enumerate(inp, 1):
        if not line.strip():
            continue
        where = f"<stdin> line {lineno}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{where}, column {exc.colno}: not JSON ({exc.msg})") from exc
        if not isinstance(item, dict) or "board" not in item or "mines" not in item:
            raise UsageError(f'{where}: expected {{"board": TEXT, "mines": N}}')
        mines = item["mines"]
        if not isinstance(mines, int) or isinstance(mines, bool) or mines < 0:
            raise UsageError(f"{where}: mines must be a non-negative integer, got {mines!r}")
        if not isinstance(item["board"], str):
            raise UsageError(f"{where}: board must be a string")
        board = _parse_board(item["board"], mines, where)
        out.write(json.dumps(solve_json(board)) + "\n")
        out.flush()
    return 0


# -- bench ----------------------------------------------------------------------


def _bench_size(args: argparse.Namespace) -> tuple[int, int, int]:
    if args.level:
        lv = LEVELS[args.level]
        width, height, mines = lv.width, lv.height, lv.mines
    else:
        width, height, mines = 30, 16, 99
    width = args.width if args.width is not None else width
    height = args.height if args.height is not None else height
    mines = args.mines if args.mines is not None else mines
    if width < 1 or height < 1:
        raise UsageError(f"board size {width}x{height} is empty")
    room = width * height - (9 if args.first_click == "opening" else 1)
    if not 0 <= mines <= room:
        raise UsageError(
            f"{mines} mines do not fit a {width}x{height} board with the "
            f"{args.first_click!r} first click (at most {max(room, 0)})"
        )
    return width, height, mines


def _run_with_progress(
    width: int,
    height: int,
    mines: int,
    rule: FirstClick,
    games: int,
    seed: int,
    workers: int,
    label: str,
) -> list[Any]:
    from msolver import bench

    if not sys.stderr.isatty():
        return bench.run(width, height, mines, rule, games, seed, workers)
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task(label, total=games)
        return bench.run(
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

    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(path, "wb" if path.suffix == ".png" else "w") as fh:
        write(fh)


def cmd_bench(args: argparse.Namespace) -> int:
    from msolver import bench

    try:
        if args.games < 1:
            raise UsageError(f"--games {args.games} must be at least 1")
        if args.workers < 1:
            raise UsageError(f"--workers {args.workers} must be at least 1")
        if args.plot and importlib.util.find_spec("matplotlib") is None:
            # Before the sweep: matplotlib is an extra, and a sweep takes minutes.
            raise UsageError("--plot needs matplotlib: pip install 'msolver[plot]'")
        if args.sweep_mines:
            return _sweep(args)
        width, height, mines = _bench_size(args)
    except UsageError as exc:
        return _fail(str(exc))
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
    print(f"wall time   {wall:.1f} s ({s.games / wall:.1f} games/s)")
    return 0


def _sweep(args: argparse.Namespace) -> int:
    from msolver import bench

    try:
        lo_s, _, hi_s = args.sweep_mines.partition(":")
        lo, hi = int(lo_s), int(hi_s)
    except ValueError:
        raise UsageError(
            f"--sweep-mines {args.sweep_mines!r}: expected LO:HI, e.g. 10:35"
        ) from None
    if lo > hi or lo < 0:
        raise UsageError(f"--sweep-mines {args.sweep_mines!r}: need 0 <= LO <= HI")
    width = args.width or 10
    height = args.height or 10
    room = width * height - (9 if args.first_click == "opening" else 1)
    if hi > room:
        raise UsageError(f"--sweep-mines: {hi} mines do not fit a {width}x{height} board")
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
    p = sub.add_parser("solve", help="exact mine probabilities for a board text")
    p.add_argument("file", nargs="?", help="board text file, or - for stdin")
    p.add_argument("--mines", type=int, help="total mines on the board")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--batch",
        action="store_true",
        help='read JSON lines {"board": TEXT, "mines": N} from stdin',
    )
    p.set_defaults(handler=cmd_solve)

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
    b.set_defaults(handler=cmd_bench)
