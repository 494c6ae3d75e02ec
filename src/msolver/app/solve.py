"""`msolver solve`: exact mine probabilities for a board in text form."""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from msolver.app.errors import EXIT_USAGE, CommandError, fail, read_text, reporting
from msolver.core.board import Board, BoardError
from msolver.core.solver import Move, Solver, analyse
from msolver.core.solver.reason import explain

# The exact solver's work grows with the frontier; past this many cells an
# answer could take minutes, so the board is refused instead (expert: 480).
MAX_SOLVE_CELLS = 10_000


def _parse_board(text: str, mines: int, where: str) -> Board:
    try:
        board = Board.parse(text, mines)
    except BoardError as exc:
        raise CommandError(f"{where}: {exc}") from exc
    if board.size > MAX_SOLVE_CELLS:
        raise CommandError(
            f"{where}: a {board.width}x{board.height} board is over the solver's limit of "
            f"{MAX_SOLVE_CELLS} cells"
        )
    return board


def _check_mines(board: Board, where: str) -> None:
    if board.mines < 0:
        raise CommandError(f"{where}: mine count {board.mines} is negative")


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
    decision = Solver().decide(board)
    if a.safe:
        pick = a.safe[0]
    else:
        opens = [m.index for m in decision.moves if m.kind == "open"]
        if not opens:
            out["reason"] = explain(board, decision)
            return out
        pick = opens[0]
    r, c = divmod(pick, w)
    out["best"] = {"row": r, "col": c, "p_mine": a.prob[pick]}
    # The reason for the cell shown as best, whichever tier found it.
    out["reason"] = explain(board, decision, Move("open", pick, a.prob[pick] or 0.0))
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
    if result.get("reason"):
        lines.append(f"why: {result['reason']}")
    return "\n".join(lines)


def cmd_solve(args: argparse.Namespace) -> int:
    if args.batch:
        if args.mines is not None:
            raise CommandError("--mines is not used with --batch (each line gives its own)")
        text, where = read_text(args.file, "batch input")
        return _solve_batch(text, where, sys.stdout)
    if args.mines is None:
        raise CommandError("--mines N is required (the board's total mine count)")
    if args.mines < 0:
        raise CommandError(f"--mines {args.mines} is negative")
    text, where = read_text(args.file)
    board = _parse_board(text, args.mines, where)
    result = solve_json(board)
    if args.json:
        print(json.dumps(result))
    else:
        print(_format_grid(board, result))
    return 0


def _solve_batch(text: str, source: str, out: IO[str]) -> int:
    """Answer every line in order; a bad line gets an error result naming it, exit 2 at the end."""
    bad: list[str] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            result = solve_json(_batch_board(line, f"{source} line {lineno}"))
        except CommandError as exc:
            bad.append(str(exc))
            result = {"line": lineno, "status": "error", "error": str(exc)}
        out.write(json.dumps(result) + "\n")
        out.flush()
    if bad:
        more = f" (and {len(bad) - 1} more bad lines)" if len(bad) > 1 else ""
        return fail(f"msolver: error: {bad[0]}{more}", EXIT_USAGE)
    return 0


def _batch_board(line: str, where: str) -> Board:
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        raise CommandError(f"{where}, column {exc.colno}: not JSON ({exc.msg})") from exc
    except RecursionError:
        raise CommandError(f"{where}: JSON nested too deeply") from None
    if not isinstance(item, dict) or "board" not in item or "mines" not in item:
        raise CommandError(f'{where}: expected {{"board": TEXT, "mines": N}}')
    mines = item["mines"]
    if not isinstance(mines, int) or isinstance(mines, bool) or mines < 0:
        raise CommandError(f"{where}: mines must be a non-negative integer, got {mines!r}")
    if not isinstance(item["board"], str):
        raise CommandError(f"{where}: board must be a string")
    return _parse_board(item["board"], mines, where)


def register(sub: Any) -> None:
    p = sub.add_parser("solve", help="exact mine probabilities for a board text")
    p.add_argument("file", nargs="?", help="board text file, or - for stdin")
    p.add_argument("--mines", type=int, help="total mines on the board")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--batch",
        action="store_true",
        help='read JSON lines {"board": TEXT, "mines": N} from FILE or stdin; a bad line '
        'gets {"line": N, "status": "error", "error": ...} and exit status 2 at the end',
    )
    p.set_defaults(handler=reporting("msolver: error: ", cmd_solve))
