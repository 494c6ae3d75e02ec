"""Every recorded game kept as test data is described in its folder's README."""

from __future__ import annotations

from pathlib import Path

RECORDINGS = Path(__file__).resolve().parents[2] / "screenshots" / "recordings"


def test_every_recording_is_listed_with_where_it_came_from_and_its_test() -> None:
    text = (RECORDINGS / "README.md").read_text(encoding="utf-8")
    folders = sorted(p.name for p in RECORDINGS.iterdir() if (p / "frames.jsonl").is_file())
    assert len(folders) > 40
    missing = [name for name in folders if f"`{name}`" not in text]
    assert not missing, f"recordings not described in {RECORDINGS / 'README.md'}: {missing}"
    # each names a test that reads it
    tests = Path(__file__).resolve().parents[1]
    users = {
        name
        for f in tests.rglob("test_*.py")
        for name in folders
        if name in f.read_text(encoding="utf-8")
    }
    assert not set(folders) - users, sorted(set(folders) - users)
