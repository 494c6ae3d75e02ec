"""Screen capture: an interface, the mss backend, and a recorded-screens fake.

Images are RGB uint8 arrays (H, W, 3), the convention of `msolver.vision`.
Coordinates are virtual-screen pixels: with several monitors the screen
spans all of them and may start at a negative left/top (mss monitor 0).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

# (left, top, width, height) in virtual-screen pixels.
Region = tuple[int, int, int, int]


class CaptureError(RuntimeError):
    """The screen cannot be grabbed (no display, region off the screen...)."""


class Capture(Protocol):
    def screen(self) -> Region:
        """The bounding box of all monitors."""
        ...

    def grab(self, region: Region | None = None) -> npt.NDArray[np.uint8]:
        """RGB pixels of `region`, or of the whole screen when None."""
        ...

    def close(self) -> None: ...


def _clip(region: Region, screen: Region) -> Region:
    left, top, width, height = region
    sl, st, sw, sh = screen
    x0, y0 = max(left, sl), max(top, st)
    x1, y1 = min(left + width, sl + sw), min(top + height, st + sh)
    if x1 <= x0 or y1 <= y0:
        raise CaptureError(f"region {region} lies outside the screen {screen}")
    return (x0, y0, x1 - x0, y1 - y0)


class MssCapture:
    """Grabs with mss (about 1 ms for a full HD screen, 0.1 ms for a board)."""

    def __init__(self, display: str | None = None) -> None:
        try:
            import mss
        except ImportError as exc:  # pragma: no cover - declared dependency
            raise CaptureError(f"mss is not installed: {exc}") from exc
        kwargs: dict[str, Any] = {}
        if display is not None:
            kwargs["display"] = display
        try:
            self._sct: Any = mss.MSS(**kwargs)
            mon = self._sct.monitors[0]
        except Exception as exc:  # mss raises ScreenShotError or OSError variants
            raise CaptureError(f"cannot open the screen: {exc}") from exc
        self._screen: Region = (
            int(mon["left"]),
            int(mon["top"]),
            int(mon["width"]),
            int(mon["height"]),
        )

    def screen(self) -> Region:
        return self._screen

    def grab(self, region: Region | None = None) -> npt.NDArray[np.uint8]:
        left, top, width, height = _clip(region or self._screen, self._screen)
        try:
            shot = self._sct.grab({"left": left, "top": top, "width": width, "height": height})
        except Exception as exc:
            raise CaptureError(f"screen grab failed: {exc}") from exc
        bgra = np.frombuffer(shot.bgra, dtype=np.uint8).reshape(shot.height, shot.width, 4)
        # mss gives BGRA; the vision API takes RGB.
        return np.ascontiguousarray(bgra[:, :, 2::-1])

    def close(self) -> None:
        self._sct.close()


class RecordedCapture:
    """A fake screen: recorded full-screen images, or a function drawing the screen.

    With a list, each `grab` advances to the next image and the last one
    repeats. With a callable, every grab calls it, so a test can draw a
    simulated game's current state. `grabs` counts calls.
    """

    def __init__(
        self,
        frames: Sequence[npt.NDArray[np.uint8]] | Callable[[], npt.NDArray[np.uint8]],
        origin: tuple[int, int] = (0, 0),
    ) -> None:
        self._frames = frames
        self._next = 0
        self.origin = origin
        self.grabs = 0

    def _current(self) -> npt.NDArray[np.uint8]:
        if callable(self._frames):
            return self._frames()
        if not self._frames:
            raise CaptureError("no recorded screens")
        img = self._frames[min(self._next, len(self._frames) - 1)]
        self._next += 1
        return img

    def screen(self) -> Region:
        img = self._peek()
        return (self.origin[0], self.origin[1], int(img.shape[1]), int(img.shape[0]))

    def _peek(self) -> npt.NDArray[np.uint8]:
        if callable(self._frames):
            return self._frames()
        return self._frames[min(self._next, len(self._frames) - 1)]

    def grab(self, region: Region | None = None) -> npt.NDArray[np.uint8]:
        self.grabs += 1
        img = self._current()
        screen = (self.origin[0], self.origin[1], int(img.shape[1]), int(img.shape[0]))
        left, top, width, height = _clip(region or screen, screen)
        x, y = left - self.origin[0], top - self.origin[1]
        return np.ascontiguousarray(img[y : y + height, x : x + width])

    def close(self) -> None:
        pass


def open_capture(display: str | None = None) -> Capture:
    """The real screen; raises CaptureError with the reason when there is none."""
    return MssCapture(display)
