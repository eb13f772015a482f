"""A framed-protocol shoe on a real pseudo-terminal, with faults on demand.

It plays the firmware's role: answers RESET with HELLO, numbers and retransmits
its messages until acknowledged, heartbeats, obeys the indicator, counts the
shoes inserted, and turns red by itself when the station falls silent (§4.7).
The test or demo plays the croupier (`draw`, `draw_unread`, `report_state`,
`power_cycle`) and the saboteur (`faults`, `split_frames`, `silence`, `unplug`,
`inject`). `sent` is the ground truth: the events the station should report, in
order, whatever happens on the line.

A test reads that record afterwards; a demo that deals for days would only
grow with it (a card a second is some 5,000 events and their bytes an hour),
so with ``record=False`` `sent`, `indicator_log`, `line_log` and `station_log`
stay empty.
"""

from __future__ import annotations

import os
import secrets
import select
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

import firmware_proto as fp
from drivers.line_faults import LineFaults
from drivers.pty_simulator import PtySimulator
from drivers.shoe.errors import ShoeError
from drivers.shoe.events import CardDrawn, CardUnread, ShoeAlarm, ShoeEvent, ShoeState
from drivers.shoe.framed_session import SHOE_STATE_NAMES
from drivers.shoe.shuffled_shoe import shuffled_shoe

POLL_S = 0.005


class ShoeEmpty(ShoeError):
    pass


