"""The wheel sensor's session, without a port: PROTOCOL.md's example and rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from drivers.wheel import (
    GameAbandoned,
    LaunchVoid,
    WheelEvent,
    WheelOffline,
    WheelOnline,
    WheelRefused,
    WheelRejected,
    WheelResult,
    WheelState,
    WheelWarning,
)
from drivers.wheel.events import RefusalReason, RejectReason
from drivers.wheel.session import WheelSensorSession

PROTOCOL = Path(__file__).resolve().parents[2] / "drivers" / "wheel" / "PROTOCOL.md"

# PROTOCOL.md §9, line by line, with the events the doc gives each.
EXAMPLE: list[tuple[str, list[WheelEvent]]] = [
    ("$RWSTS,IDL,1023,0.0,CW*ABC0", [WheelOnline("rw-line/2")]),
    ("$RWGST,1024*181C", [WheelState("game_start", 1024)]),
    ("$RWSTS,GST,1024,24.1,CW*F8DC", []),
    ("$RWBLN,1024,23.5,CW*C0C9", [WheelState("ball_launched", 1024, 23.5, "clockwise")]),
    ("$RWNMB,1024*D383", [WheelState("no_more_bets", 1024)]),
    ("$RWWIN,1024,17,22.8,CW,00*79DE", [WheelResult(1024, 17, 22.8, "clockwise")]),
    ("$RWWIN,1024,17,22.8,CW,00*79DE", []),
    ("$RWWIN,1024,18,22.8,CW,00*79DE",
     [WheelRejected("bad_checksum", "$RWWIN,1024,18,22.8,CW,00*79DE")]),
    ("$RWIDL,1024*BFF4", [WheelState("idle", 1024)]),
    ("$RWGST,1025*083D", [WheelState("game_start", 1025)]),
    ("$RWBLN,1025,24.0,CCW*A0BF",
     [WheelState("ball_launched", 1025, 24.0, "counterclockwise")]),
    ("$RWWRN,1025,08*1D1F", [WheelWarning(1025, ("misfire",)), LaunchVoid(1025, ("misfire",))]),
    ("$RWBLN,1025,24.0,CCW*A0BF",
     [WheelState("ball_launched", 1025, 24.0, "counterclockwise")]),
    ("$RWNMB,1025*C3A2", [WheelState("no_more_bets", 1025)]),
    ("$RWWIN,1025,0,23.2,CCW,02*542D",
     [WheelRefused("flagged_result", 1025, "$RWWIN,1025,0,23.2,CCW,02*542D"),
      LaunchVoid(1025, ("same_direction",))]),
    ("$RWWRN,0,04*279B", [WheelWarning(0, ("sensor_fault",))]),
    ("$RWIDL,1025*AFD5", [GameAbandoned(1025), WheelState("idle", 1025)]),
]


def events_of(data: bytes, *, chunk: int = 4096,
              session: WheelSensorSession | None = None) -> list[WheelEvent]:
    session = session or WheelSensorSession()
    session.connected(0.0)
    events: list[WheelEvent] = []
    for i in range(0, len(data), chunk):
        events += session.received(data[i:i + chunk], 0.0).events
    return events


def lines(*texts: str) -> bytes:
    return b"".join(text.encode("latin-1") + b"\r\n" for text in texts)


def test_the_example_is_the_protocol_s() -> None:
    doc = PROTOCOL.read_text()
    example = doc[doc.index("## 9. A worked example"):doc.index("## 10.")]
    assert re.findall(r"^(\$\S+)", example, re.MULTILINE) == [line for line, _ in EXAMPLE]


@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_the_worked_example_line_by_line(chunk: int) -> None:
    session = WheelSensorSession()
    expected = [event for _, events in EXAMPLE for event in events]
    assert events_of(lines(*(line for line, _ in EXAMPLE)), chunk=chunk,
                     session=session) == expected
    counters = session.counters()
    assert counters["duplicates"] == 1 and counters["results"] == 1
    assert counters["rejected_lines"] == 1 and counters["refused_lines"] == 1


def crc16_bitwise(data: bytes) -> int:
    """CRC-16/CCITT-FALSE bit by bit, as its definition reads: this test's own."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = (crc << 1 ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
    return crc


