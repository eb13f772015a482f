"""Wheel sensor protocols by name: the one place that knows which exist.

`SENSORS[name]` says everything that differs between two wheel controllers:
its options (the keys a station's config will take beside ``port``), how to
open a link to it, the session that decodes its captures, and its simulator.
The CLI (``dealer-station wheel decode``) and the tests read the entry; none of
them compares a protocol's name (tests/wheel_sensor/test_registry.py). Adding a
vendor is a session, a simulator and one entry here (docs/wheel_sensor.md).

pyserial is imported only when a link is opened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Generic, Protocol, Self, TypeVar

from drivers.port_link import PortSession
from drivers.registry import LINK_TUNING, Registry, UnknownDevice, setting
from drivers.wheel.errors import WheelError
from drivers.wheel.events import WheelEvent
from drivers.wheel.link import EventSink, WheelSensorLink
from drivers.wheel.session import (
    SENSOR_BAUDRATE,
    STATUS_TIMEOUT_S,
    SensorOutput,
    WheelSensorSession,
)
from drivers.wheel.simulator import WheelSensorSimulator

SensorSession = PortSession[SensorOutput]


class UnknownSensor(WheelError, UnknownDevice, ValueError):
    """No wheel sensor protocol of that name."""


@dataclass(frozen=True, slots=True)
class SensorOptions:
    """A protocol's settings: the keys of its sensor in a station's config
    beside ``port``, and the options of `open_wheel_sensor`."""

    baudrate: int = setting(SENSOR_BAUDRATE, "The serial speed, in baud.", gt=0)
    status_timeout: float = setting(
        STATUS_TIMEOUT_S,
        "A wheel silent for this long is offline, in seconds (drivers/wheel/PROTOCOL.md §6).",
        gt=0,
    )


class SensorSimulator(Protocol):
    """A simulated wheel controller on a real pseudo-terminal, built with the
    keywords ``seed``, ``link_path``, ``status_interval`` and ``faults``."""

    port: str
    sent: list[WheelEvent]
    results: list[tuple[int, int]]

    def spin(self, number: int | None = None) -> int: ...
    def close(self) -> None: ...
    def __enter__(self) -> Self: ...
    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...


Opts = TypeVar("Opts", bound=SensorOptions)


@dataclass(frozen=True, slots=True)
class SensorBackend(Generic[Opts]):
    name: str
    description: str  # for the CLI's help and the config's schema
    options: type[Opts]
    link: Callable[[Opts, str, EventSink, dict[str, float]], WheelSensorLink]
    # The session decoding a recorded capture (the live one's, with the clock stopped).
    decoder: Callable[[], SensorSession]
    simulator: Callable[..., SensorSimulator]

    def open(self, *, port: str, on_event: EventSink, **options: Any) -> WheelSensorLink:
        tuning = {key: options.pop(key) for key in LINK_TUNING if key in options}
        return self.link(self.options(**options), port, on_event, tuning)


def _rw_line_link(options: SensorOptions, port: str, on_event: EventSink,
                  tuning: dict[str, float]) -> WheelSensorLink:
    return WheelSensorLink(WheelSensorSession(status_timeout=options.status_timeout),
                           port=port, on_event=on_event, baudrate=options.baudrate, **tuning)


SENSORS: Registry[SensorBackend[Any]] = Registry(
    "wheel sensor protocol",
    [
        SensorBackend(
            "rw-line",
            "ASCII lines $RW...*XXXX of the automated-wheel kind, drivers/wheel/PROTOCOL.md",
            SensorOptions,
            _rw_line_link,
            decoder=WheelSensorSession,
            simulator=WheelSensorSimulator,
        ),
    ],
    default="rw-line",
    unknown=UnknownSensor,
)


def open_wheel_sensor(protocol: str = SENSORS.default, *, port: str, on_event: EventSink,
                      **options: Any) -> WheelSensorLink:
    """A link for `protocol` on `port`; not started (use ``with`` or ``start()``).

    ``options`` are the protocol's (`SENSORS[protocol].options`: baudrate,
    status_timeout) and the backoff after a port failure: ``reconnect_first``
    (0.05 s), ``reconnect_max`` (2.0 s). An option the protocol does not have is
    refused (TypeError).
    """
    return SENSORS[protocol].open(port=port, on_event=on_event, **options)