class FramedShoeSimulator(PtySimulator):
    def __init__(
        self,
        *,
        decks: int = 8,
        seed: int | None = None,
        cut_card_at: int | None = None,
        link_path: Path | None = None,
        heartbeat_interval: float = 1.0,
        retransmit_after: float = 0.05,
        window: int = fp.reliability.WINDOW,
        boot_id: int | None = None,
        station_silence: float = fp.messages.STATION_SILENCE_MS / 1000,
        faults: LineFaults | None = None,
        station_faults: LineFaults | None = None,
        on_card_written: Callable[[float], None] | None = None,
        record: bool = True,
    ) -> None:
        super().__init__(link_path, "shoe-sim-")
        self.decks = decks
        self.seed = seed
        self.cut_card_at = cut_card_at
        self.heartbeat_interval = heartbeat_interval
        self.faults = faults or LineFaults()
        self.station_faults = station_faults or LineFaults()
        self.split_frames = False
        self.on_card_written = on_card_written
        self.boot_id = secrets.randbits(32) if boot_id is None else boot_id
        self.station_silence = station_silence
        self.record = record
        self.indicator = fp.Indicator.OFF
        # Each change of the light and its cause: "station" (an INDICATOR) or
        # "station silent" (the shoe's own watchdog).
        self.indicator_log: list[tuple[fp.Indicator, str]] = []
        self.sent: list[ShoeEvent] = []
        self.line_log = bytearray()
        # What the station wrote, as a tap on the line sees it (a hung firmware
        # reads none of it, the line carries it all the same).
        self.station_log = bytearray()
        self.frames_written = 0
        self.cards_left = shuffled_shoe(decks, seed)
        self._index = 0
        self.insertion = 1
        self._sender = fp.ReliableSender(window=window, retransmit_after=retransmit_after)
        self._backlog: deque[fp.Message] = deque()
        self._decoder = fp.FrameDecoder()
        self._lock = threading.Lock()
        self._silent = False
        self._hello_due = True
        self._challenge = 0  # of the last RESET heard; 0 at power-up
        self._next_heartbeat = 0.0
        self._next_new_seq = self._sender.oldest_unacked
        self._started = time.monotonic()
        self._heard_station_at = self._started
        self._stopping = False
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._run, name="shoe simulator", daemon=True)
        self._pty.open()
        self._thread.start()

    # -- the croupier -------------------------------------------------------

    def draw(self, count: int = 1, *, burn: bool = False) -> list[str]:
        drawn = []
        with self._lock:
            for _ in range(count):
                card = self._take()
                message = fp.messages.card_from_code(
                    card, self._index, burn=burn, shoe_time_ms=self._clock_ms(),
                    insertion=self.insertion)
                self._queue(message, CardDrawn(card, burn, self._index, message.shoe_time_ms,
                                               self.insertion))
                drawn.append(card)
                self._after_card()
        self._wake()
        return drawn

    def draw_unread(
        self, *, burn: bool = False, reason: fp.UnreadReason = fp.UnreadReason.AMBIGUOUS
    ) -> str:
        """A card passes unread; returns what it really was (the station never knows)."""
        with self._lock:
            card = self._take()
            stamp = self._clock_ms()
            self._queue(fp.CardUnread(self._index, burn, stamp, reason, self.insertion),
                        CardUnread(reason.name.lower(), burn, self._index, stamp,
                                   self.insertion))
            self._after_card()
        self._wake()
        return card

    def report_state(self, condition: fp.ShoeCondition) -> None:
        with self._lock:
            if condition is fp.ShoeCondition.INSERTED:
                self.cards_left = shuffled_shoe(self.decks, None if self.seed is None
                                                else self.seed + self._index)
                self._index = 0
                self.insertion = (self.insertion + 1) & 0xFFFF
            self._queue_state(condition)
        self._wake()

    def power_cycle(self, boot_id: int | None = None) -> None:
        """Power off and on: a new boot id, the first insertion, the index from 1,
        and what was not acknowledged is gone with the RAM. The shoe in the
        scanner stays; the firmware says HELLO unasked, as at every power-up."""
        with self._lock:
            self.boot_id = secrets.randbits(32) if boot_id is None else boot_id
            self.insertion = 1
            self._index = 0
            self._backlog.clear()
            self._sender = fp.ReliableSender(
                window=self._sender.window, retransmit_after=self._sender.retransmit_after)
            self._next_new_seq = self._sender.oldest_unacked
            self._decoder = fp.FrameDecoder()
            self._started = self._heard_station_at = time.monotonic()
            self._set_indicator(fp.Indicator.OFF, "power-up")
            self._challenge = 0
            self._hello_due = True
        self._wake()

    def report_error(self, code: int, text: str) -> None:
        with self._lock:
            self._queue(fp.ShoeError(code, text), ShoeAlarm(f"shoe_error_{code}", text))
        self._wake()

    # -- the saboteur -------------------------------------------------------

    def silence(self, silent: bool = True) -> None:
        """A hung firmware: no heartbeat, no frame, no answer, until un-silenced."""
        with self._lock:
            self._silent = silent
        self._wake()

    def unplug(self) -> None:
        with self._lock:
            self._pty.close()

    def inject(self, data: bytes) -> None:
        """Bytes on the line that the firmware never sent: a forgery, or damage."""
        with self._lock:
            self._pty.write(data)
            if self.record:
                self.line_log += data

    def replug(self) -> None:
        """A new device node appears under the same name, as udev does."""
        with self._lock:
            self._pty.open()
            self._decoder = fp.FrameDecoder()
            self._sender.link_reset()
            self._hello_due = True
        self._wake()

    # -- observation --------------------------------------------------------

    @property
    def retransmissions(self) -> int:
        return self._sender.retransmissions

    def all_acknowledged(self) -> bool:
        with self._lock:
            return not self._backlog and self._sender.unacked == 0

    def wait_until_acknowledged(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.all_acknowledged():
                return True
            time.sleep(0.01)
        return self.all_acknowledged()

    def status(self) -> str:
        """The shoe's light, as ``dealer-station shoe simulate`` prints it beside a card."""
        return f"indicator={self.indicator.name.lower()}"

    def close(self) -> None:
        self._stopping = True
        self._wake()
        self._thread.join()
        with self._lock:
            self._pty.close()
        os.close(self._wake_r)
        os.close(self._wake_w)
        super().close()

    # -- the firmware -------------------------------------------------------

    def _take(self) -> str:
        if not self.cards_left:
            raise ShoeEmpty("the shoe is empty")
        self._index += 1
        return self.cards_left.pop()

    def _after_card(self) -> None:
        if self.cut_card_at is not None and self._index == self.cut_card_at:
            self._queue_state(fp.ShoeCondition.CUT_CARD)
        if not self.cards_left:
            self._queue_state(fp.ShoeCondition.EMPTY)

    def _queue_state(self, condition: fp.ShoeCondition) -> None:
        stamp = self._clock_ms()
        self._queue(fp.ShoeStatus(condition, stamp), ShoeState(SHOE_STATE_NAMES[condition], stamp))

    def _queue(self, message: fp.Message, truth: ShoeEvent) -> None:
        self._backlog.append(message)
        if self.record:
            self.sent.append(truth)

    def _clock_ms(self) -> int:
        return int((time.monotonic() - self._started) * 1000) & 0xFFFFFFFF

    def _wake(self) -> None:
        os.write(self._wake_w, b"!")

    def _run(self) -> None:
        while not self._stopping:
            with self._lock:
                master = self._pty.master
            fds = [self._wake_r] if master is None else [self._wake_r, master]
            try:
                readable, _, _ = select.select(fds, [], [], POLL_S)
            except OSError:  # unplugged since the descriptor was taken: look again
                continue
            if self._wake_r in readable:
                os.read(self._wake_r, 4096)
            with self._lock:
                now = time.monotonic()
                if master is not None and master in readable and master == self._pty.master:
                    self._on_station_bytes(self._pty.read(), now)
                self._pump(now)

    def _on_station_bytes(self, data: bytes, now: float) -> None:
        if self.record:
            self.station_log += data
        if self._silent or not data:
            return
        for item in self._decoder.feed(self.station_faults.apply(data)):
            if not isinstance(item, fp.Frame):
                continue
            try:
                message = fp.decode_message(item)
            except fp.MessageError:
                continue
            self._heard_station_at = now
            match message:
                case fp.Reset():
                    self._sender.link_reset()
                    self._challenge = message.challenge
                    self._hello_due = True
                case fp.Ack():
                    self._sender.on_ack(message, now)
                case fp.Nak():
                    self._sender.on_nak(message, now)
                case fp.SetIndicator():
                    self._set_indicator(message.colour, "station")
                case _:
                    pass

    def _set_indicator(self, colour: fp.Indicator, cause: str) -> None:
        if colour != self.indicator and self.record:
            self.indicator_log.append((colour, cause))
        self.indicator = colour

    def _pump(self, now: float) -> None:
        if self._silent:
            return
        if now - self._heard_station_at >= self.station_silence:
            # Nobody is acknowledging what the croupier draws: stop (§4.7).
            self._set_indicator(fp.Indicator.RED, "station silent")
        if not self._pty.is_open:
            return
        if self._hello_due:
            self._hello_due = False
            self._write(fp.encode_message(fp.Hello(
                fp.PROTOCOL_VERSION, self.boot_id, self._sender.oldest_unacked,
                "Simulated", "SIM-SHOE", f"SIM{self.boot_id:08X}", "sim-1", self._challenge)))
        while self._backlog and self._sender.unacked < self._sender.capacity:
            self._sender.submit(self._backlog.popleft())
        for frame in self._sender.due(now):
            self._write(frame)
        if now >= self._next_heartbeat:
            self._next_heartbeat = now + self.heartbeat_interval
            uptime = self._clock_ms()
            self._write(fp.encode_message(fp.Heartbeat(uptime, self.indicator)))

    def _write(self, frame: bytes) -> None:
        data = self.faults.apply(frame)
        # Stamped before the write: the frame's last byte lands inside the write,
        # so a latency measured from here errs long, never short.
        stamp = time.perf_counter()
        if self.split_frames and len(data) > 2:
            half = len(data) // 2
            written = self._pty.write(data[:half])
            time.sleep(0.002)
            written += self._pty.write(data[half:])
        else:
            written = self._pty.write(data)
        if self.record:
            self.line_log += data[:written]
        self.frames_written += 1
        if fp.is_sequenced(frame[3]) and frame[2] == self._next_new_seq:
            self._next_new_seq = (frame[2] + 1) & 0xFF
            if frame[3] == fp.MessageType.CARD and self.on_card_written is not None:
                self.on_card_written(stamp)
