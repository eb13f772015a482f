"""Shoe backends by name: the one place that knows which shoe protocols exist.

The station's config names a protocol; `BACKENDS[name]` says everything that
differs between two shoes: the session that speaks its wire protocol, how to
open a link to it, its options (the config's shoe keys, with their defaults),
the session that decodes its captures, its simulator, and what it can do. The
config's shoe section, the capture decoder, ``dealer-station shoe``, the
station's bridge and the tests' rigs read the entry; none of them compares a
protocol's name (tests/shoe/test_registry.py fails if one does). Adding a shoe
vendor is a session, a simulator and one entry here (docs/shoe.md).

pyserial is imported only when a serial link is opened, so a station without it
can still run the virtual shoe.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Generic, Protocol, Self, TypeVar

from drivers.registry import LINK_TUNING, Registry, UnknownDevice, setting
from drivers.shoe.beetek_session import BEETEK_BAUDRATE, BeeTekSession
from drivers.shoe.beetek_simulator import BeeTekShoeSimulator
from drivers.shoe.errors import ShoeError
from drivers.shoe.events import ShoeEvent
from drivers.shoe.framed_session import FRAMED_BAUDRATE, HEARTBEAT_TIMEOUT_S, FramedSession
from drivers.shoe.link import EventSink, ShoeLink
from drivers.shoe.session import ShoeSession
from drivers.shoe.simulator import FramedShoeSimulator
from drivers.shoe.virtual import VirtualShoeLink


class UnknownBackend(ShoeError, UnknownDevice, ValueError):
    """No shoe protocol of that name."""


@dataclass(frozen=True, slots=True)
class ShoeOptions:
    """A protocol's settings: the keys its shoe takes in the station's config
    beside ``port`` and ``protocol``, and the options of `open_shoe`. A key the
    protocol does not have is refused (a heartbeat timeout for a shoe that
    sends no heartbeat would otherwise be believed, and do nothing)."""


@dataclass(frozen=True, slots=True)
class SerialOptions(ShoeOptions):
    baudrate: int


@dataclass(frozen=True, slots=True)
class FramedOptions(SerialOptions):
    baudrate: int = setting(FRAMED_BAUDRATE, "The serial speed, in baud.", gt=0)
    heartbeat_timeout: float = setting(
        HEARTBEAT_TIMEOUT_S,
        "A shoe silent for this long is offline, in seconds (PROTOCOL.md §4.6).",
        gt=0,
    )


@dataclass(frozen=True, slots=True)
class BeeTekOptions(SerialOptions):
    baudrate: int = setting(BEETEK_BAUDRATE, "The serial speed, in baud.", gt=0)


@dataclass(frozen=True, slots=True)
class ShoeCan:
    """What a protocol can do, for the code that must behave differently."""

    heartbeat: bool  # it says it is alive: silence means offline (heartbeat_timeout)
    indicator: bool  # it has a light the station sets (`ShoeLink.set_indicator`)
    resend: bool  # an event the station did not take comes again (not lost)
    line_faults: bool  # its simulator damages the line on demand (`LineFaults`)


class ShoeSimulator(Protocol):
    """A simulated shoe on a real pseudo-terminal, as ``dealer-station shoe
    simulate`` and the tests' rigs drive it. Built with the keywords ``decks``,
    ``seed``, ``link_path``, and ``faults`` when `ShoeCan.line_faults`."""

    port: str
    cards_left: list[str]
    sent: list[ShoeEvent]

    def draw(self, count: int = 1, *, burn: bool = False) -> list[str]: ...
    def draw_unread(self) -> str: ...
    def status(self) -> str:
        """What the shoe shows beside the cards ("indicator=green"), or ""."""
        ...
    def close(self) -> None: ...
    def __enter__(self) -> Self: ...
    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...


Opts = TypeVar("Opts", bound=ShoeOptions)
S = TypeVar("S", bound=SerialOptions)


@dataclass(frozen=True, slots=True)
class ShoeBackend(Generic[Opts]):
    name: str
    description: str  # for the config's schema and the CLI's help
    options: type[Opts]
    can: ShoeCan
    link: Callable[[Opts, str, EventSink, dict[str, float]], ShoeLink]
    # The session decoding a recorded capture (the live one's, with the clock
    # stopped), and the simulator; None for a backend without a wire.
    decoder: Callable[[], ShoeSession] | None = None
    simulator: Callable[..., ShoeSimulator] | None = None

    def open(self, *, port: str, on_event: EventSink, **options: Any) -> ShoeLink:
        tuning = {key: options.pop(key) for key in LINK_TUNING if key in options}
        return self.link(self.options(**options), port, on_event, tuning)


def serial_link(session: Callable[[S], ShoeSession]) -> Callable[
        [S, str, EventSink, dict[str, float]], ShoeLink]:
    """A link factory running ``session(options)`` over a pyserial port."""

    def open_link(options: S, port: str, on_event: EventSink,
                  tuning: dict[str, float]) -> ShoeLink:
        from drivers.shoe.serial_link import SerialShoeLink

        return SerialShoeLink(session(options), port=port, on_event=on_event,
                              baudrate=options.baudrate, **tuning)

    return open_link


def _framed_session(options: FramedOptions) -> ShoeSession:
    return FramedSession(heartbeat_timeout=options.heartbeat_timeout)


def _beetek_session(options: BeeTekOptions) -> ShoeSession:
    return BeeTekSession()


def _virtual_link(options: ShoeOptions, port: str, on_event: EventSink,
                  tuning: dict[str, float]) -> ShoeLink:
    if tuning:
        raise TypeError(f"the virtual shoe has no {', '.join(tuning)}")
    return VirtualShoeLink(on_event=on_event, port=port)


BACKENDS: Registry[ShoeBackend[Any]] = Registry(
    "shoe protocol",
    [
        ShoeBackend(
            "framed",
            "ours, firmware_proto/PROTOCOL.md: framed, checked, acknowledged",
            FramedOptions,
            ShoeCan(heartbeat=True, indicator=True, resend=True, line_faults=True),
            serial_link(_framed_session),
            decoder=lambda: FramedSession(replaying=True),
            simulator=FramedShoeSimulator,
        ),
        ShoeBackend(
            "beetek",
            "Bee-Tek/USPC ASCII lines, no checksum, no acknowledgement",
            BeeTekOptions,
            ShoeCan(heartbeat=False, indicator=False, resend=False, line_faults=False),
            serial_link(_beetek_session),
            decoder=BeeTekSession,
            simulator=BeeTekShoeSimulator,
        ),
        ShoeBackend(
            "virtual",
            "in-process, no port: the runtime's tests draw its cards",
            ShoeOptions,
            ShoeCan(heartbeat=False, indicator=True, resend=False, line_faults=False),
            _virtual_link,
        ),
    ],
    default="framed",
    unknown=UnknownBackend,
)

# The protocols of a real shoe on a port: what a station's config may name.
WIRED = tuple(name for name, backend in BACKENDS.items() if backend.decoder is not None)
SIMULATED = tuple(name for name, backend in BACKENDS.items() if backend.simulator is not None)


def open_shoe(protocol: str, *, port: str, on_event: EventSink, **options: Any) -> ShoeLink:
    """A link for `protocol` on `port`; not started (use ``with`` or ``start()``).

    ``options`` are the protocol's (`BACKENDS[protocol].options`: baudrate,
    heartbeat_timeout...) and, for a serial link, the backoff after a port
    failure: ``reconnect_first`` (0.05 s), ``reconnect_max`` (2.0 s). An option
    the protocol does not have is refused (TypeError).
    """
    return BACKENDS[protocol].open(port=port, on_event=on_event, **options)
