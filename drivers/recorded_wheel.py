"""A wheel camera that films a recorded spin each time the croupier launches one (the demo's).

The table's side says when a spin is due (`spin_due`); the recorded wheel then plays its
clip at the clip's own pace, as if the ball had just been launched, so the console shows a
spin as long as a real one. One detector watches every play: the times go on from one play
to the next, as a camera's clock would.

It is not live: between spins no frame comes, and that is not a fault. Opened, it shows
the clip's first picture at once, so the camera is online before the first spin, as a
real one is.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from drivers.camera import CameraSource, CameraUnavailable, TimedFrame

# Between two plays, on the frames' clock: the detector sees the ball leave the
# pocket and a new launch, not one frame jump into the next spin.
GAP_SECONDS = 1.0
# How long a play waits for the table to take its result before playing again
# (the table still waits for a spin: the detector voided the last one).
TAKE_RESULT_SECONDS = 5.0


class RecordedWheel:
    live = False

    def __init__(
        self,
        clip: Path,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not clip.is_file():
            raise CameraUnavailable(f"no recorded wheel at {clip}")
        self.clip = clip
        self.name = f"recorded wheel {clip}"
        self.clock, self.sleep = clock, sleep
        self._due = threading.Event()
        self._stopped = threading.Event()

    def spin_due(self, due: bool) -> None:
        """Told by the table's side: whether the table now waits for a spin."""
        if due:
            self._due.set()
        else:
            self._due.clear()

    def play(self) -> Iterator[TimedFrame]:
        """One spin's frames, timed from its start: the clip's, each play."""
        return CameraSource(str(self.clip)).frames()

    def stop(self) -> None:
        self._stopped.set()
        self._due.set()  # wake a wait for the next spin

    def frames(self) -> Iterator[TimedFrame]:
        opening = CameraSource(str(self.clip)).frames()
        try:
            first = next(opening, None)
        finally:
            opening.close()
        if first is None:
            raise CameraUnavailable(f"no frame in {self.clip}")
        yield first
        index, last = 1, first.time
        while True:
            self._due.wait()
            if self._stopped.is_set():
                return
            offset = last + GAP_SECONDS
            started = self.clock()
            for frame in self.play():
                if self._stopped.is_set():
                    return
                lag = frame.time - (self.clock() - started)
                if lag > 0:
                    self.sleep(lag)
                last = offset + frame.time
                yield TimedFrame(index, last, frame.image)
                index += 1
            self._wait_for_the_result()

    def _wait_for_the_result(self) -> None:
        deadline = self.clock() + TAKE_RESULT_SECONDS
        while self._due.is_set() and not self._stopped.is_set() and self.clock() < deadline:
            self.sleep(0.05)
