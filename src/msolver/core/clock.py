"""Time as a value the live loops are given: the real clock, or a fake one for tests.

The player and the learner wait for the screen (a redraw, a settle, a new
game) by reading a monotonic clock and sleeping; given a `FakeClock`, those
waits cost no real time, so their tests run in milliseconds and do not
depend on how loaded the machine is.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def monotonic(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class RealClock:
    """The process's monotonic clock and a real sleep."""

    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class FakeClock:
    """A clock that moves only when slept on (or `advance`d): no real time passes."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)

    def advance(self, seconds: float) -> None:
        self.now += seconds
