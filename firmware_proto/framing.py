"""Frames: SYNC, LEN, SEQ, TYPE, PAYLOAD, CRC, END (see PROTOCOL.md, "Frame").

`FrameDecoder` is a streaming decoder: feed it any bytes, in any pieces, and it
returns the frames that pass the checks and a `FrameFault` for every stretch it
had to throw away. It never raises on input, so a noisy line cannot crash the
station, and a frame is only ever returned whole and with a matching CRC.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from firmware_proto.crc16 import crc16_ccitt_false
from firmware_proto.errors import EncodeError

SYNC = 0x7E
END = 0x7F
MAX_PAYLOAD = 64
# SYNC + LEN + SEQ + TYPE before the payload, CRC (2 bytes) and END after it.
HEADER_SIZE = 4
OVERHEAD = HEADER_SIZE + 3
MAX_FRAME = OVERHEAD + MAX_PAYLOAD


@dataclass(frozen=True, slots=True)
class Frame:
    seq: int
    type: int
    payload: bytes


class FaultKind(Enum):
    GARBAGE = "garbage"
    """Bytes before a SYNC byte: they cannot start a frame."""
    BAD_LENGTH = "bad_length"
    """A SYNC byte followed by a LEN above MAX_PAYLOAD."""
    BAD_CHECK = "bad_check"
    """A complete candidate frame whose CRC or END byte does not match."""
    TRUNCATED = "truncated"
    """A partial frame abandoned because the line went idle."""


@dataclass(frozen=True, slots=True)
class FrameFault:
    kind: FaultKind
    discarded: int


def encode_frame(seq: int, type_code: int, payload: bytes = b"") -> bytes:
    if not 0 <= seq <= 0xFF:
        raise EncodeError(f"sequence number {seq} is not a byte")
    if not 0 <= type_code <= 0xFF:
        raise EncodeError(f"message type {type_code} is not a byte")
    if len(payload) > MAX_PAYLOAD:
        raise EncodeError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = bytes((len(payload), seq, type_code)) + payload
    crc = crc16_ccitt_false(body)
    return bytes((SYNC,)) + body + bytes((crc >> 8, crc & 0xFF, END))


@dataclass(slots=True)
class DecoderCounters:
    """Totals that do not depend on how the stream was split into reads."""

    frames: int = 0
    bytes_discarded: int = 0
    bad_length: int = 0
    bad_check: int = 0
    truncated: int = 0

    def count(self, fault: FrameFault) -> None:
        self.bytes_discarded += fault.discarded
        match fault.kind:
            case FaultKind.BAD_LENGTH:
                self.bad_length += 1
            case FaultKind.BAD_CHECK:
                self.bad_check += 1
            case FaultKind.TRUNCATED:
                self.truncated += 1
            case FaultKind.GARBAGE:
                pass


class FrameDecoder:
    def __init__(self) -> None:
        self._buf = bytearray()
        self.counters = DecoderCounters()

    @property
    def pending(self) -> int:
        """Bytes held as the start of a frame not yet complete."""
        return len(self._buf)

    def feed(self, data: bytes | bytearray | memoryview) -> list[Frame | FrameFault]:
        self._buf += data
        return self._scan()

    def abandon_partial(self) -> list[Frame | FrameFault]:
        """Give up the pending partial frame: drop its SYNC byte and rescan.

        A corrupted LEN can make the decoder wait for bytes that belong to the
        next frames; when the line goes idle, the shoe is not in the middle of a
        frame (it writes each frame in one burst), so what is held is damaged.
        """
        if not self._buf:
            return []
        del self._buf[0]
        return [self._fault(FaultKind.TRUNCATED, 1), *self._scan()]

    def _scan(self) -> list[Frame | FrameFault]:
        buf = self._buf
        view = memoryview(buf)
        out: list[Frame | FrameFault] = []
        pos = 0
        end_of_data = len(buf)
        try:
            while pos < end_of_data:
                start = buf.find(SYNC, pos)
                if start < 0:
                    out.append(self._fault(FaultKind.GARBAGE, end_of_data - pos))
                    pos = end_of_data
                    break
                if start > pos:
                    out.append(self._fault(FaultKind.GARBAGE, start - pos))
                    pos = start
                if end_of_data - pos < 2:
                    break
                length = buf[pos + 1]
                if length > MAX_PAYLOAD:
                    out.append(self._fault(FaultKind.BAD_LENGTH, 1))
                    pos += 1
                    continue
                end = pos + OVERHEAD + length
                if end > end_of_data:
                    break
                received = (buf[end - 3] << 8) | buf[end - 2]
                if buf[end - 1] != END or crc16_ccitt_false(view[pos + 1 : end - 3]) != received:
                    out.append(self._fault(FaultKind.BAD_CHECK, 1))
                    pos += 1
                    continue
                payload = bytes(view[pos + HEADER_SIZE : end - 3])
                out.append(Frame(buf[pos + 2], buf[pos + 3], payload))
                self.counters.frames += 1
                pos = end
        finally:
            view.release()
        del buf[:pos]
        return out

    def _fault(self, kind: FaultKind, discarded: int) -> FrameFault:
        fault = FrameFault(kind, discarded)
        self.counters.count(fault)
        return fault
