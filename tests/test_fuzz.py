"""Fuzzing careless input (issue 12): the board text parser, the profile loader and the CLI.

No input may produce a traceback: the parser and the loader raise only their
own one-line errors, and every command run in process ends in 0, 1 or 2
with a refusal on one line (2) and never an internal error.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from msolver.app import main as app_main
from msolver.core.board import Board, BoardError
from msolver.vision.profile import Profile, ProfileError

REPO = Path(__file__).resolve().parents[1]
BUILTIN = json.loads((REPO / "calibration" / "sgt-mines.json").read_text())
FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

board_chars = st.sampled_from(list(".?F*XW012345678 \t\n\r\ufeffxa#-"))


@FUZZ
@given(st.text(board_chars, max_size=60) | st.text(max_size=30), st.integers(-3, 40))
def test_board_parser_raises_only_board_errors(text: str, mines: int) -> None:
    try:
        board = Board.parse(text, mines)
    except BoardError as exc:
        assert "\n" not in str(exc)
        return
    assert Board.parse(board.to_text(), mines) == board


json_leaf = st.none() | st.booleans() | st.integers(-5, 10**6) | st.floats() | st.text(max_size=8)
json_any = st.recursive(
    json_leaf,
    lambda kids: (
        st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids, max_size=3)
    ),
    max_leaves=8,
)


@FUZZ
@given(st.sampled_from(sorted(BUILTIN)), json_any, st.booleans())
def test_profile_loader_raises_only_profile_errors(key: str, value: Any, drop: bool) -> None:
    data = dict(BUILTIN)
    if drop:
        del data[key]
    else:
        data[key] = value
    try:
        Profile.from_json(data, "fuzz.json")
    except ProfileError as exc:
        assert "\n" not in str(exc)


class Reached(Exception):
    """The long work a command was about to start: its arguments got through."""


def _reached(*_a: object, **_k: object) -> Any:
    raise Reached


def option_space() -> dict[tuple[str, ...], list[str]]:
    """Each command path (e.g. ("flood", "bench")) and its real option names."""
    out: dict[tuple[str, ...], list[str]] = {}

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        opts = [s for a in parser._actions for s in a.option_strings if s not in ("-h", "--help")]
        if path:
            out[path] = opts
        for sub in subs:
            for name, child in sub.choices.items():
                walk(child, (*path, name))

    walk(app_main.build_parser(), ())
    return out


SPACE = option_space()


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    import msolver.app.flood as flood_app
    import msolver.core.bench as bench
    import msolver.vision.dryrun as dryrun
    from msolver.vision.image import write_png

    # Every bench command plays its games through `stream`: stopping there
    # stops them all (patching `run` alone let `tally` play real games).
    monkeypatch.setattr(bench, "stream", _reached)
    monkeypatch.setattr(dryrun, "run_dryrun", _reached)
    monkeypatch.setattr(flood_app, "bench_boards", _reached)
    monkeypatch.setattr(flood_app, "solve", _reached)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    (tmp_path / "profiles").mkdir()
    monkeypatch.setenv("MSOLVER_PROFILE_DIR", str(tmp_path / "profiles"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "board.txt").write_text("..1\n.F1\n")
    (tmp_path / "flood.txt").write_text("1234\n4321\n")
    (tmp_path / "log.jsonl").write_text("{}\n")
    bad = dict(BUILTIN, tiles=[1, 2])
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    write_png(tmp_path / "x.png", np.zeros((30, 30, 3), np.uint8))
    (tmp_path / "cut.png").write_bytes((tmp_path / "x.png").read_bytes()[:60])
    return {"tmp": str(tmp_path)}


VALUES = [
    "-1", "0", "1", "2", "-5", "nan", "inf", "1e9", "100000000", "x", "", "1:2", "0:0", "5:1",
    "10:11", "board.txt", "flood.txt", "log.jsonl", "bad.json", "x.png", "cut.png", ".",
    "missing/x.png", "board.txt/x.csv", "out.csv", "sgt-mines", "nosuch", "F9", "NOTAKEY",
    "click:1,1", "ctrl+", "beginner", "expert", "safe", "-",
]  # fmt: skip


@st.composite
def argvs(draw: st.DrawFn) -> list[str]:
    path = draw(st.sampled_from(sorted(SPACE)))
    argv = list(path)
    opts = SPACE[path]
    for _ in range(draw(st.integers(0, 4))):
        if opts and draw(st.booleans()):
            argv.append(draw(st.sampled_from(opts)))
        argv.append(draw(st.sampled_from(VALUES)))
    return argv


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(argv=argvs(), stdin=st.binary(max_size=20))
def test_cli_argument_space_never_tracebacks(
    sandbox: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    stdin: bytes,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    rc = app_main.main(argv)
    _, err = capsys.readouterr()
    assert "Traceback" not in err, (argv, err)
    if "internal error" in err:
        assert "Reached" in err, (argv, err)
        return
    assert rc in (0, 1, 2), (argv, rc, err)
    if rc == 2 and err.strip() and not err.startswith("usage:"):
        assert len(err.strip().splitlines()) == 1, (argv, err)
