"""`msolver play` and `msolver profiles`: argument parsing, set-up and printing.

Everything that needs a screen (mss, pyautogui, pynput, opencv) is imported
inside the handlers. Exit status: 0 games played (or stopped by the user),
1 the player stopped for safety or found no usable screen/board, 2 bad input.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from msolver.io.capture import Capture
    from msolver.vision.profile import Profile

EXIT_STOPPED = 1
EXIT_BAD_INPUT = 2


class CliError(Exception):
    def __init__(self, msg: str, code: int = EXIT_STOPPED) -> None:
        super().__init__(msg)
        self.code = code


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play Minesweeper on screen with the mouse (or --hint: show the best move)",
        description=(
            "Capture the screen, read the board, solve, click; repeat. Waits for the start "
            "hotkey unless --start-now; the stop hotkey or throwing the pointer into a screen "
            "corner stops it at once."
        ),
    )
    src = p.add_mutually_exclusive_group()
    src.add_argument("--profile", default=None, help="profile name or path (msolver profiles)")
    src.add_argument("--auto", action="store_true", help="find the board on screen (the default)")
    p.add_argument("--games", type=int, default=1, help="games to play (default 1)")
    p.add_argument("--hotkey", default="F9", help="start hotkey (default F9)")
    p.add_argument("--stop-key", default="F10", help="stop hotkey (default F10)")
    p.add_argument("--start-now", action="store_true", help="start without waiting for the hotkey")
    p.add_argument("--log-json", default=None, metavar="FILE", help="JSON-lines event log")
    p.add_argument("--hint", action="store_true", help="never click: print the best move")
    p.add_argument("--mines", type=int, default=None, help="mine count (with --auto)")
    p.add_argument("--no-chord", action="store_true", help="open cells one by one, never chord")
    p.add_argument(
        "--mouse",
        default="auto",
        choices=("auto", "pyautogui", "pynput"),
        help="mouse backend (auto: pynput clicks, pyautogui keys)",
    )
    p.add_argument("--quiet", action="store_true", help="print only the summary")
    p.set_defaults(handler=play_command)

    q = sub.add_parser(
        "profiles",
        help="list, show or delete calibration profiles",
        description="List the saved and built-in profiles, show one, or delete a saved one.",
    )
    q.add_argument("action", nargs="?", default="list", choices=("list", "show", "delete"))
    q.add_argument("name", nargs="?", default=None)
    q.set_defaults(handler=profiles_command)


# -- msolver play --------------------------------------------------------------------


def play_command(args: argparse.Namespace) -> int:
    try:
        return _play(args)
    except CliError as exc:
        print(f"msolver play: {exc}", file=sys.stderr)
        return exc.code


def _say(quiet: bool) -> Any:
    def say(msg: str) -> None:
        if not quiet:
            print(msg, flush=True)

    return say


def _play(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise CliError(f"--games {args.games}: must be at least 1", EXIT_BAD_INPUT)
    if args.mines is not None and args.mines < 1:
        raise CliError(f"--mines {args.mines}: must be at least 1", EXIT_BAD_INPUT)
    from msolver.io.mouse import split_combo

    for opt, key in (("--hotkey", args.hotkey), ("--stop-key", args.stop_key)):
        try:
            split_combo(key)
        except ValueError as exc:
            raise CliError(f"{opt}: {exc}", EXIT_BAD_INPUT) from exc
    say = _say(args.quiet)
    capture = _open_capture()
    try:
        profile = _locate(capture, args, say)
        if args.hint:
            return _hint(capture, profile, args, say)
        return _run_player(capture, profile, args, say)
    finally:
        capture.close()


def _open_capture() -> Capture:
    from msolver.io.capture import CaptureError, open_capture

    try:
        return open_capture()
    except CaptureError as exc:
        raise CliError(f"no display available ({exc}); nothing was clicked") from exc


def _locate(capture: Capture, args: argparse.Namespace, say: Any) -> Profile:
    """The profile, placed where the board is on screen now; CliError when no board fits."""
    from msolver.vision.classify import board_visible
    from msolver.vision.grid import CalibrationError, calibrate, find_grid
    from msolver.vision.profile import ProfileError, load_profile

    screen = capture.screen()
    image = capture.grab(screen)
    origin = (screen[0], screen[1])
    if args.profile is None:
        try:
            prof = calibrate(image, mines=args.mines, screen_origin=origin, name="auto")
        except CalibrationError as exc:
            raise CliError(f"no board on screen: {exc}") from exc
        say(
            f"found a {prof.cols}x{prof.rows} board ({prof.theme}) at "
            f"({prof.origin[0]:.0f}, {prof.origin[1]:.0f})"
        )
        if "1" not in prof.tiles:
            raise CliError(
                f"the board's theme is not one msolver knows: calibrate it first "
                f"(msolver calibrate --name NAME --mines {prof.mines} --new-game KEY)"
            )
        return prof
    try:
        prof = load_profile(args.profile)
    except ProfileError as exc:
        raise CliError(str(exc), EXIT_BAD_INPUT) from exc
    reason = board_visible(image, prof, image_origin=origin)
    if reason is None:
        return prof
    # The window may simply have moved since calibration: look for a board
    # of the same shape and scale and move the profile there.
    try:
        found = find_grid(image)
    except CalibrationError as exc:
        raise CliError(
            f"profile {args.profile!r} does not match the screen ({reason}) and no board "
            f"was found elsewhere ({exc})"
        ) from exc
    same = (found.rows, found.cols) == (prof.rows, prof.cols) and all(
        abs(a - b) <= 0.01 * b for a, b in zip(found.pitch, prof.pitch, strict=True)
    )
    if not same:
        raise CliError(
            f"profile {args.profile!r} ({prof.cols}x{prof.rows}, pitch {prof.pitch[0]:.1f}) "
            f"does not match the board on screen ({found.cols}x{found.rows}, pitch "
            f"{found.pitch[0]:.1f})"
        )
    dx = found.origin[0] + origin[0] - prof.origin[0]
    dy = found.origin[1] + origin[1] - prof.origin[1]
    dx, dy = _snap_shift(image, prof, dx, dy, origin)
    moved = _shift_profile(prof, dx, dy)
    reason = board_visible(image, moved, image_origin=origin)
    if reason is not None:
        raise CliError(f"profile {args.profile!r} does not match the screen: {reason}")
    say(f"the board moved by ({dx:+.0f}, {dy:+.0f}) since calibration; following it")
    return moved


def _snap_shift(
    image: Any, prof: Profile, dx: float, dy: float, origin: tuple[int, int]
) -> tuple[int, int]:
    """The whole-pixel move (a window moves by whole pixels) that reads the board best.

    The board found now and the calibrated origin may differ by a fraction of
    a pixel in how each was fitted, so the neighbours of the rounded move are
    tried and the one whose cells match the profile's tiles best is kept.
    """
    import numpy as np

    from msolver.vision.classify import ReadError, read_board

    best: tuple[float, int, int] | None = None
    for ox in (0, -1, 1):
        for oy in (0, -1, 1):
            x, y = round(dx) + ox, round(dy) + oy
            try:
                res = read_board(image, _shift_profile(prof, x, y), image_origin=origin)
            except ReadError:
                continue
            score = float(np.mean(res.confidence))
            if best is None or score > best[0] + 1e-9:
                best = (score, x, y)
    return (round(dx), round(dy)) if best is None else (best[1], best[2])


def _shift_profile(prof: Profile, dx: float, dy: float) -> Profile:
    from msolver.play.target import NewGame

    moved = prof.moved_to((prof.origin[0] + dx, prof.origin[1] + dy))
    if prof.new_game:
        try:
            ng = NewGame.parse(prof.new_game)
        except ValueError:
            return moved
        if ng.kind == "click":
            # The button moves with the window.
            moved = moved.with_changes(new_game=f"click:{ng.x + round(dx)},{ng.y + round(dy)}")
    return moved


def _hotkeys(args: argparse.Namespace, say: Any) -> Any:
    from msolver.io.hotkeys import FakeHotkeys, HotkeyError, PynputHotkeys

    try:
        return PynputHotkeys(args.hotkey, args.stop_key)
    except HotkeyError as exc:
        if not args.start_now:
            raise CliError(f"cannot listen for the start key: {exc} (use --start-now)") from exc
        say(f"warning: no stop hotkey ({exc}); the screen-corner fail-safe still stops it")
        return FakeHotkeys()


def _wait_start(keys: Any, args: argparse.Namespace, say: Any) -> bool:
    if args.start_now:
        keys.start.set()
        return True
    say(f"ready: press {args.hotkey} to start, {args.stop_key} to stop")
    while not keys.start.wait(0.05):
        if keys.stop.is_set():
            return False
    return True


def reader_for(profile: Profile) -> Any:
    """A reader that learns the tiles it has not seen: from the unopened tile alone for a
    new theme, on top of the classifier for a known one (whose recordings may lack a 6)."""
    from msolver.play.learn import LearningReader
    from msolver.play.vision_reader import VisionReader

    if profile.theme == "custom" or "1" not in profile.tiles:
        return LearningReader(profile)
    return LearningReader(profile, base=VisionReader(profile))


def _save_learned(reader: Any, args: argparse.Namespace, say: Any) -> None:
    """Keep the tiles a new theme showed for the next session (user profiles only)."""
    from msolver.play.learn import LearningReader
    from msolver.vision.profile import ProfileError, save_profile, user_dir

    if not isinstance(reader, LearningReader) or not reader.learned or args.profile is None:
        return
    name = args.profile
    if not (user_dir() / f"{name}.json").is_file():
        return
    learned = reader.learned_profile()
    if learned is None:
        # Only tiles a finished game proved, and never a set that would read
        # the blank board as anything but unopened.
        say(
            f"learned tiles {', '.join(reader.learned)} not saved: no finished game proved "
            "them (or they would misread the blank board)"
        )
        return
    try:
        path = save_profile(learned, name)
    except ProfileError as exc:
        say(f"warning: could not save the learned tiles: {exc}")
        return
    say(f"learned tiles {', '.join(reader.proven)}; saved to {path}")


def _run_player(capture: Capture, profile: Profile, args: argparse.Namespace, say: Any) -> int:
    from msolver.io.mouse import MouseError, open_mouse
    from msolver.play.log import EventLog
    from msolver.play.loop import Player, PlayStop, Settings
    from msolver.play.target import NewGame

    new_game = None
    if profile.new_game:
        try:
            new_game = NewGame.parse(profile.new_game)
        except ValueError as exc:
            raise CliError(f"profile {profile.name!r}: {exc}", EXIT_BAD_INPUT) from exc
    if args.games > 1 and new_game is None:
        raise CliError(
            f"--games {args.games} needs the profile's new-game action; calibrate with "
            "--new-game KEY|click:X,Y",
            EXIT_BAD_INPUT,
        )
    keys = _hotkeys(args, say)
    try:
        if not _wait_start(keys, args, say):
            say("stopped before the start")
            return 0
        try:
            mouse = open_mouse(args.mouse, capture.screen())
        except MouseError as exc:
            raise CliError(f"no mouse available ({exc}); nothing was clicked") from exc
        log = EventLog(args.log_json) if args.log_json else None
        settings = Settings(games=args.games, chord=not args.no_chord)
        reader = reader_for(profile)
        try:
            player = Player(
                reader,
                capture,
                mouse,
                keys,
                new_game=new_game,
                settings=settings,
                log=log,
                say=say,
            )
            outcome = player.run()
        except PlayStop as stop:
            raise CliError(stop.reason) from stop
        finally:
            if log is not None:
                log.close()
            _save_learned(reader, args, say)
    finally:
        keys.close()
    n = len(outcome.games)
    print(f"played {n} game{'s' if n != 1 else ''}: {outcome.wins} won, {n - outcome.wins} lost")
    if outcome.stopped is not None:
        if outcome.user_stop:
            print(f"msolver play: {outcome.stopped}", file=sys.stderr)
            return 0
        raise CliError(f"stopped: {outcome.stopped}")
    return 0


# -- msolver play --hint ----------------------------------------------------------------


def _hint(capture: Capture, profile: Profile, args: argparse.Namespace, say: Any) -> int:
    """Print the best move and the mine probabilities whenever the board changes; never click."""
    from msolver.play.hint import render_hint
    from msolver.play.loop import game_state

    reader = reader_for(profile)
    keys = _hotkeys(argparse.Namespace(**{**vars(args), "start_now": True}), say)
    region = reader.grid.rect()
    shown = None
    unclear_since: float | None = None
    try:
        say(f"hint mode: nothing is clicked; {args.stop_key} or Ctrl+C ends it")
        while not keys.stop.is_set():
            reading = reader.read(capture.grab(region))
            if reading.low_confidence or reading.alternatives:
                # A redraw, or a new theme's tile not named yet: look again, but
                # not forever when the board is gone.
                now = time.monotonic()
                unclear_since = unclear_since if unclear_since is not None else now
                if reading.problem and now - unclear_since > 2.0:
                    raise CliError(f"cannot read the board: {reading.problem}")
                time.sleep(0.05)
                continue
            unclear_since = None
            if reading.board != shown:
                shown = reading.board
                print(render_hint(reading.board), flush=True)
                over = game_state(reading.board)
                if over is not None:
                    print(f"game {over}")
                    return 0
            time.sleep(0.05)
    finally:
        keys.close()
    return 0


# -- msolver profiles -------------------------------------------------------------------


def profiles_command(args: argparse.Namespace) -> int:
    from msolver.vision.profile import ProfileError, delete_profile, list_profiles, load_profile

    try:
        if args.action == "list":
            if args.name is not None:
                raise ProfileError("`profiles list` takes no name")
            rows = list_profiles()
            if not rows:
                print("no profiles yet: run `msolver calibrate`")
            for name, kind in rows:
                try:
                    p = load_profile(name)
                    desc = f"{p.cols}x{p.rows}, {p.mines} mines, theme {p.theme}"
                except ProfileError as exc:
                    desc = f"unreadable: {exc}"
                print(f"{name:20s} {kind:8s} {desc}")
            return 0
        if args.name is None:
            raise ProfileError(f"`profiles {args.action}` needs a profile name")
        if args.action == "show":
            p = load_profile(args.name)
            print(f"name      {p.name}")
            print(f"theme     {p.theme}")
            print(f"board     {p.cols} columns x {p.rows} rows, {p.mines} mines")
            print(f"origin    ({p.origin[0]:.1f}, {p.origin[1]:.1f}) screen px")
            print(f"pitch     {p.pitch[0]:.2f} x {p.pitch[1]:.2f} px")
            print(f"rect      {p.board_rect()}")
            print(f"new game  {p.new_game or '(none)'}")
            print(f"tiles     {', '.join(sorted(p.tiles))}")
            return 0
        delete_profile(args.name)
        print(f"deleted profile {args.name!r}")
        return 0
    except ProfileError as exc:
        print(f"msolver profiles: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
