"""What a wheel sensor link tells the station: typed events, one class per kind.

A game is named by the wheel's game number (1..999999; 0 in a warning or an
idle line means no game). Every event has `to_json()`, a JSON object with its
class name under ``"event"``; `event_from_json` reads one back.
Only `WheelResult` carries a winning number, and only from a result line the
session believed (drivers/wheel/PROTOCOL.md §5): every doubt is one of the
other kinds.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, get_args

from drivers.wheel.errors import WheelError

Direction = Literal["clockwise", "counterclockwise"]
Phase = Literal["game_start", "ball_launched", "no_more_bets", "idle"]
# The warning flags' names, bit 0 first (PROTOCOL.md §3).
WarningFlag = Literal["ball_not_detected", "same_direction", "sensor_fault", "misfire"]
WARNING_FLAGS: tuple[WarningFlag, ...] = get_args(WarningFlag)
# A line that failed the check (PROTOCOL.md §4).
RejectReason = Literal["malformed", "bad_checksum", "unknown_sentence", "bad_field",
                       "overlong", "truncated"]
# A checked line the session did not believe (PROTOCOL.md §5).
RefusalReason = Literal["no_game_in_play", "wrong_game", "old_game", "out_of_order",
                        "not_launched", "launch_voided", "flagged_result",
                        "conflicting_result", "lines_lost", "record_contradicts"]


class _Event:
    __slots__ = ()

    def to_json(self) -> dict[str, Any]:
        assert dataclasses.is_dataclass(self)
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return {"event": type(self).__name__,
                **{k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()}}


@dataclass(frozen=True, slots=True)
class WheelOnline(_Event):
    """A checked line came after the port opened or after a silence."""

    protocol: str


@dataclass(frozen=True, slots=True)
class WheelOffline(_Event):
    reason: str


@dataclass(frozen=True, slots=True)
class WheelState(_Event):
    """The game moved on: started, ball launched, no more bets, or the wheel idle.
    Rotor speed and direction come with the launch only."""

    phase: Phase
    game: int
    rotor_rpm: float | None = None
    direction: Direction | None = None


@dataclass(frozen=True, slots=True)
class WheelResult(_Event):
    """The winning number of the game in play, once per game."""

    game: int
    number: int
    rotor_rpm: float
    direction: Direction


@dataclass(frozen=True, slots=True)
class WheelWarning(_Event):
    """The wheel raised warning flags (game 0: none in play)."""

    game: int
    flags: tuple[WarningFlag, ...]


@dataclass(frozen=True, slots=True)
class LaunchVoid(_Event):
    """The launch in play gives no result (a warning during it, or a result line
    that carried flags). The wheel may launch again within the same game."""

    game: int
    flags: tuple[WarningFlag, ...]


@dataclass(frozen=True, slots=True)
class GameAbandoned(_Event):
    """A game that started ended (a new game, or the wheel idle) without a result."""

    game: int


@dataclass(frozen=True, slots=True)
class LinesLost(_Event):
    """The line counter skipped `count` game lines: the wheel sent them and the
    station never read them (lost whole, or damaged and rejected). Which they
    were is unknown, so no result is believed until a game starts after them."""

    count: int


@dataclass(frozen=True, slots=True)
class WheelRestarted(_Event):
    """The line counter went back to 0: the wheel restarted (a power cut), and
    what it sent after the line counted `last_seq` is unknown. The game in play,
    if any, is abandoned (a `GameAbandoned` follows)."""

    last_seq: int


@dataclass(frozen=True, slots=True)
class WheelRefused(_Event):
    """A checked line the session did not believe; `line` as received."""

    reason: RefusalReason
    game: int
    line: str


@dataclass(frozen=True, slots=True)
class WheelRejected(_Event):
    """A line that failed the check; `line` as received (non-ASCII escaped)."""

    reason: RejectReason
    line: str


WheelEvent = (WheelOnline | WheelOffline | WheelState | WheelResult | WheelWarning
              | LaunchVoid | GameAbandoned | LinesLost | WheelRestarted | WheelRefused
              | WheelRejected)

# Every kind of the union by class name: a kind added to the union is read at once.
EVENT_TYPES: dict[str, type[WheelEvent]] = {cls.__name__: cls for cls in get_args(WheelEvent)}


class BadEventJson(WheelError, ValueError):
    pass


def event_from_json(data: dict[str, Any]) -> WheelEvent:
    fields = dict(data)
    name = fields.pop("event", None)
    cls = EVENT_TYPES.get(str(name))
    if cls is None:
        raise BadEventJson(f"unknown event {name!r}")
    if isinstance(fields.get("flags"), list):
        fields["flags"] = tuple(fields["flags"])
    try:
        return cls(**fields)
    except TypeError as exc:
        raise BadEventJson(f"{name}: {exc}") from None
