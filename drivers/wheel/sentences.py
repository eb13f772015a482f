"""The wheel sensor's lines (PROTOCOL.md): checking, parsing and writing them. Pure.

    $RWWIN,18,1024,17,23.5,CW,00*553F\r\n

`parse_line` takes one line without its terminator and returns the `Line` it
holds (the line counter and the sentence) or a `Rejection` with its reason; it
never repairs a line. `encode` writes a sentence with its counter as the wheel
does; `framed` puts any body between ``$`` and its checksum, the CRC-16 of the
body (the simulator's faults need bodies no sentence has).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from drivers.wheel.errors import WheelError
from drivers.wheel.events import WARNING_FLAGS, Direction, RejectReason, WarningFlag
from firmware_proto.crc16 import crc16_ccitt_false

TALKER = "RW"
# From "$" to the checksum's last digit; 82 bytes with CR LF, NMEA 0183's limit.
MAX_LINE = 80
GAME_MAX = 999_999
# The line counter (PROTOCOL.md §2): game lines count 1..SEQ_MAX and wrap to 1;
# 0 is the counter at power-up, before the wheel's first game line.
SEQ_MAX = 9_999
# The wheel sends its record this many times right after a result line, so that
# a result whose line was lost waits no status period (PROTOCOL.md §3).
RECORD_REPEATS = 3
DIRECTIONS: dict[str, Direction] = {"CW": "clockwise", "CCW": "counterclockwise"}
WIRE_DIRECTIONS: dict[Direction, str] = {v: k for k, v in DIRECTIONS.items()}
Stage = Literal["IDL", "GST", "BLN", "NMB", "WIN"]
STAGES: tuple[Stage, ...] = ("IDL", "GST", "BLN", "NMB", "WIN")

_LINE = re.compile(rb"\$([\x20-\x29\x2B-\x7E]*)\*([0-9A-F]{4})")
_GAME = re.compile(r"0|[1-9]\d{0,5}")
_SEQ = re.compile(r"0|[1-9]\d{0,3}")
_NUMBER = re.compile(r"0|[1-9]\d?")
_RPM = re.compile(r"(0|[1-9]\d?)\.\d")
_FLAGS = re.compile(r"[0-9A-F]{2}")
_LAUNCHES = re.compile(r"0|[1-9]\d?")
# A record's number field before its game has a result.
NO_NUMBER = "-"
RESERVED_FLAGS = 0xFF & ~((1 << len(WARNING_FLAGS)) - 1)


@dataclass(frozen=True, slots=True)
class GameStart:
    game: int


@dataclass(frozen=True, slots=True)
class BallLaunched:
    game: int
    rotor_rpm: float
    direction: Direction


@dataclass(frozen=True, slots=True)
class NoMoreBets:
    game: int


@dataclass(frozen=True, slots=True)
class WinningNumber:
    game: int
    number: int
    rotor_rpm: float
    direction: Direction
    flags: tuple[WarningFlag, ...] = ()


@dataclass(frozen=True, slots=True)
class Idle:
    game: int  # the last game, 0 if none since power-up


@dataclass(frozen=True, slots=True)
class Warning:
    game: int  # the game in play, 0 if none
    flags: tuple[WarningFlag, ...]


@dataclass(frozen=True, slots=True)
class Status:
    """The wheel's status line: the record of its game in play, or of the last
    one when idle (PROTOCOL.md §3): enough to make good any game line lost."""

    stage: Stage
    game: int  # 0: no game since power-up
    rotor_rpm: float  # the last launch's, as the result line carries them
    direction: Direction
    start: int = 0  # the counter of the game's start line, 0 with game 0
    launches: int = 0  # launches in this game
    flags: tuple[WarningFlag, ...] = ()  # warnings raised in this game
    number: int | None = None  # the game's result, once it has one


Sentence = GameStart | BallLaunched | NoMoreBets | WinningNumber | Idle | Warning | Status


@dataclass(frozen=True, slots=True)
class Line:
    """A checked line: the wheel's line counter and the sentence. A status line
    carries the counter of the last game line sent, every other line its own."""

    seq: int
    sentence: Sentence


@dataclass(frozen=True, slots=True)
class Rejection:
    reason: RejectReason


def framed(body: str) -> bytes:
    data = body.encode("ascii")
    return b"$" + data + b"*" + f"{crc16_ccitt_false(data):04X}".encode() + b"\r\n"


def flags_of(value: int) -> tuple[WarningFlag, ...]:
    return tuple(name for bit, name in enumerate(WARNING_FLAGS) if value >> bit & 1)


def flags_value(flags: tuple[WarningFlag, ...]) -> int:
    return sum(1 << WARNING_FLAGS.index(name) for name in set(flags))


def next_seq(seq: int) -> int:
    """The counter of the game line after the one counted `seq` (0 at power-up)."""
    return seq % SEQ_MAX + 1


def encode(sentence: Sentence, seq: int) -> bytes:
    return framed(body_of(sentence, seq))


def body_of(sentence: Sentence, seq: int) -> str:
    match sentence:
        case GameStart(game):
            fields = ["GST", str(game)]
        case BallLaunched(game, rpm, direction):
            fields = ["BLN", str(game), f"{rpm:.1f}", WIRE_DIRECTIONS[direction]]
        case NoMoreBets(game):
            fields = ["NMB", str(game)]
        case WinningNumber(game, number, rpm, direction, flags):
            fields = ["WIN", str(game), str(number), f"{rpm:.1f}", WIRE_DIRECTIONS[direction],
                      f"{flags_value(flags):02X}"]
        case Idle(game):
            fields = ["IDL", str(game)]
        case Warning(game, flags):
            fields = ["WRN", str(game), f"{flags_value(flags):02X}"]
        case Status(stage, game, rpm, direction, start, launches, flags, number):
            fields = ["STS", stage, str(game), f"{rpm:.1f}", WIRE_DIRECTIONS[direction],
                      str(start), str(launches), f"{flags_value(flags):02X}",
                      NO_NUMBER if number is None else str(number)]
    name, *values = fields
    return TALKER + ",".join([name, str(seq), *values])


def parse_line(raw: bytes) -> Line | Rejection:
    """One line from "$" to the checksum's last digit (no CR LF)."""
    match = _LINE.fullmatch(raw)
    if match is None:
        return Rejection("malformed")
    body = match[1]
    if crc16_ccitt_false(body) != int(match[2], 16):
        return Rejection("bad_checksum")
    name, *fields = body.decode("ascii").split(",")
    parser = _PARSERS.get(name)
    if parser is None:
        return Rejection("unknown_sentence")
    try:
        if not fields:
            raise _BadField
        seq, *rest = fields
        sentence = parser(rest)
        counted = _seq(seq, none_allowed=isinstance(sentence, Status))
        if isinstance(sentence, Status) and counted < 1 <= sentence.game:
            raise _BadField  # a game started, yet no game line since power-up
        return Line(counted, sentence)
    except _BadField:
        return Rejection("bad_field")


