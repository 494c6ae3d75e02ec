"""The Flood-It player against a simulated sgt-flood: drawn screens, a recording mouse."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from msolver.core.clock import FakeClock
from msolver.flood.play import FloodPlayer, Timing
from msolver.flood.solver import solve
from msolver.flood.vision import calibrate
from msolver.io.capture import RecordedCapture
from msolver.io.hotkeys import FakeHotkeys
from msolver.io.mouse import RecordingMouse
from msolver.shell.log import EventLog
from tests.flood.live import PlayRun, games_of
from tests.flood.render import draw, random_board

TILE, ORIGIN = 32, (16, 40)
# On the fake clock a wait costs polls, not time: short waits keep the polls few.
FAST = Timing(settle_s=0.3, finish_s=0.3, new_game_s=0.5, poll_s=0.05)


class SimFlood:
    """A game in the manner of sgt-flood: clicks recolour, `n` deals a new board.

    Reaching the move limit with colours left turns every cell black, as
    sgt-flood's defeat flash does; `frozen` makes clicks do nothing.
    """

    def __init__(
        self, seed: int, size: int = 12, limit_slack: int = 0, first_colours: int = 6
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.colours = first_colours
        self.size = size
        self.slack = limit_slack
        self.frozen = False
        self.clicked_cells: list[tuple[int, int, bool]] = []  # row, col, touched the flood
        self.deal()

    def deal(self) -> None:
        self.board = random_board(self.rng, self.size, self.size, self.colours)
        self.colours = 6
        self.limit = len(solve(self.board).moves) + self.slack
        self.moves = 0

    def screen(self) -> np.ndarray:
        dark = self.moves >= self.limit and not self.board.is_solved()
        return draw(self.board, tile=TILE, origin=ORIGIN, size=(640, 560), black=dark)

    def click(self, x: int, y: int, _button: str) -> None:
        col, row = (x - ORIGIN[0]) // TILE, (y - ORIGIN[1]) // TILE
        assert 0 <= row < self.size and 0 <= col < self.size, f"click off the board at {x},{y}"
        i = row * self.size + col
        flood = self.board.flood_cells()
        touches = any(
            j in flood
            for j in (
                i - 1 if col else -1,
                i + 1 if col + 1 < self.size else -1,
                i - self.size,
                i + self.size,
            )
            if 0 <= j < self.size * self.size
        )
        self.clicked_cells.append((row, col, touches and i not in flood))
        if self.frozen or self.board.is_solved():
            return
        self.board = self.board.play(self.board.cells[i])
        self.moves += 1

    def key(self, combo: str) -> None:
        if combo == "n":
            self.deal()


def player(
    sim: SimFlood, tmp_path: Path, games: int, **kw: object
) -> tuple[FloodPlayer, RecordingMouse, FakeHotkeys, EventLog]:
    capture = RecordedCapture(sim.screen)
    mouse = RecordingMouse(on_click=sim.click, on_key=sim.key, **kw)  # type: ignore[arg-type]
    keys = FakeHotkeys(started=True)
    log = EventLog(tmp_path / "log.jsonl")
    prof = calibrate(sim.screen())
    p = FloodPlayer(
        prof,
        capture,
        mouse,
        keys,
        games=games,
        budget_s=2.0,
        timing=FAST,
        log=log,
        clock=FakeClock(),
    )
    return p, mouse, keys, log


def events(tmp_path: Path) -> PlayRun:
    import json

    lines = (tmp_path / "log.jsonl").read_text().splitlines()
    return PlayRun(0, "", "", [json.loads(s) for s in lines])


def test_plays_games_to_a_win_with_one_log_line_a_move(tmp_path: Path) -> None:
    sim = SimFlood(seed=1, limit_slack=0)
    p, mouse, _, log = player(sim, tmp_path, games=3)
    out = p.run()
    log.close()
    assert out.stopped is None and out.wins == 3
    over = games_of(events(tmp_path))
    assert [g["result"] for g in over] == ["won"] * 3
    # No spare moves: each game took exactly the optimal count, the game's limit.
    assert all(g["moves"] == g["planned"] and g["optimal"] for g in over)
    # Every click is a cell next to the flood (a legal move), never off the board.
    assert len(mouse.clicks) == sum(g["moves"] for g in over)
    assert all(touch for _, _, touch in sim.clicked_cells)
    assert [a.combo for a in mouse.actions if a.kind == "key"] == ["n", "n"]


def test_a_colour_first_seen_in_a_later_game_is_learned(tmp_path: Path) -> None:
    sim = SimFlood(seed=9, first_colours=5)
    p, _, _, log = player(sim, tmp_path, games=2)
    assert len(p.profile.palette) == 5
    out = p.run()
    log.close()
    assert out.stopped is None and out.wins == 2, out.stopped
    assert len(p.profile.palette) == 6


def test_defeat_flash_ends_the_game_as_lost(tmp_path: Path) -> None:
    sim = SimFlood(seed=2, limit_slack=-3)
    p, mouse, _, log = player(sim, tmp_path, games=1)
    out = p.run()
    log.close()
    (g,) = games_of(events(tmp_path))
    assert g["result"] == "lost" and out.wins == 0
    assert g["moves"] == sim.limit < g["planned"]
    assert len(mouse.clicks) == sim.limit  # no click after the flash


def test_a_move_that_does_not_show_stops_without_guessing(tmp_path: Path) -> None:
    sim = SimFlood(seed=3)
    p, mouse, _, log = player(sim, tmp_path, games=1)
    sim.frozen = True
    start = p.clock()
    out = p.run()
    log.close()
    assert out.stopped is not None and not out.user_stop
    # it waited the whole settle time for the move, on the player's clock
    assert p.clock() - start >= FAST.settle_s
    assert "move 1" in out.stopped and "does not show what the move gives" in out.stopped
    assert len(mouse.clicks) == 1
    ev = events(tmp_path).events
    assert [e["event"] for e in ev] == ["move", "stop", "summary"]


def test_stop_key_and_fail_safe_stop_at_once(tmp_path: Path) -> None:
    sim = SimFlood(seed=4)
    p, mouse, keys, log = player(sim, tmp_path, games=2)
    keys.stop.set()
    out = p.run()
    log.close()
    assert out.user_stop and out.stopped == "stop key pressed" and not mouse.clicks

    sim2 = SimFlood(seed=5)
    p2, mouse2, _, log2 = player(sim2, tmp_path, games=2, fail_after=4)
    out2 = p2.run()
    log2.close()
    assert out2.user_stop and "corner" in (out2.stopped or "")
    assert len(mouse2.clicks) == 4


def test_never_clicks_outside_the_calibrated_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sim = SimFlood(seed=6)
    p, mouse, _, log = player(sim, tmp_path, games=1)
    # A cell one row below the board, as a wrong plan or reading could give.
    monkeypatch.setattr("msolver.flood.play.pick_cell", lambda b, _c: b.width * b.height + 2)
    out = p.run()
    log.close()
    assert out.stopped is not None and out.stopped.startswith("refusing to click")
    assert not mouse.clicks
