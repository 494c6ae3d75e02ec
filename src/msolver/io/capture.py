"""Screen capture: an interface, the mss backend, and a recorded-screens fake.

Images are RGB uint8 arrays (H, W, 3), the convention of `msolver.vision`.

Two frames, kept apart:
- *points*: the operating system's screen coordinates, which regions are
  asked in and the mouse clicks in. With several monitors the screen spans
  all of them and may start at a negative left/top (mss monitor 0).
- *pixels*: what a grab returns. On macOS Retina a grab has two pixels per
  point; on Linux and on Windows (mss makes the process DPI-aware) one.
  A whole-screen pixel frame has x_px = x_pt * scale, so a grab of region
  (left, top, ...) starts at pixel (round(left * scale), round(top * scale)).

Each capture reports its `scale()` (pixels per point), measured from a grab's
size against the requested region's size. `ScreenScale` is the one converter
between the frames; a profile's grid is in whole-screen pixels.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

# (left, top, width, height): in points for a grab, in pixels where a name says so.
Region = tuple[int, int, int, int]


class CaptureError(RuntimeError):
    """The screen cannot be grabbed (no display, region off the screen...)."""


class Capture(Protocol):
    def screen(self) -> Region:
        """The bounding box of all monitors."""
        ...

    def grab(self, region: Region | None = None) -> npt.NDArray[np.uint8]:
        """RGB pixels of `region` (points), or of the whole screen when None."""
        ...

    def scale(self) -> float:
        """Pixels per point, measured from a grab's size against the region asked for."""
        ...

    def close(self) -> None: ...


def measured_scale(pixels: int, points: int) -> float:
    """Pixels per point from a grab `pixels` wide of a region `points` wide.

    Display scales come in quarters (100%, 125%, 150%, 200%); a grab of a
    region whose edges fall between pixels is a pixel wider or narrower than
    scale x width, so a measure within 1% of a quarter is that quarter.
    """
    if points <= 0 or pixels <= 0:
        raise CaptureError(f"cannot measure the screen's scale from a {pixels} px grab")
    raw = pixels / points
    quarter = round(raw * 4) / 4
    return quarter if quarter > 0 and abs(raw - quarter) <= 0.01 * quarter else raw


@dataclass(frozen=True, slots=True)
class ScreenScale:
    """The one conversion between capture pixels (whole-screen frame) and points."""

    scale: float = 1.0

    def to_points(self, x: float, y: float) -> tuple[int, int]:
        """The point nearest pixel position (x, y): where to click to hit it."""
        if self.scale == 1.0:
            return (int(x), int(y))
        return (math.floor(x / self.scale + 0.5), math.floor(y / self.scale + 0.5))

    def to_pixels(self, x: float, y: float) -> tuple[float, float]:
        return (x * self.scale, y * self.scale)

    def screen_pixels(self, screen: Region) -> Region:
        """A region in points (the screen) as pixels of the whole-screen frame."""
        left, top, width, height = screen
        x0, y0 = round(left * self.scale), round(top * self.scale)
        return (
            x0,
            y0,
            round((left + width) * self.scale) - x0,
            round((top + height) * self.scale) - y0,
        )

    def region_for(self, rect: Region) -> tuple[Region, tuple[int, int]]:
        """The region in points to grab for pixel rectangle `rect`, and where the
        grab's top-left pixel lies in the whole-screen pixel frame (crop from there)."""
        left, top, width, height = rect
        s = self.scale
        x0, y0 = math.floor(left / s), math.floor(top / s)
        x1, y1 = math.ceil((left + width) / s), math.ceil((top + height) / s)
        return (x0, y0, x1 - x0, y1 - y0), (round(x0 * s), round(y0 * s))


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
        self._scale: float | None = None

    def screen(self) -> Region:
        return self._screen

    def scale(self) -> float:
        if self._scale is None:
            self.grab()
        assert self._scale is not None
        return self._scale

    def grab(self, region: Region | None = None) -> npt.NDArray[np.uint8]:
        left, top, width, height = _clip(region or self._screen, self._screen)
        try:
            shot = self._sct.grab({"left": left, "top": top, "width": width, "height": height})
        except Exception as exc:
            raise CaptureError(f"screen grab failed: {exc}") from exc
        bgra = np.frombuffer(shot.bgra, dtype=np.uint8).reshape(shot.height, shot.width, 4)
        if self._scale is None or width >= 64:
            # Big grabs measure best (a region edge between pixels is one
            # pixel off); the first grab measures at all.
            self._scale = measured_scale(int(shot.width), width)
        # mss gives BGRA; the vision API takes RGB.
        return np.ascontiguousarray(bgra[:, :, 2::-1])

    def close(self) -> None:
        self._sct.close()


class RecordedCapture:
    """A fake screen: recorded full-screen images, or a function drawing the screen.

    With a list, each `grab` advances to the next image and the last one
    repeats. With a callable, every grab calls it, so a test can draw a
    simulated game's current state. `grabs` counts calls.

    The images are in pixels; with `scale` s the screen is their size / s
    points from `origin` (points), as on a scaled display: a region asked in
    points comes back s times as many pixels.
    """

    def __init__(
        self,
        frames: Sequence[npt.NDArray[np.uint8]] | Callable[[], npt.NDArray[np.uint8]],
        origin: tuple[int, int] = (0, 0),
        scale: float = 1.0,
    ) -> None:
        self._frames = frames
        self._next = 0
        self.origin = origin
        self.grabs = 0
        self._s = scale
        self._measured: float | None = None

    def _current(self) -> npt.NDArray[np.uint8]:
        if callable(self._frames):
            return self._frames()
        if not self._frames:
            raise CaptureError("no recorded screens")
        img = self._frames[min(self._next, len(self._frames) - 1)]
        self._next += 1
        return img

    def _screen_of(self, img: npt.NDArray[np.uint8]) -> Region:
        w, h = int(img.shape[1]), int(img.shape[0])
        if self._s != 1.0:
            w, h = math.floor(w / self._s), math.floor(h / self._s)
        return (self.origin[0], self.origin[1], w, h)

    def screen(self) -> Region:
        return self._screen_of(self._peek())

    def scale(self) -> float:
        if self._measured is None:
            img = self._peek()
            return measured_scale(int(img.shape[1]), self._screen_of(img)[2])
        return self._measured

    def _peek(self) -> npt.NDArray[np.uint8]:
        if callable(self._frames):
            return self._frames()
        return self._frames[min(self._next, len(self._frames) - 1)]

    def grab(self, region: Region | None = None) -> npt.NDArray[np.uint8]:
        self.grabs += 1
        img = self._current()
        screen = self._screen_of(img)
        left, top, width, height = _clip(region or screen, screen)
        x, y = left - self.origin[0], top - self.origin[1]
        if self._s != 1.0:
            s = self._s
            x0, y0 = round(x * s), round(y * s)
            out = img[y0 : round((y + height) * s), x0 : round((x + width) * s)]
        else:
            out = img[y : y + height, x : x + width]
        if width >= 64 or self._measured is None:
            self._measured = measured_scale(int(out.shape[1]), width)
        return np.ascontiguousarray(out)

    def close(self) -> None:
        pass


def open_capture(display: str | None = None) -> Capture:
    """The real screen; raises CaptureError with the reason when there is none."""
    return MssCapture(display)
