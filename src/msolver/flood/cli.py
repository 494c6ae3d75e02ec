"""`msolver flood solve|bench|play`: the Flood-It commands.

Argument parsing and files only; screen and mouse libraries are imported
inside `play`, so `flood solve` and `flood bench` never load them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from msolver.flood.core import FloodBoard, FloodBoardError, read_boards, winning
from msolver.flood.solver import solve

SOLVE_BUDGET_S = 5.0
BENCH_BUDGET_S = 1.0


class UsageError(Exception):
    """Bad input: printed as one line, exit status 2."""


def _fail(msg: str) -> int:
    print(f"msolver: error: {msg}", file=sys.stderr)
    return 2


def _read_text(src: str | None) -> tuple[str, str]:
    if src in (None, "-"):
        return sys.stdin.read(), "<stdin>"
    assert src is not None
    try:
        return Path(src).read_text(), src
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{src}: cannot read ({exc})") from exc


def _positive(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not v > 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be above 0")
    return v


def cmd_solve(args: argparse.Namespace) -> int:
    try:
        text, where = _read_text(args.file)
        try:
            board = FloodBoard.parse(text, args.colours)
        except FloodBoardError as exc:
            raise UsageError(f"{where}: {exc}") from exc
    except UsageError as exc:
        return _fail(str(exc))
    sol = solve(board, budget_s=args.budget)
    moves = sol.text(board)
    if args.json:
        print(json.dumps({"moves": moves, "length": len(sol.moves), "optimal": sol.optimal}))
    else:
        proof = "optimal" if sol.optimal else f"not proved optimal, >= {sol.lower_bound}"
        print(moves)
        print(f"{len(sol.moves)} moves ({proof})")
    return 0


def bench_boards(
    boards: list[FloodBoard],
    optimal: list[int] | None,
    limit: int,
    budget_s: float,
    strategy: str = "astar",
    depth: int = 4,
) -> dict[str, Any]:
    """Solve every board, check each answer by replaying it, and sum up."""
    from msolver.flood.baselines import lookahead

    total = wins = hits = proved = 0
    ms: list[float] = []
    # CPU time of this process: the cost on one core, whatever else the machine runs.
    wall0 = time.perf_counter()
    for k, board in enumerate(boards):
        t0 = time.process_time()
        if strategy == "astar":
            sol = solve(board, budget_s=budget_s)
            moves, is_optimal = sol.moves, sol.optimal
        else:
            moves = lookahead(board, 1 if strategy == "greedy" else depth)
            is_optimal = False
        ms.append((time.process_time() - t0) * 1000)
        if not winning(board, moves):
            raise AssertionError(f"board {k + 1}: the {strategy} moves do not win")  # a bug
        n = len(moves)
        total += n
        wins += n <= limit
        proved += is_optimal
        if optimal is not None:
            hits += n == optimal[k]
    count = len(boards)
    return {
        "boards": count,
        "total_moves": total,
        "mean_moves": round(total / count, 3),
        "wins": wins,
        "limit": limit,
        "optimal_hits": hits if optimal is not None else None,
        "optimal_total": sum(optimal) if optimal is not None else None,
        "proved_optimal": proved,
        "ms_per_board": round(sum(ms) / count, 1),
        "ms_max": round(max(ms), 1),
        "wall_s": round(time.perf_counter() - wall0, 1),
        "budget_s": budget_s,
        "strategy": strategy if strategy != "lookahead" else f"lookahead{depth}",
    }


def _read_optimal(path: str, boards: list[FloodBoard], count: int | None) -> list[int]:
    text, where = _read_text(path)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if count is not None:
        lines = lines[:count]
    if len(lines) != len(boards):
        raise UsageError(f"{where}: {len(lines)} solutions for {len(boards)} boards")
    out = []
    for k, (line, board) in enumerate(zip(lines, boards, strict=True), 1):
        try:
            moves = [board.symbol_index(ch) for ch in line]
        except FloodBoardError as exc:
            raise UsageError(f"{where}: line {k}: {exc}") from exc
        if not winning(board, moves):
            raise UsageError(f"{where}: line {k}: this sequence does not win board {k}")
        out.append(len(moves))
    return out


def cmd_bench(args: argparse.Namespace) -> int:
    try:
        text, where = _read_text(args.boards)
        try:
            boards = read_boards(text, args.colours)
        except FloodBoardError as exc:
            raise UsageError(f"{where}: {exc}") from exc
        if args.depth < 1:
            raise UsageError(f"--depth {args.depth}: must be at least 1")
        if args.count is not None:
            boards = boards[: args.count]
        optimal = None
        if args.optimal is not None:
            optimal = _read_optimal(args.optimal, boards, args.count)
    except UsageError as exc:
        return _fail(str(exc))
    result = bench_boards(boards, optimal, args.limit, args.budget, args.strategy, args.depth)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"boards:        {result['boards']} ({result['strategy']})")
    print(f"total moves:   {result['total_moves']} (mean {result['mean_moves']})")
    if optimal is not None:
        print(
            f"optimal:       {result['optimal_total']} total; "
            f"{result['optimal_hits']} boards equal"
        )
    print(f"wins:          {result['wins']} within {args.limit} moves")
    print(f"proved:        {result['proved_optimal']} boards proved optimal by A*")
    print(
        f"time:          {result['ms_per_board']} ms mean, {result['ms_max']} ms max a board "
        f"(CPU); {result['wall_s']} s wall in all"
    )
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from msolver.flood.play import run_play

    status: int = run_play(args)
    return status


def register(sub: Any) -> None:
    p = sub.add_parser("flood", help="Flood-It: solve boards, benchmark, play sgt-flood")
    fsub = p.add_subparsers(dest="flood_command", metavar="SUBCOMMAND")
    p.set_defaults(handler=lambda _a: (p.print_help(), 2)[1])

    s = fsub.add_parser("solve", help="shortest move sequence for a board in text form")
    s.add_argument("file", nargs="?", help="board text file, or - for stdin (default)")
    s.add_argument("--json", action="store_true", help='print {"moves", "length", "optimal"}')
    s.add_argument(
        "--budget", type=_positive, default=SOLVE_BUDGET_S, metavar="SECONDS",
        help=f"CPU seconds for A* before the beam fallback (default {SOLVE_BUDGET_S})",
    )
    s.add_argument("--colours", type=int, default=16, help="most colours allowed (default 16)")
    s.set_defaults(handler=cmd_solve)

    b = fsub.add_parser("bench", help="solve a file of boards and report totals and timings")
    b.add_argument("--boards", required=True, help="boards file (a board a line, or blocks)")
    b.add_argument("--optimal", help="known shortest solutions, a line per board")
    b.add_argument("--limit", type=int, default=25, help="move limit for a win (default 25)")
    b.add_argument(
        "--budget", type=_positive, default=BENCH_BUDGET_S, metavar="SECONDS",
        help=f"CPU seconds of A* a board before the fallback (default {BENCH_BUDGET_S})",
    )
    b.add_argument("--count", type=int, help="only the first N boards")
    b.add_argument(
        "--strategy", choices=("astar", "greedy", "lookahead"), default="astar",
        help="astar: this solver (default); greedy / lookahead: the published bots' "
        "area-maximising play, for comparison",
    )
    b.add_argument(
        "--depth", type=int, default=4, help="moves looked ahead by --strategy lookahead (4)"
    )
    b.add_argument("--colours", type=int, default=16, help="most colours allowed (default 16)")
    b.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    b.set_defaults(handler=cmd_bench)

    pl = fsub.add_parser("play", help="play sgt-flood (or a Flood-It window) on the screen")
    pl.add_argument("--games", type=int, default=1, help="games to play (default 1)")
    pl.add_argument("--start-now", action="store_true", help="start without waiting for the hotkey")
    pl.add_argument("--log-json", metavar="FILE", help="write one JSON line per move and game")
    pl.add_argument("--profile", metavar="FILE", help="calibration profile (default: calibrate)")
    pl.add_argument("--hotkey", default="F9", help="start key (default F9)")
    pl.add_argument("--stop-key", default="F10", help="stop key (default F10)")
    pl.add_argument(
        "--budget", type=_positive, default=SOLVE_BUDGET_S, metavar="SECONDS",
        help=f"CPU seconds of A* a game (default {SOLVE_BUDGET_S})",
    )
    pl.add_argument("--new-game-key", default="n", help="key that starts a new game (default n)")
    pl.add_argument("--save-profile", metavar="FILE", help="write the calibration found")
    pl.add_argument("--delay", type=float, default=0.0, help="extra seconds between moves")
    pl.set_defaults(handler=cmd_play)
