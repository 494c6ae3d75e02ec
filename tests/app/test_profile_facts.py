"""Per-profile facts: the chord button and the first-click rule, saved and loaded."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from msolver.cli import main
from msolver.vision.profile import Profile, ProfileError, load_profile, save_profile

SHOTS = Path(__file__).resolve().parents[2] / "screenshots"


@pytest.fixture
def profile_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "profiles"
    monkeypatch.setenv("MSOLVER_PROFILE_DIR", str(d))
    return d


def test_an_older_profile_loads_with_the_themes_rule_and_no_chord(profile_dir: Path) -> None:
    data = load_profile("sgt-mines").to_json()
    for key in ("chord", "first_click"):
        data.pop(key)
    old = Profile.from_json(data)
    assert old.chord is None and old.first_click == "opening"
    data["theme"] = "custom"
    assert Profile.from_json(data).first_click == "safe"


def test_built_in_games_start_by_their_own_rule(profile_dir: Path) -> None:
    # gnome-mines lays its mines after the first click, around it and its
    # neighbours: an opening, so the first click goes in from the corner.
    assert load_profile("gnome-mines").first_click == "opening"
    assert load_profile("xdemineur").first_click == "none"


def test_facts_round_trip_and_bad_values_are_refused(profile_dir: Path) -> None:
    prof = load_profile("sgt-mines").with_changes(chord="left", first_click="none")
    save_profile(prof, "mine")
    back = load_profile("mine")
    assert (back.chord, back.first_click) == ("left", "none")
    data = json.loads((profile_dir / "mine.json").read_text())
    for key, bad in (("chord", "thumb"), ("first_click", "lucky")):
        with pytest.raises(ProfileError, match=repr(bad)):
            Profile.from_json({**data, key: bad})


def test_calibrate_takes_the_first_click_rule(
    profile_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shot = str(SHOTS / "sgt-mines" / "t20-blank.png")
    assert main(["calibrate", "--image", shot, "--name", "a", "--first-click", "none"]) == 0
    assert load_profile("a").first_click == "none"
    assert "check the grid drawn on the board" in capsys.readouterr().out
    assert main(["calibrate", "--image", shot, "--name", "b"]) == 0
    assert load_profile("b").first_click == "opening"  # sgt-mines' own
    capsys.readouterr()
    assert main(["calibrate", "--image", shot, "--name", "c", "--first-click", "maybe"]) == 2
    assert not (profile_dir / "c.json").exists()
    # Windows XP's rule (a mine under the first click moves to the top left)
    assert main(["calibrate", "--image", shot, "--name", "d", "--first-click", "xp"]) == 0
    assert load_profile("d").first_click == "xp"


def test_scripted_calibration_saves_a_picture_of_what_it_found(
    profile_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from msolver.vision.image import read_png

    shot_path = SHOTS / "sgt-mines" / "t20-blank.png"
    assert main(["calibrate", "--image", str(shot_path), "--name", "p", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["picture"] == str(profile_dir / "p.png")
    picture = read_png(profile_dir / "p.png")
    prof = load_profile("p")
    # The board with its grid in magenta, below a band naming the theme and its tiles.
    magenta = (picture[:, :, 0] == 255) & (picture[:, :, 1] == 0) & (picture[:, :, 2] == 255)
    rows = np.flatnonzero(magenta.sum(axis=1) > prof.cols * prof.pitch[0] * 0.9)
    cols = np.flatnonzero(magenta.sum(axis=0) > prof.rows * prof.pitch[1] * 0.9)
    assert len(rows) == prof.rows + 1 and len(cols) == prof.cols + 1
    assert rows[0] > 40  # the band of names and tiles is above the board
    # A second calibration that fails leaves profile and picture alone.
    before = (profile_dir / "p.png").read_bytes()
    blank = profile_dir.parent / "empty.png"
    from msolver.vision.image import write_png

    write_png(blank, np.full((300, 400, 3), 90, dtype=np.uint8))
    assert main(["calibrate", "--image", str(blank), "--name", "p"]) == 2
    assert (profile_dir / "p.png").read_bytes() == before


def test_the_chord_button_a_session_found_is_kept_in_a_user_profile(profile_dir: Path) -> None:
    import argparse

    from msolver.app.play import _save_learned

    save_profile(load_profile("sgt-mines"), "mine")
    said: list[str] = []
    _save_learned(object(), argparse.Namespace(profile="mine"), said.append, "left")
    assert load_profile("mine").chord == "left"
    assert any("chord button: left" in m for m in said)
    # Nothing new: nothing written. A built-in profile is never written.
    stamp = (profile_dir / "mine.json").stat().st_mtime_ns
    _save_learned(object(), argparse.Namespace(profile="mine"), said.append, "left")
    _save_learned(object(), argparse.Namespace(profile="mine"), said.append, None)
    assert (profile_dir / "mine.json").stat().st_mtime_ns == stamp
    _save_learned(object(), argparse.Namespace(profile="xdemineur"), said.append, "middle")
    assert not (profile_dir / "xdemineur.json").exists()


def test_the_first_click_rule_a_session_learned_is_kept_in_a_user_profile(
    profile_dir: Path,
) -> None:
    import argparse

    from msolver.app.play import _save_learned

    save_profile(load_profile("sgt-mines").with_changes(first_click="safe"), "mine")
    said: list[str] = []
    _save_learned(object(), argparse.Namespace(profile="mine"), said.append, None, "opening")
    assert load_profile("mine").first_click == "opening"
    assert any("first-click rule: opening" in m for m in said)
    stamp = (profile_dir / "mine.json").stat().st_mtime_ns
    _save_learned(object(), argparse.Namespace(profile="mine"), said.append, None, "opening")
    assert (profile_dir / "mine.json").stat().st_mtime_ns == stamp


def test_calibrate_takes_the_flag_click(
    profile_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shot = str(SHOTS / "sgt-mines" / "t20-blank.png")
    assert main(["calibrate", "--image", shot, "--name", "w", "--flag", "ctrl+left", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["flag"] == "ctrl+left"
    assert load_profile("w").flag == "ctrl+left"
    assert main(["calibrate", "--image", shot, "--name", "r"]) == 0
    assert load_profile("r").flag == "right"
    capsys.readouterr()
    assert main(["calibrate", "--image", shot, "--name", "x", "--flag", "middle"]) == 2
    assert not (profile_dir / "x.json").exists()


def test_a_sideways_flood_a_session_learned_is_kept_and_read_by_the_next(
    profile_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # react-minesweeper floods sideways only. The rule was learned from the
    # first opening of each session and never kept: a trained profile then
    # read that opening as "a 0 beside unopened cells" and play stopped.
    import argparse

    from msolver.app.play import _save_learned
    from msolver.play.readers import reader_for

    save_profile(load_profile("sgt-mines"), "mine")
    reader = reader_for(load_profile("mine"))
    assert not reader.sides_only
    said: list[str] = []
    reader.sides_only = True
    # Not kept before a finished board bore out what was named under it.
    _save_learned(reader, argparse.Namespace(profile="mine"), said.append)
    assert load_profile("mine").flood == ""
    from msolver.vision.learning_reader import LearningReader

    monkeypatch.setattr(LearningReader, "proven", property(lambda self: ["1"]))
    _save_learned(reader, argparse.Namespace(profile="mine"), said.append)
    assert load_profile("mine").flood == "sides"
    assert any("side neighbours; saved to" in m for m in said)
    assert reader_for(load_profile("mine")).sides_only
    data = json.loads((profile_dir / "mine.json").read_text())
    assert data["flood"] == "sides"
    with pytest.raises(ProfileError, match="'diagonal'"):
        Profile.from_json({**data, "flood": "diagonal"})
    data.pop("flood")
    assert Profile.from_json(data).flood == ""  # older profiles: all eight
