"""Capture pixels are not click points: the player on a display at 2x and 1.5x."""

from __future__ import annotations

import math

import pytest

from msolver.core.clock import FakeClock
from msolver.core.game import Game, Status
from msolver.io.capture import RecordedCapture, ScreenScale, measured_scale
from msolver.io.hotkeys import FakeHotkeys
from msolver.io.mouse import Button, RecordingMouse
from msolver.play.loop import Player, Settings
from msolver.play.target import NewGame
from tests.support.live import SimReader, expert_sim

# The new-game button, in the profile's (pixel) frame, off the board.
BUTTON_PX = (331, 31)


@pytest.mark.parametrize("scale", [2.0, 1.5, 1.25])
def test_every_click_lands_on_its_cells_centre_in_points(scale: float) -> None:
    # The simulated screen is drawn in pixels (its grid is what calibration
    # would save); the mouse works in points, as pyautogui and pynput do on a
    # scaled display.
    sim = expert_sim(5, first_click="safe")
    seeds = iter(range(500, 600))
    points: list[tuple[int, int, Button]] = []
    button_clicks: list[tuple[int, int]] = []

    def on_click(x: int, y: int, b: Button) -> None:
        points.append((x, y, b))
        px, py = x * scale, y * scale
        if abs(px - BUTTON_PX[0]) <= scale and abs(py - BUTTON_PX[1]) <= scale:
            button_clicks.append((x, y))
            sim.game = Game(30, 16, 99, seed=next(seeds), first_click="safe")
            return
        sim.on_click(px, py, b)  # type: ignore[arg-type]

    mouse = RecordingMouse(on_click=on_click)
    capture = RecordedCapture(sim.grab, scale=scale)
    assert capture.scale() == scale
    player = Player(
        SimReader(sim.grid, 99),
        capture,
        mouse,
        FakeHotkeys(started=True),
        new_game=NewGame.parse(f"click:{BUTTON_PX[0]},{BUTTON_PX[1]}"),
        settings=Settings(
            games=2, redraw_timeout=0.3, settle=0.0, confirm=0.05, new_game_timeout=1.0
        ),
        clock=FakeClock(),
    )
    outcome = player.run()
    assert outcome.stopped is None, outcome.stopped
    assert len(outcome.games) == 2 and sim.game.status is not Status.PLAYING
    grid = sim.grid
    cell_clicks = [p for p in points if (p[0], p[1]) not in button_clicks]
    assert len(cell_clicks) > 20
    half_point = 0.5
    for x, y, _ in cell_clicks:
        i = grid.cell_at(x * scale, y * scale)
        assert i is not None
        cx, cy = grid.centre_xy(*divmod(i, grid.cols))
        # Within half a point of the cell's exact centre.
        assert abs(x - cx / scale) <= half_point and abs(y - cy / scale) <= half_point
    # The new-game click hit the button, in points.
    assert len(button_clicks) == 1
    bx, by = button_clicks[0]
    assert abs(bx - BUTTON_PX[0] / scale) <= half_point
    assert abs(by - BUTTON_PX[1] / scale) <= half_point
    # The pointer rests off the board, on the screen, in points.
    park = [(a.x, a.y) for a in mouse.actions if a.kind == "move"]
    assert park and set(park) == {player.park}
    sx, sy, sw, sh = capture.screen()
    for x, y in park:
        assert not grid.inside(x * scale, y * scale)
        assert sx <= x < sx + sw and sy <= y < sy + sh


def test_screen_scale_conversions() -> None:
    s = ScreenScale(1.5)
    region, origin = s.region_for((41, 61, 600, 320))
    left, top, width, height = region
    # The region in points covers the pixel rectangle, and its grab starts at `origin`.
    assert origin[0] <= 41 and origin[1] <= 61
    assert math.ceil((left + width) * 1.5) >= 641 and math.ceil((top + height) * 1.5) >= 381
    assert s.to_points(300, 150) == (200, 100)
    assert s.screen_pixels((-100, 0, 1000, 600)) == (-150, 0, 1500, 900)
    assert ScreenScale().to_points(10.7, 3.2) == (10, 3)
    # A grab one pixel off a quarter scale is that quarter; an odd scale is kept.
    assert measured_scale(1001, 500) == 2.0
    assert measured_scale(651, 500) == pytest.approx(1.302)
