from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from drivers.camera import CameraSource

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "wheel"


def truth(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return data


def video(name: str) -> Path:
    return FIXTURES / f"{name}.mkv"


@pytest.fixture(scope="session")
def valid_frames() -> list[tuple[np.ndarray, float]]:
    return [(f.image, f.time) for f in CameraSource(str(video("valid-190"))).frames()]
