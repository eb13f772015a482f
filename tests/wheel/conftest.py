from __future__ import annotations

import numpy as np
import pytest
from support.wheel_clips import video

from drivers.camera import CameraSource


@pytest.fixture(scope="session")
def valid_frames() -> list[tuple[np.ndarray, float]]:
    return [(f.image, f.time) for f in CameraSource(str(video("valid-190"))).frames()]
