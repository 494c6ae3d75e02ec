"""The wheel: every package and the built-in calibration profiles, and dependencies
that install from wheels alone (no compiler) with one Xlib and matplotlib as an extra."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_is_listed_for_the_wheel() -> None:
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(conf["packages"])
    src = ROOT / "src"
    found = {".".join(p.parent.relative_to(src).parts) for p in src.glob("msolver/**/__init__.py")}
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"
    assert conf["package-dir"]["msolver.data"] == "calibration"
    assert any((ROOT / "calibration").glob("*.json"))


def test_the_wheel_holds_only_the_package_and_its_data() -> None:
    # setuptools ships every module of a listed package: a script kept in a
    # data folder mapped as a package would be installed as msolver.data.<it>.
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    dirs = conf["package-dir"]
    data = conf["package-data"]
    for pkg in conf["packages"]:
        folder = ROOT / dirs[pkg] if pkg in dirs else ROOT / dirs[""] / pkg.replace(".", "/")
        if pkg in dirs:
            assert folder.is_dir()
            shipped = [p.name for p in folder.iterdir() if p.is_file()]
            allowed = {pat.removeprefix("*") for pat in data[pkg]}
            assert [n for n in shipped if not any(n.endswith(a) for a in allowed)] == [], (
                f"{folder} holds files that are not {pkg}'s data"
            )
        else:
            assert folder.resolve().is_relative_to((ROOT / "src" / "msolver").resolve())


# What a user's pip installs follows from the wheel's Requires-Dist and its
# markers, evaluated here for each desktop OS.
PLATFORMS = {"linux": "Linux", "win32": "Windows", "darwin": "Darwin"}
# Packages that install a top-level `Xlib` module, and what pulls them in on Linux.
XLIB_PROVIDERS = {"python-xlib", "python3-xlib"}
PULLS_XLIB = {"pynput": "python-xlib", "pyautogui": "python3-xlib", "mouseinfo": "python3-xlib"}


@pytest.fixture(scope="module")
def wheel_requires(tmp_path_factory: pytest.TempPathFactory) -> list[Requirement]:
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = out.glob("msolver-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        (meta,) = (n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        text = zf.read(meta).decode()
    return [Requirement(r) for r in Parser().parsestr(text).get_all("Requires-Dist", [])]


def installs(reqs: list[Requirement], platform: str, *extras: str) -> set[str]:
    names: set[str] = set()
    for extra in ("", *extras):
        env = {"sys_platform": platform, "platform_system": PLATFORMS[platform], "extra": extra}
        names |= {
            canonicalize_name(r.name) for r in reqs if r.marker is None or r.marker.evaluate(env)
        }
    return names


def test_linux_install_needs_no_evdev_build(wheel_requires: list[Requirement]) -> None:
    linux = installs(wheel_requires, "linux")
    # pynput requires evdev on Linux, which ships only C source.
    assert not linux & {"pynput", "evdev"}
    assert "python-xlib" in linux
    for other in ("win32", "darwin"):
        assert "pynput" in installs(wheel_requires, other)
        assert not installs(wheel_requires, other) & XLIB_PROVIDERS


def test_one_package_provides_xlib(wheel_requires: list[Requirement]) -> None:
    for extras in ((), ("pynput",), ("plot", "test", "dev")):
        names = installs(wheel_requires, "linux", *extras)
        xlib = (names & XLIB_PROVIDERS) | {PULLS_XLIB[n] for n in names & PULLS_XLIB.keys()}
        assert xlib == {"python-xlib"}, (extras, xlib)


def test_matplotlib_only_under_the_plot_extra(wheel_requires: list[Requirement]) -> None:
    for platform in PLATFORMS:
        assert "matplotlib" not in installs(wheel_requires, platform)
        assert "matplotlib" not in installs(wheel_requires, platform, "test", "dev", "pynput")
        assert "matplotlib" in installs(wheel_requires, platform, "plot")


def test_plot_without_matplotlib_says_how_to_get_it_before_the_sweep(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from msolver.cli import main

    # None in sys.modules makes the import machinery report the module missing.
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    argv = ["bench", "--sweep-mines", "10:60", "--games", "200", "--plot", str(tmp_path / "p.png")]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err.strip().splitlines() == [
        "msolver: error: --plot needs matplotlib: pip install 'msolver[plot]'"
    ]
    assert out == "" and not (tmp_path / "p.png").exists()  # no sweep line was printed
