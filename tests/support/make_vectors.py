"""Writes firmware_proto/vectors/frames.txt, the vectors both codecs must pass.

Run: .venv/bin/python tests/support/make_vectors.py

The frames here are built without the codec under test (own packing, own bitwise
CRC) and every expected meaning and fault count is written out by hand, so the
file is a second opinion on both codecs, not a copy of their output.
"""

from __future__ import annotations

import struct
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "firmware_proto" / "vectors" / "frames.txt"


def crc16(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


assert crc16(b"123456789") == 0x29B1


def frame(seq: int, type_code: int, payload: bytes) -> bytes:
    body = bytes((len(payload), seq, type_code)) + payload
    return b"\x7e" + body + struct.pack(">H", crc16(body)) + b"\x7f"


def f_token(seq: int, type_code: int, payload: bytes) -> str:
    return f"F:{seq:02x}:{type_code:02x}:{payload.hex() or '-'}"


def text(s: str) -> bytes:
    return bytes((len(s),)) + s.encode("ascii")


def clean(discarded: int = 0, bad_length: int = 0, bad_check: int = 0, pending: int = 0) -> str:
    return (f"discarded={discarded} bad_length={bad_length} bad_check={bad_check} "
            f"pending={pending}")


VECTORS: list[tuple[str, bytes, str]] = []


def valid(name: str, seq: int, type_code: int, payload: bytes, meaning: str) -> bytes:
    raw = frame(seq, type_code, payload)
    VECTORS.append((name, raw, f"{f_token(seq, type_code, payload)} {meaning} {clean()}"))
    return raw


# CARD and CARD_UNREAD begin with the insertion number (version 2), then the index.
card_as_payload = bytes.fromhex("0001 0001 01 03 00 000003e8")
CARD_AS = valid("card_ace_spades", 0, 0x41, card_as_payload,
                "M:CARD:n=1:i=1:card=AS:burn=0:t=1000")
card_7h_payload = bytes.fromhex("0001 0002 07 02 00 000007d0")
CARD_7H = valid("card_seven_hearts", 1, 0x41, card_7h_payload,
                "M:CARD:n=1:i=2:card=7H:burn=0:t=2000")
valid("card_burn_ten_diamonds_second_shoe", 5, 0x41, bytes.fromhex("0002 0003 0a 01 01 00010000"),
      "M:CARD:n=2:i=3:card=TD:burn=1:t=65536")
valid("card_king_clubs_seq_255_insertion_65535", 0xFF, 0x41,
      bytes.fromhex("ffff 01a0 0d 00 00 ffffffff"),
      "M:CARD:n=65535:i=416:card=KC:burn=0:t=4294967295")
valid("card_queen_spades_reserved_flags_ignored", 7, 0x41,
      bytes.fromhex("0001 0010 0c 03 fe 00000001"), "M:CARD:n=1:i=16:card=QS:burn=0:t=1")
valid("card_payload_full_of_sync_bytes", 0x7E, 0x41, bytes.fromhex("007e 007e 0b 02 00 7e7e7e7e"),
      "M:CARD:n=126:i=126:card=JH:burn=0:t=2122219134")
valid("card_unread_ambiguous", 3, 0x42, bytes.fromhex("0001 0007 00 0000000c 02"),
      "M:CARD_UNREAD:n=1:i=7:burn=0:t=12:reason=2")
valid("card_unread_burn_no_image_third_shoe", 4, 0x42, bytes.fromhex("0003 0008 01 00000d05 01"),
      "M:CARD_UNREAD:n=3:i=8:burn=1:t=3333:reason=1")
valid("shoe_state_cut_card", 9, 0x43, bytes.fromhex("04 00001388"), "M:SHOE_STATE:state=4:t=5000")
valid("shoe_state_empty", 10, 0x43, bytes.fromhex("03 00001770"), "M:SHOE_STATE:state=3:t=6000")
valid("shoe_state_removed", 11, 0x43, bytes.fromhex("02 00000000"), "M:SHOE_STATE:state=2:t=0")
valid("error_with_text", 12, 0x44, b"\x07" + text("jam at gate: 2"),
      "M:ERROR:code=7:text=jam%20at%20gate%3A%202")
valid("hello", 0, 0x01,
      bytes.fromhex("02 12345678 00") + text("ACME") + text("SCAN-8") + text("SN0042")
      + text("1.4.2") + bytes.fromhex("cafe0042"),
      "M:HELLO:v=2:boot=12345678:next=0:vendor=ACME:model=SCAN-8:serial=SN0042:fw=1.4.2"
      ":ch=cafe0042")
valid("hello_at_power_up", 0, 0x01, bytes.fromhex("02 00000007 05 00 00 00 00 00000000"),
      "M:HELLO:v=2:boot=00000007:next=5:vendor=:model=:serial=:fw=:ch=00000000")
# Version 1's HELLO ends with the texts: understood, so that it can be refused by name.
valid("hello_v1_empty_strings_next_200", 0, 0x01, bytes.fromhex("01 00000001 c8 00 00 00 00"),
      "M:HELLO:v=1:boot=00000001:next=200:vendor=:model=:serial=:fw=:ch=-")
valid("heartbeat_green", 0, 0x02, bytes.fromhex("0001e240 01"), "M:HEARTBEAT:up=123456:ind=1")
valid("ack_1", 0, 0x81, b"\x01", "M:ACK:1")
valid("nak_200", 0, 0x82, b"\xc8", "M:NAK:200")
valid("reset_v2", 0, 0x83, bytes.fromhex("02 8badf00d"), "M:RESET:v=2:ch=8badf00d")
valid("indicator_red", 0, 0x84, b"\x02", "M:INDICATOR:2")
valid("indicator_off", 0, 0x84, b"\x00", "M:INDICATOR:0")
valid("keepalive", 0, 0x85, b"", "M:KEEPALIVE")

# Frames whose CRC is right but whose content is not a valid message.
valid("unknown_type_empty_payload", 0, 0x10, b"", "E:unknown_type")
valid("unknown_sequenced_type_max_payload", 9, 0x7F, bytes(range(64)), "E:unknown_type")
valid("card_rank_14", 2, 0x41, bytes.fromhex("0001 0001 0e 00 00 00000000"), "E:bad_field")
valid("card_rank_0", 2, 0x41, bytes.fromhex("0001 0001 00 00 00 00000000"), "E:bad_field")
valid("card_suit_4", 2, 0x41, bytes.fromhex("0001 0001 01 04 00 00000000"), "E:bad_field")
valid("card_payload_short", 2, 0x41, bytes.fromhex("0001 0001 01 03 00 000003"), "E:bad_length")
valid("card_payload_long", 2, 0x41, bytes.fromhex("0001 0001 01 03 00 000003e8 00"),
      "E:bad_length")
# A version 1 CARD (no insertion number) is not a version 2 CARD.
valid("card_v1_layout", 2, 0x41, bytes.fromhex("0001 01 03 00 000003e8"), "E:bad_length")
valid("keepalive_with_payload", 0, 0x85, b"\x00", "E:bad_length")
valid("heartbeat_indicator_3", 0, 0x02, bytes.fromhex("00000000 03"), "E:bad_field")
valid("shoe_state_0", 1, 0x43, bytes.fromhex("00 00000000"), "E:bad_field")
valid("unread_reason_9", 1, 0x42, bytes.fromhex("0001 0001 00 00000000 09"), "E:bad_field")
valid("hello_text_not_ascii", 0, 0x01, bytes.fromhex("01 00000001 00 01 80 00 00 00"),
      "E:bad_field")
valid("hello_text_runs_past_payload", 0, 0x01, bytes.fromhex("01 00000001 00 05 41 42"),
      "E:bad_length")
valid("hello_trailing_byte", 0, 0x01, bytes.fromhex("01 00000001 00 00 00 00 00 99"),
      "E:bad_length")
valid("hello_challenge_short", 0, 0x01, bytes.fromhex("02 00000001 00 00 00 00 00 123456"),
      "E:bad_length")
valid("reset_v1_layout", 0, 0x83, b"\x01", "E:bad_length")
valid("error_text_too_long", 3, 0x44, b"\x01" + bytes((33,)) + b"x" * 33, "E:bad_length")
valid("ack_two_bytes", 0, 0x81, b"\x01\x02", "E:bad_length")

F_AS = f_token(0, 0x41, card_as_payload) + " M:CARD:n=1:i=1:card=AS:burn=0:t=1000"
F_7H = f_token(1, 0x41, card_7h_payload) + " M:CARD:n=1:i=2:card=7H:burn=0:t=2000"
assert 0x7E not in CARD_AS[1:] and 0x7E not in CARD_7H[1:]


def corrupt(name: str, stream: bytes, outcome: str) -> None:
    VECTORS.append((name, stream, outcome))


corrupt("two_frames_back_to_back", CARD_AS + CARD_7H, f"{F_AS} {F_7H} {clean()}")
corrupt("garbage_before_frame", b"\x00\x11\x22" + CARD_AS, f"{F_AS} {clean(discarded=3)}")
corrupt("garbage_only", bytes(10), clean(discarded=10))
corrupt("empty_stream", b"", clean())
# Bad CRC: the SYNC is dropped, the 17 other bytes hold no SYNC and go as garbage.
assert len(CARD_AS) == 18
bad_crc = CARD_AS[:-2] + bytes((CARD_AS[-2] ^ 0x01, CARD_AS[-1]))
corrupt("crc_low_byte_flipped", bad_crc, clean(discarded=18, bad_check=1))
corrupt("crc_bad_then_good", bad_crc + CARD_7H,
        f"{F_7H} {clean(discarded=18, bad_check=1)}")
corrupt("end_byte_zero_then_good", CARD_AS[:-1] + b"\x00" + CARD_7H,
        f"{F_7H} {clean(discarded=18, bad_check=1)}")
# An END byte damaged into a SYNC: after the bad check it starts a candidate whose
# LEN is the next frame's SYNC (126 > 64), which costs one more byte.
corrupt("end_byte_became_sync_then_good", CARD_AS[:-1] + b"\x7e" + CARD_7H,
        f"{F_7H} {clean(discarded=18, bad_length=1, bad_check=1)}")
flipped = bytearray(CARD_AS)
flipped[8] ^= 0x04  # rank A (1) becomes 5: the CRC must catch it
corrupt("payload_bit_flipped", bytes(flipped) + CARD_7H,
        f"{F_7H} {clean(discarded=18, bad_check=1)}")
insertion_flipped = bytearray(CARD_AS)
insertion_flipped[5] ^= 0x02  # insertion 1 becomes 3: a real card under another name
corrupt("insertion_bit_flipped", bytes(insertion_flipped) + CARD_7H,
        f"{F_7H} {clean(discarded=18, bad_check=1)}")
# LEN 0x41 > 64: drop the SYNC; 0x41 is garbage; the real frame follows.
corrupt("bad_length_then_frame", b"\x7e\x41" + CARD_AS,
        f"{F_AS} {clean(discarded=2, bad_length=1)}")
corrupt("len_255", b"\x7e\xff", clean(discarded=2, bad_length=1))
corrupt("truncated_frame", CARD_AS[:-3], clean(pending=15))
corrupt("sync_only", b"\x7e", clean(pending=1))
# A dropped payload byte: the 17-byte remnant plus the next frame's SYNC is
# checked as a frame (its END slot holds 0x7E), then the remnant is garbage up to
# the next SYNC.
dropped = CARD_AS[:7] + CARD_AS[8:]
corrupt("dropped_byte_then_frame", dropped + CARD_7H,
        f"{F_7H} {clean(discarded=17, bad_check=1)}")
duplicated = CARD_AS[:7] + CARD_AS[6:]
assert duplicated[17] != 0x7F
corrupt("duplicated_byte_then_frame", duplicated + CARD_7H,
        f"{F_7H} {clean(discarded=19, bad_check=1)}")
# A false SYNC in garbage claims LEN 2; its 8-byte candidate fails the CRC; the
# scan restarts one byte later and finds the real frame.
false_start = b"\x7e\x02\x01" + CARD_AS
assert false_start[8] != 0x7F
corrupt("false_sync_in_garbage", false_start, f"{F_AS} {clean(discarded=3, bad_check=1)}")
# A corrupted LEN swallows the next frame; once enough bytes arrive the candidate
# fails and the frame inside it is found.
big_len = b"\x7e\x10" + CARD_AS + CARD_7H
assert big_len[22] != 0x7F or crc16(big_len[1:20]) != (big_len[20] << 8 | big_len[21])
corrupt("len_too_big_swallows_next_frame", big_len,
        f"{F_AS} {F_7H} {clean(discarded=2, bad_check=1)}")
corrupt("len_too_big_waits", b"\x7e\x3f" + CARD_AS, clean(pending=20))
corrupt("frame_then_partial", CARD_AS + CARD_7H[:5], f"{F_AS} {clean(pending=5)}")


def render() -> str:
    lines = [
        "# Shoe protocol v2 test vectors: name | stream hex | expected outcome.",
        "# Notation: firmware_proto/PROTOCOL.md section 7. Generated by",
        "# tests/support/make_vectors.py from hand-written expectations.",
        "# M: meanings: HELLO:v:boot(hex):next:vendor:model:serial:fw:ch(challenge, hex; -",
        "# for none), HEARTBEAT:up:ind,",
        "# CARD:n(insertion):i(index):card:burn:t, CARD_UNREAD:n:i:burn:t:reason,",
        "# SHOE_STATE:state:t, ERROR:code:text, ACK:n, NAK:n, RESET:v:ch, INDICATOR:colour,",
        "# KEEPALIVE.",
        "# Texts escape space, %, : and | as %XX.",
    ]
    for name, stream, outcome in VECTORS:
        lines.append(f"{name} | {stream.hex(' ')} | {outcome}")
    return "\n".join(lines) + "\n"


def main() -> None:
    OUT.write_text(render())


if __name__ == "__main__":
    main()
