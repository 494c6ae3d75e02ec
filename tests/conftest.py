"""Shared fixtures: a private Xvfb screen for tests that need the real games.

Tests that need a display use the `xvfb` fixture. Without Xvfb they are
skipped with the reason, except when MSOLVER_REQUIRE_DISPLAY=1 (CI), where a
missing display is a failure: CI must prove the real games are played.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REQUIRE_DISPLAY = os.environ.get("MSOLVER_REQUIRE_DISPLAY") == "1"


def _need(what: str) -> None:
    if REQUIRE_DISPLAY:
        pytest.fail(f"MSOLVER_REQUIRE_DISPLAY=1 but {what}")
    pytest.skip(what)


def _free_display() -> int:
    for n in range(90, 190):
        if not Path(f"/tmp/.X{n}-lock").exists() and not Path(f"/tmp/.X11-unix/X{n}").exists():
            return n
    raise RuntimeError("no free X display number between :90 and :189")


@pytest.fixture(scope="session")
def xvfb() -> Iterator[str]:
    """Start Xvfb 1920x1080x24 on a free display; yield its DISPLAY string."""
    if shutil.which("Xvfb") is None:
        _need("Xvfb is not installed (apt-get install xvfb)")
    n = _free_display()
    proc = subprocess.Popen(
        ["Xvfb", f":{n}", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while not Path(f"/tmp/.X11-unix/X{n}").exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            _need(f"Xvfb :{n} did not start")
        time.sleep(0.05)
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = f":{n}"
    try:
        yield f":{n}"
    finally:
        if old is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = old
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
