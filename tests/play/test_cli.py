"""`msolver profiles` and the argument checks of `msolver play` (no screen needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from msolver.cli import main
from msolver.vision.profile import load_profile, save_profile


@pytest.fixture
def profile_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "profiles"
    monkeypatch.setenv("MSOLVER_PROFILE_DIR", str(d))
    return d


def test_profiles_list_show_and_delete(
    profile_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save_profile(load_profile("sgt-mines").with_changes(new_game="F2"), "mine")
    assert main(["profiles"]) == 0
    out = capsys.readouterr().out
    assert "mine" in out and "user" in out
    assert "sgt-mines" in out and "builtin" in out
    assert main(["profiles", "show", "mine"]) == 0
    out = capsys.readouterr().out
    assert "30 columns x 16 rows, 99 mines" in out and "new game  F2" in out
    assert main(["profiles", "delete", "mine"]) == 0
    assert not (profile_dir / "mine.json").exists()
    capsys.readouterr()
    # Built-ins stay; unknown names and missing names are bad input.
    assert main(["profiles", "delete", "sgt-mines"]) == 2
    assert "built in" in capsys.readouterr().err
    assert main(["profiles", "show", "nope"]) == 2
    assert "no profile named 'nope'" in capsys.readouterr().err
    assert main(["profiles", "show"]) == 2
    assert "needs a profile name" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--games", "0"], "--games 0: must be at least 1"),
        (["play", "--mines", "-3", "--auto"], "--mines -3"),
        (["play", "--hotkey", "ctrl++"], "--hotkey"),
    ],
)
def test_play_refuses_bad_arguments_before_touching_the_screen(
    argv: list[str],
    message: str,
    profile_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    # No display here: these must be refused before the screen is even opened.
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_play_without_a_display_says_so(
    profile_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["play", "--start-now"]) == 1
    assert "no display available" in capsys.readouterr().err
