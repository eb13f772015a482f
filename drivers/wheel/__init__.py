"""The roulette wheel's own sensor: a line protocol (PROTOCOL.md), a session
without I/O, a serial link, a simulator, protocols by name (`SENSORS`).

    from drivers.wheel import open_wheel_sensor, WheelResult
    with open_wheel_sensor(port="/dev/dealer-wheel", on_event=events.put) as wheel:
        event = events.get()

See `drivers.wheel.link` for the contract and docs/wheel_sensor.md for the whole picture.
"""

from drivers.wheel.backends import SENSORS, SensorBackend, UnknownSensor, open_wheel_sensor
from drivers.wheel.errors import WheelError
from drivers.wheel.events import (
    GameAbandoned,
    LaunchVoid,
    LinesLost,
    WheelEvent,
    WheelOffline,
    WheelOnline,
    WheelRefused,
    WheelRejected,
    WheelRestarted,
    WheelResult,
    WheelState,
    WheelWarning,
    event_from_json,
)
from drivers.wheel.link import EventRefused, EventSink, WheelSensorLink

__all__ = [
    "SENSORS",
    "EventRefused",
    "EventSink",
    "GameAbandoned",
    "LaunchVoid",
    "LinesLost",
    "SensorBackend",
    "UnknownSensor",
    "WheelError",
    "WheelEvent",
    "WheelOffline",
    "WheelOnline",
    "WheelRefused",
    "WheelRejected",
    "WheelRestarted",
    "WheelResult",
    "WheelSensorLink",
    "WheelState",
    "WheelWarning",
    "event_from_json",
    "open_wheel_sensor",
]