class _BadField(WheelError):
    """A field out of its form or range: the line is rejected, never repaired."""


def _game(text: str, *, none_allowed: bool = False) -> int:
    if not _GAME.fullmatch(text) or (text == "0" and not none_allowed):
        raise _BadField
    return int(text)


def _seq(text: str, *, none_allowed: bool) -> int:
    if not _SEQ.fullmatch(text) or (text == "0" and not none_allowed):
        raise _BadField
    return int(text)


def _number(text: str) -> int:
    if not _NUMBER.fullmatch(text) or int(text) > 36:
        raise _BadField
    return int(text)


def _rpm(text: str) -> float:
    if not _RPM.fullmatch(text):
        raise _BadField
    return float(text)


def _direction(text: str) -> Direction:
    if text not in DIRECTIONS:
        raise _BadField
    return DIRECTIONS[text]


def _flags(text: str, *, none_allowed: bool) -> tuple[WarningFlag, ...]:
    if not _FLAGS.fullmatch(text):
        raise _BadField
    value = int(text, 16)
    if value & RESERVED_FLAGS or (value == 0 and not none_allowed):
        raise _BadField
    return flags_of(value)


def _count(fields: list[str], n: int) -> list[str]:
    if len(fields) != n:
        raise _BadField
    return fields


def _stage(text: str) -> Stage:
    for stage in STAGES:
        if text == stage:
            return stage
    raise _BadField


def _game_start(fields: list[str]) -> Sentence:
    (game,) = _count(fields, 1)
    return GameStart(_game(game))


def _ball_launched(fields: list[str]) -> Sentence:
    game, rpm, direction = _count(fields, 3)
    return BallLaunched(_game(game), _rpm(rpm), _direction(direction))


def _no_more_bets(fields: list[str]) -> Sentence:
    (game,) = _count(fields, 1)
    return NoMoreBets(_game(game))


def _winning_number(fields: list[str]) -> Sentence:
    game, number, rpm, direction, flags = _count(fields, 5)
    return WinningNumber(_game(game), _number(number), _rpm(rpm), _direction(direction),
                         _flags(flags, none_allowed=True))


def _idle(fields: list[str]) -> Sentence:
    (game,) = _count(fields, 1)
    return Idle(_game(game, none_allowed=True))


def _warning(fields: list[str]) -> Sentence:
    game, flags = _count(fields, 2)
    return Warning(_game(game, none_allowed=True), _flags(flags, none_allowed=False))


def _status(fields: list[str]) -> Sentence:
    stage, game, rpm, direction, start, launches, flags, number = _count(fields, 8)
    record = Status(_stage(stage), _game(game, none_allowed=True), _rpm(rpm),
                    _direction(direction), _seq(start, none_allowed=True), _launches(launches),
                    _flags(flags, none_allowed=True),
                    None if number == NO_NUMBER else _number(number))
    if not _coherent(record):
        raise _BadField
    return record


def _launches(text: str) -> int:
    if not _LAUNCHES.fullmatch(text):
        raise _BadField
    return int(text)


def _coherent(record: Status) -> bool:
    """A record says one state (PROTOCOL.md §3): no game is idle and blank, a
    game has its start line; a launch or a result needs a launch, a result
    stage its number, and only a result stage or idle after one has a number."""
    if record.game == 0:
        return (record.stage == "IDL" and record.start == 0 and record.launches == 0
                and record.number is None and not record.flags)
    if record.start == 0:
        return False
    if record.stage in ("BLN", "NMB", "WIN") and record.launches == 0:
        return False
    if record.stage == "WIN":
        return record.number is not None
    return record.number is None or (record.stage == "IDL" and record.launches > 0)


_PARSERS = {
    TALKER + "GST": _game_start,
    TALKER + "BLN": _ball_launched,
    TALKER + "NMB": _no_more_bets,
    TALKER + "WIN": _winning_number,
    TALKER + "IDL": _idle,
    TALKER + "WRN": _warning,
    TALKER + "STS": _status,
}
