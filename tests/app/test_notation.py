"""One parser and one printer per notation, and they agree: what is printed reads back."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from msolver.app.calibrate import calibrate_command
from msolver.io.mouse import join_combo, split_combo
from msolver.play.target import NewGame

_NAMES = st.sampled_from(["ctrl", "shift", "alt", "cmd", "f2", "f12", "escape", "space"])
_CHARS = st.characters(min_codepoint=33, max_codepoint=126).filter(lambda c: c != "+")
_KEYS = st.lists(st.one_of(_NAMES, _CHARS), min_size=1, max_size=4)


@given(_KEYS)
def test_a_key_combo_printed_reads_back(parts: list[str]) -> None:
    assert split_combo(join_combo(parts)) == parts


@given(st.text(max_size=12))
def test_any_combo_that_parses_prints_to_one_that_parses_the_same(text: str) -> None:
    try:
        parts = split_combo(text)
    except ValueError:
        return
    assert split_combo(join_combo(parts)) == parts


@given(st.integers(-5000, 5000), st.integers(-5000, 5000))
def test_a_click_new_game_printed_reads_back(x: int, y: int) -> None:
    ng = NewGame("click", x=x, y=y)
    assert NewGame.parse(str(ng)) == ng


@given(_KEYS)
def test_a_key_new_game_printed_reads_back(parts: list[str]) -> None:
    ng = NewGame.parse(join_combo(parts))
    assert ng.kind == "key"
    assert NewGame.parse(str(ng)) == ng


@pytest.mark.parametrize("bad", ["ctrl+", "+n", "click:1", "click:a,b", "ctrl++n", " "])
def test_calibrate_refuses_a_new_game_the_player_would_refuse(
    bad: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ValueError):
        NewGame.parse(bad)
    monkeypatch.setenv("MSOLVER_PROFILE_DIR", str(tmp_path))
    shot = Path(__file__).resolve().parents[2] / "screenshots/sgt-mines/t20-mid2.png"
    args = argparse.Namespace(
        image=str(shot), name="x", mines=99, new_game=bad, theme=None, json=False
    )
    assert calibrate_command(args) == 2
    assert "--new-game" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # nothing saved
