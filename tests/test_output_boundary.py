"""The engine's outputs are read by their keys in one place: round_outputs.

The rules engine writes its outputs as dicts (``games.engine.Output``);
``dealer_station/round_outputs.py`` parses them into typed values where they
cross into the runtime, and every other runtime module reads those values'
fields. A runtime module that asks a dict for its ``"type"`` (``x["type"]``,
``x.get("type")``, ``x == {"type": ...}``) is read here with `ast` and refused,
unless it is listed below with the reason it reads no engine output (an input,
a published round event, an ASGI message).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = ROOT / "dealer_station"
# The rules themselves, and the one parser of their outputs; and the integrity
# monitor, a pure ring beside the rules that reads their records as a stored
# journal holds them (it may import nothing of the runtime, round_outputs included).
EXEMPT_FILES = (
    "dealer_station/games/",
    "dealer_station/round_outputs.py",
    "dealer_station/integrity/",
)

# (file, function): why what it reads by "type" is no engine output.
NOT_AN_OUTPUT = {
    ("dealer_station/config.py", "_problem"): "a pydantic validation error",
    ("dealer_station/api/guard.py", "__call__"): "an ASGI scope",
    ("dealer_station/api/guard.py", "send_with_headers"): "an ASGI message",
    ("dealer_station/api/guard.py", "_body"): "an ASGI message",
    ("dealer_station/api/feed.py", "_remember"): "a round event as published (payloads.RoundEvent)",
    ("dealer_station/preconditions.py", "scope_of"): "an input event's JSON",
    ("dealer_station/table_recovery.py", "event_type"): "a journaled input",
    ("dealer_station/visibility.py", "withheld_face"): "a refused input",
    ("dealer_station/contracts/schemas.py", "field_is_required"): "a pydantic core schema",
}


@dataclass(frozen=True)
class TypeRead:
    file: str
    function: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line} (in {self.function}) reads a dict's 'type'"


def _is_type(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value == "type"


def _reads_type(node: ast.AST) -> bool:
    if isinstance(node, ast.Subscript):
        return _is_type(node.slice)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in ("get", "pop") and bool(node.args) and _is_type(node.args[0])
    if isinstance(node, ast.Compare):
        sides = [node.left, *node.comparators]
        return any(isinstance(s, ast.Dict) and any(map(_is_type, s.keys)) for s in sides)
    return False


def _type_reads(tree: ast.AST, file: str, function: str = "<module>") -> Iterator[TypeRead]:
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _type_reads(child, file, child.name)
            continue
        if _reads_type(child):
            yield TypeRead(file, function, getattr(child, "lineno", 0))
        yield from _type_reads(child, file, function)


def type_reads(root: Path = ROOT) -> list[TypeRead]:
    found: list[TypeRead] = []
    for path in sorted((root / "dealer_station").rglob("*.py")):
        file = path.relative_to(root).as_posix()
        if file.startswith(EXEMPT_FILES):
            continue
        found += _type_reads(ast.parse(path.read_text(), str(path)), file)
    return found


def test_no_runtime_module_reads_an_engine_output_by_its_type() -> None:
    refused = [r for r in type_reads() if (r.file, r.function) not in NOT_AN_OUTPUT]
    assert not refused, "read the typed values of round_outputs instead:\n" + "\n".join(
        map(str, refused)
    )


def test_every_exemption_still_reads_a_type() -> None:
    """An exemption whose code has gone would let a new read slip in under its name."""
    reading = {(r.file, r.function) for r in type_reads()}
    assert set(NOT_AN_OUTPUT) <= reading, set(NOT_AN_OUTPUT) - reading


def test_the_scan_sees_each_form_of_a_type_read(tmp_path: Path) -> None:
    module = tmp_path / "dealer_station" / "sample.py"
    module.parent.mkdir()
    module.write_text(
        "def a(o):\n    return o['type']\n"
        "def b(o):\n    return o.get('type')\n"
        "def c(o):\n    return o == {'type': 'round_held', 'reason': 'card_unread'}\n"
        "def d(o):\n    return o['kind'], o.get('face'), {'type': 'x'}\n"
    )
    assert [(r.function, r.line) for r in type_reads(tmp_path)] == [("a", 2), ("b", 4), ("c", 6)]
