"""The wheel sensor's session, without a port: PROTOCOL.md's example and rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from drivers.wheel import (
    GameAbandoned,
    LaunchVoid,
    LinesLost,
    WheelEvent,
    WheelOffline,
    WheelOnline,
    WheelRefused,
    WheelRejected,
    WheelRestarted,
    WheelResult,
    WheelState,
    WheelWarning,
)
from drivers.wheel.events import RefusalReason, RejectReason
from drivers.wheel.session import WheelSensorSession

PROTOCOL = Path(__file__).resolve().parents[2] / "drivers" / "wheel" / "PROTOCOL.md"

# PROTOCOL.md §9, line by line, with the events the doc gives each.
EXAMPLE: list[tuple[str, list[WheelEvent]]] = [
    ("$RWSTS,17,IDL,1023,22.4,CCW,12,1,00,5*DD26", [WheelOnline("rw-line/4")]),
    ("$RWGST,18,1024*06AC", [WheelState("game_start", 1024)]),
    ("$RWSTS,18,GST,1024,0.0,CW,18,0,00,-*CAC9", []),
    ("$RWBLN,19,1024,23.5,CW*D519", [WheelState("ball_launched", 1024, 23.5, "clockwise")]),
    ("$RWNMB,20,1024*0DBF", [WheelState("no_more_bets", 1024)]),
    ("$RWWIN,21,1024,17,22.8,CW,00*B227", [WheelResult(1024, 17, 22.8, "clockwise")]),
    ("$RWWIN,21,1024,17,22.8,CW,00*B227", []),
    ("$RWWIN,21,1024,18,22.8,CW,00*B227",
     [WheelRejected("bad_checksum", "$RWWIN,21,1024,18,22.8,CW,00*B227")]),
    ("$RWIDL,22,1024*F93B", [WheelState("idle", 1024)]),
    ("$RWGST,23,1025*0DAD", [WheelState("game_start", 1025)]),
    ("$RWBLN,24,1025,24.0,CCW*C86D",
     [WheelState("ball_launched", 1025, 24.0, "counterclockwise")]),
    ("$RWWRN,25,1025,08*9B14", [WheelWarning(1025, ("misfire",)), LaunchVoid(1025, ("misfire",))]),
    ("$RWBLN,26,1025,24.0,CCW*85B4",
     [WheelState("ball_launched", 1025, 24.0, "counterclockwise")]),
    ("$RWNMB,27,1025*D5DF", [WheelState("no_more_bets", 1025)]),
    ("$RWWIN,28,1025,0,23.2,CCW,02*17DE",
     [WheelRefused("flagged_result", 1025, "$RWWIN,28,1025,0,23.2,CCW,02*17DE"),
      LaunchVoid(1025, ("same_direction",))]),
    ("$RWWRN,29,0,04*3B44", [WheelWarning(0, ("sensor_fault",))]),
    ("$RWIDL,30,1025*DA3B", [GameAbandoned(1025), WheelState("idle", 1025)]),
    ("$RWGST,31,1026*0EEF", [WheelState("game_start", 1026)]),
    ("$RWBLN,32,1026,25.1,CW*7F7F", [WheelState("ball_launched", 1026, 25.1, "clockwise")]),
    ("$RWSTS,33,GST,1026,25.1,CW,31,1,01,-*BD17",
     [LinesLost(1), LaunchVoid(1026, ("ball_not_detected",))]),
    ("$RWWIN,34,1026,5,24.7,CW,00*34D9",
     [WheelRefused("launch_voided", 1026, "$RWWIN,34,1026,5,24.7,CW,00*34D9")]),
    ("$RWIDL,35,1026*A959", [GameAbandoned(1026), WheelState("idle", 1026)]),
    ("$RWSTS,0,IDL,0,0.0,CW,0,0,00,-*4D2E", [WheelRestarted(35)]),
    ("$RWGST,1,1027*B449", [WheelState("game_start", 1027)]),
    ("$RWBLN,2,1027,26.3,CCW*7C96", [WheelState("ball_launched", 1027, 26.3, "counterclockwise")]),
    ("$RWWIN,3,1027,33,25.9,CCW,00*25EA",
     [WheelRejected("bad_checksum", "$RWWIN,3,1027,33,25.9,CCW,00*25EA")]),
    ("$RWSTS,3,WIN,1027,25.9,CCW,1,1,00,32*A475",
     [LinesLost(1), WheelResult(1027, 32, 25.9, "counterclockwise")]),
    ("$RWSTS,3,WIN,1027,25.9,CCW,1,1,00,31*9416",
     [WheelRefused("record_contradicts", 1027, "$RWSTS,3,WIN,1027,25.9,CCW,1,1,00,31*9416")]),
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
    assert counters["duplicates"] == 1 and counters["results"] == 2
    assert counters["rejected_lines"] == 2 and counters["refused_lines"] == 3
    assert counters["lines_lost"] == 2 and counters["restarts"] == 1
    assert counters["made_good"] == 1 and counters["contradictions"] == 1


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
    assert crc16_bitwise(b"RWGST,18,1024") == 0x06AC
    assert events_of(lines("$RWGST,18,1024*06AC"))[1:] == [WheelState("game_start", 1024)]
    assert events_of(lines("$RWGST,18,1024*06AD")) == [
        WheelRejected("bad_checksum", "$RWGST,18,1024*06AD")]


def ln(body: str) -> str:
    """A line with its CRC, computed here, not by the code under test."""
    return f"${body}*{crc16_bitwise(body.encode()):04X}"


def test_every_example_line_of_the_protocol_carries_its_crc() -> None:
    damaged = {"$RWWIN,21,1024,18,22.8,CW,00*B227",  # §9's two damaged lines
               "$RWWIN,3,1027,33,25.9,CCW,00*25EA"}
    for text, _ in EXAMPLE:
        body, digits = text[1:].split("*")
        assert (int(digits, 16) == crc16_bitwise(body.encode())) == (text not in damaged)


GAME = [ln("RWGST,1,7"), ln("RWBLN,2,7,25.0,CW")]  # game 7 started and launched
WIN = ln("RWWIN,3,7,3,25.0,CW,00")  # its result, the next line
POWER_UP = ln("RWSTS,0,IDL,0,0.0,CW,0,0,00,-")  # the record of a wheel just powered up


def rec(seq: int, stage: str, game: int = 7, *, start: int = 1, launches: int = 1,
        flags: str = "00", number: int | None = None) -> str:
    """The wheel's record of game `game` (PROTOCOL.md §3), after its line `seq`."""
    return ln(f"RWSTS,{seq},{stage},{game},25.0,CW,{start},{launches},{flags},"
              f"{'-' if number is None else number}")


