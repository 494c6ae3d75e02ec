"""What the player needs besides the reading: where the pointer rests, how a game starts.

`park_point` is where the pointer rests off the board while the screen is
grabbed; `NewGame` is how the game starts a new round (the one parser and
printer of the new-game notation, used by calibrate, the wizard and play).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from msolver.io.capture import Region
from msolver.io.mouse import split_combo
from msolver.vision.geometry import Grid


def park_point(grid: Grid, screen: Region) -> tuple[int, int]:
    """A point just off the board, on the screen and off its corners.

    The pointer rests there while the screen is grabbed (some games
    light up the hovered cell). Close to the board so it most likely
    stays over the game's own window, which keeps keyboard focus for a
    new-game key on desktops where focus follows the pointer.
    """
    left, top, width, height = grid.rect()
    gap = max(3, int(min(grid.pitch) / 2))
    sl, st, sw, sh = screen
    candidates = [
        (left - gap, top + height // 2),
        (left + width + gap, top + height // 2),
        (left + width // 2, top + height + gap),
        (left + width // 2, top - gap),
    ]
    for x, y in candidates:
        if sl < x < sl + sw - 1 and st < y < st + sh - 1:
            return (x, y)
    raise ValueError("the board fills the whole screen: nowhere to rest the pointer")


_CLICK_RE = re.compile(r"^(click|menu):\s*(-?\d+)\s*,\s*(-?\d+)$")


@dataclass(frozen=True, slots=True)
class NewGame:
    """How a new game starts: a key combination, a click on a button (screen px),
    or a click on a button of a menu the game shows over the board once a game
    has ended ("menu": sent only while that menu hides the board, never on a
    board that shows; minesweeper-mvc's only way to a new game)."""

    kind: Literal["key", "click", "menu"]
    key: str = ""
    x: int = 0
    y: int = 0

    @classmethod
    def parse(cls, text: str) -> NewGame:
        """ "n", "ctrl+n", "F2", "click:X,Y" or "menu:X,Y"; ValueError naming the problem."""
        m = _CLICK_RE.match(text.strip())
        if m:
            kind: Literal["click", "menu"] = "menu" if m.group(1) == "menu" else "click"
            return cls(kind, x=int(m.group(2)), y=int(m.group(3)))
        for word in ("click", "menu"):
            if text.strip().startswith(word):
                raise ValueError(f"new-game action {text!r}: expected {word}:X,Y with whole pixels")
        split_combo(text)
        return cls("key", key=text.strip())

    @property
    def clicks(self) -> bool:
        """Whether the action is a click (on a button or a menu's)."""
        return self.kind != "key"

    def __str__(self) -> str:
        return self.key if self.kind == "key" else f"{self.kind}:{self.x},{self.y}"
