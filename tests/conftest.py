"""Shared fixtures: a private Xvfb screen for tests that need the real games.

Tests that need a display use the `xvfb` fixture. Without Xvfb they are
skipped with the reason, except when MSOLVER_REQUIRE_DISPLAY=1 (CI), where a
missing display is a failure: CI must prove the real games are played.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from tests.support.xvfb import XvfbError, private_display

REQUIRE_DISPLAY = os.environ.get("MSOLVER_REQUIRE_DISPLAY") == "1"


def pytest_configure(config: pytest.Config) -> None:
    # The tests call the reader and calibration in-process, as the commands
    # that read pixels run them: on one BLAS thread (two xdist workers on two
    # cores, each with a thread per core, ran the corpus' calibrations 40%
    # slower).
    from msolver.app.main import _one_blas_thread

    _one_blas_thread()


def _need(what: str) -> None:
    if REQUIRE_DISPLAY:
        pytest.fail(f"MSOLVER_REQUIRE_DISPLAY=1 but {what}")
    pytest.skip(what)


@pytest.fixture(scope="session")
def xvfb() -> Iterator[str]:
    """Start Xvfb 1920x1080x24 on a free display; yield its DISPLAY string."""
    if shutil.which("Xvfb") is None:
        _need("Xvfb is not installed (apt-get install xvfb)")
    with ExitStack() as stack:
        try:
            display = stack.enter_context(private_display())
        except XvfbError as exc:
            _need(str(exc))
        yield display
