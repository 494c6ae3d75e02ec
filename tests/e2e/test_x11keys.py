"""The Linux input backend on a real X screen: hotkeys grabbed on the root window see
keys xdotool sends, stop a player, and the XTEST mouse moves, clicks and types."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from msolver.io.backends import open_hotkeys, open_mouse
from msolver.io.hotkeys import HotkeyError
from msolver.io.mouse import Button, FailSafe
from msolver.io.x11keys import X11Hotkeys, X11Mouse
from msolver.play.loop import Player
from tests.play.test_loop import FAST
from tests.support.live import SimReader, expert_sim

pytestmark = pytest.mark.display


def xdotool(*args: str) -> str:
    return subprocess.run(
        ["xdotool", *args], check=True, capture_output=True, text=True, env=dict(os.environ)
    ).stdout


def test_linux_uses_the_x11_backends(xvfb: str) -> None:
    assert sys.platform.startswith("linux")
    keys = open_hotkeys("F7", "F8")
    try:
        assert isinstance(keys, X11Hotkeys)
    finally:
        keys.close()
    assert isinstance(open_mouse("auto"), X11Mouse)


def test_hotkeys_see_keys_xdotool_sends_within_a_moment(xvfb: str) -> None:
    keys = X11Hotkeys("F7", "shift+F8")
    try:
        xdotool("key", "F8")  # without shift: not the stop key
        xdotool("key", "F6")
        t0 = time.monotonic()
        xdotool("key", "F7")
        assert keys.start.wait(1.0)
        start_latency = time.monotonic() - t0
        assert not keys.stop.is_set()
        t0 = time.monotonic()
        xdotool("key", "shift+F8")
        assert keys.stop.wait(1.0)
        # xdotool's own start-up is inside this; a stop may take 100 ms.
        assert start_latency < 0.1 and time.monotonic() - t0 < 0.1
    finally:
        keys.close()


def test_hotkeys_work_with_caps_and_num_lock_on(xvfb: str) -> None:
    keys = X11Hotkeys("F7", "F8")
    try:
        xdotool("key", "Caps_Lock", "Num_Lock")
        xdotool("key", "F8")
        assert keys.stop.wait(1.0)
    finally:
        xdotool("key", "Caps_Lock", "Num_Lock")
        keys.close()


def test_a_key_held_elsewhere_is_refused_and_close_lets_it_go(xvfb: str) -> None:
    first = X11Hotkeys("F7", "F8")
    try:
        with pytest.raises(HotkeyError, match="already holds F8 as"):
            X11Hotkeys("F8", "F11")
    finally:
        first.close()
    again = X11Hotkeys("F8", "F11")  # released by close()
    try:
        xdotool("key", "F8")
        assert again.start.wait(1.0)
    finally:
        again.close()


def test_bad_hotkeys_are_refused(xvfb: str) -> None:
    with pytest.raises(HotkeyError, match="same key"):
        X11Hotkeys("F9", "f9")
    with pytest.raises(HotkeyError, match="unknown key 'notakey'"):
        X11Hotkeys("notakey", "F10")
    with pytest.raises(HotkeyError, match="not a modifier"):
        X11Hotkeys("F9", "a+F10")


def test_the_stop_key_stops_a_player(xvfb: str) -> None:
    keys = X11Hotkeys("F9", "F10")
    sim = expert_sim(21)
    pressed: list[tuple[int, float]] = []
    plain_click = sim.on_click

    def on_click(x: int, y: int, button: Button) -> None:
        plain_click(x, y, button)
        if len(sim.clicks) == 3:
            xdotool("key", "F10")
            pressed.append((len(sim.clicks), time.monotonic()))

    sim.on_click = on_click  # type: ignore[method-assign]
    player = Player(
        SimReader(sim.grid, sim.game.mines), sim.capture(), sim.mouse(), keys, settings=FAST
    )
    try:
        xdotool("key", "F9")
        assert keys.start.wait(1.0)
        outcome = player.run()
        stopped_at = time.monotonic()
    finally:
        keys.close()
    assert outcome.user_stop and outcome.stopped == "stopped by the stop key"
    assert not outcome.games
    ((clicks_then, t_press),) = pressed
    assert stopped_at - t_press < 0.1
    assert len(sim.clicks) - clicks_then <= 2


def test_xtest_mouse_moves_clicks_types_and_stops_in_a_corner(xvfb: str) -> None:
    mouse = X11Mouse((0, 0, 1920, 1080))
    keys = X11Hotkeys("F7", "ctrl+F8")
    try:
        mouse.move(640, 480)
        assert mouse.position() == (640, 480)
        loc = dict(kv.split(":") for kv in xdotool("getmouselocation").split()[:2])
        assert (int(loc["x"]), int(loc["y"])) == (640, 480)
        mouse.click(700, 500, "right")
        assert mouse.position() == (700, 500)
        mouse.key("F7")
        assert keys.start.wait(1.0)
        mouse.key("ctrl+F8")
        assert keys.stop.wait(1.0)
        with pytest.raises(ValueError, match="unknown key"):
            mouse.key("notakey")
        xdotool("mousemove", "0", "1079")
        with pytest.raises(FailSafe):
            mouse.click(640, 480)
        assert mouse.position() == (0, 1079)
    finally:
        xdotool("mousemove", "100", "100")  # out of the corner for the next test
        keys.close()
        mouse.close()


def test_xtest_mouse_clicks_with_a_modifier_held_and_lets_it_go(xvfb: str) -> None:
    from Xlib import X, display

    disp = display.Display()
    root = disp.screen().root
    win = root.create_window(
        0, 0, 400, 300, 0, disp.screen().root_depth, event_mask=X.ButtonPressMask
    )
    win.map()
    disp.sync()
    mouse = X11Mouse((0, 0, 1920, 1080))
    try:
        time.sleep(0.2)  # the window is mapped before the click
        mouse.click(200, 150, "left", ("ctrl",))
        mouse.click(210, 150, "left")
        states = []
        deadline = time.monotonic() + 2.0
        while len(states) < 2 and time.monotonic() < deadline:
            if disp.pending_events():
                ev = disp.next_event()
                if ev.type == X.ButtonPress:
                    states.append((ev.detail, ev.event_x, bool(ev.state & X.ControlMask)))
            else:
                time.sleep(0.01)
        assert states == [(1, 200, True), (1, 210, False)]
        with pytest.raises(ValueError, match="modifier"):
            mouse.click(200, 150, "left", ("hyper",))
    finally:
        mouse.close()
        win.destroy()
        disp.close()
