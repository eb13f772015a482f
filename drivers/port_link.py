"""A device on a serial port: pyserial, a reader thread, reconnection with backoff.

Shared by the shoe's serial link (drivers/shoe/serial_link.py) and the wheel
sensor's (drivers/wheel/link.py). The protocol is a session without I/O (bytes
and time in, events and bytes to send out); the device's link says how events
are handed over. Only the link's thread writes to the port: a write may wait up
to the port's write timeout (a stalled line, a full USB buffer). pyserial is
imported by the link's thread, so a station without it can still import the
drivers (and run the virtual shoe).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sized
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    import serial

TICK_S = 0.02
RECONNECT_FIRST_S = 0.05
RECONNECT_MAX_S = 2.0


class PortOutput(Protocol):
    """What a session returns: events to hand over and bytes to send."""

    @property
    def events(self) -> Sized: ...
    @property
    def tx(self) -> bytes | bytearray: ...


Out = TypeVar("Out", bound=PortOutput)


class PortSession(Protocol[Out]):
    def connected(self, now: float) -> Out: ...
    def received(self, data: bytes, now: float) -> Out: ...
    def tick(self, now: float) -> Out: ...
    def disconnected(self, reason: str) -> Out: ...
    def take_back(self, out: Out, index: int, now: float) -> Out:
        """The consumer did not take ``out.events[index]``: what is left to do."""
        ...
    def counters(self) -> dict[str, int]: ...


class PortLink(Generic[Out]):
    """Runs a session over any pyserial port or URL.

    The port is a device path (a udev name such as ``/dev/dealer-shoe``) or any
    pyserial URL (``spy://...``, ``socket://...``, ``loop://``). When the port
    fails (USB unplugged), the session hears `disconnected`, the port is closed
    and reopened with exponential backoff; the session keeps its state across
    reopenings. ``hand_over(out)`` gives ``out.events`` to the consumer in order
    and returns how many it took; ``cannot_open(reason)`` reports a port that
    does not open; ``each_turn(now)`` runs in the thread at every turn and once
    before the port is let go (the shoe's light).
    """

    def __init__(
        self,
        session: PortSession[Out],
        *,
        port: str,
        baudrate: int,
        name: str,
        hand_over: Callable[[Out], int],
        cannot_open: Callable[[str], object],
        each_turn: Callable[[float], None] | None = None,
        reconnect_first: float = RECONNECT_FIRST_S,
        reconnect_max: float = RECONNECT_MAX_S,
    ) -> None:
        self.port = port
        self.baudrate = baudrate
        self.reconnect_first = reconnect_first
        self.reconnect_max = reconnect_max
        # Held while the session runs: `counters` and `write` come from other threads.
        self.lock = threading.Lock()
        self._session = session
        self._name = name
        self._hand_over = hand_over
        self._cannot_open = cannot_open
        self._each_turn = each_turn
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: serial.SerialBase | None = None
        self._connections = 0
        self._port_failures = 0

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name=f"{self._name} {self.port}",
                                        daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def counters(self) -> dict[str, int]:
        with self.lock:
            counters = self._session.counters()
        counters["connections"] = self._connections
        counters["port_failures"] = self._port_failures
        return counters

    def write(self, data: bytes | bytearray) -> None:
        """Called with `lock` held; a failed write surfaces on the next read."""
        # OSError covers pyserial's SerialException.
        if data and self._serial is not None:
            with contextlib.suppress(OSError):
                self._serial.write(data)

    def _run(self) -> None:
        import serial

        delay = self.reconnect_first
        while not self._stop.is_set():
            try:
                port = self._open()
            except (serial.SerialException, OSError, ValueError) as exc:
                self._cannot_open(f"cannot open {self.port}: {exc}")
                self._stop.wait(delay)
                delay = min(delay * 2, self.reconnect_max)
                continue
            delay = self.reconnect_first
            self._connections += 1
            try:
                self._serve(port)
            except (serial.SerialException, OSError) as exc:
                self._port_failures += 1
                with self.lock:
                    self._serial = None
                    out = self._session.disconnected(f"port {self.port} failed: {exc}")
                self._hand_over(out)
            finally:
                with self.lock:
                    self._serial = None
                port.close()
        with self.lock:
            out = self._session.disconnected("link closed")
        self._hand_over(out)

    def _open(self) -> serial.SerialBase:
        import serial

        is_url = "://" in self.port
        port = serial.serial_for_url(
            self.port,
            baudrate=self.baudrate,
            timeout=TICK_S,
            write_timeout=1.0,
            **({} if is_url else {"exclusive": True}),
        )
        return port

    def _serve(self, port: serial.SerialBase) -> None:
        with self.lock:
            self._serial = port
            out = self._session.connected(time.monotonic())
            self.write(out.tx)
        self._hand_over(out)
        while not self._stop.is_set():
            data = port.read(1)  # blocks up to one tick
            if data and port.in_waiting:
                data += port.read(port.in_waiting)
            now = time.monotonic()
            if data:
                with self.lock:
                    out = self._session.received(data, now)
                self._settle(out, now)
            if self._each_turn is not None:
                self._each_turn(now)
            with self.lock:
                out = self._session.tick(now)
            self._settle(out, now)
        if self._each_turn is not None:
            self._each_turn(time.monotonic())

    def _settle(self, out: Out, now: float) -> None:
        """Events first, acknowledgements after: a device may forget an event only
        once the consumer took it, and the consumer does not wait on a write. An
        event not taken is taken back, so what is sent does not acknowledge it."""
        while True:
            taken = self._hand_over(out)
            if taken == len(out.events):
                break
            with self.lock:
                out = self._session.take_back(out, taken, now)
        if out.tx:
            with self.lock:
                self.write(out.tx)
