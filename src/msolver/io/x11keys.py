"""X11 input without pynput: global hotkeys by XGrabKey, mouse and keys by XTEST.

On Linux pynput needs `evdev`, which has no wheel and builds from C source,
so `pip install msolver` failed on a desktop without a compiler. Both halves
here use only python-xlib (a pure-Python wheel) and two standard X
extensions: XTEST (the same fake input xdotool and pynput send) and a passive
grab on the root window, which the X server honours wherever the focus is.

A grab also keeps the key from the focused window, so F10 no longer opens a
GTK game's menu as the player stops. If another client already grabs the key
(a desktop shortcut), the server refuses, and we say so instead of listening
to nothing.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
from typing import Any

from msolver.io.hotkeys import HotkeyError
from msolver.io.mouse import Button, FailSafe, MouseError, check_mods, split_combo

# Names split_combo yields (lower-cased) -> X keysym names.
_KEYSYM_NAMES = {
    "ctrl": "Control_L",
    "control": "Control_L",
    "shift": "Shift_L",
    "alt": "Alt_L",
    "super": "Super_L",
    "win": "Super_L",
    "cmd": "Super_L",
    "enter": "Return",
    "return": "Return",
    "esc": "Escape",
    "escape": "Escape",
    "space": "space",
    "tab": "Tab",
    "backspace": "BackSpace",
    "delete": "Delete",
    "insert": "Insert",
    "home": "Home",
    "end": "End",
    "pageup": "Prior",
    "pagedown": "Next",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    **{f"f{n}": f"F{n}" for n in range(1, 25)},
}

# Modifier names -> X modifier mask bits (values from X.h: Shift, Control, Mod1, Mod4).
_MODIFIER_MASKS = {
    "shift": 1 << 0,
    "ctrl": 1 << 2,
    "control": 1 << 2,
    "alt": 1 << 3,
    "super": 1 << 6,
    "win": 1 << 6,
    "cmd": 1 << 6,
}
_LOCK_MASK = 1 << 1  # Caps Lock
_MOD2_MASK = 1 << 4  # Num Lock on most keymaps
_RELEVANT = sum(set(_MODIFIER_MASKS.values()))

_BUTTONS: dict[str, int] = {"left": 1, "middle": 2, "right": 3}


def _open_display(fail: type[RuntimeError]) -> Any:
    if not os.environ.get("DISPLAY"):
        raise fail("no X display: DISPLAY is not set")
    try:
        from Xlib import display
    except ImportError as exc:
        raise fail(f"python-xlib is not installed: {exc}") from exc
    try:
        return display.Display()
    except Exception as exc:
        raise fail(f"cannot open the X display {os.environ['DISPLAY']!r}: {exc}") from exc


def keysym(name: str) -> int:
    """The X keysym for one key name from split_combo; ValueError naming an unknown key."""
    from Xlib import XK

    if len(name) == 1:
        # Latin-1 keysyms are the characters' own code points.
        sym = XK.string_to_keysym(name) or (ord(name) if ord(name) < 256 else 0)
    else:
        sym = XK.string_to_keysym(_KEYSYM_NAMES.get(name, name))
    if not sym:
        raise ValueError(f"unknown key {name!r}")
    return int(sym)


def _keycode(disp: Any, name: str, combo: str) -> int:
    code = int(disp.keysym_to_keycode(keysym(name)))
    if not code:
        raise ValueError(f"no key on this keyboard gives {name!r} (in {combo!r})")
    return code


def parse_hotkey(disp: Any, combo: str) -> tuple[int, int]:
    """(keycode, modifier mask) for a combination like "F9" or "ctrl+shift+s"."""
    parts = split_combo(combo)
    *mods, key = parts
    mask = 0
    for m in mods:
        if m not in _MODIFIER_MASKS:
            raise ValueError(f"{m!r} is not a modifier (ctrl, shift, alt, super) in {combo!r}")
        mask |= _MODIFIER_MASKS[m]
    return _keycode(disp, key, combo), mask


class X11Hotkeys:
    """The start and stop keys grabbed on the root window; a thread sets the events."""

    def __init__(self, start_key: str = "F9", stop_key: str = "F10") -> None:
        self.start = threading.Event()
        self.stop = threading.Event()
        self._disp = _open_display(HotkeyError)
        try:
            self._keys = self._grab(start_key, stop_key)
        except BaseException:
            self._disp.close()
            raise
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._run, name="msolver-hotkeys", daemon=True)
        self._thread.start()

    def _grab(self, start_key: str, stop_key: str) -> dict[tuple[int, int], threading.Event]:
        from Xlib import X, error

        try:
            start, stop = parse_hotkey(self._disp, start_key), parse_hotkey(self._disp, stop_key)
        except ValueError as exc:
            raise HotkeyError(f"bad hotkey: {exc}") from exc
        if start == stop:
            raise HotkeyError(f"start and stop hotkeys are the same key ({start_key})")
        root = self._disp.screen().root
        for (code, mask), name in ((start, start_key), (stop, stop_key)):
            catch = error.CatchError(error.BadAccess)
            # The grab matches modifiers exactly: also grab with Caps and Num Lock on.
            for extra in (0, _LOCK_MASK, _MOD2_MASK, _LOCK_MASK | _MOD2_MASK):
                root.grab_key(
                    code, mask | extra, False, X.GrabModeAsync, X.GrabModeAsync, onerror=catch
                )
            self._disp.sync()
            if catch.get_error() is not None:
                raise HotkeyError(f"another program already holds {name} as a global shortcut")
        return {start: self.start, stop: self.stop}

    def _run(self) -> None:
        from Xlib import X

        fd = self._disp.fileno()
        while True:
            ready, _, _ = select.select([fd, self._wake_r], [], [])
            if self._wake_r in ready:
                return
            try:
                while self._disp.pending_events():
                    ev = self._disp.next_event()
                    if ev.type == X.KeyPress:
                        hit = self._keys.get((ev.detail, ev.state & _RELEVANT))
                        if hit is not None:
                            hit.set()
            except Exception:
                # The connection died (the display went away): no more keys.
                return

    def close(self) -> None:
        if self._thread.is_alive():
            os.write(self._wake_w, b"x")
            self._thread.join(timeout=2.0)
        with contextlib.suppress(Exception):
            self._disp.screen().root.ungrab_key(0, 1 << 15)  # AnyKey, AnyModifier
            self._disp.close()
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)


class X11Mouse:
    """Pointer and keys through XTEST; the corner fail-safe is checked here by hand."""

    def __init__(self, screen: tuple[int, int, int, int] | None = None) -> None:
        self._disp = _open_display(MouseError)
        if not self._disp.has_extension("XTEST"):
            self._disp.close()
            raise MouseError("the X server lacks the XTEST extension (no fake input)")
        from Xlib import X
        from Xlib.ext import xtest

        self._X: Any = X
        self._fake: Any = xtest.fake_input
        self._root: Any = self._disp.screen().root
        if screen is None:
            geo = self._root.get_geometry()
            screen = (0, 0, int(geo.width), int(geo.height))
        left, top, width, height = screen
        right, bottom = left + width - 1, top + height - 1
        self._corners = {(left, top), (right, top), (left, bottom), (right, bottom)}

    def _check(self) -> None:
        if self.position() in self._corners:
            raise FailSafe("pointer moved into a screen corner")

    def _warp(self, x: int, y: int) -> None:
        self._fake(self._disp, self._X.MotionNotify, x=int(x), y=int(y))

    def move(self, x: int, y: int) -> None:
        self._check()
        self._warp(x, y)
        self._disp.sync()

    def click(self, x: int, y: int, button: Button = "left", mods: tuple[str, ...] = ()) -> None:
        self._check()
        check_mods(mods)
        codes = [_keycode(self._disp, m, "+".join(mods)) for m in mods]
        self._warp(x, y)
        try:
            for code in codes:
                self._fake(self._disp, self._X.KeyPress, code)
            self._fake(self._disp, self._X.ButtonPress, _BUTTONS[button])
            self._fake(self._disp, self._X.ButtonRelease, _BUTTONS[button])
        finally:
            # A modifier left down would turn the user's own typing into shortcuts.
            for code in reversed(codes):
                self._fake(self._disp, self._X.KeyRelease, code)
            self._disp.sync()

    def key(self, combo: str) -> None:
        self._check()
        codes = []
        for name in split_combo(combo):
            if len(name) == 1 and name.isupper():
                codes.append(_keycode(self._disp, "shift", combo))
            codes.append(_keycode(self._disp, name.lower() if len(name) == 1 else name, combo))
        for code in codes:
            self._fake(self._disp, self._X.KeyPress, code)
            self._disp.sync()
            # Games read a key that is down for a moment; a press and release
            # in the same instant was dropped now and then (measured: sgt-mines).
            time.sleep(0.015)
        for code in reversed(codes):
            self._fake(self._disp, self._X.KeyRelease, code)
        self._disp.sync()

    def position(self) -> tuple[int, int]:
        p = self._root.query_pointer()
        return (int(p.root_x), int(p.root_y))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._disp.close()
