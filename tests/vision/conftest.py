"""Vision test helpers: the recorded corpus, a private profile folder, screens built from shots."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from msolver.core.board import Board
from msolver.vision.image import Image, read_png

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "screenshots"
GAMES = ("sgt-mines", "gnome-mines", "xdemineur")


def corpus(game: str | None = None) -> list[Path]:
    """Every recorded screenshot that has a true board beside it."""
    games = (game,) if game else GAMES
    return [
        png
        for g in games
        for png in sorted((SHOTS / g).glob("*.png"))
        if png.with_suffix(".txt").is_file()
    ]


@cache
def shot(path: Path) -> Image:
    img = read_png(path)
    img.setflags(write=False)
    return img


def mines_of(path: Path) -> int:
    """The mine count: 99, or N for a crowded board recorded as "<size>-nN-..."."""
    for part in path.stem.split("-"):
        if part[:1] == "n" and part[1:].isdigit():
            return int(part[1:])
    return 99


def truth(path: Path) -> Board:
    return Board.parse(path.with_suffix(".txt").read_text(), mines_of(path))


def desktop(window: Image, at: tuple[int, int], size: tuple[int, int] = (1920, 1080)) -> Image:
    """A whole-screen picture: a plain desktop with `window` pasted at `at` (x, y)."""
    out = np.empty((size[1], size[0], 3), dtype=np.uint8)
    out[:] = (48, 64, 96)
    h, w = window.shape[:2]
    out[at[1] : at[1] + h, at[0] : at[0] + w] = window
    return out


def scaled(img: Image, scale: float) -> Image:
    """The picture as a display at `scale` (e.g. 1.5 for 150%) would show it."""
    import cv2

    if scale == 1.0:
        return img
    out: Image = np.asarray(
        cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR), np.uint8
    )
    return out


@pytest.fixture(autouse=True)
def profile_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Profiles go to a temporary folder, never the user's config."""
    d = tmp_path / "profiles"
    monkeypatch.setenv("MSOLVER_PROFILE_DIR", str(d))
    yield d