@pytest.mark.parametrize(("before", "line", "reason"), [
    ([], ln("RWWIN,3,7,3,25.0,CW,00"), "no_game_in_play"),
    (GAME, ln("RWWIN,3,8,3,25.0,CW,00"), "wrong_game"),
    (GAME[:1], ln("RWWIN,2,7,3,25.0,CW,00"), "not_launched"),
    (GAME[:1], ln("RWNMB,2,7"), "out_of_order"),
    (GAME, ln("RWBLN,3,7,26.0,CW"), "out_of_order"),
    (GAME, ln("RWGST,3,7"), "out_of_order"),
    ([*GAME, WIN], ln("RWWIN,4,7,4,25.0,CW,00"), "conflicting_result"),
    ([*GAME, WIN, ln("RWIDL,4,7")], ln("RWGST,5,7"), "old_game"),
    ([*GAME, ln("RWWRN,3,7,08")], ln("RWWIN,4,7,3,25.0,CW,00"), "launch_voided"),
    (GAME, ln("RWWIN,3,7,3,25.0,CW,08"), "flagged_result"),
    (GAME, ln("RWWIN,4,7,3,25.0,CW,00"), "lines_lost"),  # line 3 never read
])
def test_each_refusal_of_the_protocol_s_table(before: list[str], line: str,
                                              reason: RefusalReason) -> None:
    events = events_of(lines(*before, line))
    refusals = [e for e in events if isinstance(e, WheelRefused)]
    game = int(re.split(r"[,*]", line)[2])
    assert refusals == [WheelRefused(reason, game, line)]
    assert not any(isinstance(e, WheelResult) and e.number != 3 for e in events)


