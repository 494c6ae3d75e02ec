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
