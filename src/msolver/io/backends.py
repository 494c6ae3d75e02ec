"""Which input backend runs here: one factory each for the mouse and the hotkeys.

The backends (pynput, pyautogui, X11 through python-xlib) live beside their
interfaces in `io.mouse`, `io.hotkeys` and `io.x11keys`; choosing between
them needs all of them, so the choice sits here, above them, and no backend
module imports another's factory (python-mss chooses its backend the same
way, in one factory).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable

from msolver.io.hotkeys import Hotkeys, PynputHotkeys
from msolver.io.mouse import Mouse, MouseError, PyAutoGuiMouse, PynputMouse


def open_hotkeys(start_key: str = "F9", stop_key: str = "F10") -> Hotkeys:
    """The global hotkeys of this OS; HotkeyError naming why they cannot run."""
    if sys.platform.startswith("linux"):
        from msolver.io.x11keys import X11Hotkeys

        return X11Hotkeys(start_key, stop_key)
    return PynputHotkeys(start_key, stop_key)


def open_mouse(backend: str = "auto", screen: tuple[int, int, int, int] | None = None) -> Mouse:
    """The OS mouse; MouseError naming why no backend runs.

    auto: on Linux X11Mouse (XTEST); elsewhere pynput moves and clicks (a
    third of pyautogui's time per click, measured: 0.31 vs 0.87 ms), keys go
    through pyautogui when it is installed (see PyAutoGuiMouse.key).
    """
    with contextlib.suppress(ImportError):
        import mss  # noqa: F401  (DPI awareness on Windows, see module doc)
    errors: list[str] = []
    if backend == "x11" or (backend == "auto" and sys.platform.startswith("linux")):
        # pynput needs evdev (a C build) on Linux; XTEST through python-xlib does not.
        from msolver.io.x11keys import X11Mouse

        return X11Mouse(screen)
    if backend == "auto":
        try:
            keys: Callable[[str], None] | None = PyAutoGuiMouse().key
        except MouseError:
            keys = None
        try:
            return PynputMouse(screen, keys)
        except MouseError as exc:
            errors.append(str(exc))
    if backend in ("auto", "pyautogui"):
        try:
            return PyAutoGuiMouse()
        except MouseError as exc:
            errors.append(str(exc))
    if backend == "pynput":
        try:
            return PynputMouse(screen)
        except MouseError as exc:
            errors.append(str(exc))
    if not errors:
        raise MouseError(
            f"unknown mouse backend {backend!r} (expected auto, x11, pyautogui, pynput)"
        )
    raise MouseError("; ".join(errors))