def test_a_result_is_believed_without_no_more_bets_but_only_once() -> None:
    events = events_of(lines(*GAME, WIN, WIN))
    assert [e for e in events if isinstance(e, WheelResult)] == [
        WheelResult(7, 3, 25.0, "clockwise")]


def test_a_warning_voids_a_launch_whatever_game_it_names() -> None:
    win = ln("RWWIN,4,7,3,25.0,CW,00")
    events = events_of(lines(*GAME, ln("RWWRN,3,0,04"), win))
    assert events[-3:] == [WheelWarning(0, ("sensor_fault",)), LaunchVoid(7, ("sensor_fault",)),
                           WheelRefused("launch_voided", 7, win)]


def test_a_relaunch_after_a_void_gives_the_result() -> None:
    events = events_of(lines(*GAME, ln("RWWRN,3,7,08"), ln("RWBLN,4,7,25.0,CW"),
                             ln("RWWIN,5,7,3,25.0,CW,00")))
    assert events[-2:] == [WheelState("ball_launched", 7, 25.0, "clockwise"),
                           WheelResult(7, 3, 25.0, "clockwise")]


def test_a_new_game_abandons_the_one_in_play() -> None:
    events = events_of(lines(*GAME, ln("RWGST,3,8")))
    assert events[-2:] == [GameAbandoned(7), WheelState("game_start", 8)]


# The line counter (PROTOCOL.md §2, §5).

def test_the_lines_lost_whole_that_voided_a_launch_leave_a_gap_and_no_result() -> None:
    # Issue 16's hole: the warning that voided 7's launch and 8's start are lost;
    # the stale result line for 7 the wheel then sent is not believed.
    win = ln("RWWIN,5,7,3,25.0,CW,00")
    events = events_of(lines(*GAME, win))
    assert events[-2:] == [LinesLost(2), WheelRefused("lines_lost", 7, win)]


def test_after_a_gap_a_result_waits_for_the_next_game_start() -> None:
    events = events_of(lines(*GAME, ln("RWNMB,4,7"), ln("RWWIN,5,7,3,25.0,CW,00"),
                             ln("RWIDL,6,7"), ln("RWBLN,7,8,25.0,CW"),
                             ln("RWGST,8,9"), ln("RWBLN,9,9,25.0,CW"),
                             ln("RWWIN,10,9,11,25.0,CW,00")))
    assert [e for e in events if isinstance(e, LinesLost)] == [LinesLost(1)]
    assert [e for e in events if isinstance(e, WheelResult)] == [
        WheelResult(9, 11, 25.0, "clockwise")]
    assert [e.reason for e in events if isinstance(e, WheelRefused)] == [
        "lines_lost", "no_game_in_play"]


def test_a_game_start_that_shows_a_gap_starts_a_game_believed() -> None:
    # The lines lost came before the start: they were another game's.
    events = events_of(lines(*GAME, ln("RWGST,6,8"), ln("RWBLN,7,8,25.0,CW"),
                             ln("RWWIN,8,8,11,25.0,CW,00")))
    assert events[-5:] == [LinesLost(3), GameAbandoned(7), WheelState("game_start", 8),
                           WheelState("ball_launched", 8, 25.0, "clockwise"),
                           WheelResult(8, 11, 25.0, "clockwise")]


def test_a_record_shows_the_gap_and_makes_it_good() -> None:
    # Lines 3 and 4 lost; the record after them says the launch read is still
    # the wheel's, with no warning: whatever they were, the result line is believed.
    events = events_of(lines(*GAME, rec(2, "BLN"), rec(4, "BLN"), rec(4, "BLN"),
                             ln("RWWIN,5,7,3,25.0,CW,00")))
    assert events[-2:] == [LinesLost(2), WheelResult(7, 3, 25.0, "clockwise")]


