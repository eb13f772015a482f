"""Recorded captures decode to the simulator's ground truth, by file and by CLI."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from dealer_station.cli import main
from drivers.shoe import CardDrawn, CardUnread, ShoeAlarm, ShoeEvent, ShoeOnline, ShoeState
from drivers.shoe.capture import decode_capture, read_capture
from drivers.shoe.event_json import event_from_json

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "shoe"
FRAMED = ["baccarat_8_decks_full_shoe", "blackjack_6_decks_to_cut_card", "noisy_line",
          "unplugged_mid_shoe"]


def expected(name: str) -> list[ShoeEvent]:
    lines = (FIXTURES / f"{name}.events.jsonl").read_text().splitlines()
    return [event_from_json(json.loads(line)) for line in lines]


def shoe_events(events: list[ShoeEvent]) -> list[ShoeEvent]:
    """What the shoe reported, without the link's own online/offline news."""
    return [e for e in events if isinstance(e, CardDrawn | CardUnread | ShoeState | ShoeAlarm)]


@pytest.mark.parametrize("name", FRAMED)
def test_framed_capture_decodes_to_ground_truth(name: str) -> None:
    decoded = decode_capture(read_capture(FIXTURES / f"{name}.bin"), "framed")
    assert shoe_events(decoded.events) == expected(name)
    assert isinstance(decoded.events[0], ShoeOnline)


def test_ground_truth_is_what_the_sessions_claim() -> None:
    baccarat = expected("baccarat_8_decks_full_shoe")
    cards = [e for e in baccarat if isinstance(e, CardDrawn | CardUnread)]
    assert len(cards) == 416
    counts = Counter(e.card for e in cards if isinstance(e, CardDrawn))
    assert len(counts) == 52 and max(counts.values()) <= 8
    assert [e.state for e in baccarat if isinstance(e, ShoeState)] == ["cut_card", "empty"]
    blackjack = expected("blackjack_6_decks_to_cut_card")
    assert ShoeState in {type(e) for e in blackjack}
    assert sum(isinstance(e, CardDrawn) for e in blackjack) == 239


def test_noisy_capture_really_is_noisy() -> None:
    decoded = decode_capture(read_capture(FIXTURES / "noisy_line.bin"), "framed")
    assert decoded.counters["bytes_discarded"] > 100
    assert decoded.counters["duplicates"] + decoded.counters["out_of_order"] > 0


def test_spy_capture_reads_like_the_raw_one() -> None:
    capture = read_capture(FIXTURES / "noisy_line.spy.txt")
    assert capture.format == "spy"
    assert capture.sent.startswith(bytes.fromhex("7e 01 00 83 01"))  # the station's RESET
    assert shoe_events(decode_capture(capture).events) == expected("noisy_line")


def test_beetek_capture_decodes_to_ground_truth() -> None:
    decoded = decode_capture(read_capture(FIXTURES / "beetek_session.bin"), "beetek")
    assert shoe_events(decoded.events) == expected("beetek_session")


def test_cli_decode_prints_every_event(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["shoe", "decode", str(FIXTURES / "unplugged_mid_shoe.bin"), "--json"]) == 0
    printed = [event_from_json(json.loads(line))
               for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert shoe_events(printed) == expected("unplugged_mid_shoe")


def test_cli_decode_human_form(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["shoe", "decode", str(FIXTURES / "beetek_session.bin"),
                 "--protocol", "beetek"]) == 0
    out = capsys.readouterr().out
    assert "burn" in out and "unread" in out and "W0x01" in out


def test_cli_decode_refuses_a_missing_file(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    assert main(["shoe", "decode", str(tmp_path / "nothing.bin")]) == 2
    assert "nothing.bin" in capsys.readouterr().err
