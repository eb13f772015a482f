"""The wire protocol between the shoe's firmware and the station. Pure: no I/O.

The specification is PROTOCOL.md beside this file; `c/` holds the reference C
codec for the firmware and `vectors/frames.txt` the test vectors both codecs pass.
"""

from firmware_proto.crc16 import crc16_ccitt_false
from firmware_proto.errors import EncodeError, MessageError, ProtocolError, SenderFull
from firmware_proto.framing import (
    END,
    MAX_PAYLOAD,
    SYNC,
    FaultKind,
    Frame,
    FrameDecoder,
    FrameFault,
    encode_frame,
)
from firmware_proto.messages import (
    PROTOCOL_VERSION,
    Ack,
    Card,
    CardUnread,
    Heartbeat,
    Hello,
    Indicator,
    Keepalive,
    Message,
    MessageType,
    Nak,
    Reset,
    SetIndicator,
    ShoeCondition,
    ShoeError,
    ShoeStatus,
    UnreadReason,
    decode_message,
    encode_message,
    is_sequenced,
)
from firmware_proto.reliability import ReliableReceiver, ReliableSender, Verdict, seq_distance

__all__ = [
    "END",
    "MAX_PAYLOAD",
    "PROTOCOL_VERSION",
    "SYNC",
    "Ack",
    "Card",
    "CardUnread",
    "EncodeError",
    "FaultKind",
    "Frame",
    "FrameDecoder",
    "FrameFault",
    "Heartbeat",
    "Hello",
    "Indicator",
    "Keepalive",
    "Message",
    "MessageError",
    "MessageType",
    "Nak",
    "ProtocolError",
    "ReliableReceiver",
    "ReliableSender",
    "Reset",
    "SenderFull",
    "SetIndicator",
    "ShoeCondition",
    "ShoeError",
    "ShoeStatus",
    "UnreadReason",
    "Verdict",
    "crc16_ccitt_false",
    "decode_message",
    "encode_frame",
    "encode_message",
    "is_sequenced",
    "seq_distance",
]
