"""Global start/stop hotkeys: pynput's GlobalHotKeys (Windows, macOS), X11 grabs
(Linux, in x11keys: pynput needs a C build there), and a fake for tests.

The player never uses Ctrl+C as its stop key: the terminal may not have the
focus while the bot holds the mouse. A global hotkey works wherever the
focus is. Both sides only set `threading.Event`s, which the player polls
between clicks, so a stop lands within one click (a few milliseconds).
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any, Protocol

from msolver.io.mouse import split_combo


class HotkeyError(RuntimeError):
    """Global hotkeys cannot be listened to here."""


class Hotkeys(Protocol):
    start: threading.Event
    stop: threading.Event

    def close(self) -> None: ...


def pynput_combo(combo: str) -> str:
    """ "F9" -> "<f9>", "ctrl+shift+s" -> "<ctrl>+<shift>+s" (pynput's hotkey syntax)."""
    return "+".join(p if len(p) == 1 else f"<{p}>" for p in split_combo(combo))


class FakeHotkeys:
    """Events only; a test sets them (or calls `press_after`)."""

    def __init__(self, *, started: bool = False) -> None:
        self.start = threading.Event()
        self.stop = threading.Event()
        if started:
            self.start.set()

    def press_after(self, seconds: float, which: str = "stop") -> threading.Timer:
        event = self.stop if which == "stop" else self.start
        timer = threading.Timer(seconds, event.set)
        timer.daemon = True
        timer.start()
        return timer

    def close(self) -> None:
        pass


class PynputHotkeys:
    """Listens for the start and stop keys anywhere on the desktop."""

    def __init__(self, start_key: str = "F9", stop_key: str = "F10") -> None:
        if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
            raise HotkeyError("no X display: DISPLAY is not set")
        start_combo, stop_combo = pynput_combo(start_key), pynput_combo(stop_key)
        if start_combo == stop_combo:
            raise HotkeyError(f"start and stop hotkeys are the same key ({start_key})")
        self.start = threading.Event()
        self.stop = threading.Event()
        try:
            from pynput import keyboard

            self._listener: Any = keyboard.GlobalHotKeys(
                {start_combo: self.start.set, stop_combo: self.stop.set}
            )
            self._listener.start()
            self._listener.wait()
        except ValueError as exc:
            raise HotkeyError(f"bad hotkey: {exc}") from exc
        except Exception as exc:
            raise HotkeyError(f"cannot listen for global hotkeys: {exc}") from exc

    def close(self) -> None:
        self._listener.stop()
