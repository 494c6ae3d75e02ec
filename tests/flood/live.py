"""Run `msolver flood play` against a real sgt-flood and check its JSON-lines log.

Shared by the display tests (test_live.py) and the live benchmark (bench_live.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MSOLVER = [sys.executable, "-m", "msolver.cli"]


@dataclass(frozen=True)
class PlayRun:
    returncode: int
    stdout: str
    stderr: str
    events: list[dict[str, Any]]


def play(display: str, log: Path, games: int, *extra: str, timeout: float = 240) -> PlayRun:
    """`msolver flood play --games N --start-now --log-json LOG` on `display`."""
    env = dict(os.environ, DISPLAY=display)
    proc = subprocess.run(
        [
            *MSOLVER,
            "flood",
            "play",
            "--games",
            str(games),
            "--start-now",
            "--log-json",
            str(log),
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    events = []
    if log.exists():
        events = [json.loads(line) for line in log.read_text().splitlines()]
    return PlayRun(proc.returncode, proc.stdout, proc.stderr, events)


def games_of(run: PlayRun) -> list[dict[str, Any]]:
    """The game_over events, after checking the log's shape.

    One "move" line per move (numbered 1..n within its game, n = the game's
    moves), a "game_over" line closing each game, a "summary" line last whose
    counts agree with the games.
    """
    ev = run.events
    assert ev and ev[-1]["event"] == "summary", ev[-1:] or "empty log"
    over: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    for e in ev[:-1]:
        if e["event"] == "move":
            assert e["game"] == len(over) + 1
            assert e["move"] == len(moves) + 1
            assert {"colour", "row", "col", "x", "y"} <= set(e)
            moves.append(e)
        elif e["event"] == "game_over":
            assert e["game"] == len(over) + 1
            assert e["moves"] == len(moves), (e, len(moves))
            over.append(e)
            moves = []
        else:
            raise AssertionError(f"unexpected event {e}")
    assert not moves, "moves after the last game_over"
    summary = ev[-1]
    assert summary["games"] == len(over)
    assert summary["wins"] == sum(g["result"] == "won" for g in over)
    return over
