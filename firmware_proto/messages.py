"""The messages of protocol version 2 and their payload layouts.

Layouts are fixed big-endian fields (see PROTOCOL.md, "Messages"). `decode_message`
turns a checked `Frame` into one of the dataclasses below or raises `MessageError`
with the reason; `encode_message` is its inverse.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import TypeVar

from firmware_proto.errors import EncodeError, MessageError
from firmware_proto.framing import MAX_PAYLOAD, Frame, encode_frame

PROTOCOL_VERSION = 2

RANKS = "A23456789TJQK"
SUITS = "CDHS"

FLAG_BURN = 0x01

MAX_TEXT = 32

_E = TypeVar("_E", bound=IntEnum)


class MessageType(IntEnum):
    HELLO = 0x01
    HEARTBEAT = 0x02
    CARD = 0x41
    CARD_UNREAD = 0x42
    SHOE_STATE = 0x43
    ERROR = 0x44
    ACK = 0x81
    NAK = 0x82
    RESET = 0x83
    INDICATOR = 0x84
    KEEPALIVE = 0x85


def is_sequenced(type_code: int) -> bool:
    """Types 0x40-0x7F are the shoe's reliable messages: acknowledged, retransmitted."""
    return 0x40 <= type_code <= 0x7F


class Indicator(IntEnum):
    OFF = 0
    GREEN = 1
    RED = 2


class ShoeCondition(IntEnum):
    INSERTED = 1
    REMOVED = 2
    EMPTY = 3
    CUT_CARD = 4


class UnreadReason(IntEnum):
    UNKNOWN = 0
    NO_IMAGE = 1
    AMBIGUOUS = 2
    MISFEED = 3


@dataclass(frozen=True, slots=True)
class Hello:
    protocol_version: int
    boot_id: int
    next_seq: int
    vendor: str
    model: str
    serial_number: str
    firmware_version: str
    # The challenge of the RESET this HELLO answers (0 at power-up): only the
    # answer to its own RESET moves the station (§4.5). None: a version 1 HELLO.
    challenge: int | None = 0


@dataclass(frozen=True, slots=True)
class Heartbeat:
    uptime_ms: int
    indicator: Indicator


@dataclass(frozen=True, slots=True)
class Card:
    index: int
    rank: int
    suit: int
    burn: bool
    shoe_time_ms: int
    # Which shoe since power-up (1 for the first inserted): with the boot id and
    # the index it names the card for ever, across re-inserts and restarts.
    insertion: int = 1

    @property
    def code(self) -> str:
        """The station's two-character form, rank then suit: "AS", "TD"."""
        return RANKS[self.rank - 1] + SUITS[self.suit]


@dataclass(frozen=True, slots=True)
class CardUnread:
    index: int
    burn: bool
    shoe_time_ms: int
    reason: UnreadReason
    insertion: int = 1


@dataclass(frozen=True, slots=True)
class ShoeStatus:
    condition: ShoeCondition
    shoe_time_ms: int


@dataclass(frozen=True, slots=True)
class ShoeError:
    code: int
    text: str


@dataclass(frozen=True, slots=True)
class Ack:
    next_seq: int


@dataclass(frozen=True, slots=True)
class Nak:
    next_seq: int


@dataclass(frozen=True, slots=True)
class Reset:
    protocol_version: int
    challenge: int


@dataclass(frozen=True, slots=True)
class SetIndicator:
    colour: Indicator


@dataclass(frozen=True, slots=True)
class Keepalive:
    """The station is alive: a shoe that hears nothing for `STATION_SILENCE_MS`
    turns its indicator red by itself (PROTOCOL.md §4.7)."""


Message = (
    Hello | Heartbeat | Card | CardUnread | ShoeStatus | ShoeError
    | Ack | Nak | Reset | SetIndicator | Keepalive
)

# How long the shoe waits for any valid frame from the station before it shows red.
STATION_SILENCE_MS = 3000
# How often the station sends KEEPALIVE while a session is up.
KEEPALIVE_INTERVAL_MS = 1000

