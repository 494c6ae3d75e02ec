"""Profiles: saved atomically in a test-private folder, loaded by name, refused when bad."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from msolver.vision.grid import calibrate
from msolver.vision.profile import (
    ProfileError,
    delete_profile,
    list_profiles,
    load_profile,
    save_profile,
    user_dir,
)
from tests.vision.conftest import SHOTS, shot


def test_user_folder_is_the_test_folder(profile_dir: Path) -> None:
    assert user_dir() == profile_dir


def test_builtin_profiles_load_by_name_and_are_listed() -> None:
    names = dict(list_profiles())
    for game in ("sgt-mines", "gnome-mines", "xdemineur"):
        assert names[game] == "builtin"
        prof = load_profile(game)
        assert (prof.rows, prof.cols, prof.mines, prof.theme) == (16, 30, 99, game)
        assert {"unknown", "flag", "0", "1", "2", "3", "4", "5", "exploded"} <= set(prof.tiles)


def test_save_then_load_round_trips_and_leaves_no_temp_file(profile_dir: Path) -> None:
    prof = calibrate(shot(SHOTS / "xdemineur" / "x21-g0-start.png"), name="mine")
    path = save_profile(prof)
    assert path == profile_dir / "mine.json"
    assert [p.name for p in profile_dir.iterdir()] == ["mine.json"]
    back = load_profile("mine")
    assert (back.origin, back.pitch, back.theme) == (prof.origin, prof.pitch, prof.theme)
    for label, variants in prof.tiles.items():
        assert all((a == b).all() for a, b in zip(variants, back.tiles[label], strict=True))
    assert load_profile(str(path)).name == "mine"
    assert dict(list_profiles())["mine"] == "user"


def test_a_user_profile_shadows_the_builtin_of_that_name() -> None:
    prof = load_profile("sgt-mines").moved_to((400.0, 300.0))
    save_profile(prof)
    assert load_profile("sgt-mines").origin == (400.0, 300.0)
    delete_profile("sgt-mines")
    assert load_profile("sgt-mines").origin == (30.0, 55.0)
    with pytest.raises(ProfileError, match="built in and cannot be deleted"):
        delete_profile("sgt-mines")


def test_bad_names_are_refused_and_nothing_is_written(profile_dir: Path) -> None:
    prof = load_profile("sgt-mines")
    for bad in ("../escape", "", "a b", "x" * 65):
        with pytest.raises(ProfileError, match="not valid"):
            save_profile(prof, bad)
    assert not profile_dir.exists() or not list(profile_dir.iterdir())


def test_a_failed_save_keeps_the_old_file(profile_dir: Path) -> None:
    save_profile(load_profile("sgt-mines"), "keep")
    before = (profile_dir / "keep.json").read_bytes()
    broken = load_profile("sgt-mines").with_changes(rows=0)
    with pytest.raises(ProfileError, match="empty"):
        save_profile(broken, "keep")
    assert (profile_dir / "keep.json").read_bytes() == before
    assert [p.name for p in profile_dir.iterdir()] == ["keep.json"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "corrupt profile"),
        ('{"format": "something else"}', "not an msolver profile"),
        ('{"format": "msolver-profile", "version": 0}', "stale"),
        ('{"format": "msolver-profile", "version": 1, "name": "x"}', "corrupt profile"),
    ],
)
def test_corrupt_or_stale_profiles_give_a_clear_error(
    profile_dir: Path, text: str, message: str
) -> None:
    profile_dir.mkdir(parents=True, exist_ok=True)
    (profile_dir / "bad.json").write_text(text)
    with pytest.raises(ProfileError, match=message) as info:
        load_profile("bad")
    assert "\n" not in str(info.value)
    assert "bad.json" in str(info.value)


def test_a_profile_with_a_broken_tile_is_refused(profile_dir: Path) -> None:
    data = load_profile("sgt-mines").to_json()
    data["tiles"]["3"][0] = "bm90IGEgcG5n"  # base64 of "not a png"
    profile_dir.mkdir(parents=True, exist_ok=True)
    (profile_dir / "tile.json").write_text(json.dumps(data))
    with pytest.raises(ProfileError, match="corrupt profile"):
        load_profile("tile")


def test_missing_profile_names_the_name() -> None:
    with pytest.raises(ProfileError, match="no profile named 'nothing-here'"):
        load_profile("nothing-here")
