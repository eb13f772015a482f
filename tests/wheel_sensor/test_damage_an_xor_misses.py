"""Damage an XOR checksum cannot see, made by hand on the clean capture's result lines.

Each case changes a result line's number or direction and leaves the XOR of the
line consistent: either the body's XOR is unchanged (two digits flipped at the
same bit, two digits swapped), or the checksum's last digits change exactly as
the body's XOR does. Hypothesis found such a line in a full run (PROTOCOL.md
§10): with an XOR the station believed a result the wheel never gave. The line
must be rejected, and every result of the capture still delivered as the wheel
gave it (the damaged one by the record the wheel sends after its result line).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import reduce
from operator import xor
from pathlib import Path

import pytest

from drivers.wheel import WheelRejected, WheelResult, event_from_json
from drivers.wheel.sentences import Rejection, parse_line
from drivers.wheel.session import WheelSensorSession

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "wheel_sensor"
_WIN = re.compile(rb"\$(RWWIN,(\d+),(\d+),(\d+),(\d+\.\d),(CCW|CW),00)\*([0-9A-F]+)")


@dataclass(frozen=True)
class Win:
    body: bytes
    seq: bytes
    game: bytes
    number: bytes
    rpm: bytes
    direction: bytes
    digits: bytes  # the checksum's hex digits, as received

    @property
    def line(self) -> bytes:
        return b"$" + self.body + b"*" + self.digits


def _body(win: Win, *, number: bytes | None = None, rpm: bytes | None = None,
          direction: bytes | None = None) -> bytes:
    """The body of `win` with the fields given changed."""
    return b"RWWIN," + b",".join([win.seq, win.game, number or win.number, rpm or win.rpm,
                                  direction or win.direction, b"00"])


def _flip_last_digit(text: bytes) -> bytes:
    # Bit 0 of an ASCII digit: 0<->1 ... 8<->9, still a digit.
    return text[:-1] + bytes([text[-1] ^ 1])


def _with_low_byte(digits: bytes, change: int) -> bytes:
    """The checksum's last two hex digits, read as a byte, XORed with `change`."""
    low = int(digits[-2:], 16) ^ change
    return digits[:-2] + f"{low:02X}".encode()


def number_and_rpm(win: Win) -> bytes | None:
    """17 read as 16 and the rpm's decimal 8 read as 9: the body's XOR is unchanged."""
    number = _flip_last_digit(win.number)
    if int(number) > 36:
        return None
    rpm = _flip_last_digit(win.rpm)
    return b"$" + _body(win, number=number, rpm=rpm) + b"*" + win.digits


def number_swapped(win: Win) -> bytes | None:
    """13 read as 31: two bytes swapped, the body's XOR is unchanged."""
    number = win.number[::-1]
    if len(number) != 2 or number.startswith(b"0") or int(number) > 36:
        return None
    return b"$" + _body(win, number=number) + b"*" + win.digits


def number_and_checksum_digit(win: Win) -> bytes | None:
    """17 read as 16, and the checksum's last digit damaged by the same bit."""
    number = _flip_last_digit(win.number)
    if int(number) > 36:
        return None
    return (b"$" + _body(win, number=number) + b"*" + _with_low_byte(win.digits, 0x01))


def counterclockwise_read_as_clockwise(win: Win) -> bytes | None:
    """A "C" of CCW dropped, the checksum's last two digits damaged by that byte."""
    if win.direction != b"CCW":
        return None
    return (b"$" + _body(win, direction=b"CW") + b"*" + _with_low_byte(win.digits, ord("C")))


DAMAGE: list[Callable[[Win], bytes | None]] = [
    number_and_rpm, number_swapped, number_and_checksum_digit,
    counterclockwise_read_as_clockwise]


def _xor(data: bytes) -> int:
    return reduce(xor, data, 0)


def _parts(line: bytes) -> tuple[bytes, bytes]:
    body, digits = line[1:].split(b"*")
    return body, digits


@pytest.mark.parametrize("damage", DAMAGE, ids=lambda damage: damage.__name__)
def test_damage_that_keeps_the_xor_is_rejected(damage: Callable[[Win], bytes | None]) -> None:
    data = (FIXTURES / "clean.bin").read_bytes()
    wins = [Win(*m.groups()) for m in _WIN.finditer(data)]
    win, hurt = next((w, h) for w in wins if (h := damage(w)) is not None)
    # The premise, checked with this file's own XOR: the damage keeps the XOR consistent.
    body, digits = _parts(hurt)
    assert body != win.body
    assert (_xor(body) ^ _xor(win.body)
            == int(digits[-2:], 16) ^ int(win.digits[-2:], 16))
    assert data.count(win.line) == 1
    session = WheelSensorSession()
    session.connected(0.0)
    events = session.received(data.replace(win.line, hurt), 0.0).events
    assert WheelRejected("bad_checksum", hurt.decode()) in events
    truth = [e for e in map(event_from_json, map(
        json.loads, (FIXTURES / "clean.events.jsonl").read_text().splitlines()))
        if isinstance(e, WheelResult)]
    # The damaged line's result is the wheel's, made good by the record after it.
    assert [e for e in events if isinstance(e, WheelResult)] == truth


def test_every_one_or_two_flipped_bits_of_a_result_line_are_rejected() -> None:
    # PROTOCOL.md §10: the CRC's Hamming distance of 4 covers every pair; the XOR
    # misses every pair at the same bit of two bytes.
    data = (FIXTURES / "clean.bin").read_bytes()
    line = next(_WIN.finditer(data))[0]
    bits = range(8, 8 * len(line))  # all but the "$"
    flips = [1 << a for a in bits] + [1 << a | 1 << b for a in bits for b in bits if a < b]
    whole = int.from_bytes(line, "little")
    passed = [flip for flip in flips
              if not isinstance(parse_line((whole ^ flip).to_bytes(len(line), "little")),
                                Rejection)]
    assert passed == []