def test_a_lost_status_line_costs_nothing() -> None:
    # Status lines are not counted: the counter of a game line follows the last game line.
    events = events_of(lines(POWER_UP, ln("RWGST,1,7"),
                             ln("RWBLN,2,7,25.0,CW"), WIN))
    assert events[-1] == WheelResult(7, 3, 25.0, "clockwise")
    assert not any(isinstance(e, LinesLost) for e in events)


def test_the_counter_wraps_from_9999_to_1() -> None:
    wrapped = [ln("RWGST,9998,7"), ln("RWBLN,9999,7,25.0,CW"), ln("RWNMB,1,7"),
               ln("RWWIN,2,7,3,25.0,CW,00")]
    assert events_of(lines(*wrapped))[-1] == WheelResult(7, 3, 25.0, "clockwise")
    # A gap across the wrap: 9999 and 1 lost.
    events = events_of(lines(ln("RWGST,9997,7"), ln("RWBLN,9998,7,25.0,CW"),
                             ln("RWWIN,2,7,3,25.0,CW,00")))
    assert events[-2:] == [LinesLost(2), WheelRefused("lines_lost", 7,
                                                      ln("RWWIN,2,7,3,25.0,CW,00"))]


def test_the_wheel_s_restart_abandons_the_game_and_counts_from_0() -> None:
    session = WheelSensorSession()
    stale = ln("RWWIN,1,7,3,25.0,CW,00")  # game 7's result, after the restart
    events = events_of(lines(*GAME, POWER_UP, POWER_UP,
                             stale, ln("RWGST,2,8"), ln("RWBLN,3,8,25.0,CW"),
                             ln("RWWIN,4,8,3,25.0,CW,00")),
                       session=session)
    assert events[3:] == [
        WheelRestarted(2), GameAbandoned(7), WheelRefused("no_game_in_play", 7, stale),
        WheelState("game_start", 8), WheelState("ball_launched", 8, 25.0, "clockwise"),
        WheelResult(8, 3, 25.0, "clockwise")]
    assert session.counters()["restarts"] == 1


def test_after_a_restart_the_same_bytes_as_before_are_new_lines() -> None:
    # Powered up, idle, power cut, powered up, idle, a game: the idle line after
    # each power-up is the same bytes, the second one a line of the new count.
    idle = ln("RWIDL,1,0")
    events = events_of(lines(POWER_UP, idle, POWER_UP,
                             idle, ln("RWGST,2,8")))
    assert events[1:] == [WheelState("idle", 0), WheelRestarted(1), WheelState("idle", 0),
                          WheelState("game_start", 8)]


def test_a_restart_whose_status_lines_were_lost_is_a_gap() -> None:
    # No status line with 0 was read: the counter went back, which the station
    # reads as a gap of nearly a whole turn, and doubts all the same.
    events = events_of(lines(*GAME, ln("RWNMB,3,7"), ln("RWGST,1,8"), ln("RWBLN,2,8,25.0,CW"),
                             ln("RWWIN,3,8,3,25.0,CW,00")))
    assert events[-4:] == [GameAbandoned(7), WheelState("game_start", 8),
                           WheelState("ball_launched", 8, 25.0, "clockwise"),
                           WheelResult(8, 3, 25.0, "clockwise")]
    assert LinesLost(9996) in events  # 4..9999, as the counter reads it


def test_a_game_line_with_counter_0_is_rejected() -> None:
    assert events_of(lines(ln("RWGST,0,7")))[1:] == [WheelRejected("bad_field", ln("RWGST,0,7"))]


def test_the_same_line_again_is_a_duplicate_not_a_counter_gone_back() -> None:
    session = WheelSensorSession()
    warning = ln("RWWRN,3,7,08")
    events = events_of(lines(*GAME, warning, warning, ln("RWBLN,4,7,25.0,CW"),
                             ln("RWWIN,5,7,3,25.0,CW,00")), session=session)
    assert events[-2:] == [WheelState("ball_launched", 7, 25.0, "clockwise"),
                           WheelResult(7, 3, 25.0, "clockwise")]
    assert session.counters()["duplicates"] == 1