def test_the_checksum_of_the_protocol_s_example() -> None:
    # The catalogued check value of CRC-16/CCITT-FALSE, then PROTOCOL.md §1's example.
    assert crc16_bitwise(b"123456789") == 0x29B1
    assert crc16_bitwise(b"RWGST,1024") == 0x181C
    assert events_of(lines("$RWGST,1024*181C"))[1:] == [WheelState("game_start", 1024)]
    assert events_of(lines("$RWGST,1024*181D")) == [
        WheelRejected("bad_checksum", "$RWGST,1024*181D")]


def test_every_example_line_of_the_protocol_carries_its_crc() -> None:
    damaged = "$RWWIN,1024,18,22.8,CW,00*79DE"  # §9's one damaged line
    for text, _ in EXAMPLE:
        body, digits = text[1:].split("*")
        assert (int(digits, 16) == crc16_bitwise(body.encode())) == (text != damaged)


GAME = ["$RWGST,7*DC05", "$RWBLN,7,25.0,CW*386B"]  # game 7 started and launched


@pytest.mark.parametrize(("before", "line", "reason"), [
    ([], "$RWWIN,7,3,25.0,CW,00*8E10", "no_game_in_play"),
    (GAME, "$RWWIN,8,3,25.0,CW,00*157D", "wrong_game"),
    (GAME[:1], "$RWWIN,7,3,25.0,CW,00*8E10", "not_launched"),
    (GAME[:1], "$RWNMB,7*3C47", "out_of_order"),
    (GAME, "$RWBLN,7,26.0,CW*F68B", "out_of_order"),
    (GAME, "$RWGST,7*DC05", "out_of_order"),  # not a duplicate: BLN came after it
    ([*GAME, "$RWWIN,7,3,25.0,CW,00*8E10"], "$RWWIN,7,4,25.0,CW,00*865B", "conflicting_result"),
    ([*GAME, "$RWWIN,7,3,25.0,CW,00*8E10", "$RWIDL,7*B3E5"], "$RWGST,7*DC05", "old_game"),
    ([*GAME, "$RWWRN,7,08*B73A"], "$RWWIN,7,3,25.0,CW,00*8E10", "launch_voided"),
    (GAME, "$RWWIN,7,3,25.0,CW,08*0F18", "flagged_result"),
])
def test_each_refusal_of_the_protocol_s_table(before: list[str], line: str,
                                              reason: RefusalReason) -> None:
    events = events_of(lines(*before, line))
    refusals = [e for e in events if isinstance(e, WheelRefused)]
    game = int(re.split(r"[,*]", line)[1])
    assert refusals == [WheelRefused(reason, game, line)]
    assert not any(isinstance(e, WheelResult) and e.number != 3 for e in events)


def test_a_result_is_believed_without_no_more_bets_but_only_once() -> None:
    events = events_of(lines(*GAME, "$RWWIN,7,3,25.0,CW,00*8E10", "$RWWIN,7,3,25.0,CW,00*8E10"))
    assert [e for e in events if isinstance(e, WheelResult)] == [
        WheelResult(7, 3, 25.0, "clockwise")]


def test_a_warning_voids_a_launch_whatever_game_it_names() -> None:
    events = events_of(lines(*GAME, "$RWWRN,0,04*279B", "$RWWIN,7,3,25.0,CW,00*8E10"))
    assert events[-3:] == [WheelWarning(0, ("sensor_fault",)), LaunchVoid(7, ("sensor_fault",)),
                           WheelRefused("launch_voided", 7, "$RWWIN,7,3,25.0,CW,00*8E10")]


def test_a_relaunch_after_a_void_gives_the_result() -> None:
    events = events_of(lines(*GAME, "$RWWRN,7,08*B73A", GAME[1], "$RWWIN,7,3,25.0,CW,00*8E10"))
    assert events[-2:] == [WheelState("ball_launched", 7, 25.0, "clockwise"),
                           WheelResult(7, 3, 25.0, "clockwise")]


def test_a_new_game_abandons_the_one_in_play() -> None:
    events = events_of(lines(*GAME, "$RWGST,8*2DEA"))
    assert events[-2:] == [GameAbandoned(7), WheelState("game_start", 8)]


