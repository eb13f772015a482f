"""A shoe on a serial port: pyserial, a reader thread, reconnection with backoff.

Only the link's thread writes to the port. A write may wait up to the port's
write timeout (a stalled line, a full USB buffer), so `set_indicator`, which the
station calls from its event loop, only leaves the colour in a slot; the thread
hands the latest colour to the session on its next turn (within one tick).
"""

from __future__ import annotations

import contextlib
import threading
import time

import serial

from drivers.shoe.events import ShoeOffline
from drivers.shoe.link import EventSink, ShoeLink
from drivers.shoe.session import SessionOutput, ShoeSession
from firmware_proto import Indicator

TICK_S = 0.02
RECONNECT_FIRST_S = 0.05
RECONNECT_MAX_S = 2.0


class SerialShoeLink(ShoeLink):
    """Runs a `ShoeSession` over any pyserial port or URL.

    The port is a device path (a udev name such as ``/dev/dealer-shoe``) or any
    pyserial URL (``spy://...``, ``socket://...``, ``loop://``). When the port
    fails (USB unplugged), the link reports `ShoeOffline`, closes it, and reopens
    it with exponential backoff; the session keeps its state across reopenings,
    which is what lets the framed protocol resume without a gap or a repeat.
    """

    def __init__(
        self,
        session: ShoeSession,
        *,
        port: str,
        on_event: EventSink,
        baudrate: int,
        reconnect_first: float = RECONNECT_FIRST_S,
        reconnect_max: float = RECONNECT_MAX_S,
    ) -> None:
        super().__init__(on_event)
        self.port = port
        self.baudrate = baudrate
        self.reconnect_first = reconnect_first
        self.reconnect_max = reconnect_max
        self._session = session
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: serial.SerialBase | None = None
        self._connections = 0
        self._port_failures = 0
        # The latest colour asked for and not yet given to the session: only the
        # last matters, a colour overtaken before the thread's turn is never sent.
        self._indicator_due: Indicator | None = None
        self._indicator_lock = threading.Lock()

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name=f"shoe {self.port}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    @property
    def supports_indicator(self) -> bool:
        return self._session.supports_indicator

    def set_indicator(self, colour: Indicator) -> None:
        """Returns at once: the link's thread writes it (see the module's docstring)."""
        if not self._session.supports_indicator:
            super().set_indicator(colour)  # raises UnsupportedCommand, in the caller
        with self._indicator_lock:
            self._indicator_due = colour

    def counters(self) -> dict[str, int]:
        with self._lock:
            counters = self._session.counters()
        counters["connections"] = self._connections
        counters["port_failures"] = self._port_failures
        return counters

    def _run(self) -> None:
        delay = self.reconnect_first
        while not self._stop.is_set():
            try:
                port = self._open()
            except (serial.SerialException, OSError, ValueError) as exc:
                self._deliver([ShoeOffline(f"cannot open {self.port}: {exc}")])
                self._stop.wait(delay)
                delay = min(delay * 2, self.reconnect_max)
                continue
            delay = self.reconnect_first
            self._connections += 1
            try:
                self._serve(port)
            except (serial.SerialException, OSError) as exc:
                self._port_failures += 1
                with self._lock:
                    self._serial = None
                    out = self._session.disconnected(f"port {self.port} failed: {exc}")
                self._deliver(out.events)
            finally:
                with self._lock:
                    self._serial = None
                port.close()
        with self._lock:
            out = self._session.disconnected("link closed")
        self._deliver(out.events)

    def _open(self) -> serial.SerialBase:
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
        with self._lock:
            self._serial = port
            out = self._session.connected(time.monotonic())
            self._write(out.tx)
        self._deliver(out.events)
        while not self._stop.is_set():
            data = port.read(1)  # blocks up to one tick
            if data and port.in_waiting:
                data += port.read(port.in_waiting)
            now = time.monotonic()
            if data:
                with self._lock:
                    out = self._session.received(data, now)
                self._settle(out, now)
            self._send_indicator(now)
            with self._lock:
                out = self._session.tick(now)
            self._settle(out, now)
        # A colour asked for just before close() (red, as the station stops) goes
        # out before the port is let go.
        self._send_indicator(time.monotonic())

    def _send_indicator(self, now: float) -> None:
        with self._indicator_lock:
            colour, self._indicator_due = self._indicator_due, None
        if colour is not None:
            with self._lock:
                out = self._session.indicator(colour, now)
                self._write(out.tx)

    def _settle(self, out: SessionOutput, now: float) -> None:
        """Events first, acknowledgements after: the shoe may forget a card only
        once the consumer took it, and the consumer does not wait on a write. An
        event not taken is taken back, so what is sent does not acknowledge it."""
        while True:
            taken = self._deliver(out.events)
            if taken == len(out.events):
                break
            with self._lock:
                out = self._session.take_back(out, taken, now)
        if out.tx:
            with self._lock:
                self._write(out.tx)

    def _write(self, data: bytes | bytearray) -> None:
        # Called with the lock held; a failed write surfaces on the next read.
        if data and self._serial is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                self._serial.write(data)
