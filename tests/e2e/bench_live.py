"""Live benchmark: msolver plays real sgt-mines expert games on a private Xvfb screen.

    python -m tests.e2e.bench_live [--games 20] [--game sgt-mines] [--json]

Starts Xvfb on a free display, launches the game at expert size, calibrates
from a whole-screen grab (as `msolver calibrate --image` would), then plays
the games with the real capture (mss), reader, solver and mouse (XTEST on Linux, as `play`),
starting each next game with the game's new-game action. Prints wins, the
median and worst wall time from the first click to the won board, clicks
per game, and whether any game was lost on a click the solver called
certain (p_mine = 0; that must never happen).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

NEW_GAME = {"sgt-mines": "n", "gnome-mines": "ctrl+n", "xdemineur": None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.e2e.bench_live", description=__doc__)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--game", default="sgt-mines", choices=sorted(NEW_GAME))
    ap.add_argument(
        "--seed",
        default=None,
        help="sgt-mines seed of the first game (its next games then have another mine count)",
    )
    ap.add_argument("--log-json", default=None, help="also write the player's event log here")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from msolver.io.backends import open_mouse
    from msolver.io.capture import open_capture
    from msolver.io.hotkeys import FakeHotkeys
    from msolver.play.loop import Player, Settings
    from msolver.play.readers import reader_for
    from msolver.play.target import NewGame
    from msolver.shell.log import EventLog
    from tests.support import xgames
    from tests.support.live import calibrate_window
    from tests.support.xvfb import private_display

    log_path = args.log_json or os.path.join(tempfile.mkdtemp(prefix="msolver-bench-"), "log.jsonl")
    with private_display() as display:
        win = xgames.launch(
            args.game, display, seed=args.seed if args.game == "sgt-mines" else None
        )
        try:
            profile = calibrate_window(win, new_game=NEW_GAME[args.game])
            capture = open_capture()
            new_game = NewGame.parse(profile.new_game) if profile.new_game else None
            player = Player(
                reader_for(profile),
                capture,
                open_mouse("auto", capture.screen()),
                FakeHotkeys(started=True),
                new_game=new_game,
                settings=Settings(games=args.games),
                log=EventLog(log_path),
                say=(lambda _m: None) if args.json else print,
            )
            t0 = time.monotonic()
            outcome = player.run()
            total = time.monotonic() - t0
            player.log.close()
            # Let the X clients go before the server does (no errors at exit).
            del player
            gc.collect()
        finally:
            win.close()
    events = [json.loads(line) for line in Path(log_path).read_text().splitlines()]
    certain_losses = _certain_losses(events)
    won = [g.seconds for g in outcome.games if g.result == "won"]
    result = {
        "game": args.game,
        "games": len(outcome.games),
        "wins": outcome.wins,
        "median_seconds_won": round(statistics.median(won), 3) if won else None,
        "max_seconds_won": round(max(won), 3) if won else None,
        "mean_clicks": round(statistics.mean(g.clicks for g in outcome.games), 1)
        if outcome.games
        else None,
        "losses_on_certain_clicks": certain_losses,
        "stopped": outcome.stopped,
        "wall_seconds": round(total, 1),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['game']}: {result['wins']}/{result['games']} won; median "
            f"{result['median_seconds_won']} s from first click to won board (max "
            f"{result['max_seconds_won']} s); {result['mean_clicks']} clicks per game; "
            f"losses on certain clicks: {certain_losses}; total {result['wall_seconds']} s"
        )
        if outcome.stopped:
            print(f"stopped: {outcome.stopped}")
    return 0 if outcome.stopped is None and certain_losses == 0 else 1


def _certain_losses(events: list[dict[str, object]]) -> int:
    """Lost games whose last opening click (left or chord) had p_mine == 0."""
    last: dict[object, float] = {}
    bad = 0
    for e in events:
        if e["event"] == "click" and e["button"] != "right":
            last[e["game"]] = float(e["p_mine"])  # type: ignore[arg-type]
        elif e["event"] == "game_over" and e["result"] == "lost" and last.get(e["game"]) == 0.0:
            bad += 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