@pytest.mark.parametrize(("line", "reason"), [
    ("$RWGST,1,1024", "malformed"),  # no checksum
    (ln("RWGST,1,1024").lower().replace("$rwgst", "$RWGST"), "malformed"),  # lower-case hex
    ("$RWGST,1024*6E", "malformed"),  # rw-line 1's XOR checksum, two digits
    ("RWGST,1,1024*" + ln("RWGST,1,1024")[-4:], None),  # no "$": noise, nothing said
    ("$RWGST,18,1024*06AD", "bad_checksum"),
    ("$RWGST,1024*181C", "bad_field"),  # an rw-line 2 line: no counter
    (ln("RWXYZ,1,1"), "unknown_sentence"),
    (ln("RWWIN,1,1024,37,22.8,CW,00"), "bad_field"),  # no pocket 37
    (ln("RWWIN,1,1024,07,22.8,CW,00"), "bad_field"),  # a leading zero
    (ln("RWWIN,01,1024,7,22.8,CW,00"), "bad_field"),  # a counter with a leading zero
    (ln("RWGST,10000,1024"), "bad_field"),  # past the counter's 9999
    (ln("RWWRN,1,1,00"), "bad_field"),  # a warning without a flag
    (ln("RWWRN,1,1,10"), "bad_field"),  # a reserved flag
    (ln("RWGST,1,0"), "bad_field"),  # game 0 starts nothing
    (ln("RWBLN,1,1,25,CW"), "bad_field"),  # rpm without its decimal
    (ln("RWBLN,1,1,25.0,XX"), "bad_field"),
    (ln("RWIDL"), "bad_field"),  # no field at all
])
def test_each_rejection_has_its_reason(line: str, reason: RejectReason | None) -> None:
    events = [e for e in events_of(lines(line)) if not isinstance(e, WheelOnline)]
    assert events == ([] if reason is None else [WheelRejected(reason, line)])


def test_a_line_with_a_bad_checksum_does_not_bring_the_wheel_online() -> None:
    assert events_of(lines("$RWGST,18,1024*06AD")) == [
        WheelRejected("bad_checksum", "$RWGST,18,1024*06AD")]
    # A checked line of an unknown sentence does: something speaks the protocol.
    assert events_of(lines(ln("RWXYZ,1,1"))) == [
        WheelOnline("rw-line/4"), WheelRejected("unknown_sentence", ln("RWXYZ,1,1"))]


def test_resync_after_garbage_a_cut_line_and_an_overlong_one() -> None:
    data = (b"\x00\xffgarbage\r\n" + b"$RWGST,10" + lines(GAME[0])
            + b"$RW" + b"9" * 200 + b"\r\n" + b"$RW\xff*0000\r\n" + lines(GAME[1]))
    session = WheelSensorSession()
    assert events_of(data, session=session) == [
        WheelRejected("truncated", "$RWGST,10"),
        WheelOnline("rw-line/4"),
        WheelState("game_start", 7),
        WheelRejected("overlong", "$RW" + "9" * 77),
        WheelRejected("malformed", "$RW\\xff*0000"),
        WheelState("ball_launched", 7, 25.0, "clockwise"),
    ]
    assert session.counters()["bytes_discarded"] == len(b"\x00\xffgarbage")


def test_offline_after_silence_online_at_the_next_line_and_the_game_kept() -> None:
    session = WheelSensorSession(status_timeout=3.0)
    session.connected(0.0)
    assert session.received(lines(*GAME), 0.5).events[0] == WheelOnline("rw-line/4")
    assert session.tick(3.4).events == []
    assert session.tick(3.5).events == [WheelOffline("no line from the wheel for 3 s")]
    assert session.tick(9.0).events == []
    assert session.disconnected("unplugged").events == [WheelOffline("unplugged")]
    session.connected(10.0)
    assert session.received(lines(WIN), 10.0).events == [
        WheelOnline("rw-line/4"), WheelResult(7, 3, 25.0, "clockwise")]


