"""The layers of msolver, read from the code: every import runs one way.

core (stdlib only) < vision, io (never each other) < shell (what both players
share) < play, flood (never each other) < app (the command layer). Imports
inside functions count; those under `if TYPE_CHECKING:` do not (they never
run). An import circle between two modules fails too, whatever the layers.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

# Layer of each module, by the longest matching prefix. A top-level module
# must be named here: one that is not fails the test until it is placed.
LAYER_OF_PREFIX: dict[str, str] = {
    "msolver.files": "core",  # atomic_open: stdlib only
    "msolver.core": "core",
    "msolver.vision": "vision",
    "msolver.io": "io",
    "msolver.shell": "shell",
    "msolver.play": "play",
    "msolver.flood": "flood",
    "msolver.app": "app",
    "msolver.cli": "app",
    "msolver.__main__": "app",  # python -m msolver
}
RANK = {"core": 0, "vision": 1, "io": 1, "shell": 2, "play": 3, "flood": 3, "app": 4}
# Outside libraries a layer may use; stdlib is always allowed. None: any.
EXTERNAL: dict[str, frozenset[str] | None] = {
    "core": frozenset(),
    "vision": None,
    "io": None,
    "shell": None,
    "play": None,
    "flood": None,
    "app": None,
}

# Imports against the layers that are still in the code, each with the step
# of the house refactor (issue 11) that removes it. The test fails when one
# of them is gone (shrink the list) or a new one appears.
KNOWN: frozenset[str] = frozenset()
KNOWN_CYCLES: list[list[str]] = []


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, module: str, is_package: bool) -> Iterable[tuple[str, list[str]]]:
    """(module imported, names imported from it) for every import that runs."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = module.split(".")
                if not is_package:
                    pkg = pkg[:-1]
                pkg = pkg[: len(pkg) - (node.level - 1)]
                base = ".".join([*pkg, base] if base else pkg)
            yield base, [a.name for a in node.names]
        stack.extend(ast.iter_child_nodes(node))


def import_graph(root: Path = SRC) -> dict[str, set[str]]:
    """Module -> the modules it imports (msolver's own and outside ones, top name)."""
    files = {module_name(p, root): p for p in root.glob("msolver/**/*.py")}
    graph: dict[str, set[str]] = {}
    for mod, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        out: set[str] = set()
        for target, names in _imports(tree, mod, path.name == "__init__.py"):
            if target.split(".")[0] != "msolver":
                out.add(target.split(".")[0])
                continue
            subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in files]
            # `from pkg import module` depends on that module; `from m import name` on m.
            out.update(subs or [target])
            if len(subs) < len(names):
                out.add(target)
        out.discard(mod)
        graph[mod] = out
    return graph


def layer_of(module: str, prefixes: Mapping[str, str] = LAYER_OF_PREFIX) -> str | None:
    if module == "msolver":
        return "core"  # the package's own __init__: a version string
    best = max(
        (p for p in prefixes if module == p or module.startswith(p + ".")), key=len, default=None
    )
    return None if best is None else prefixes[best]


def violations(graph: Mapping[str, Iterable[str]]) -> set[str]:
    """Every import against the layers, as 'importer -> imported (why)'."""
    bad: set[str] = set()
    for mod, targets in graph.items():
        src = layer_of(mod)
        if src is None:
            bad.add(f"{mod} (in no layer: place it in LAYER_OF_PREFIX)")
            continue
        for t in targets:
            if not t.startswith("msolver"):
                allowed = EXTERNAL[src]
                if allowed is not None and t not in allowed and t not in sys.stdlib_module_names:
                    bad.add(f"{mod} -> {t} ({src} uses the stdlib only)")
                continue
            dst = layer_of(t)
            if dst is None or dst == src:
                continue
            if RANK[dst] > RANK[src]:
                bad.add(f"{mod} -> {t} ({src} below {dst})")
            elif RANK[dst] == RANK[src]:
                bad.add(f"{mod} -> {t} ({src} and {dst} never import each other)")
    return bad


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Import circles between msolver's modules (strongly connected groups, Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_source_keeps_the_layers() -> None:
    bad = violations(import_graph())
    assert bad - KNOWN == set(), "imports against the layers:\n" + "\n".join(sorted(bad - KNOWN))
    assert KNOWN - bad == set(), "fixed: drop from KNOWN:\n" + "\n".join(sorted(KNOWN - bad))


def test_the_source_has_no_import_circle() -> None:
    assert cycles(import_graph()) == KNOWN_CYCLES


def test_the_graph_sees_imports_inside_functions_but_not_type_checking(tmp_path: Path) -> None:
    pkg = tmp_path / "msolver" / "vision"
    pkg.mkdir(parents=True)
    (tmp_path / "msolver" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from msolver.play.loop import Player\n"
        "def f():\n    from msolver.io.capture import open_capture\n"
        "    from . import b\n"
    )
    (pkg / "b.py").write_text("import numpy as np\n")
    graph = import_graph(tmp_path)
    assert graph["msolver.vision.a"] == {"typing", "msolver.io.capture", "msolver.vision.b"}
    assert graph["msolver.vision.b"] == {"numpy"}


# Each bad import named in issue 11, as a fake graph: the checks must catch it.
@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("msolver.vision.cli", "msolver.play.wizard"),  # vision -> play
        ("msolver.vision.cli", "msolver.io.capture"),  # vision -> io
        ("msolver.vision.cli", "msolver.app.dryrun"),  # vision -> the command layer
        ("msolver.flood.play", "msolver.play.log"),  # flood -> play
        ("msolver.play.loop", "msolver.flood.play"),  # play -> flood
        ("msolver.io.capture", "msolver.vision.image"),  # io -> vision
        ("msolver.shell", "msolver.play.loop"),  # shell -> play
        ("msolver.core.board", "msolver.vision.geometry"),  # core -> vision
        ("msolver.core.board", "numpy"),  # core is stdlib only
        ("msolver.play.cli", "msolver.app.main"),  # a library -> the command layer
        ("msolver.orphan", "msolver.core.board"),  # a module in no layer
    ],
)
def test_each_bad_import_is_caught(importer: str, imported: str) -> None:
    assert violations({importer: {imported}}) != set()


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("msolver.app.play", "msolver.play.loop"),
        ("msolver.play.loop", "msolver.shell"),
        ("msolver.flood.play", "msolver.io.mouse"),
        ("msolver.vision.classify", "msolver.core.board"),
        ("msolver.vision.classify", "numpy"),
        ("msolver.core.board", "itertools"),
        ("msolver.core.bench", "msolver.files"),
    ],
)
def test_each_allowed_import_passes(importer: str, imported: str) -> None:
    assert violations({importer: {imported}}) == set()


def test_circles_are_caught() -> None:
    # classify <-> profile, and grid -> classify -> profile -> grid
    assert cycles({"a.classify": {"a.profile"}, "a.profile": {"a.classify"}}) == [
        ["a.classify", "a.profile"]
    ]
    three = {"g": {"c"}, "c": {"p"}, "p": {"g"}, "x": {"g"}}
    assert cycles(three) == [["c", "g", "p"]]
    assert cycles({"g": {"c"}, "c": {"p"}, "p": set()}) == []