_CARD = struct.Struct(">HHBBBI")
_UNREAD = struct.Struct(">HHBIB")
_STATE = struct.Struct(">BI")
_HEARTBEAT = struct.Struct(">IB")
_HELLO_HEAD = struct.Struct(">BIB")
_CHALLENGE = struct.Struct(">I")
_RESET = struct.Struct(">BI")


def card_from_code(
    code: str, index: int, *, burn: bool = False, shoe_time_ms: int = 0, insertion: int = 1
) -> Card:
    if len(code) != 2 or code[0] not in RANKS or code[1] not in SUITS:
        raise EncodeError(f"not a card: {code!r}")
    return Card(index, RANKS.index(code[0]) + 1, SUITS.index(code[1]), burn, shoe_time_ms,
                insertion)


def type_of(message: Message) -> MessageType:
    return _TYPE_OF[type(message)]


def encode_message(message: Message, seq: int = 0) -> bytes:
    """The whole frame for `message`; `seq` is sent only for sequenced types."""
    code = type_of(message)
    return encode_frame(seq if is_sequenced(code) else 0, code, encode_payload(message))


def encode_payload(message: Message) -> bytes:
    try:
        return _encode_payload(message)
    except struct.error as exc:
        raise EncodeError(f"{type(message).__name__}: {exc}") from exc


