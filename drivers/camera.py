"""The wheel camera: frames from OpenCV VideoCapture (a device index, a file or a network stream).

Live sources (a device by index or by path, a stream, a pipe) are reopened after a failure,
forever, with a pause between tries; a file simply ends. Frames carry a timestamp in
seconds: the camera's monotonic clock for live sources, frame index / fps for files, so
that a recorded spin replays with the times it was recorded at.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np
import numpy.typing as npt

from drivers.errors import DriverError

Frame = npt.NDArray[np.uint8]


class CameraUnavailable(DriverError):
    """The source could not be opened (and, for a file, never will be)."""


@dataclass(frozen=True)
class TimedFrame:
    index: int
    time: float
    image: Frame


class FrameSource(Protocol):
    """What the camera bridge reads: `CameraSource`, or the demo's `RecordedWheel`."""

    # The name the camera's "online" event gives.
    name: str
    # A live source's frames carry the clock's time, and its silence is a fault.
    live: bool

    def frames(self) -> Iterator[TimedFrame]: ...

    def stop(self) -> None: ...


def _is_live(source: str | int) -> bool:
    """A device (its index, or a path such as udev's /dev/dealer-camera, which
    is absent while the camera is unplugged), a stream URL, or a pipe: anything
    but a recorded file."""
    if isinstance(source, int) or "://" in source or source.startswith("/dev/"):
        return True
    try:
        mode = os.stat(source).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


class CameraSource:
    def __init__(
        self,
        source: str | int,
        *,
        retry_seconds: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.source = source
        self.name = str(source)
        self.live = _is_live(source)
        self.retry_seconds = retry_seconds
        self.clock, self.sleep = clock, sleep
        self.reconnects = 0
        self.frames_read = 0
        self._stopped = False

    def stop(self) -> None:
        self._stopped = True

    def _open(self) -> cv2.VideoCapture:
        capture = cv2.VideoCapture(self.source)
        if not capture.isOpened():
            capture.release()
            raise CameraUnavailable(f"cannot open {self.source!r}")
        return capture

    def frames(self) -> Generator[TimedFrame, None, None]:
        """Yield frames until a file ends or `stop()` is called."""
        while not self._stopped:
            try:
                capture = self._open()
            except CameraUnavailable:
                if not self.live:
                    raise
                self.reconnects += 1
                self.sleep(self.retry_seconds)
                continue
            fps = capture.get(cv2.CAP_PROP_FPS) or 0.0
            fps = fps if 1.0 <= fps <= 1000.0 else 30.0
            try:
                while not self._stopped:
                    ok, image = capture.read()
                    if not ok or image is None:
                        break
                    t = self.clock() if self.live else self.frames_read / fps
                    yield TimedFrame(self.frames_read, t, np.asarray(image, np.uint8))
                    self.frames_read += 1
            finally:
                capture.release()
            # Stopped: no reconnect and no pause before returning.
            if self._stopped or not self.live:
                return
            self.reconnects += 1
            self.sleep(self.retry_seconds)
