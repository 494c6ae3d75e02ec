"""A private Xvfb screen for tests and live benchmarks.

`-displayfd` makes Xvfb choose a free display number and write it once it
accepts clients: no race with another session choosing the same number, and
no waiting on a socket that may belong to someone else's server.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager


class XvfbError(RuntimeError):
    pass


def start_xvfb(timeout: float = 15.0) -> tuple[subprocess.Popen[bytes], int]:
    """Start Xvfb 1920x1080x24; return the process and its display number."""
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        [
            "Xvfb",
            "-displayfd",
            str(write_fd),
            "-screen",
            "0",
            "1920x1080x24",
            "-nolisten",
            "tcp",
            # Without it the server resets when its last client leaves, and a
            # client connecting in that moment is refused (measured: 4 in 300).
            "-noreset",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        pass_fds=(write_fd,),
    )
    os.close(write_fd)
    deadline = time.monotonic() + timeout
    out = b""
    with os.fdopen(read_fd, "rb", buffering=0) as pipe:
        os.set_blocking(pipe.fileno(), False)
        while not out.endswith(b"\n"):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise XvfbError(f"Xvfb did not start (exit {proc.poll()})")
            try:
                chunk = pipe.read()
            except BlockingIOError:
                chunk = None
            if chunk:
                out += chunk
            else:
                time.sleep(0.05)
    return proc, int(out.strip())


def stop_xvfb(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()


@contextmanager
def private_display() -> Iterator[str]:
    """A fresh Xvfb as DISPLAY for the duration; the old DISPLAY comes back after."""
    proc, n = start_xvfb()
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = f":{n}"
    try:
        yield f":{n}"
    finally:
        if old is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = old
        stop_xvfb(proc)
