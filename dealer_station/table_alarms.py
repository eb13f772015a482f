"""The alarms a person must act on at a table, as ``round/state`` lists them.

An alarm is raised by a round event (``alarm``) and stays on the table's state
until what it asks for is done: a card taken answers a card alarm, a device
back online its offline alarm, a settled round every alarm of the round, a
config reloaded the refusal of an earlier one. The
same code raised again replaces the one before (the newest words and time).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class ActiveAlarm:
    code: str
    message: str
    # What answers it: "shoe-card", "shoe-device", "camera-device", "station", ...
    source: str
    at: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "source": self.source, "at": self.at}


@dataclass
class TableAlarms:
    active: list[ActiveAlarm] = field(default_factory=list)

    def raise_alarm(self, alarm: ActiveAlarm) -> None:
        self.active = [a for a in self.active if a.code != alarm.code] + [alarm]

    def answered(self, source: str) -> None:
        """What ``source`` raised is done."""
        self.active = [a for a in self.active if a.source != source]

    def resolved(self, code: str) -> bool:
        """The alarm ``code`` is done with; whether it was raised."""
        kept = [a for a in self.active if a.code != code]
        done = len(kept) != len(self.active)
        self.active = kept
        return done

    def clear(self) -> None:
        self.active = []

    def codes(self) -> list[str]:
        return [a.code for a in self.active]
