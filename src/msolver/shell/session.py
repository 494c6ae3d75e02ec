"""A session of games: the stop exception, the outcome, the loop that runs and logs them.

A player raises `Stop` (with `user=True` when a person asked for it: the
stop key, the screen-corner fail-safe) and `run_games` turns it into the
session's `Outcome`, logging each game and the summary as JSON lines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from msolver.io.hotkeys import Hotkeys
from msolver.io.mouse import FailSafe
from msolver.shell.log import EventLog


class Stop(Exception):
    """The player stopped before the games were done; `user` when a person asked it to."""

    def __init__(self, reason: str, *, user: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.user = user


class Played(Protocol):
    """What the session needs of one game's result."""

    @property
    def game(self) -> int: ...

    @property
    def result(self) -> str: ...  # "won" | "lost"


R = TypeVar("R", bound=Played)


@dataclass(frozen=True, slots=True)
class Outcome(Generic[R]):
    games: tuple[R, ...]
    stopped: str | None = None
    user_stop: bool = False

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games if g.result == "won")


def run_games(
    count: int,
    play: Callable[[int], R],
    report: Callable[[R], tuple[dict[str, object], str]],
    log: EventLog,
    say: Callable[[str], None],
    totals: Callable[[tuple[R, ...]], dict[str, object]] | None = None,
) -> Outcome[R]:
    """Play games 1..count; `report` gives a result's game_over log fields and its line.

    A `Stop` (or the mouse's fail-safe, a person's stop) ends the session;
    its reason is logged and kept in the outcome.
    """
    results: list[R] = []
    try:
        for g in range(1, count + 1):
            res = play(g)
            results.append(res)
            fields, line = report(res)
            log.write(event="game_over", game=g, result=res.result, **fields)
            say(line)
    except Stop as stop:
        outcome = Outcome(tuple(results), stop.reason, stop.user)
    except FailSafe as exc:
        outcome = Outcome(tuple(results), str(exc), True)
    else:
        outcome = Outcome(tuple(results))
    if outcome.stopped is not None:
        log.write(event="stop", reason=outcome.stopped, user=outcome.user_stop)
    more = totals(outcome.games) if totals is not None else {}
    log.write(event="summary", games=len(outcome.games), wins=outcome.wins, **more)
    return outcome


def wait_for_start(
    keys: Hotkeys, start_now: bool, hotkey: str, stop_key: str, say: Callable[[str], None]
) -> bool:
    """Wait for the start key (or start now); False when the stop key came first."""
    if start_now:
        keys.start.set()
        return True
    say(f"ready: press {hotkey} to start, {stop_key} to stop")
    while not keys.start.wait(0.05):
        if keys.stop.is_set():
            return False
    return True
