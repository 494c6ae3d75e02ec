"""Image input checks shared by calibration and reading.

Convention: a 3-channel image is **RGB**; a 4-channel image is **BGRA**, as
`mss` returns it (``np.asarray(sct.grab(...))``), and is converted here. Pixels
are uint8, shape (height, width, channels).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from msolver.files import atomic_open

Image = npt.NDArray[np.uint8]


# The largest picture read: three 4K screens side by side, with room to
# spare. A bigger file is refused before it is decoded, since decoding
# 20000x20000 pixels takes over a gigabyte.
MAX_IMAGE_PIXELS = 64_000_000


class ImageError(ValueError):
    """An input that is not a usable image; one-line message naming it."""


def as_rgb(image: object, what: str = "image") -> Image:
    """Check an array is an image and return it as contiguous RGB uint8 (H, W, 3)."""
    if not isinstance(image, np.ndarray):
        raise ImageError(f"{what}: not an image array (got {type(image).__name__})")
    if image.ndim != 3 or image.shape[2] not in (3, 4):
        raise ImageError(f"{what}: expected HxWx3 (RGB) or HxWx4 (BGRA), got shape {image.shape}")
    if image.shape[0] == 0 or image.shape[1] == 0:
        raise ImageError(f"{what}: image is empty ({image.shape[1]}x{image.shape[0]})")
    if image.dtype != np.uint8:
        raise ImageError(f"{what}: expected uint8 pixels, got {image.dtype}")
    if image.shape[2] == 4:
        return np.ascontiguousarray(image[:, :, 2::-1])
    return np.ascontiguousarray(image)


def read_png(path: str | Path) -> Image:
    """Read an image file as RGB; ImageError when it is missing, too big or not an image."""
    import cv2

    p = Path(path)
    if p.is_dir():
        raise ImageError(f"{p}: is a directory, not an image file")
    if not p.is_file():
        raise ImageError(f"{p}: no such file")
    try:
        data = np.fromfile(p, dtype=np.uint8)
    except OSError as exc:
        raise ImageError(f"{p}: cannot read ({exc.strerror or exc})") from exc
    if data.size == 0:
        raise ImageError(f"{p}: file is empty")
    size = _png_size(data.tobytes()[:24])
    if size is not None and size[0] * size[1] > MAX_IMAGE_PIXELS:
        raise ImageError(
            f"{p}: a {size[0]}x{size[1]} image is over the limit of "
            f"{MAX_IMAGE_PIXELS // 1_000_000} million pixels"
        )
    img = _quiet_decode(cv2, data)
    if img is None:
        raise ImageError(f"{p}: not an image, or a truncated one (cannot decode)")
    if img.shape[0] == 0 or img.shape[1] == 0:
        raise ImageError(f"{p}: image is empty")
    if img.shape[0] * img.shape[1] > MAX_IMAGE_PIXELS:
        raise ImageError(
            f"{p}: a {img.shape[1]}x{img.shape[0]} image is over the limit of "
            f"{MAX_IMAGE_PIXELS // 1_000_000} million pixels"
        )
    return np.ascontiguousarray(img[:, :, ::-1])


def _png_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's header, None for anything else."""
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def _quiet_decode(cv2: Any, data: npt.NDArray[np.uint8]) -> Any:
    """cv2.imdecode without OpenCV's own warning lines: our one sentence says what went wrong."""
    log = getattr(getattr(cv2, "utils", None), "logging", None)
    old = log.getLogLevel() if log is not None else None
    if log is not None:
        log.setLogLevel(log.LOG_LEVEL_SILENT)
    try:
        return cv2.imdecode(data, cv2.IMREAD_COLOR)
    except cv2.error:
        return None
    finally:
        if log is not None:
            log.setLogLevel(old)


def write_png(path: str | Path, image: Image) -> None:
    """Write RGB as PNG atomically (temp file + replace)."""

    import cv2

    p = Path(path)
    # level 9: screenshots of flat tiles shrink about 6x against the default
    ok, buf = cv2.imencode(
        ".png", np.ascontiguousarray(image[:, :, ::-1]), [cv2.IMWRITE_PNG_COMPRESSION, 9]
    )
    if not ok:
        raise ImageError(f"{p}: could not encode PNG")
    with atomic_open(p, "wb") as fh:
        fh.write(buf.tobytes())


