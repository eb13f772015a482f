"""Camera faults seen in the frames themselves: too dark, frozen, or no frames at all."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision.alarm_latch import AlarmLatch
from vision.observations import Alarm, AlarmKind
from vision.params import DetectorParams

_FROZEN_DIFF = 0.3  # mean absolute grey difference under which two frames are the same picture


class CameraHealth:
    """Raises an alarm when a fault has lasted long enough and clears it when it ends."""

    def __init__(self, params: DetectorParams) -> None:
        self.params = params
        self._previous: npt.NDArray[np.int16] | None = None
        self._dark_since: float | None = None
        self._frozen_since: float | None = None
        self._frozen_frames = 0
        self._alarms = AlarmLatch()
        self.last_frame_time: float | None = None
        # When idle() was first asked: a camera that never delivered a frame
        # since then is as dead as one that stopped.
        self._watched_since: float | None = None

    @property
    def blind(self) -> bool:
        """True while the picture cannot be trusted for tracking."""
        return bool(self._alarms.active & {AlarmKind.TOO_DARK, AlarmKind.FROZEN_FRAMES})

    def frame(self, image: npt.NDArray[np.uint8], index: int, t: float) -> list[Alarm]:
        out = self._alarms.set(AlarmKind.NO_FRAMES, False, "", index, t)
        self.last_frame_time = t
        sample = image[::16, ::16].astype(np.int16)
        level = float(sample.mean())
        if level < self.params.dark_level:
            self._dark_since = t if self._dark_since is None else self._dark_since
        else:
            self._dark_since = None
        dark = self._dark_since is not None and t - self._dark_since >= self.params.dark_seconds
        if dark or level >= self.params.dark_level + 4:
            out += self._alarms.set(
                AlarmKind.TOO_DARK, dark, f"mean grey level {level:.1f}", index, t
            )
        same = (
            self._previous is not None
            and self._previous.shape == sample.shape
            and float(np.abs(sample - self._previous).mean()) < _FROZEN_DIFF
        )
        self._previous = sample
        if same:
            self._frozen_frames += 1
            self._frozen_since = t if self._frozen_since is None else self._frozen_since
        else:
            self._frozen_frames, self._frozen_since = 0, None
        frozen = (
            self._frozen_since is not None
            and self._frozen_frames >= 3
            and t - self._frozen_since >= self.params.frozen_seconds
        )
        if frozen or not same:
            out += self._alarms.set(
                AlarmKind.FROZEN_FRAMES,
                frozen,
                f"same picture for {self._frozen_frames} frames",
                index,
                t,
            )
        return out

    def idle(self, now: float, index: int) -> list[Alarm]:
        """Called by the runtime on a timer: no frame for a while is a fault too,
        and so is no frame at all since the first call."""
        if self._watched_since is None:
            self._watched_since = now
        since = self.last_frame_time if self.last_frame_time is not None else self._watched_since
        gap = now - since
        if gap < self.params.no_frame_seconds:
            return []
        detail = f"no frame for {gap:.1f} s"
        if self.last_frame_time is None:
            detail = f"no frame in the {gap:.1f} s since the camera was opened"
        return self._alarms.set(AlarmKind.NO_FRAMES, True, detail, index, now)
