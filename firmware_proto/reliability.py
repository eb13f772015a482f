"""Delivery of the shoe's sequenced messages: exactly once, in order.

Go-back-N with cumulative acknowledgements (PROTOCOL.md, "Reliability"). Both
ends are plain state machines: time comes in as an argument, bytes go out as
return values, so the same code runs in the station, the simulator and tests.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import Enum

from firmware_proto.errors import SenderFull
from firmware_proto.framing import encode_frame
from firmware_proto.messages import (
    Ack,
    Hello,
    Message,
    Nak,
    encode_payload,
    is_sequenced,
    type_of,
)

WINDOW = 8
QUEUE_CAPACITY = 64
RETRANSMIT_AFTER_S = 0.25


def seq_distance(a: int, b: int) -> int:
    """Signed distance a - b between two sequence numbers, in -128..127."""
    return ((a - b + 128) & 0xFF) - 128


class Verdict(Enum):
    DELIVER = "deliver"
    DUPLICATE = "duplicate"
    OUT_OF_ORDER = "out_of_order"
    NOT_CONNECTED = "not_connected"


@dataclass(frozen=True, slots=True)
class Position:
    """Where a receiver stands: what `ReliableReceiver.rewind` goes back to."""
    expected: int | None
    boot_id: int | None
    nak_sent_for: int | None


@dataclass(frozen=True, slots=True)
class HandshakeResult:
    reply: Ack
    shoe_restarted: bool
    """The shoe came back with another boot id: what it had not sent is gone."""
    lost: int
    """Messages the shoe no longer holds though they never arrived here."""
    false_position: int | None = None
    """The `expected` given up because the shoe holds more than a window before
    it: no genuine shoe can, so it came from a false HELLO (§4.5)."""


class ReliableReceiver:
    """The station's end: delivers seq == expected, re-acknowledges duplicates,
    asks once per gap for a retransmission, and never re-orders."""

    def __init__(self) -> None:
        self.expected: int | None = None
        self.boot_id: int | None = None
        self._nak_sent_for: int | None = None

    def handshake(self, hello: Hello) -> HandshakeResult:
        restarted = self.boot_id is not None and hello.boot_id != self.boot_id
        lost = 0
        false_position = None
        if self.expected is None or hello.boot_id != self.boot_id:
            self.expected = hello.next_seq
        else:
            ahead = seq_distance(hello.next_seq, self.expected)
            if ahead > 0:
                lost = ahead
                self.expected = hello.next_seq
            elif ahead < -WINDOW:
                # The shoe sends at most a window past its oldest unacknowledged
                # message, so this station cannot have received more than that.
                false_position = self.expected
                self.expected = hello.next_seq
        self.boot_id = hello.boot_id
        self._nak_sent_for = None
        return HandshakeResult(Ack(self.expected), restarted, lost, false_position)

    def receive(self, seq: int) -> tuple[Verdict, Ack | Nak | None]:
        if self.expected is None:
            return Verdict.NOT_CONNECTED, None
        distance = seq_distance(seq, self.expected)
        if distance == 0:
            self.expected = (self.expected + 1) & 0xFF
            self._nak_sent_for = None
            return Verdict.DELIVER, Ack(self.expected)
        if distance < 0:
            return Verdict.DUPLICATE, Ack(self.expected)
        return Verdict.OUT_OF_ORDER, self._nak()

    def position(self) -> Position:
        return Position(self.expected, self.boot_id, self._nak_sent_for)

    def rewind(self, position: Position) -> None:
        """Go back to `position`: the messages delivered since were not taken,
        and the shoe, never acknowledged for them, sends them again (§4.2)."""
        self.expected = position.expected
        self.boot_id = position.boot_id
        self._nak_sent_for = position.nak_sent_for

    def corruption_seen(self) -> Nak | None:
        """Damaged bytes may have been a sequenced frame: ask for it again."""
        if self.expected is None:
            return None
        return self._nak()

    def _nak(self) -> Nak | None:
        # One NAK per gap: each NAK makes the shoe resend its whole window, so a
        # NAK per damaged frame would multiply the traffic the noise creates.
        assert self.expected is not None
        if self._nak_sent_for == self.expected:
            return None
        self._nak_sent_for = self.expected
        return Nak(self.expected)


@dataclass(slots=True)
class _Pending:
    seq: int
    frame: bytes


class ReliableSender:
    """The shoe's end: numbers sequenced messages, keeps them until acknowledged,
    sends at most `window` ahead, and goes back to the oldest on NAK or timeout."""

    def __init__(
        self,
        *,
        first_seq: int = 0,
        window: int = WINDOW,
        capacity: int = QUEUE_CAPACITY,
        retransmit_after: float = RETRANSMIT_AFTER_S,
    ) -> None:
        if not 1 <= window <= 64:
            raise ValueError("window must be 1..64 to keep sequence numbers unambiguous")
        self.window = window
        self.capacity = capacity
        self.retransmit_after = retransmit_after
        self._next_seq = first_seq & 0xFF
        self._queue: deque[_Pending] = deque()
        self._sent = 0
        self._ever_sent = 0
        self._timer_start: float | None = None
        self.paused = True
        self.retransmissions = 0

    @property
    def oldest_unacked(self) -> int:
        return self._queue[0].seq if self._queue else self._next_seq

    @property
    def unacked(self) -> int:
        return len(self._queue)

    def submit(self, message: Message) -> int:
        code = type_of(message)
        if not is_sequenced(code):
            raise ValueError(f"{code.name} is not a sequenced message")
        if len(self._queue) >= self.capacity:
            raise SenderFull(f"{self.capacity} messages await acknowledgement")
        seq = self._next_seq
        self._queue.append(_Pending(seq, encode_frame(seq, code, encode_payload(message))))
        self._next_seq = (seq + 1) & 0xFF
        return seq

    def link_reset(self) -> None:
        """The station asked for HELLO: wait for its ACK before sending again."""
        self.paused = True
        self._sent = 0
        self._timer_start = None

    def on_ack(self, ack: Ack, now: float) -> None:
        self._acknowledge(ack.next_seq, now)

    def on_nak(self, nak: Nak, now: float) -> None:
        if self._acknowledge(nak.next_seq, now) and self._sent:
            self.retransmissions += self._sent
            self._sent = 0

    def due(self, now: float) -> list[bytes]:
        """Frames to write now: a go-back on timeout, then whatever the window allows."""
        if self.paused:
            return []
        if (
            self._sent
            and self._timer_start is not None
            and now - self._timer_start >= self.retransmit_after
        ):
            self.retransmissions += self._sent
            self._sent = 0
        out: list[bytes] = []
        limit = min(self.window, len(self._queue))
        while self._sent < limit:
            if self._sent == 0:
                self._timer_start = now
            out.append(self._queue[self._sent].frame)
            self._sent += 1
        self._ever_sent = max(self._ever_sent, self._sent)
        return out

    def _acknowledge(self, next_seq: int, now: float) -> bool:
        # An acknowledgement may only cover what has been sent at least once:
        # anything else is damage that slipped past the CRC, and obeying it
        # would drop messages the station never received.
        acked = seq_distance(next_seq, self.oldest_unacked)
        if not 0 <= acked <= self._ever_sent:
            return False
        for _ in range(acked):
            self._queue.popleft()
        self._sent = max(0, self._sent - acked)
        self._ever_sent -= acked
        self.paused = False
        if acked:
            self._timer_start = now if self._sent else None
        return True
