"""Test helpers have one home, tests/support: a test imports what it shares with
other tests from there, never from another test folder, a test module or a
conftest (a conftest's fixtures reach the tests by pytest, not by import)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
HOME = "support"


def _imported(tree: ast.AST) -> list[tuple[int, str]]:
    names: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
    return names


def stray_imports(root: Path) -> list[str]:
    """Every import, in the test tree under ``root``, of a helper outside its home."""
    folders = {p.name for p in root.iterdir() if p.is_dir() and p.name != HOME}
    modules = {p.stem for p in root.glob("*.py")}
    stray = []
    for path in sorted(root.rglob("*.py")):
        for line, name in _imported(ast.parse(path.read_text(), str(path))):
            top = name.split(".")[0]
            if top in folders | modules | {"tests", "conftest"} or name.endswith(".conftest"):
                stray.append(f"{path.relative_to(root)}:{line}: {name}")
    return stray


def test_every_shared_helper_is_imported_from_support() -> None:
    assert stray_imports(TESTS) == []


def test_the_check_finds_each_kind_of_stray_import(tmp_path: Path) -> None:
    for folder in ("support", "shoe", "api"):
        (tmp_path / folder).mkdir()
    (tmp_path / "conftest.py").write_text("")
    (tmp_path / "support" / "rig.py").write_text("import json\n")
    (tmp_path / "api" / "test_a.py").write_text(
        "from support.rig import x\n"  # the home: fine
        "from shoe.rigs import until\n"  # another test folder
        "from tests.shoe.vectors import v\n"  # through the package
        "from api.conftest import shot\n"  # a conftest
        "import conftest\n"
    )
    assert stray_imports(tmp_path) == [
        "api/test_a.py:2: shoe.rigs",
        "api/test_a.py:3: tests.shoe.vectors",
        "api/test_a.py:4: api.conftest",
        "api/test_a.py:5: conftest",
    ]
