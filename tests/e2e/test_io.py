"""The io backends on a real X screen: capture, the pynput mouse with its corner fail-safe,
keys, and global hotkeys (the Linux backends: test_x11keys.py)."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from msolver.io.backends import open_hotkeys, open_mouse
from msolver.io.capture import CaptureError, open_capture
from msolver.io.hotkeys import HotkeyError, PynputHotkeys
from msolver.io.mouse import FailSafe, PynputMouse

pytestmark = pytest.mark.display


def xdotool(*args: str) -> str:
    return subprocess.run(
        ["xdotool", *args], check=True, capture_output=True, text=True, env=dict(os.environ)
    ).stdout


def pointer() -> tuple[int, int]:
    vals = dict(kv.split(":") for kv in xdotool("getmouselocation").split()[:2])
    return int(vals["x"]), int(vals["y"])


def test_capture_grabs_the_whole_screen_and_clips_regions(xvfb: str) -> None:
    cap = open_capture()
    try:
        assert cap.screen() == (0, 0, 1920, 1080)
        assert cap.grab().shape == (1080, 1920, 3)
        assert cap.grab((1900, 1070, 50, 50)).shape == (10, 20, 3)  # clipped to the screen
        with pytest.raises(CaptureError, match="outside the screen"):
            cap.grab((3000, 0, 10, 10))
    finally:
        cap.close()


def test_no_display_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from msolver.io.mouse import MouseError

    monkeypatch.setenv("DISPLAY", ":1999")
    with pytest.raises(CaptureError):
        open_capture()
    with pytest.raises(MouseError, match="cannot open the X display ':1999'"):
        open_mouse("auto")
    with pytest.raises(HotkeyError, match="cannot open the X display ':1999'"):
        open_hotkeys()
    monkeypatch.delenv("DISPLAY")
    with pytest.raises(MouseError, match="DISPLAY"):
        open_mouse("pynput")
    with pytest.raises(MouseError, match="DISPLAY"):
        open_mouse("auto")
    with pytest.raises(HotkeyError, match="DISPLAY"):
        PynputHotkeys()
    with pytest.raises(HotkeyError, match="DISPLAY"):
        open_hotkeys()


def need_pynput() -> None:
    # pynput is the backend of Windows and macOS; on Linux it is an extra
    # (`msolver[pynput]`, evdev needs a compiler) that a test venv may lack.
    pytest.importorskip("pynput", reason="pynput is not installed (Linux uses x11keys)")


def test_mouse_moves_and_the_screen_corner_stops_it(xvfb: str) -> None:
    need_pynput()
    mouse = open_mouse("pynput", (0, 0, 1920, 1080))
    assert isinstance(mouse, PynputMouse)
    mouse.move(640, 480)
    assert pointer() == (640, 480) == mouse.position()
    # A person throws the pointer into a corner: the next action refuses.
    xdotool("mousemove", "1919", "0")
    with pytest.raises(FailSafe):
        mouse.click(640, 480)
    assert pointer() == (1919, 0)
    xdotool("mousemove", "100", "100")
    mouse.move(200, 200)
    assert pointer() == (200, 200)


def test_hotkeys_see_keys_pressed_anywhere(xvfb: str) -> None:
    need_pynput()
    keys = PynputHotkeys("F7", "shift+F8")
    try:
        assert not keys.start.is_set() and not keys.stop.is_set()
        t0 = time.monotonic()
        xdotool("key", "F7")
        assert keys.start.wait(2.0)
        xdotool("key", "shift+F8")
        assert keys.stop.wait(2.0)
        # Well within the 100 ms a stop may take (xdotool's own start included).
        assert time.monotonic() - t0 < 1.0
    finally:
        keys.close()
        # pynput's Xorg listener thread ends at the next key it records after
        # stop() (a daemon thread: a process just exits); end it here, before
        # this session's display goes away under it.
        xdotool("key", "shift")
    with pytest.raises(HotkeyError, match="same key"):
        PynputHotkeys("F9", "f9")


def test_grab_is_rgb(xvfb: str) -> None:
    # xdemineur's face is yellow: red and green high, blue low. Swapped
    # channels (mss gives BGRA) would make it light blue.
    from msolver.app.wizard import find_face
    from msolver.vision.grid import find_grid
    from tests.support import xgames

    if not xgames.available("xdemineur"):
        if os.environ.get("MSOLVER_REQUIRE_DISPLAY") == "1":
            pytest.fail("xdemineur is not installed")
        pytest.skip("xdemineur is not installed")
    win = xgames.launch("xdemineur", xvfb)
    cap = open_capture()
    try:
        img = cap.grab()
        grid = find_grid(img)
        rect = (
            int(grid.origin[0]),
            int(grid.origin[1]),
            int(grid.cols * grid.pitch[0]),
            int(grid.rows * grid.pitch[1]),
        )
        face = find_face(img, rect, (0, 0))
        assert face is not None
        r, g, b = (int(v) for v in img[face[1], face[0]])
        assert r > 150 and g > 150 and b < 100
    finally:
        cap.close()
        win.close()
