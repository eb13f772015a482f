"""Writing frames to a lossless FFV1 .mkv, frame-exact on read-back (fixtures, recordings)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt


def write_ffv1(path: str | Path, frames: Iterable[npt.NDArray[np.uint8]], fps: float) -> int:
    """Write BGR frames; returns how many were written."""
    writer: cv2.VideoWriter | None = None
    count = 0
    try:
        for frame in frames:
            if writer is None:
                h, w = frame.shape[:2]
                writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"FFV1"), fps, (w, h))
                if not writer.isOpened():
                    raise OSError(f"cannot write FFV1 video to {path}")
            writer.write(frame)
            count += 1
    finally:
        if writer is not None:
            writer.release()
    return count
