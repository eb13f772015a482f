"""The committed contracts (``contracts/`` in the repository): every payload's
JSON Schema, the AsyncAPI document of the MQTT topics and the live feed, the
OpenAPI document of the HTTP API. All generated from the code, so a change to
any of them shows in review as a diff of these files;
tests/contracts/test_committed.py fails while the two differ.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

from dealer_station.api.app import describe
from dealer_station.api.asyncapi import document
from dealer_station.contracts.schemas import json_schemas

SCHEMAS = "schemas"
WRITE_COMMAND = "dealer-station schema --write contracts/"


def _text(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def contract_files() -> dict[str, str]:
    """Each file's path under ``contracts/`` and its text."""
    files = {f"{SCHEMAS}/{name}.json": _text(s) for name, s in json_schemas().items()}
    files["asyncapi.json"] = _text(document())
    files["openapi.json"] = _text(describe().openapi())
    return files


def _generated_here(root: Path) -> set[str]:
    # The files this module owns under ``root``: a schema no model has any
    # more is stale too. Anything else there (a README) is left alone.
    found = {p.relative_to(root).as_posix() for p in (root / SCHEMAS).glob("*.json")}
    return found | {name for name in ("asyncapi.json", "openapi.json") if (root / name).exists()}


def write(root: Path) -> list[str]:
    """Write the contracts under ``root``; the files changed, added or removed."""
    files = contract_files()
    changed = []
    for stale in sorted(_generated_here(root) - set(files)):
        (root / stale).unlink()
        changed.append(stale)
    for name, text in files.items():
        path = root / name
        if not path.exists() or path.read_text() != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            changed.append(name)
    return changed


def differences(root: Path) -> str:
    """A unified diff from the files under ``root`` to the code's contracts;
    empty when they agree."""
    files = contract_files()
    out: list[str] = []
    for name in sorted(set(files) | _generated_here(root)):
        path = root / name
        committed = path.read_text() if path.exists() else ""
        generated = files.get(name, "")
        if committed != generated:
            out.extend(
                difflib.unified_diff(
                    committed.splitlines(keepends=True),
                    generated.splitlines(keepends=True),
                    f"committed/{name}",
                    f"code/{name}",
                )
            )
    return "".join(out)