def _encode_payload(message: Message) -> bytes:
    match message:
        case Hello():
            head = _HELLO_HEAD.pack(message.protocol_version, message.boot_id, message.next_seq)
            strings = (message.vendor, message.model, message.serial_number,
                       message.firmware_version)
            payload = head + b"".join(_encode_text(s) for s in strings)
            if message.challenge is not None:
                payload += _CHALLENGE.pack(message.challenge)
            if len(payload) > MAX_PAYLOAD:
                raise EncodeError(f"HELLO of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
            return payload
        case Heartbeat():
            return _HEARTBEAT.pack(message.uptime_ms, message.indicator)
        case Card():
            if not 1 <= message.rank <= 13 or not 0 <= message.suit <= 3:
                raise EncodeError(f"no card has rank {message.rank} suit {message.suit}")
            return _CARD.pack(message.insertion, message.index, message.rank, message.suit,
                              FLAG_BURN if message.burn else 0, message.shoe_time_ms)
        case CardUnread():
            return _UNREAD.pack(message.insertion, message.index,
                                FLAG_BURN if message.burn else 0, message.shoe_time_ms,
                                message.reason)
        case ShoeStatus():
            return _STATE.pack(message.condition, message.shoe_time_ms)
        case ShoeError():
            return bytes((message.code,)) + _encode_text(message.text)
        case Ack() | Nak():
            return bytes((message.next_seq,))
        case Reset():
            return _RESET.pack(message.protocol_version, message.challenge)
        case SetIndicator():
            return bytes((message.colour,))
        case Keepalive():
            return b""


def _encode_text(text: str) -> bytes:
    if not all(" " <= ch <= "~" for ch in text):
        raise EncodeError(f"text must be printable ASCII: {text!r}")
    raw = text.encode("ascii")
    if len(raw) > MAX_TEXT:
        raise EncodeError(f"text of {len(raw)} bytes exceeds {MAX_TEXT}: {text!r}")
    return bytes((len(raw),)) + raw


def decode_message(frame: Frame) -> Message:
    """The message a frame holds, or `MessageError` saying why it holds none."""
    t, p = frame.type, frame.payload
    try:
        kind = MessageType(t)
    except ValueError:
        raise MessageError(t, "unknown_type", "unknown message type") from None
    match kind:
        case MessageType.HELLO:
            return _decode_hello(p)
        case MessageType.HEARTBEAT:
            uptime, colour = _unpack(_HEARTBEAT, t, p)
            return Heartbeat(uptime, _enum(Indicator, colour, t, "indicator"))
        case MessageType.CARD:
            insertion, index, rank, suit, flags, stamp = _unpack(_CARD, t, p)
            if not 1 <= rank <= 13:
                raise MessageError(t, "bad_field", f"rank {rank} is outside 1..13")
            if suit > 3:
                raise MessageError(t, "bad_field", f"suit {suit} is outside 0..3")
            return Card(index, rank, suit, bool(flags & FLAG_BURN), stamp, insertion)
        case MessageType.CARD_UNREAD:
            insertion, index, flags, stamp, reason = _unpack(_UNREAD, t, p)
            return CardUnread(index, bool(flags & FLAG_BURN), stamp,
                              _enum(UnreadReason, reason, t, "reason"), insertion)
        case MessageType.SHOE_STATE:
            condition, stamp = _unpack(_STATE, t, p)
            return ShoeStatus(_enum(ShoeCondition, condition, t, "shoe state"), stamp)
        case MessageType.ERROR:
            if len(p) < 1:
                raise MessageError(t, "bad_length", "payload too short")
            text, rest = _decode_text(p[1:], t)
            _expect_empty(rest, t)
            return ShoeError(p[0], text)
        case MessageType.ACK | MessageType.NAK:
            _expect_length(p, 1, t)
            return Ack(p[0]) if kind is MessageType.ACK else Nak(p[0])
        case MessageType.RESET:
            version, challenge = _unpack(_RESET, t, p)
            return Reset(version, challenge)
        case MessageType.INDICATOR:
            _expect_length(p, 1, t)
            return SetIndicator(_enum(Indicator, p[0], t, "indicator"))
        case MessageType.KEEPALIVE:
            _expect_length(p, 0, t)
            return Keepalive()


def _decode_hello(p: bytes) -> Hello:
    t = MessageType.HELLO
    if len(p) < _HELLO_HEAD.size:
        raise MessageError(t, "bad_length", "payload too short")
    version, boot_id, next_seq = _HELLO_HEAD.unpack_from(p)
    rest = p[_HELLO_HEAD.size :]
    vendor, rest = _decode_text(rest, t)
    model, rest = _decode_text(rest, t)
    serial_number, rest = _decode_text(rest, t)
    firmware, rest = _decode_text(rest, t)
    # Version 1 ends with the texts: decoded all the same, so that the station
    # can say which version it refuses.
    challenge = None
    if rest:
        (challenge,) = _unpack(_CHALLENGE, t, rest)
    return Hello(version, boot_id, next_seq, vendor, model, serial_number, firmware, challenge)


def _decode_text(p: bytes, t: int) -> tuple[str, bytes]:
    if not p:
        raise MessageError(t, "bad_length", "text length missing")
    n = p[0]
    if n > MAX_TEXT or len(p) < 1 + n:
        raise MessageError(t, "bad_length", f"text length {n} does not fit the payload")
    raw = p[1 : 1 + n]
    if not all(0x20 <= b <= 0x7E for b in raw):
        raise MessageError(t, "bad_field", "text is not printable ASCII")
    return raw.decode("ascii"), p[1 + n :]


def _unpack(layout: struct.Struct, t: int, p: bytes) -> tuple[int, ...]:
    _expect_length(p, layout.size, t)
    return layout.unpack(p)


def _expect_length(p: bytes, size: int, t: int) -> None:
    if len(p) != size:
        raise MessageError(t, "bad_length", f"payload is {len(p)} bytes, expected {size}")


def _expect_empty(rest: bytes, t: int) -> None:
    if rest:
        raise MessageError(t, "bad_length", f"{len(rest)} bytes after the last field")


def _enum(enum: type[_E], value: int, t: int, what: str) -> _E:
    try:
        return enum(value)
    except ValueError:
        raise MessageError(t, "bad_field", f"{what} {value} is not defined") from None


_TYPE_OF: dict[type, MessageType] = {
    Hello: MessageType.HELLO,
    Heartbeat: MessageType.HEARTBEAT,
    Card: MessageType.CARD,
    CardUnread: MessageType.CARD_UNREAD,
    ShoeStatus: MessageType.SHOE_STATE,
    ShoeError: MessageType.ERROR,
    Ack: MessageType.ACK,
    Nak: MessageType.NAK,
    Reset: MessageType.RESET,
    SetIndicator: MessageType.INDICATOR,
    Keepalive: MessageType.KEEPALIVE,
}