@pytest.mark.parametrize(("line", "reason"), [
    ("$RWGST,1024", "malformed"),  # no checksum
    ("$RWGST,1024*181c", "malformed"),  # lower-case hex
    ("$RWGST,1024*6E", "malformed"),  # rw-line 1's XOR checksum, two digits
    ("RWGST,1024*181C", None),  # no "$": noise, nothing said
    ("$RWGST,1024*181D", "bad_checksum"),
    ("$RWXYZ,1*AECA", "unknown_sentence"),
    ("$RWWIN,1024,37,22.8,CW,00*F318", "bad_field"),  # no pocket 37
    ("$RWWIN,1024,07,22.8,CW,00*3CBD", "bad_field"),  # a leading zero
    ("$RWWRN,1,00*11AB", "bad_field"),  # a warning without a flag
    ("$RWWRN,1,10*229A", "bad_field"),  # a reserved flag
    ("$RWGST,0*ACE2", "bad_field"),  # game 0 starts nothing
    ("$RWBLN,1,25,CW*BD6A", "bad_field"),  # rpm without its decimal
    ("$RWBLN,1,25.0,XX*4C85", "bad_field"),
])
def test_each_rejection_has_its_reason(line: str, reason: RejectReason | None) -> None:
    events = [e for e in events_of(lines(line)) if not isinstance(e, WheelOnline)]
    assert events == ([] if reason is None else [WheelRejected(reason, line)])


def test_a_line_with_a_bad_checksum_does_not_bring_the_wheel_online() -> None:
    assert events_of(lines("$RWGST,1024*181D")) == [
        WheelRejected("bad_checksum", "$RWGST,1024*181D")]
    # A checked line of an unknown sentence does: something speaks the protocol.
    assert events_of(lines("$RWXYZ,1*AECA")) == [
        WheelOnline("rw-line/2"), WheelRejected("unknown_sentence", "$RWXYZ,1*AECA")]


def test_resync_after_garbage_a_cut_line_and_an_overlong_one() -> None:
    data = (b"\x00\xffgarbage\r\n" + b"$RWGST,10" + b"$RWGST,7*DC05\r\n"
            + b"$RW" + b"9" * 200 + b"\r\n" + b"$RW\xff*0000\r\n" + b"$RWBLN,7,25.0,CW*386B\r\n")
    session = WheelSensorSession()
    assert events_of(data, session=session) == [
        WheelRejected("truncated", "$RWGST,10"),
        WheelOnline("rw-line/2"),
        WheelState("game_start", 7),
        WheelRejected("overlong", "$RW" + "9" * 77),
        WheelRejected("malformed", "$RW\\xff*0000"),
        WheelState("ball_launched", 7, 25.0, "clockwise"),
    ]
    assert session.counters()["bytes_discarded"] == len(b"\x00\xffgarbage")


def test_offline_after_silence_online_at_the_next_line_and_the_game_kept() -> None:
    session = WheelSensorSession(status_timeout=3.0)
    session.connected(0.0)
    assert session.received(lines(*GAME), 0.5).events[0] == WheelOnline("rw-line/2")
    assert session.tick(3.4).events == []
    assert session.tick(3.5).events == [WheelOffline("no line from the wheel for 3 s")]
    assert session.tick(9.0).events == []
    assert session.disconnected("unplugged").events == [WheelOffline("unplugged")]
    session.connected(10.0)
    assert session.received(lines("$RWWIN,7,3,25.0,CW,00*8E10"), 10.0).events == [
        WheelOnline("rw-line/2"), WheelResult(7, 3, 25.0, "clockwise")]


def test_a_line_cut_by_an_unplug_is_dropped_not_joined_to_the_next() -> None:
    session = WheelSensorSession()
    session.connected(0.0)
    session.received(lines(*GAME) + b"$RWWIN,7,3,25", 0.0)
    session.disconnected("unplugged")
    session.connected(1.0)
    events = session.received(b".0,CW,00*8E10\r\n$RWNMB,7*3C47\r\n", 1.0).events
    assert events == [WheelOnline("rw-line/2"), WheelState("no_more_bets", 7)]


def test_an_event_not_taken_is_lost_and_counted() -> None:
    session = WheelSensorSession()
    session.connected(0.0)
    out = session.received(lines(*GAME), 0.0)
    rest = session.take_back(out, 1, 0.0)
    assert rest.events == out.events[2:] and rest.tx == b""
    assert session.counters()["not_taken"] == 1
