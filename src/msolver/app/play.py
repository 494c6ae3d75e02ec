"""`msolver play` (and `--hint`): argument parsing, set-up and printing.

Everything that needs a screen (mss, pyautogui, pynput, opencv) is imported
inside the handlers. Exit status: 0 games played (or stopped by the user),
1 the player stopped for safety or found no usable screen/board, 2 bad input.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, cast

from msolver.app.errors import EXIT_STOPPED, EXIT_USAGE, CommandError, reporting

if TYPE_CHECKING:
    from msolver.core.clock import Clock
    from msolver.io.capture import Capture
    from msolver.vision.profile import Profile


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
    p.add_argument(
        "--log-reads",
        action="store_true",
        help="with --log-json: log every frame's read board (event 'read')",
    )
    p.add_argument(
        "--hint", action="store_true", help="never click: show the hint picture in a window"
    )
    p.add_argument("--text", action="store_true", help="with --hint: the terminal grid instead")
    p.add_argument(
        "--record", default=None, metavar="DIR", help="keep every frame (msolver replay)"
    )
    p.add_argument("--mines", type=int, default=None, help="mine count (with --auto)")
    p.add_argument("--no-chord", action="store_true", help="open cells one by one, never chord")
    p.add_argument(
        "--mouse",
        default="auto",
        choices=("auto", "x11", "pyautogui", "pynput"),
        help="mouse backend (auto: x11 on Linux; elsewhere pynput clicks, pyautogui keys)",
    )
    p.add_argument("--quiet", action="store_true", help="print only the summary")
    p.set_defaults(handler=play_command)


# -- msolver play --------------------------------------------------------------------


def play_command(args: argparse.Namespace) -> int:
    return reporting("msolver play: ", _play)(args)


def _say(quiet: bool) -> Any:
    def say(msg: str) -> None:
        if not quiet:
            print(msg, flush=True)

    return say


def _play(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise CommandError(f"--games {args.games}: must be at least 1", EXIT_USAGE)
    if args.mines is not None and args.mines < 1:
        raise CommandError(f"--mines {args.mines}: must be at least 1", EXIT_USAGE)
    from msolver.app.keys import check_combo
    from msolver.files import OutputPathError, check_output_path
    from msolver.vision.profile import ProfileError, load_profile

    for opt, key in (("--hotkey", args.hotkey), ("--stop-key", args.stop_key)):
        check_combo(key, opt)
    if args.log_json:
        try:
            # A log is never overwritten: it may be the only record of a session.
            check_output_path(args.log_json, "--log-json", overwrite=False)
        except OutputPathError as exc:
            raise CommandError(str(exc), EXIT_USAGE) from exc
    if args.profile is not None:
        # Before the screen: a misspelt name is bad input, whether or not there is a display.
        try:
            load_profile(args.profile)
        except ProfileError as exc:
            raise CommandError(str(exc), EXIT_USAGE) from exc
    if args.text and not args.hint:
        raise CommandError("--text goes with --hint (the terminal grid)", EXIT_USAGE)
    if args.record is not None:
        _check_record(args.record)
    say = _say(args.quiet)
    capture = _open_capture()
    try:
        profile = _locate(capture, args, say)
        if args.hint:
            return (
                _hint(capture, profile, args, say)
                if args.text
                else _hint_window(capture, profile, args, say)
            )
        return _run_player(capture, profile, args, say)
    finally:
        capture.close()


def _open_capture() -> Capture:
    from msolver.io.capture import CaptureError, open_capture

    try:
        return open_capture()
    except CaptureError as exc:
        raise CommandError(
            f"no display available ({exc}); nothing was clicked", EXIT_STOPPED
        ) from exc


def _locate(capture: Capture, args: argparse.Namespace, say: Any) -> Profile:
    """The profile, placed where the board is on screen now; CommandError when no board fits."""
    from msolver.io.capture import ScreenScale
    from msolver.play.follow import LocateError, find_board, follow
    from msolver.vision.profile import ProfileError, load_profile

    screen = capture.screen()
    image = capture.grab(screen)
    # The profile is in the grab's pixels, which a scaled display packs
    # several to a point: its origin is the screen's in pixels.
    px_screen = ScreenScale(capture.scale()).screen_pixels(screen)
    origin = (px_screen[0], px_screen[1])
    try:
        if args.profile is None:
            return find_board(image, origin, args.mines, say)
        try:
            prof = load_profile(args.profile)
        except ProfileError as exc:
            raise CommandError(str(exc), EXIT_USAGE) from exc
        return follow(image, prof, args.profile, origin, say)
    except LocateError as exc:
        raise CommandError(str(exc), EXIT_STOPPED) from exc


def _hotkeys(args: argparse.Namespace, say: Any) -> Any:
    from msolver.io.backends import open_hotkeys
    from msolver.io.hotkeys import FakeHotkeys, HotkeyError

    try:
        return open_hotkeys(args.hotkey, args.stop_key)
    except HotkeyError as exc:
        if not args.start_now:
            raise CommandError(
                f"cannot listen for the start key: {exc} (use --start-now)", EXIT_STOPPED
            ) from exc
        say(f"warning: no stop hotkey ({exc}); the screen-corner fail-safe still stops it")
        return FakeHotkeys()


def _wait_start(keys: Any, args: argparse.Namespace, say: Any) -> bool:
    from msolver.shell.session import wait_for_start

    return wait_for_start(keys, args.start_now, args.hotkey, args.stop_key, say)


def reader_for(profile: Profile) -> Any:
    from msolver.play.readers import reader_for as make

    return make(profile)


def _save_learned(
    reader: Any,
    args: argparse.Namespace,
    say: Any,
    chord: str | None = None,
    first_click: str | None = None,
) -> None:
    """Keep what this session found for the next one (user profiles only): the tiles
    a new theme showed, which chord button works, the first-click rule the games
    showed."""
    from msolver.vision.learning_reader import LearningReader
    from msolver.vision.profile import ProfileError, load_profile, save_profile, user_dir

    if args.profile is None:
        return
    name = args.profile
    if not (user_dir() / f"{name}.json").is_file():
        return
    learned = None
    if isinstance(reader, LearningReader) and reader.learned:
        learned = reader.learned_profile()
        if learned is None:
            # Only tiles a finished game proved, and never a set that would read
            # the blank board as anything but unopened.
            say(
                f"learned tiles {', '.join(reader.learned)} not saved: no finished game "
                "proved them (or they would misread the blank board)"
            )
    try:
        base = learned if learned is not None else load_profile(user_dir() / f"{name}.json")
    except ProfileError as exc:
        say(f"warning: could not read the profile back to save to it: {exc}")
        return
    new_chord = chord is not None and chord != base.chord
    new_rule = first_click is not None and first_click != base.first_click
    # A sideways flood learned from an opening, kept once a finished board
    # bore out the names read under it: a trained profile read every game's
    # first opening as "a 0 beside unopened cells" without it.
    new_flood = (
        isinstance(reader, LearningReader)
        and reader.sides_only
        and bool(reader.proven)
        and base.flood != "sides"
    )
    if learned is None and not new_chord and not new_rule and not new_flood:
        return
    if new_chord:
        base = base.with_changes(chord=chord)
    if new_rule:
        base = base.with_changes(first_click=first_click)
    if new_flood:
        base = base.with_changes(flood="sides")
    try:
        path = save_profile(base, name)
    except ProfileError as exc:
        say(f"warning: could not save to the profile: {exc}")
        return
    if learned is not None:
        say(f"learned tiles {', '.join(reader.proven)}; saved to {path}")
    if new_chord:
        say(f"chord button: {chord}; saved to {path}")
    if new_rule:
        say(f"first-click rule: {first_click}; saved to {path}")
    if new_flood:
        say(f"a 0 here opens only its side neighbours; saved to {path}")


def _run_player(capture: Capture, profile: Profile, args: argparse.Namespace, say: Any) -> int:
    from msolver.core.game import FirstClick
    from msolver.io.backends import open_mouse
    from msolver.io.mouse import MouseError
    from msolver.play.loop import Player, PlayStop, Settings, chord_order
    from msolver.play.target import NewGame
    from msolver.shell.log import EventLog

    new_game = None
    if profile.new_game:
        try:
            new_game = NewGame.parse(profile.new_game)
        except ValueError as exc:
            raise CommandError(f"profile {profile.name!r}: {exc}", EXIT_USAGE) from exc
    if args.games > 1 and new_game is None:
        raise CommandError(
            f"--games {args.games} needs the profile's new-game action; calibrate with "
            "--new-game KEY|click:X,Y|menu:X,Y",
            EXIT_USAGE,
        )
    keys = _hotkeys(args, say)
    try:
        if not _wait_start(keys, args, say):
            say("stopped before the start")
            return 0
        try:
            mouse = open_mouse(args.mouse, capture.screen())
        except MouseError as exc:
            raise CommandError(
                f"no mouse available ({exc}); nothing was clicked", EXIT_STOPPED
            ) from exc
        log = EventLog(args.log_json) if args.log_json else None
        settings = Settings(
            games=args.games,
            chord=not args.no_chord,
            chord_buttons=chord_order(profile.chord),
            first_click=cast("FirstClick", profile.first_click),
            flag=profile.flag,
            log_reads=args.log_reads,
        )
        reader = reader_for(profile)
        recorder = _recorder(args, profile)
        player = None
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
                recorder=recorder,
                strip=profile.strip,
            )
            outcome = player.run()
        except PlayStop as stop:
            raise CommandError(stop.reason, EXIT_STOPPED) from stop
        finally:
            if log is not None:
                log.close()
            if recorder is not None:
                recorder.close()
            _save_learned(
                reader,
                args,
                say,
                None if player is None else player.chord_found,
                None if player is None else player.first_click_found,
            )
    finally:
        keys.close()
    n = len(outcome.games)
    print(f"played {n} game{'s' if n != 1 else ''}: {outcome.wins} won, {n - outcome.wins} lost")
    if outcome.stopped is not None:
        if outcome.user_stop:
            print(f"msolver play: {outcome.stopped}", file=sys.stderr)
            return 0
        raise CommandError(f"stopped: {outcome.stopped}", EXIT_STOPPED)
    return 0


# -- msolver play --hint ----------------------------------------------------------------


def _hint(
    capture: Capture,
    profile: Profile,
    args: argparse.Namespace,
    say: Any,
    clock: Clock | None = None,
) -> int:
    """Print the best move and the mine probabilities whenever the board changes; never click."""
    from msolver.core.clock import RealClock
    from msolver.play.hint import render_hint
    from msolver.play.loop import game_state

    clock = clock or RealClock()
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
                now = clock.monotonic()
                unclear_since = unclear_since if unclear_since is not None else now
                if reading.problem and now - unclear_since > 2.0:
                    raise CommandError(f"cannot read the board: {reading.problem}", EXIT_STOPPED)
                clock.sleep(0.05)
                continue
            unclear_since = None
            if reading.board != shown:
                shown = reading.board
                print(render_hint(reading.board), flush=True)
                over = game_state(reading.board)
                if over is not None:
                    print(f"game {over}")
                    return 0
            clock.sleep(0.05)
    finally:
        keys.close()
    return 0


# -- play --record, play --hint (window) -------------------------------------------------


def _check_record(folder: str) -> None:
    from msolver.play.record import RecordError, check_folder

    try:
        check_folder(folder)
    except RecordError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from exc


def _recorder(args: argparse.Namespace, profile: Profile) -> Any:
    from msolver.play.record import Recorder, RecordError

    if args.record is None:
        return None
    try:
        return Recorder(args.record, profile)
    except RecordError as exc:
        raise CommandError(str(exc), EXIT_USAGE) from exc


def _hint_window(capture: Capture, profile: Profile, args: argparse.Namespace, say: Any) -> int:
    """The hint picture in a small always-on-top window, redrawn when the board changes."""
    from msolver.play.hintwindow import HintWindow, HintWindowError, watch
    from msolver.play.loop import game_state

    try:
        window = HintWindow()
    except HintWindowError as exc:
        raise CommandError(str(exc), EXIT_STOPPED) from exc
    keys = _hotkeys(argparse.Namespace(**{**vars(args), "start_now": True}), say)
    try:
        say(f"hint window: nothing is clicked; {args.stop_key}, Ctrl+C or closing it ends it")
        over = watch(
            reader_for(profile),
            capture,
            keys.stop,
            window.show,
            pump=window.pump,
            stopped=window.closed,
            until_over=game_state,
        )
        if over is not None:
            print(f"game {over}")
    finally:
        keys.close()
        window.close()
    return 0
