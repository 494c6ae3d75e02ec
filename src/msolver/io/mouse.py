"""Mouse (and the few keys a new game needs): an interface, two OS backends, a fake.

The backends move the real pointer, so each action first runs the corner
fail-safe: a user who throws the pointer into a screen corner stops the bot
at its next action (a few milliseconds). pyautogui has that built in; the
pynput backend checks the corners itself.

On Windows, mss makes the process DPI-aware when it is imported, so capture
and clicks agree on physical pixels at any display scaling; `open_mouse`
imports mss first for that reason.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

Button = Literal["left", "right", "middle"]
BUTTONS: tuple[Button, ...] = ("left", "right", "middle")
# Keys a click may hold down: some games flag on ctrl/alt/shift + left click
# (a right click opens a browser's context menu over a web game).
MODIFIERS: tuple[str, ...] = ("ctrl", "alt", "shift")


class MouseError(RuntimeError):
    """No mouse backend can run here (no display, missing library)."""


class FailSafe(RuntimeError):
    """The user moved the pointer into a screen corner: stop at once."""


class Mouse(Protocol):
    def move(self, x: int, y: int) -> None: ...

    def click(self, x: int, y: int, button: Button = "left", mods: tuple[str, ...] = ()) -> None:
        """Click `button` at (x, y) with the modifier keys `mods` (from MODIFIERS) held."""
        ...

    def key(self, combo: str) -> None:
        """Press a key combination such as "n", "ctrl+n" or "F2"."""
        ...

    def position(self) -> tuple[int, int]: ...


def split_combo(combo: str) -> list[str]:
    """ "ctrl+n" -> ["ctrl", "n"]; names lower-cased ("F2" -> "f2"); "+" alone is the plus key."""
    text = combo.strip()
    if not text:
        raise ValueError("empty key combination")
    if text == "+":
        return ["+"]
    parts = [p.strip() for p in text.split("+")]
    if any(not p for p in parts):
        raise ValueError(f"bad key combination {combo!r} (expected e.g. n, ctrl+n, F2)")
    return [p if len(p) == 1 else p.lower() for p in parts]


def parse_click(action: str) -> tuple[Button, tuple[str, ...]]:
    """ "ctrl+left" -> ("left", ("ctrl",)); "right" -> ("right", ()); ValueError if bad."""
    try:
        *mods, button = split_combo(action)
    except ValueError as exc:
        raise ValueError(f"bad click {action!r} (expected e.g. right, ctrl+left)") from exc
    if button not in BUTTONS:
        raise ValueError(f"bad click {action!r}: {button!r} is not a mouse button")
    for m in mods:
        if m not in MODIFIERS:
            raise ValueError(f"bad click {action!r}: {m!r} is not one of {', '.join(MODIFIERS)}")
    return button, tuple(mods)


def join_combo(parts: list[str]) -> str:
    """["ctrl", "n"] -> "ctrl+n": the printer `split_combo` reads back."""
    return "+".join(parts)


def check_mods(mods: tuple[str, ...]) -> None:
    for m in mods:
        if m not in MODIFIERS:
            raise ValueError(f"{m!r} is not a modifier a click can hold ({', '.join(MODIFIERS)})")


@dataclass(frozen=True, slots=True)
class Action:
    """One recorded action of the fake mouse."""

    kind: Literal["move", "click", "key"]
    x: int = 0
    y: int = 0
    button: Button | None = None
    combo: str = ""
    mods: tuple[str, ...] = ()


class RecordingMouse:
    """A fake mouse for tests: records every action; `on_click` lets a test react.

    `on_click(x, y, button)` runs after a click is recorded, e.g. to apply it
    to a simulated game. `fail_after` raises FailSafe at that action count,
    as a user throwing the pointer into a corner would.
    """

    def __init__(
        self,
        on_click: Any = None,
        on_key: Any = None,
        fail_after: int | None = None,
    ) -> None:
        self.actions: list[Action] = []
        self._pos = (0, 0)
        self._on_click = on_click
        self._on_key = on_key
        self._fail_after = fail_after

    def _check(self) -> None:
        if self._fail_after is not None and len(self.actions) >= self._fail_after:
            raise FailSafe("pointer moved into a screen corner")

    def move(self, x: int, y: int) -> None:
        self._check()
        self.actions.append(Action("move", x, y))
        self._pos = (x, y)

    def click(self, x: int, y: int, button: Button = "left", mods: tuple[str, ...] = ()) -> None:
        self._check()
        check_mods(mods)
        self.actions.append(Action("click", x, y, button, mods=tuple(mods)))
        self._pos = (x, y)
        if self._on_click is not None:
            self._on_click(x, y, button)

    def key(self, combo: str) -> None:
        self._check()
        split_combo(combo)
        self.actions.append(Action("key", combo=combo))
        if self._on_key is not None:
            self._on_key(combo)

    def position(self) -> tuple[int, int]:
        return self._pos

    @property
    def clicks(self) -> list[Action]:
        return [a for a in self.actions if a.kind == "click"]


class PyAutoGuiMouse:
    """pyautogui with PAUSE = 0 (its default 0.1 s pause adds ~40 s to an expert game)."""

    def __init__(self) -> None:
        if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
            raise MouseError("no X display: DISPLAY is not set")
        try:
            import pyautogui
        except ImportError as exc:
            # An optional extra: its sdist-only dependencies are not everyone's.
            raise MouseError("pyautogui is not installed: pip install pyautogui") from exc
        except SystemExit as exc:
            # Without tkinter, a module pyautogui imports calls sys.exit().
            raise MouseError(
                f"pyautogui cannot start here (is python3-tk installed?): {exc}"
            ) from exc
        except Exception as exc:
            raise MouseError(f"pyautogui cannot start here: {exc}") from exc
        pyautogui.PAUSE = 0
        pyautogui.FAILSAFE = True
        pyautogui.MINIMUM_DURATION = 0
        self._pg: Any = pyautogui

    def _run(self, fn: Any, *args: Any, **kwargs: Any) -> None:
        try:
            fn(*args, **kwargs)
        except self._pg.FailSafeException as exc:
            raise FailSafe("pointer moved into a screen corner (pyautogui fail-safe)") from exc

    def move(self, x: int, y: int) -> None:
        self._run(self._pg.moveTo, x, y, _pause=False)

    def click(self, x: int, y: int, button: Button = "left", mods: tuple[str, ...] = ()) -> None:
        check_mods(mods)
        held: list[str] = []
        try:
            for m in mods:
                self._run(self._pg.keyDown, m, _pause=False)
                held.append(m)
            self._run(self._pg.click, x, y, button=button, _pause=False)
        finally:
            # A modifier left down would turn the user's own typing into shortcuts.
            # pyautogui's fail-safe check runs on a key release too: off for it,
            # so a pointer in a corner cannot leave a key down.
            safe, self._pg.FAILSAFE = self._pg.FAILSAFE, False
            try:
                for m in reversed(held):
                    self._pg.keyUp(m, _pause=False)
            finally:
                self._pg.FAILSAFE = safe

    def key(self, combo: str) -> None:
        # pyautogui sends the server's own keycode for the key; pynput may
        # remap a spare keycode instead, which GTK games ignored (measured).
        self._run(self._pg.hotkey, *split_combo(combo), _pause=False)

    def position(self) -> tuple[int, int]:
        x, y = self._pg.position()
        return (int(x), int(y))


class PynputKeys:
    """Key combinations through pynput's keyboard controller."""

    def __init__(self) -> None:
        try:
            from pynput import keyboard
        except Exception as exc:
            raise MouseError(f"pynput cannot start here: {exc}") from exc
        self._kb: Any = keyboard
        self._ctl: Any = keyboard.Controller()

    def down(self, name: str) -> None:
        self._ctl.press(self._key(name))

    def up(self, name: str) -> None:
        self._ctl.release(self._key(name))

    def _key(self, name: str) -> Any:
        if len(name) == 1:
            return name
        alias = {"control": "ctrl", "return": "enter", "escape": "esc"}.get(name, name)
        try:
            return getattr(self._kb.Key, alias)
        except AttributeError as exc:
            raise ValueError(f"unknown key {name!r}") from exc

    def press(self, combo: str) -> None:
        keys = []
        for name in split_combo(combo):
            if len(name) == 1:
                keys.append(name)
                continue
            alias = {"control": "ctrl", "return": "enter", "escape": "esc"}.get(name, name)
            try:
                keys.append(getattr(self._kb.Key, alias))
            except AttributeError as exc:
                raise ValueError(f"unknown key {name!r} in {combo!r}") from exc
        for k in keys:
            self._ctl.press(k)
            # Games read a key that is down for a moment; a press and release
            # in the same instant was dropped now and then (measured: sgt-mines).
            time.sleep(0.015)
        for k in reversed(keys):
            self._ctl.release(k)