def test_unplugged_while_the_wheel_played_a_line_the_result_is_refused() -> None:
    session = WheelSensorSession()
    session.connected(0.0)
    session.received(lines(*GAME), 0.0)
    session.disconnected("unplugged")
    session.connected(1.0)
    win = ln("RWWIN,4,7,3,25.0,CW,00")  # line 3, sent while unplugged, never read
    assert session.received(lines(win), 1.0).events == [
        WheelOnline("rw-line/4"), LinesLost(1), WheelRefused("lines_lost", 7, win)]


def test_a_line_cut_by_an_unplug_is_dropped_not_joined_to_the_next() -> None:
    session = WheelSensorSession()
    session.connected(0.0)
    session.received(lines(*GAME) + WIN.encode()[:13], 0.0)
    session.disconnected("unplugged")
    session.connected(1.0)
    events = session.received(WIN.encode()[13:] + b"\r\n" + lines(ln("RWNMB,3,7")), 1.0).events
    assert events == [WheelOnline("rw-line/4"), WheelState("no_more_bets", 7)]


def test_an_event_not_taken_is_lost_and_counted() -> None:
    session = WheelSensorSession()
    session.connected(0.0)
    out = session.received(lines(*GAME), 0.0)
    rest = session.take_back(out, 1, 0.0)
    assert rest.events == out.events[2:] and rest.tx == b""
    assert session.counters()["not_taken"] == 1


# Records (PROTOCOL.md §5, "What a record makes good").

def test_a_result_whose_result_line_was_damaged_is_delivered_from_the_next_record() -> None:
    session = WheelSensorSession()
    damaged = WIN.replace(",3,25.0", ",4,25.0")  # its CRC is 3's
    events = events_of(lines(*GAME, damaged, rec(3, "WIN", number=3), rec(3, "WIN", number=3),
                             ln("RWIDL,4,7"), rec(4, "IDL", number=3)), session=session)
    assert events[3:] == [WheelRejected("bad_checksum", damaged), LinesLost(1),
                          WheelResult(7, 3, 25.0, "clockwise"), WheelState("idle", 7)]
    assert session.counters()["made_good"] == 1


def test_a_result_refused_for_lines_lost_is_delivered_once_by_the_record_after_it() -> None:
    win = ln("RWWIN,4,7,3,25.0,CW,00")  # line 3 (no more bets) lost
    events = events_of(lines(*GAME, win, rec(4, "WIN", number=3), rec(4, "WIN", number=3), win))
    assert events[3:] == [LinesLost(1), WheelRefused("lines_lost", 7, win),
                          WheelResult(7, 3, 25.0, "clockwise")]


def test_a_result_read_from_its_line_is_not_given_again_by_the_records() -> None:
    events = events_of(lines(*GAME, WIN, *[rec(3, "WIN", number=3)] * 3,
                             ln("RWIDL,4,7"), rec(4, "IDL", number=3)))
    assert [e for e in events if isinstance(e, WheelResult)] == [
        WheelResult(7, 3, 25.0, "clockwise")]


def test_a_record_makes_good_a_game_start_a_launch_and_a_result_all_lost() -> None:
    # Game 7 in play; game 8's start (3 lost, 7 given up), launch (4) and result (5) lost.
    events = events_of(lines(*GAME, rec(5, "WIN", 8, start=3, number=20)))
    assert events[3:] == [LinesLost(3), GameAbandoned(7), WheelState("game_start", 8),
                          WheelState("ball_launched", 8, 25.0, "clockwise"),
                          WheelResult(8, 20, 25.0, "clockwise")]


def test_a_record_makes_good_a_lost_warning_and_the_stale_result_is_refused() -> None:
    # The warning (3) that voided 7's launch lost; the wheel's forbidden result line after it.
    stale = ln("RWWIN,4,7,3,25.0,CW,00")
    events = events_of(lines(*GAME, rec(3, "GST", flags="08"), stale))
    assert events[3:] == [LinesLost(1), LaunchVoid(7, ("misfire",)),
                          WheelRefused("launch_voided", 7, stale)]


