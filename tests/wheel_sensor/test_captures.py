"""Recorded captures decode to their expected events, by file and by the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer_station.cli import main
from drivers.wheel import (
    SENSORS,
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
    WheelWarning,
    event_from_json,
)
from drivers.wheel.capture import BadCapture, decode_capture, read_capture

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "wheel_sensor"
CAPTURES = ["clean", "noisy_line", "warnings", "lost_lines"]


def expected(name: str) -> list[WheelEvent]:
    lines = (FIXTURES / f"{name}.events.jsonl").read_text().splitlines()
    return [event_from_json(json.loads(line)) for line in lines]


def wheel_events(events: list[WheelEvent]) -> list[WheelEvent]:
    """What the wheel's lines said, without the link's own online/offline news."""
    return [e for e in events if not isinstance(e, WheelOnline | WheelOffline)]


@pytest.mark.parametrize("name", CAPTURES)
def test_a_capture_decodes_to_its_expected_events(name: str) -> None:
    decoded = decode_capture(read_capture(FIXTURES / f"{name}.bin"))
    assert isinstance(decoded.events[0], WheelOnline)
    assert wheel_events(decoded.events) == expected(name)


def test_the_captures_hold_what_their_readme_says() -> None:
    clean = expected("clean")
    assert [e.game for e in clean if isinstance(e, WheelResult)] == list(range(4101, 4113))
    assert not any(isinstance(e, WheelRefused | WheelRejected | WheelWarning) for e in clean)
    noisy = expected("noisy_line")
    assert sorted({e.reason for e in noisy if isinstance(e, WheelRejected)}) == [
        "bad_checksum", "malformed", "overlong", "truncated"]
    # All 8: the one whose result line was damaged made good by the record after it.
    assert sum(isinstance(e, WheelResult) for e in noisy) == 8
    warned = expected("warnings")
    assert {f for e in warned if isinstance(e, WheelWarning) for f in e.flags} == {
        "misfire", "sensor_fault", "ball_not_detected"}
    assert {e.reason for e in warned if isinstance(e, WheelRefused)} == {
        "no_game_in_play", "wrong_game", "flagged_result"}
    assert sum(isinstance(e, LaunchVoid) for e in warned) == 3
    lost = expected("lost_lines")
    assert [e for e in lost if isinstance(e, LinesLost | WheelRestarted)] == [
        LinesLost(1), LinesLost(1), WheelRestarted(27)]
    assert [e.reason for e in lost if isinstance(e, WheelRefused)] == ["lines_lost"]
    assert [e.game for e in lost if isinstance(e, GameAbandoned)] == [4106]
    # 4102's result line refused for the line lost before it, its result made good.
    assert [e.game for e in lost if isinstance(e, WheelResult)] == [4101, 4102, 4103, 4104,
                                                                   4105, 4107, 4108]


def test_the_noisy_capture_really_is_noisy() -> None:
    decoded = decode_capture(read_capture(FIXTURES / "noisy_line.bin"))
    assert decoded.counters["bytes_discarded"] > 100
    assert decoded.counters["rejected_lines"] == 4


def test_the_repeated_result_is_counted_as_a_duplicate() -> None:
    decoded = decode_capture(read_capture(FIXTURES / "warnings.bin"))
    assert decoded.counters["duplicates"] == 1


def test_an_unknown_protocol_is_refused_with_the_known_ones() -> None:
    with pytest.raises(BadCapture, match=f"known: {', '.join(SENSORS)}"):
        decode_capture(read_capture(FIXTURES / "clean.bin"), "morse")


def test_cli_decode_json_prints_every_event(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wheel", "decode", str(FIXTURES / "warnings.bin"), "--json"]) == 0
    out = capsys.readouterr()
    printed = [event_from_json(json.loads(line)) for line in out.out.splitlines()]
    assert wheel_events(printed) == expected("warnings")
    assert out.err.startswith("# bytes_received=")


def test_cli_decode_human_form(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wheel", "decode", str(FIXTURES / "warnings.bin")]) == 0
    out = capsys.readouterr().out
    # Names in a column as wide as the longest (WheelRestarted), fields after it.
    assert "WheelResult    game=4101 number=36" in out
    assert "reason=flagged_result" in out and "duplicates=1" in out


def test_cli_decode_refuses_a_missing_file(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    assert main(["wheel", "decode", str(tmp_path / "nothing.bin")]) == 2
    assert "nothing.bin" in capsys.readouterr().err


def test_cli_decode_reads_a_spy_capture(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    # pyserial's spy:// hexdump of "$RWGST,1,7*B770\r\n", as a field engineer records it.
    spy = tmp_path / "wheel.spy.txt"
    spy.write_text("0.000 RX    0000  24 52 57 47 53 54 2C 31  2C 37 2A 42 37 37 30 0D"
                   "  $RWGST,1,7*B770.\n"
                   "0.000 RX    0010  0A"
                   "                                                .\n")
    assert main(["wheel", "decode", str(spy), "--json"]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed[1] == {"event": "WheelState", "phase": "game_start", "game": 7,
                          "rotor_rpm": None, "direction": None}
