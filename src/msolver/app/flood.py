"""`msolver flood solve|bench|play`: the Flood-It commands.

Argument parsing, files and printing only; screen and mouse libraries are
imported inside `play`, so `flood solve` and `flood bench` never load them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msolver.app.errors import EXIT_STOPPED, EXIT_USAGE, CommandError, read_text, reporting
from msolver.flood.bench import bench_boards
from msolver.flood.core import FloodBoard, FloodBoardError, read_boards, winning
from msolver.flood.solver import solve

if TYPE_CHECKING:
    from msolver.flood.vision import FloodProfile
    from msolver.io.capture import Capture

SOLVE_BUDGET_S = 5.0
BENCH_BUDGET_S = 1.0
# A colour is a digit 1-9 or a letter: 61 symbols in all.
MOST_COLOURS = 61


def _read_text(src: str | None) -> tuple[str, str]:
    return read_text(src, "board text")


def _check_colours(colours: int) -> None:
    if not 1 <= colours <= MOST_COLOURS:
        raise CommandError(
            f"--colours {colours} must be between 1 and {MOST_COLOURS} "
            "(a colour is a digit 1-9 or a letter)"
        )


def _positive(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not v > 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be above 0")
    return v


def cmd_solve(args: argparse.Namespace) -> int:
    _check_colours(args.colours)
    text, where = _read_text(args.file)
    try:
        board = FloodBoard.parse(text, args.colours)
    except FloodBoardError as exc:
        raise CommandError(f"{where}: {exc}") from exc
    sol = solve(board, budget_s=args.budget)
    moves = sol.text(board)
    if args.json:
        print(json.dumps({"moves": moves, "length": len(sol.moves), "optimal": sol.optimal}))
    else:
        proof = "optimal" if sol.optimal else f"not proved optimal, >= {sol.lower_bound}"
        print(moves)
        print(f"{len(sol.moves)} moves ({proof})")
    return 0


def _read_optimal(path: str, boards: list[FloodBoard], count: int | None) -> list[int]:
    text, where = _read_text(path)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if count is not None:
        lines = lines[:count]
    if len(lines) != len(boards):
        raise CommandError(f"{where}: {len(lines)} solutions for {len(boards)} boards")
    out = []
    for k, (line, board) in enumerate(zip(lines, boards, strict=True), 1):
        try:
            moves = [board.symbol_index(ch) for ch in line]
        except FloodBoardError as exc:
            raise CommandError(f"{where}: line {k}: {exc}") from exc
        if not winning(board, moves):
            raise CommandError(f"{where}: line {k}: this sequence does not win board {k}")
        out.append(len(moves))
    return out


def cmd_bench(args: argparse.Namespace) -> int:
    _check_colours(args.colours)
    if args.count is not None and args.count < 1:
        raise CommandError(f"--count {args.count} must be at least 1")
    if args.limit < 0:
        raise CommandError(f"--limit {args.limit} must not be negative")
    text, where = _read_text(args.boards)
    try:
        boards = read_boards(text, args.colours)
    except FloodBoardError as exc:
        raise CommandError(f"{where}: {exc}") from exc
    if args.depth < 1:
        raise CommandError(f"--depth {args.depth}: must be at least 1")
    if args.count is not None:
        boards = boards[: args.count]
    optimal = None
    if args.optimal is not None:
        optimal = _read_optimal(args.optimal, boards, args.count)
    result = bench_boards(boards, optimal, args.limit, args.budget, args.strategy, args.depth)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"boards:        {result['boards']} ({result['strategy']})")
    print(f"total moves:   {result['total_moves']} (mean {result['mean_moves']})")
    if optimal is not None:
        print(
            f"optimal:       {result['optimal_total']} total; {result['optimal_hits']} boards equal"
        )
    print(f"wins:          {result['wins']} within {args.limit} moves")
    print(f"proved:        {result['proved_optimal']} boards proved optimal by A*")
    print(
        f"time:          {result['ms_per_board']} ms mean, {result['ms_max']} ms max a board "
        f"(CPU); {result['wall_s']} s wall in all"
    )
    return 0


def _say(msg: str) -> None:
    print(f"msolver flood: {msg}", file=sys.stderr, flush=True)


def run_play(args: argparse.Namespace) -> int:
    """`msolver flood play`: returns the exit status."""
    from msolver.flood.play import FloodPlayer, Timing
    from msolver.flood.vision import FloodVisionError
    from msolver.io.backends import open_hotkeys, open_mouse
    from msolver.io.capture import CaptureError, open_capture
    from msolver.io.hotkeys import FakeHotkeys, HotkeyError
    from msolver.io.mouse import MouseError, split_combo

    if args.games < 1:
        _say(f"error: --games {args.games}: must be at least 1")
        return EXIT_USAGE
    if not 0 <= args.delay <= 60:  # also refuses nan
        _say(f"error: --delay {args.delay}: must be between 0 and 60 seconds")
        return EXIT_USAGE
    try:
        _check_outputs(args)
    except CommandError as exc:
        _say(f"error: {exc}")
        return EXIT_USAGE
    try:
        split_combo(args.new_game_key)
    except ValueError as exc:
        _say(f"error: --new-game-key: {exc}")
        return EXIT_USAGE
    try:
        capture = open_capture()
    except CaptureError as exc:
        _say(f"error: {exc}")
        return EXIT_STOPPED
    try:
        profile = _profile(args, capture)
    except FloodVisionError as exc:
        _say(f"error: {exc}")
        capture.close()
        return EXIT_USAGE
    keys: Any
    try:
        keys = open_hotkeys(args.hotkey, args.stop_key)
    except HotkeyError as exc:
        if not args.start_now:
            _say(f"error: cannot listen for the start key: {exc} (use --start-now)")
            capture.close()
            return EXIT_USAGE
        _say(f"warning: no stop hotkey ({exc}); the screen-corner fail-safe still stops it")
        keys = FakeHotkeys()
    from msolver.shell.log import EventLog
    from msolver.shell.session import wait_for_start

    log = EventLog(args.log_json) if args.log_json else None
    try:
        if not wait_for_start(keys, args.start_now, args.hotkey, args.stop_key, _say):
            _say("stopped before the start")
            return 0
        try:
            mouse = open_mouse("auto", capture.screen())
        except MouseError as exc:
            _say(f"error: no mouse ({exc}); nothing was clicked")
            return EXIT_STOPPED
        player = FloodPlayer(
            profile,
            capture,
            mouse,
            keys,
            games=args.games,
            budget_s=args.budget,
            new_game_key=args.new_game_key,
            timing=Timing(delay_s=max(0.0, args.delay)),
            log=log,
            say=_say,
        )
        outcome = player.run()
    finally:
        if log is not None:
            log.close()
        keys.close()
        capture.close()
    n = len(outcome.games)
    print(f"played {n} game{'s' if n != 1 else ''}: {outcome.wins} won, {n - outcome.wins} lost")
    if outcome.stopped is not None:
        _say(f"stopped: {outcome.stopped}")
        return 0 if outcome.user_stop else EXIT_STOPPED
    return 0


def _check_outputs(args: argparse.Namespace) -> None:
    """--log-json and --save-profile, checked before the screen is touched."""
    from msolver.files import OutputPathError, check_output_path

    try:
        if args.log_json:
            # A log is never overwritten: it may be the only record of a session.
            check_output_path(args.log_json, "--log-json", overwrite=False)
        if args.save_profile:
            check_output_path(args.save_profile, "--save-profile")
    except OutputPathError as exc:
        raise CommandError(str(exc)) from exc
    if args.profile and Path(args.profile).is_dir():
        raise CommandError(f"--profile {args.profile}: is a directory, not a profile file")


def _profile(args: argparse.Namespace, capture: Capture) -> FloodProfile:
    from msolver.flood.vision import FloodProfile, FloodVisionError, calibrate
    from msolver.io.capture import CaptureError

    if args.profile:
        return FloodProfile.load(args.profile)
    left, top, _, _ = capture.screen()
    try:
        img = capture.grab()
    except CaptureError as exc:
        raise FloodVisionError(f"cannot grab the screen: {exc}") from exc
    prof = calibrate(img)
    grid = prof.grid.moved(left, top)  # image pixels -> virtual-screen pixels
    prof = FloodProfile(grid, prof.palette)
    if getattr(args, "save_profile", None):
        prof.save(args.save_profile)
    _say(
        f"calibrated: {grid.cols}x{grid.rows} cells, pitch {grid.pitch[0]:.1f} px, "
        f"{len(prof.palette)} colours"
    )
    return prof


def register(sub: Any) -> None:
    p = sub.add_parser("flood", help="Flood-It: solve boards, benchmark, play sgt-flood")
    fsub = p.add_subparsers(dest="flood_command", metavar="SUBCOMMAND")
    p.set_defaults(handler=lambda _a: (p.print_help(), 2)[1])

    s = fsub.add_parser("solve", help="shortest move sequence for a board in text form")
    s.add_argument("file", nargs="?", help="board text file, or - for stdin (default)")
    s.add_argument("--json", action="store_true", help='print {"moves", "length", "optimal"}')
    s.add_argument(
        "--budget",
        type=_positive,
        default=SOLVE_BUDGET_S,
        metavar="SECONDS",
        help=f"CPU seconds for A* before the beam fallback (default {SOLVE_BUDGET_S})",
    )
    s.add_argument("--colours", type=int, default=16, help="most colours allowed (default 16)")
    s.set_defaults(handler=reporting("msolver: error: ", cmd_solve))

    b = fsub.add_parser("bench", help="solve a file of boards and report totals and timings")
    b.add_argument("--boards", required=True, help="boards file (a board a line, or blocks)")
    b.add_argument("--optimal", help="known shortest solutions, a line per board")
    b.add_argument("--limit", type=int, default=25, help="move limit for a win (default 25)")
    b.add_argument(
        "--budget",
        type=_positive,
        default=BENCH_BUDGET_S,
        metavar="SECONDS",
        help=f"CPU seconds of A* a board before the fallback (default {BENCH_BUDGET_S})",
    )
    b.add_argument("--count", type=int, help="only the first N boards")
    b.add_argument(
        "--strategy",
        choices=("astar", "greedy", "lookahead"),
        default="astar",
        help="astar: this solver (default); greedy / lookahead: the published bots' "
        "area-maximising play, for comparison",
    )
    b.add_argument(
        "--depth", type=int, default=4, help="moves looked ahead by --strategy lookahead (4)"
    )
    b.add_argument("--colours", type=int, default=16, help="most colours allowed (default 16)")
    b.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    b.set_defaults(handler=reporting("msolver: error: ", cmd_bench))

    pl = fsub.add_parser("play", help="play sgt-flood (or a Flood-It window) on the screen")
    pl.add_argument("--games", type=int, default=1, help="games to play (default 1)")
    pl.add_argument("--start-now", action="store_true", help="start without waiting for the hotkey")
    pl.add_argument("--log-json", metavar="FILE", help="write one JSON line per move and game")
    pl.add_argument("--profile", metavar="FILE", help="calibration profile (default: calibrate)")
    pl.add_argument("--hotkey", default="F9", help="start key (default F9)")
    pl.add_argument("--stop-key", default="F10", help="stop key (default F10)")
    pl.add_argument(
        "--budget",
        type=_positive,
        default=SOLVE_BUDGET_S,
        metavar="SECONDS",
        help=f"CPU seconds of A* a game (default {SOLVE_BUDGET_S})",
    )
    pl.add_argument("--new-game-key", default="n", help="key that starts a new game (default n)")
    pl.add_argument("--save-profile", metavar="FILE", help="write the calibration found")
    pl.add_argument("--delay", type=float, default=0.0, help="extra seconds between moves")
    pl.set_defaults(handler=run_play)
