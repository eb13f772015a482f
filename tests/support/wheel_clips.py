"""The recorded wheel spins under tests/fixtures/wheel and what each shows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "wheel"


def truth(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return data


def video(name: str) -> Path:
    return FIXTURES / f"{name}.mkv"
