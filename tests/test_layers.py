"""The import rule of docs/architecture.md ("Layers and who may import whom"), checked.

Every module of firmware_proto, drivers, vision and dealer_station is read with
`ast`, not imported: importing would run the modules and would only see the
imports that ran. Every import statement counts wherever it stands: at the top,
inside a function (a lazy import is still a dependency), and under
`if TYPE_CHECKING:`. Type-only imports count because the rule is about which
layer may know which, not about cycles at run time: a rules engine that names
the runtime's types depends on it just the same. The doc's one type-only import
across folders (the API importing station.py) is allowed by the table anyway.

Not seen: imports by a computed name (`importlib.import_module(name)`). The one
in the tree loads modules of its own package (dealer_station/cli its commands).
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Third-party packages by the job the doc gives to one ring; a ring that does not
# do that job may not import them. Only I/O libraries are listed, since that is
# what the doc forbids: numpy (games and vision compute with it) and pydantic
# (config and payloads) do no I/O, and the doc says nothing against them.
SERIAL = frozenset({"serial"})  # "a link that owns the port and its thread" (drivers/shoe)
CAMERA = frozenset({"cv2"})  # "OpenCV capture" (drivers/camera.py), and vision's image work
MQTT = frozenset({"paho", "amqtt"})  # the runtime's publisher, and the demo's broker
# The API, and /metrics' exposition (the runtime keeps its figures in plain objects).
HTTP = frozenset(
    {"fastapi", "starlette", "uvicorn", "websockets", "fastapi_offline", "prometheus_client"}
)


@dataclass(frozen=True)
class Layer:
    name: str
    folder: str  # relative to the repository; its dotted name is its package
    ours: frozenset[str]  # the layers it may import, itself included
    forbidden: frozenset[str]  # third-party top-level packages
    doc: str  # docs/architecture.md's words for this rule

    @property
    def package(self) -> str:
        return self.folder.replace("/", ".")


ALL = frozenset({"firmware_proto", "drivers", "vision", "games", "integrity", "runtime", "api"})

# "The direction is one way: the outer may import the inner, never the reverse."
LAYERS = (
    Layer(
        "firmware_proto",
        "firmware_proto",
        frozenset({"firmware_proto"}),
        SERIAL | CAMERA | MQTT | HTTP,
        "imports of ours: nothing; Pure, no I/O",
    ),
    Layer(
        "drivers",
        "drivers",
        frozenset({"drivers", "firmware_proto"}),
        MQTT | HTTP,
        "imports of ours: firmware_proto; the hardware edge",
    ),
    Layer(
        "vision",
        "vision",
        frozenset({"vision"}),
        SERIAL | MQTT | HTTP,
        "imports of ours: nothing; Frames in, observations out; no capture, no MQTT",
    ),
    Layer(
        "games",
        "dealer_station/games",
        frozenset({"games"}),
        SERIAL | CAMERA | MQTT | HTTP,
        "imports of ours: nothing but each other; no clock, no I/O, no threads; "
        "A rule engine that imports serial, cv2, paho or fastapi is a bug",
    ),
    Layer(
        "integrity",
        "dealer_station/integrity",
        frozenset({"integrity", "games"}),
        SERIAL | CAMERA | MQTT | HTTP,
        "dealer_station/integrity/: imports of ours: games; Pure: no clock, no I/O, no threads",
    ),
    Layer(
        "runtime",
        "dealer_station",
        ALL - {"api"},
        HTTP,
        "dealer_station/ (the rest): imports of ours: all of the above "
        "(the rows above it; the API's row is below)",
    ),
    Layer(
        "api",
        "dealer_station/api",
        ALL,
        frozenset(),
        "dealer_station/api/: imports of ours: the runtime",
    ),
)
# The top-level packages of ours; any other name is the standard library or third-party.
OURS = frozenset(layer.package.split(".")[0] for layer in LAYERS)


@dataclass(frozen=True)
class Known:
    """An import that breaks the table on purpose or until it is moved; each needs a reason."""

    file: str
    target: str  # the module imported, or a package holding it
    why: str


KNOWN = (
    Known(
        "dealer_station/station.py",
        "dealer_station.api.server",
        "the doc: Two places bend the ring on purpose: station.py imports api/server.py "
        "to serve it",
    ),
    Known(
        "dealer_station/cli/schema.py",
        "dealer_station.api.contract_files",
        "the doc: `dealer-station schema --write` imports api/contract_files.py, "
        "the one place that writes the API's documents",
    ),
)


@dataclass(frozen=True)
class Violation:
    file: str
    line: int
    target: str
    why: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: imports {self.target}: {self.why}"


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _layer_of(dotted: str) -> Layer | None:
    # The longest folder wins: dealer_station.games.x is games, not the runtime.
    matching = [layer for layer in LAYERS if _within(dotted, layer.package)]
    return max(matching, key=lambda layer: len(layer.package), default=None)


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.Module, module: str, is_package: bool) -> list[tuple[int, str]]:
    """Each (line, dotted name) a module imports; `from m import n` names m.n,
    so `from dealer_station import games` is the games layer."""
    found: list[tuple[int, str]] = []
    package = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(tree):  # every depth: functions and TYPE_CHECKING blocks too
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            written = [node.module] if node.module else []
            if node.level > len(package):  # kept relative: _forbidden reports it
                start = "." * node.level + ".".join(written)
                found += [(node.lineno, f"{start}{alias.name}") for alias in node.names]
                continue
            base = package[: len(package) - node.level + 1] if node.level else []
            start = ".".join([*base, *written])
            found += [(node.lineno, f"{start}.{alias.name}") for alias in node.names]
    return sorted(found)  # ast.walk is breadth-first; a report reads in line order


def check(root: Path, known: tuple[Known, ...] = ()) -> tuple[list[Violation], list[Known]]:
    """The violations under ``root`` that ``known`` does not excuse, and the
    entries of ``known`` that excused nothing (stale, so the list stays true)."""
    violations: list[Violation] = []
    used: set[Known] = set()
    for top in sorted(OURS):
        for path in sorted((root / top).rglob("*.py")):
            file = path.relative_to(root).as_posix()
            module = _module_name(path, root)
            layer = _layer_of(module)
            assert layer is not None, file
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=file)
            for line, target in _imports(tree, module, path.name == "__init__.py"):
                why = _forbidden(layer, target)
                if why is None:
                    continue
                excuse = next(
                    (k for k in known if k.file == file and _within(target, k.target)), None
                )
                if excuse is None:
                    violations.append(Violation(file, line, target, why))
                else:
                    used.add(excuse)
    return violations, [k for k in known if k not in used]


def _forbidden(layer: Layer, target: str) -> str | None:
    if target.startswith("."):
        return "a relative import above the top package"
    top = target.split(".")[0]
    if top not in OURS:
        if top in layer.forbidden:
            return f"{top} is forbidden in {layer.name} ({layer.doc})"
        return None
    inner = _layer_of(target)
    assert inner is not None, target  # every package of ours is a layer's
    if inner.name in layer.ours:
        return None
    return f"{layer.name} may not import {inner.name} ({layer.doc})"


def test_every_module_keeps_the_import_rule() -> None:
    modules = {layer.name: list((ROOT / layer.folder).rglob("*.py")) for layer in LAYERS}
    assert all(modules.values()), f"a layer with no modules: the table is stale: {modules}"
    violations, stale = check(ROOT, KNOWN)
    assert not violations, "imports that break docs/architecture.md's rule:\n" + "\n".join(
        map(str, violations)
    )
    assert not stale, f"known exceptions that no longer occur; remove them: {stale}"


def _write(root: Path, name: str, source: str) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source), encoding="utf-8")


def test_the_checker_reports_what_it_should(tmp_path: Path) -> None:
    """A fake tree with a module per way of breaking the rule, and clean ones."""
    _write(tmp_path, "firmware_proto/__init__.py", "import struct\nimport serial\n")
    _write(tmp_path, "drivers/__init__.py", "import firmware_proto\nimport serial\nimport paho\n")
    _write(tmp_path, "vision/__init__.py", "import numpy\nimport cv2\nfrom . import pockets\n")
    _write(tmp_path, "dealer_station/__init__.py", "from dealer_station import games, vision\n")
    _write(
        tmp_path,
        "dealer_station/station.py",
        "import fastapi\nfrom dealer_station.api import server\nfrom .api import app\n",
    )
    _write(tmp_path, "dealer_station/api/__init__.py", "import fastapi\nimport drivers\n")
    _write(
        tmp_path,
        "dealer_station/games/fake.py",
        """\
        from typing import TYPE_CHECKING

        import numpy
        from dealer_station.games import cards
        from . import rules

        if TYPE_CHECKING:
            from dealer_station.actor import TableActor


        def lazy() -> None:
            from paho.mqtt import client
            from .. import journal
            import serial.tools


        from ... import beyond
        """,
    )
    excused = Known("dealer_station/station.py", "dealer_station.api.server", "a test's")
    stale = Known("vision/__init__.py", "dealer_station", "excuses nothing")
    violations, unused = check(tmp_path, (excused, stale))
    assert unused == [stale]
    found = {(v.file, v.line, v.target) for v in violations}
    assert found == {
        ("firmware_proto/__init__.py", 2, "serial"),
        ("drivers/__init__.py", 3, "paho"),
        ("dealer_station/station.py", 1, "fastapi"),
        ("dealer_station/station.py", 3, "dealer_station.api.app"),
        ("dealer_station/games/fake.py", 8, "dealer_station.actor.TableActor"),
        ("dealer_station/games/fake.py", 12, "paho.mqtt.client"),
        ("dealer_station/games/fake.py", 13, "dealer_station.journal"),
        ("dealer_station/games/fake.py", 14, "serial.tools"),
        ("dealer_station/games/fake.py", 17, "...beyond"),
    }, "\n".join(map(str, violations))
    # The message names the file, the line and the import, and why.
    report = "\n".join(map(str, violations))
    assert "games/fake.py:14: imports serial.tools: serial is forbidden in games" in report