def px(value: float) -> int:
    """Nearest whole pixel, halves up (Python's round() sends 22.5 to 22 but 29.5 to 30)."""
    import math

    return math.floor(value + 0.5)


def ink_of(
    tile: Image,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32], float]:
    """A tile's pixels (n x 3 float), background colour, ink strength per pixel, and peak.

    The background is the median colour; a pixel's ink strength is its largest
    channel difference from it, counted only inside the cell so the border
    lines and bevels never count as ink. A peak under 40 means no ink.
    """
    flat = tile.reshape(-1, 3).astype(np.float32)
    bg = np.median(flat, axis=0).astype(np.float32)
    h, w = tile.shape[:2]
    my, mx = max(2, h // 8), max(2, w // 8)
    inner = np.zeros((h, w), dtype=bool)
    inner[my : h - my, mx : w - mx] = True
    dev = (np.abs(flat - bg).max(axis=1) * inner.ravel()).astype(np.float32)
    return flat, bg, dev, float(dev.max())


def resampled(
    src: npt.NDArray[Any],
    origin: tuple[float, float],
    scale: tuple[float, float],
    size: tuple[int, int],
    *,
    replicate: bool,
) -> npt.NDArray[np.float32]:
    """`size` (w, h) pixels read bilinearly from `src` from `origin` on, `scale`
    output pixels to one of `src`'s; past the edge the edge pixel (`replicate`)
    or black.

    Not cv2.warpAffine: it rounds its sample points to 1/32 px, and OpenCV
    5.1 reads a level apart from 5.0 (and 4.x) here and there. A test
    checkerboard shaded by 4 levels was a board on 5.0 and none on 5.1 (the
    lattice's cells), and a tile shifted half a pixel read differently (the
    reader's bank). Exact weights in floats, then rounded, read the same on
    every build.
    """
    # output pixel i's centre lies at origin + (i + 0.5) / scale on the
    # source, whose pixel j is centred at j + 0.5
    at_x = origin[0] + (np.arange(size[0], dtype=np.float64) + 0.5) / scale[0] - 0.5
    at_y = origin[1] + (np.arange(size[1], dtype=np.float64) + 0.5) / scale[1] - 0.5
    return sampled_at(src, at_x, at_y, replicate=replicate)


def sampled_at(
    src: npt.NDArray[Any],
    at_x: npt.NDArray[np.float64],
    at_y: npt.NDArray[np.float64],
    *,
    replicate: bool,
) -> npt.NDArray[np.float32]:
    """`src` read bilinearly at every (at_y[i], at_x[j]), in the source's
    pixel coordinates (pixel j centred at j): array (len(at_y), len(at_x),
    channels), rounded to whole levels; past the edge the edge pixel
    (`replicate`) or black."""
    img = np.asarray(src)
    if img.ndim == 2:
        img = img[:, :, None]

    def axis(
        at: npt.NDArray[np.float64], n_in: int
    ) -> tuple[
        npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float32], npt.NDArray[np.float32]
    ]:
        lo = np.floor(at)
        hi_w = (at - lo).astype(np.float32)
        lo_w = (1 - hi_w).astype(np.float32)
        i0, i1 = lo.astype(np.intp), lo.astype(np.intp) + 1
        if not replicate:
            lo_w[(i0 < 0) | (i0 >= n_in)] = 0
            hi_w[(i1 < 0) | (i1 >= n_in)] = 0
        return np.clip(i0, 0, n_in - 1), np.clip(i1, 0, n_in - 1), lo_w, hi_w

    h_in, w_in = img.shape[:2]
    x0, x1, xw0, xw1 = axis(at_x, w_in)
    y0, y1, yw0, yw1 = axis(at_y, h_in)
    # rows first, and in floats only once gathered: a whole screen is large
    rows = img[y0].astype(np.float32) * yw0[:, None, None]
    rows += img[y1].astype(np.float32) * yw1[:, None, None]
    out: npt.NDArray[np.float32] = (
        rows[:, x0] * xw0[None, :, None] + rows[:, x1] * xw1[None, :, None]
    )
    # to whole levels, halves up, as every build of warpAffine rounds (what the
    # finder's bars and the reader's shifted tiles were set on): a flat face
    # reads flat, not a few hundredths off it
    np.floor(out + 0.5, out=out)
    return out