def test_a_record_of_a_game_begun_before_the_station_listened_gives_nothing() -> None:
    # The station hears game 7 from its launch on: its start was never heard.
    events = events_of(lines(ln("RWBLN,2,7,25.0,CW"), rec(3, "WIN", number=3),
                             ln("RWIDL,4,7"), rec(4, "IDL", number=3)))
    assert [e for e in events if isinstance(e, WheelResult | WheelRefused)] == [
        WheelRefused("no_game_in_play", 7, ln("RWBLN,2,7,25.0,CW"))]


@pytest.mark.parametrize(("before", "record"), [
    ([*GAME, WIN], rec(3, "WIN", number=4)),  # another number than the line read
    ([*GAME, WIN], rec(4, "IDL")),  # no result, after the result line read
    ([*GAME, ln("RWWRN,3,7,01")], rec(3, "GST", flags="08")),  # not the warning read
    ([*GAME, ln("RWIDL,3,7")], rec(4, "BLN")),  # playing on a game read over
    ([*GAME, ln("RWWRN,3,7,08")], rec(4, "WIN", flags="08", number=3)),  # the voided launch won
    ([*GAME, ln("RWWRN,3,7,08"), ln("RWBLN,4,7,25.0,CW")],
     rec(5, "NMB", flags="08")),  # fewer launches than read (line 5 lost)
    (GAME, rec(2, "NMB")),  # every line read, and the record is elsewhere
    (GAME, rec(2, "BLN", launches=2)),  # every line read: one launch, not two
    (GAME, rec(3, "BLN", 6)),  # game 7's start is line 1, not game 6's
    (GAME, rec(3, "GST", 6, start=3)),  # a game after 7 is numbered after it
    ([ln("RWGST,5,7"), ln("RWBLN,6,7,25.0,CW")], rec(7, "BLN", 6, start=3)),  # began before 7
])
def test_a_record_that_contradicts_what_was_read_is_refused(before: list[str],
                                                            record: str) -> None:
    session = WheelSensorSession()
    events = events_of(lines(*before, record), session=session)
    game = int(record.split(",")[3])
    assert events[-1] == WheelRefused("record_contradicts", game, record)
    assert session.counters()["contradictions"] == 1
    assert sum(isinstance(e, WheelResult) for e in events) == sum(
        line == WIN for line in before)


def test_after_a_contradiction_nothing_of_the_game_is_believed_until_the_next() -> None:
    win = ln("RWWIN,4,7,3,25.0,CW,00")
    events = events_of(lines(*GAME, rec(2, "NMB"), rec(2, "BLN"), ln("RWNMB,3,7"), win,
                             rec(4, "WIN", number=3), ln("RWGST,5,8"), ln("RWBLN,6,8,25.0,CW"),
                             ln("RWWIN,7,8,9,25.0,CW,00")))
    assert [e for e in events if isinstance(e, WheelResult)] == [
        WheelResult(8, 9, 25.0, "clockwise")]
    assert WheelRefused("lines_lost", 7, win) in events


@pytest.mark.parametrize("body", [
    "RWSTS,3,WIN,7,25.0,CW,1,1,00,-",  # a result stage without its number
    "RWSTS,3,BLN,7,25.0,CW,1,1,00,3",  # a number before the result
    "RWSTS,3,BLN,7,25.0,CW,1,0,00,-",  # launched, no launch
    "RWSTS,3,GST,7,25.0,CW,0,0,00,-",  # a game without its start line
    "RWSTS,3,IDL,0,25.0,CW,1,0,00,-",  # no game, yet a start line
    "RWSTS,0,GST,7,25.0,CW,1,0,00,-",  # a game, yet no game line since power-up
    "RWSTS,3,IDL,7,25.0,CW,1,1,00,37",  # no pocket 37
    "RWSTS,3,IDL,7,25.0,CW,1,1,10,-",  # a reserved flag
    "RWSTS,3,BLN,7,25.0,CW",  # an rw-line 3 status line: no record
])
def test_a_record_that_says_no_one_state_is_rejected(body: str) -> None:
    assert events_of(lines(ln(body)))[1:] == [WheelRejected("bad_field", ln(body))]
