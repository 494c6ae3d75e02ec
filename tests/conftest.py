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

import pytest

REQUIRE_DISPLAY = os.environ.get("MSOLVER_REQUIRE_DISPLAY") == "1"


def _need(what: str) -> None:
    if REQUIRE_DISPLAY:
        pytest.fail(f"MSOLVER_REQUIRE_DISPLAY=1 but {what}")
    pytest.skip(what)


def _start_xvfb() -> tuple[subprocess.Popen[bytes], int]:
    """Start Xvfb on a display number it picks itself.

    `-displayfd` makes Xvfb choose a free number and write it once it accepts
    clients: no race with another test session choosing the same number, and
    no waiting on a socket that may belong to someone else's server.
    """
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(write_fd,),
    )
    os.close(write_fd)
    deadline = time.monotonic() + 15
    out = b""
    with os.fdopen(read_fd, "rb", buffering=0) as pipe:
        os.set_blocking(pipe.fileno(), False)
        while not out.endswith(b"\n"):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                _need(f"Xvfb did not start (exit {proc.poll()})")
            try:
                chunk = pipe.read()
            except BlockingIOError:
                chunk = None
            if chunk:
                out += chunk
            else:
                time.sleep(0.05)
    return proc, int(out.strip())


@pytest.fixture(scope="session")
def xvfb() -> Iterator[str]:
    """Start Xvfb 1920x1080x24 on a free display; yield its DISPLAY string."""
    if shutil.which("Xvfb") is None:
        _need("Xvfb is not installed (apt-get install xvfb)")
    proc, n = _start_xvfb()
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
