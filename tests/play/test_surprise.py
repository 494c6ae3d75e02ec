"""A frame caught mid-repaint: after a surprise the player acts only on a read
that two consecutive grabs agree on; a surprise that persists still stops."""

from __future__ import annotations

from msolver.core.board import UNKNOWN
from msolver.core.clock import FakeClock
from msolver.io.capture import RecordedCapture, Region
from msolver.io.hotkeys import FakeHotkeys
from msolver.io.mouse import Button
from msolver.play.loop import Player, Settings
from msolver.vision.image import Image
from tests.support.live import SimReader, SimScreen, colour_of, expert_sim


class Repaint:
    """The sim's screen, torn once after the `at`-th batch: the first frames show
    an opened cell in another look (held for two grabs, so it passes the settle),
    then one frame of the board as it was before the batch, then the true board.
    `persist` keeps the torn cell for good (a real change, not a repaint)."""

    def __init__(self, sim: SimScreen, at: int, persist: bool = False) -> None:
        self.sim = sim
        self.at = at
        self.persist = persist
        self.batches = 0
        self.clicks_seen = 0
        self.last: Image | None = None
        self.queue: list[Image] = []
        self.torn_cell: tuple[int, int] | None = None
        self.fired = False

    def _torn(self, img: Image) -> Image:
        board = self.sim.game.board
        opened = [i for i, s in enumerate(board.cells) if s >= 1]
        i = opened[len(opened) // 2]
        x, y = self.sim.grid.centre(i)
        out = img.copy()
        half = int(self.sim.grid.pitch[0] // 2) - 1
        other = 1 if board.cells[i] != 1 else 2
        out[y - half : y + half, x - half : x + half] = colour_of(other)
        self.torn_cell = (x, y)
        return out

    def grab(self) -> Image:
        img = self.sim.grab()
        if len(self.sim.clicks) != self.clicks_seen:
            self.clicks_seen = len(self.sim.clicks)
            self.batches += 1
            if self.batches == self.at and self.last is not None and not self.fired:
                self.fired = True
                torn = self._torn(img)
                self.queue = [torn, torn, self.last]
        if self.persist and self.fired and not self.queue:
            out = self._torn(img)
            self.last = out
            return out
        if self.queue:
            out = self.queue.pop(0)
            return out
        self.last = img
        return img


def _run(
    sim: SimScreen, capture: RecordedCapture
) -> tuple[Player, list[tuple[int, Button, int]], list[str]]:
    # Clicks on cells the game had opened or flagged before the last grab: a
    # batch planned on a board that was not the screen's. (A click on a cell
    # an earlier click of the same batch opened is the batch's own business.)
    bad: list[tuple[int, Button, int]] = []
    orig = sim.on_click
    shown = [sim.game.board]
    inner = capture.grab

    def grab(region: Region | None = None) -> Image:
        shown[0] = sim.game.board
        return inner(region)

    capture.grab = grab  # type: ignore[method-assign]

    def on_click(x: int, y: int, button: Button) -> None:
        i = sim.grid.cell_at(x, y)
        if i is not None and shown[0].cells[i] != UNKNOWN:
            bad.append((i, button, shown[0].cells[i]))
        orig(x, y, button)

    sim.on_click = on_click  # type: ignore[method-assign]
    said: list[str] = []
    player = Player(
        SimReader(sim.grid, sim.game.mines),
        capture,
        sim.mouse(),
        FakeHotkeys(started=True),
        # No chords: every click must land on a cell the game shows unopened.
        settings=Settings(
            games=1,
            chord=False,
            redraw_timeout=0.3,
            settle=0.0,
            confirm=0.05,
            first_click="opening",
        ),
        say=said.append,
        clock=FakeClock(),
    )
    return player, bad, said


def test_a_stale_frame_after_a_surprise_is_not_acted_on() -> None:
    # Before: the frame after the surprise (the board as it was before the
    # batch) passed every check and its clicks were sent again, onto cells
    # the game had opened.
    sim = expert_sim(5)
    rp = Repaint(sim, at=3)
    player, bad, _ = _run(sim, RecordedCapture(rp.grab))
    outcome = player.run()
    assert rp.fired
    assert bad == []
    assert outcome.stopped is None, outcome.stopped
    assert len(outcome.games) == 1
    assert player.rereads >= 1


def test_the_agreeing_reads_cost_a_bounded_settle() -> None:
    # The re-grabs after a surprise wait a short settle on the injected clock:
    # the whole game takes no more than a few settles longer than one without.
    def played(tear: bool) -> float:
        sim = expert_sim(5)
        rp = Repaint(sim, at=3 if tear else 10**9)
        clock = FakeClock()
        player, bad, _ = _run(sim, RecordedCapture(rp.grab))
        player._clock = clock
        player.clock, player.sleep = clock.monotonic, clock.sleep
        outcome = player.run()
        assert outcome.stopped is None and bad == []
        return clock.monotonic()

    extra = played(True) - played(False)
    assert 0 < extra <= 0.4


def test_a_surprise_that_persists_still_stops_with_the_reason() -> None:
    sim = expert_sim(5)
    rp = Repaint(sim, at=3, persist=True)
    player, bad, _ = _run(sim, RecordedCapture(rp.grab))
    outcome = player.run()
    assert bad == []
    assert not outcome.games
    assert outcome.stopped is not None and "changed by itself" in outcome.stopped