class PynputMouse:
    """pynput's controllers; the corner fail-safe is checked here by hand."""

    def __init__(
        self,
        screen: tuple[int, int, int, int] | None = None,
        keys: Callable[[str], None] | None = None,
    ) -> None:
        if sys.platform.startswith("linux") and not os.environ.get("DISPLAY"):
            raise MouseError("no X display: DISPLAY is not set")
        try:
            from pynput import mouse
        except ImportError as exc:
            raise MouseError("pynput is not installed: pip install pynput") from exc
        except Exception as exc:
            raise MouseError(f"pynput cannot start here: {exc}") from exc
        self._mouse: Any = mouse.Controller()
        self._keys: PynputKeys | None = None if keys is not None else PynputKeys()
        self._press = keys if keys is not None else self._board_keys().press
        self._buttons: dict[str, Any] = {
            "left": mouse.Button.left,
            "right": mouse.Button.right,
            "middle": mouse.Button.middle,
        }
        self._corners: set[tuple[int, int]] = set()
        if screen is not None:
            left, top, width, height = screen
            right, bottom = left + width - 1, top + height - 1
            self._corners = {(left, top), (right, top), (left, bottom), (right, bottom)}

    def _board_keys(self) -> PynputKeys:
        if self._keys is None:
            self._keys = PynputKeys()
        return self._keys

    def _check(self) -> None:
        if self.position() in self._corners:
            raise FailSafe("pointer moved into a screen corner")

    def move(self, x: int, y: int) -> None:
        self._check()
        self._mouse.position = (x, y)

    def click(self, x: int, y: int, button: Button = "left", mods: tuple[str, ...] = ()) -> None:
        self._check()
        check_mods(mods)
        self._mouse.position = (x, y)
        keys = self._board_keys() if mods else None
        held: list[str] = []
        try:
            for m in mods:
                assert keys is not None
                keys.down(m)
                held.append(m)
            self._mouse.click(self._buttons[button])
        finally:
            for m in reversed(held):
                assert keys is not None
                keys.up(m)

    def key(self, combo: str) -> None:
        self._check()
        self._press(combo)

    def position(self) -> tuple[int, int]:
        x, y = self._mouse.position
        return (int(x), int(y))
