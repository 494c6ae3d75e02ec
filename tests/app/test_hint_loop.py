"""`msolver play --hint`'s loop on a fake clock: its waits cost no real time."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import numpy as np
import pytest

from msolver.app import play as app_play
from msolver.app.errors import EXIT_STOPPED, CommandError
from msolver.core.board import UNKNOWN, Board
from msolver.core.clock import FakeClock
from msolver.io.capture import RecordedCapture
from msolver.io.hotkeys import FakeHotkeys
from msolver.vision.geometry import Grid
from msolver.vision.reading import Reading


class ScriptedReader:
    """Gives the readings of a script, the last one for ever; counts reads."""

    def __init__(self, script: list[Reading]) -> None:
        self.script = script
        self.reads = 0
        self.grid = Grid((0.0, 0.0), (16.0, 16.0), 1, 3)
        self.mines = 1

    def read(self, _image: object) -> Reading:
        self.reads += 1
        return self.script[min(self.reads, len(self.script)) - 1]


@pytest.fixture
def hint_loop(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[FakeClock, list[Reading]]]:
    clock = FakeClock()
    script: list[Reading] = []
    reader = ScriptedReader(script)
    monkeypatch.setattr(app_play, "reader_for", lambda _profile: reader)
    monkeypatch.setattr(app_play, "_hotkeys", lambda _args, _say: FakeHotkeys(started=True))
    yield clock, script


def run(clock: FakeClock) -> int:
    capture = RecordedCapture(lambda: np.zeros((16, 48, 3), dtype=np.uint8))
    args = argparse.Namespace(stop_key="ctrl+alt+s", start_now=True)
    return app_play._hint(capture, None, args, lambda _m: None, clock)  # type: ignore[arg-type]


def test_an_unreadable_board_stops_after_two_seconds_of_its_clock(
    hint_loop: tuple[FakeClock, list[Reading]],
) -> None:
    clock, script = hint_loop
    gone = Board(3, 1, 1, (UNKNOWN,) * 3)
    script.append(Reading(gone, low_confidence=(0, 1, 2), problem="no board"))
    start = clock.monotonic()
    with pytest.raises(CommandError) as err:
        run(clock)
    assert err.value.code == EXIT_STOPPED and "no board" in str(err.value)
    # it looked again every 0.05 s and gave up just past 2 s, none of it real
    assert 2.0 < clock.monotonic() - start <= 2.1


def test_prints_each_new_board_until_the_game_is_over(
    hint_loop: tuple[FakeClock, list[Reading]], capsys: pytest.CaptureFixture[str]
) -> None:
    clock, script = hint_loop
    first = Board(3, 1, 1, (1, UNKNOWN, UNKNOWN))
    won = Board(3, 1, 1, (1, UNKNOWN, 1))
    script.extend([Reading(first), Reading(first), Reading(won)])
    start = clock.monotonic()
    assert run(clock) == 0
    out = capsys.readouterr().out
    assert out.count("game won") == 1
    # two looks at the board before the winning one, 0.05 s apart
    assert clock.monotonic() - start == pytest.approx(0.1)
