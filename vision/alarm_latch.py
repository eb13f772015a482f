"""Which alarms are raised now: each is reported once when it starts, once when it clears."""

from __future__ import annotations

from vision.observations import Alarm, AlarmKind


class AlarmLatch:
    """The alarms of one watcher (the camera's health, the wheel's calibration):
    a condition that holds reports nothing new until it changes."""

    def __init__(self) -> None:
        self.active: set[AlarmKind] = set()

    def set(self, kind: AlarmKind, on: bool, detail: str, frame: int, t: float) -> list[Alarm]:
        """The alarm that `kind` now starts or clears, or none if it stays as it was."""
        if on == (kind in self.active):
            return []
        if on:
            self.active.add(kind)
        else:
            self.active.discard(kind)
        return [Alarm(kind, on, detail if on else f"{kind.value} cleared", frame, t)]
