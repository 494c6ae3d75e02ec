"""`msolver calibrate` without --image: the wizard for a person, one grab for a script."""

from __future__ import annotations

import argparse
import io

import pytest

from msolver.app import calibrate as vision_cli
from msolver.app import wizard


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _args(**kw: object) -> argparse.Namespace:
    base = dict(image=None, name="n", mines=99, new_game="n", theme=None, json=False)
    base.update(kw)
    return argparse.Namespace(**base)


def test_a_terminal_without_image_gets_the_wizard(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[argparse.Namespace] = []

    def fake_wizard(args: argparse.Namespace, **_: object) -> int:
        seen.append(args)
        return 7

    monkeypatch.setattr(wizard, "run_wizard", fake_wizard)
    monkeypatch.setattr("sys.stdin", _Tty())
    args = _args()
    assert vision_cli.calibrate_command(args) == 7
    assert seen == [args]


def test_an_image_never_starts_the_wizard(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setattr(wizard, "run_wizard", lambda *a, **k: pytest.fail("wizard started"))
    monkeypatch.setattr("sys.stdin", _Tty())
    # Not an image: the scripted path reports it and exits non-zero, asking nothing.
    bad = f"{tmp_path}/nothing.png"
    assert vision_cli.calibrate_command(_args(image=bad)) != 0
