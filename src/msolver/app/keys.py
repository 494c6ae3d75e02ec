"""Key names a command accepts, checked before any screen or keyboard is opened.

The names are those every input backend understands (the X11 one and
pynput's): a single character, or one of KEY_NAMES, joined by '+'.
"""

from __future__ import annotations

from msolver.app.errors import CommandError
from msolver.io.mouse import split_combo

KEY_NAMES: frozenset[str] = frozenset(
    {
        "ctrl", "control", "shift", "alt", "super", "win", "cmd",
        "enter", "return", "esc", "escape", "space", "tab", "backspace", "delete",
        "insert", "home", "end", "pageup", "pagedown", "up", "down", "left", "right",
        *(f"f{n}" for n in range(1, 25)),
    }
)  # fmt: skip


def check_combo(combo: str, opt: str) -> None:
    """CommandError (exit 2) naming `opt` unless `combo` is a key combination we can press."""
    try:
        parts = split_combo(combo)
    except ValueError as exc:
        raise CommandError(f"{opt}: {exc}") from exc
    for part in parts:
        if len(part) != 1 and part not in KEY_NAMES:
            raise CommandError(
                f"{opt} {combo!r}: {part!r} is not a key name (a single character, F1-F24, "
                "ctrl, shift, alt, enter, esc, space, tab, ...)"
            )
