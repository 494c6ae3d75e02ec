"""The wheel must carry every package and the built-in calibration profiles."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_is_listed_for_the_wheel() -> None:
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(conf["packages"])
    src = ROOT / "src"
    found = {
        ".".join(p.parent.relative_to(src).parts) for p in src.glob("msolver/**/__init__.py")
    }
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
