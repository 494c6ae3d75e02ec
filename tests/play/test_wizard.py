"""The calibration wizard, driven with a recorded screen and scripted answers."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from msolver.app.wizard import find_face, run_wizard
from msolver.io.capture import RecordedCapture
from msolver.vision.image import read_png
from msolver.vision.profile import load_profile

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"


@pytest.fixture
def profile_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "profiles"
    monkeypatch.setenv("MSOLVER_PROFILE_DIR", str(d))
    return d


def args(**kw: object) -> argparse.Namespace:
    base = {"image": None, "name": None, "mines": None, "new_game": None, "theme": None}
    base.update(kw)
    return argparse.Namespace(**base)


def on_desktop(shot: np.ndarray, at: tuple[int, int]) -> np.ndarray:
    desk = np.full((900, 1400, 3), 40, dtype=np.uint8)
    h, w = shot.shape[:2]
    desk[at[1] : at[1] + h, at[0] : at[0] + w] = shot[:, :, :3]
    return desk


def scripted(answers: list[str]) -> tuple[list[str], Callable[[str], str]]:
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return answers.pop(0)

    return asked, ask


def test_wizard_asks_what_it_cannot_see_and_saves_the_profile_and_picture(
    profile_dir: Path,
) -> None:
    shot = read_png(SHOTS / "sgt-mines" / "t20-blank.png")
    screen = on_desktop(shot, (100, 50))
    asked, ask = scripted(["", "", "ctrl+n", "", "mine"])
    said: list[str] = []
    rc = run_wizard(args(), ask=ask, capture=RecordedCapture([screen]), out=said.append)
    assert rc == 0, said
    assert "untouched board" in asked[0]
    assert "How many mines" in asked[1] and "[99]" in asked[1]  # expert size: offered
    assert "new game" in asked[2]
    assert "first click" in asked[3] and "[opening]" in asked[3]  # sgt-mines' own rule
    prof = load_profile("mine")
    assert (prof.cols, prof.rows, prof.mines, prof.new_game) == (30, 16, 99, "ctrl+n")
    assert prof.first_click == "opening"
    # Screen coordinates: the shot was placed 100, 50 into the desktop.
    assert 100 < prof.origin[0] < 100 + shot.shape[1]
    assert 50 < prof.origin[1] < 50 + shot.shape[0]
    assert (profile_dir / "mine.png").is_file()
    assert any("check the grid" in m for m in said)


def test_wizard_offers_the_face_button_of_a_classic_theme(profile_dir: Path) -> None:
    shot = read_png(SHOTS / "xdemineur" / "x21-g0-start.png")
    screen = on_desktop(shot, (0, 0))
    asked, ask = scripted(["", "", "xp", "x"])
    rc = run_wizard(args(mines=99), ask=ask, capture=RecordedCapture([screen]), out=lambda _m: None)
    assert rc == 0
    assert "xp" in asked[2]  # the first-click question names Windows XP's rule
    # Mine count given on the command line: not asked. The default new game is a click.
    assert not any("How many mines" in a for a in asked)
    assert "[click:" in asked[1]
    face = find_face(screen, load_profile("x").grid.rect(), (0, 0))
    assert face is not None
    assert load_profile("x").new_game == f"click:{face[0]},{face[1]}"
    assert load_profile("x").first_click == "xp"


def test_wizard_refuses_a_screen_without_a_board_and_saves_nothing(profile_dir: Path) -> None:
    _asked, ask = scripted([""])
    screen = np.full((600, 800, 3), 90, dtype=np.uint8)
    rc = run_wizard(
        args(name="none"), ask=ask, capture=RecordedCapture([screen]), out=lambda _m: None
    )
    assert rc == 1
    assert not profile_dir.exists() or not any(profile_dir.iterdir())


def test_wizard_refuses_a_bad_mine_count(profile_dir: Path) -> None:
    shot = read_png(SHOTS / "sgt-mines" / "t20-blank.png")
    _asked, ask = scripted(["", "lots"])
    rc = run_wizard(args(), ask=ask, capture=RecordedCapture([shot]), out=lambda _m: None)
    assert rc == 2
    assert not profile_dir.exists() or not any(profile_dir.iterdir())
