"""Reading firmware_proto/vectors/frames.txt and writing outcomes in its notation."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import firmware_proto as fp
from firmware_proto import messages as m

VECTOR_FILE = Path(fp.__file__).parent / "vectors" / "frames.txt"


@dataclass(frozen=True)
class Vector:
    name: str
    stream: bytes
    outcome: str


def load_vectors() -> list[Vector]:
    vectors = []
    for line in VECTOR_FILE.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        name, hex_stream, outcome = (part.strip() for part in line.split("|"))
        vectors.append(Vector(name, bytes.fromhex(hex_stream), " ".join(outcome.split())))
    return vectors


def _text(s: str) -> str:
    return "".join(f"%{ord(c):02X}" if c in " %:|" else c for c in s)


def meaning(msg: fp.Message) -> str:
    match msg:
        case m.Hello():
            return (f"HELLO:v={msg.protocol_version}:boot={msg.boot_id:08x}:next={msg.next_seq}"
                    f":vendor={_text(msg.vendor)}:model={_text(msg.model)}"
                    f":serial={_text(msg.serial_number)}:fw={_text(msg.firmware_version)}"
                    f":ch={'-' if msg.challenge is None else f'{msg.challenge:08x}'}")
        case m.Heartbeat():
            return f"HEARTBEAT:up={msg.uptime_ms}:ind={int(msg.indicator)}"
        case m.Card():
            return (f"CARD:n={msg.insertion}:i={msg.index}:card={msg.code}:burn={int(msg.burn)}"
                    f":t={msg.shoe_time_ms}")
        case m.CardUnread():
            return (f"CARD_UNREAD:n={msg.insertion}:i={msg.index}:burn={int(msg.burn)}"
                    f":t={msg.shoe_time_ms}:reason={int(msg.reason)}")
        case m.ShoeStatus():
            return f"SHOE_STATE:state={int(msg.condition)}:t={msg.shoe_time_ms}"
        case m.ShoeError():
            return f"ERROR:code={msg.code}:text={_text(msg.text)}"
        case m.Ack():
            return f"ACK:{msg.next_seq}"
        case m.Nak():
            return f"NAK:{msg.next_seq}"
        case m.Reset():
            return f"RESET:v={msg.protocol_version}:ch={msg.challenge:08x}"
        case m.SetIndicator():
            return f"INDICATOR:{int(msg.colour)}"
        case m.Keepalive():
            return "KEEPALIVE"


def python_outcome(chunks: list[bytes]) -> str:
    decoder = fp.FrameDecoder()
    tokens = []
    for chunk in chunks:
        for item in decoder.feed(chunk):
            if isinstance(item, fp.FrameFault):
                continue
            tokens.append(f"F:{item.seq:02x}:{item.type:02x}:{item.payload.hex() or '-'}")
            try:
                tokens.append("M:" + meaning(fp.decode_message(item)))
            except fp.MessageError as exc:
                tokens.append(f"E:{exc.kind}")
    c = decoder.counters
    tokens.append(f"discarded={c.bytes_discarded} bad_length={c.bad_length} "
                  f"bad_check={c.bad_check} pending={decoder.pending}")
    return " ".join(tokens)
