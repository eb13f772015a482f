"""The Bee-Tek ASCII protocol, line by line, without a port."""

from __future__ import annotations

import pytest

from drivers.shoe import CardDrawn, CardUnread, ShoeAlarm, ShoeEvent
from drivers.shoe.beetek_session import MAX_LINE, BeeTekSession, parse_card


def events_of(data: bytes, chunk: int = 1000) -> list[ShoeEvent]:
    session = BeeTekSession()
    session.connected(0.0)
    events: list[ShoeEvent] = []
    for i in range(0, len(data), chunk):
        events += session.received(data[i : i + chunk], 0.0).events
    return events


@pytest.mark.parametrize(("token", "card"), [
    ("4S", "4S"), ("H3", "3H"), ("10D", "TD"), ("D10", "TD"), ("TC", "TC"), ("ks", "KS"),
    ("AH", "AH"), ("SA", "AS"),
])
def test_card_tokens_in_either_order(token: str, card: str) -> None:
    assert parse_card(token) == card


@pytest.mark.parametrize("token", ["", "4", "4X", "1S", "SS", "44", "4SS", "11H", "JOKER"])
def test_non_cards_are_refused(token: str) -> None:
    assert parse_card(token) is None


def test_the_documented_lines() -> None:
    data = (b"[Game]<Card:4S>\r\n[Manual Burn Cards]<Card:H3>\r\n[Game]<Game>\r\n"
            b"<Alarm:Shoe Empty>\r\n<W0x01>\r\n")
    expected = [
        CardDrawn("4S"),
        CardDrawn("3H", burn=True),
        CardUnread("unread"),
        ShoeAlarm("alarm", "Shoe Empty"),
        ShoeAlarm("W0x01", "shoe warning 0x01"),
    ]
    assert events_of(data) == expected
    assert events_of(data, chunk=1) == expected


def test_line_endings_cr_lf_or_both() -> None:
    assert events_of(b"[Game]<Card:4S>\n[Game]<Card:5S>\r[Game]<Card:6S>\r\n") == [
        CardDrawn("4S"), CardDrawn("5S"), CardDrawn("6S")]


def test_a_damaged_card_line_is_an_unread_card_never_a_guess() -> None:
    (event,) = events_of(b"[Game]<Card:4X>\r\n")
    assert isinstance(event, CardUnread) and "4X" in event.reason


@pytest.mark.parametrize("line", [
    b"\x00\xff\xfe", b"[Game]<Card:4S", b"Card:4S", b"<Unknown:1>", b"[Game]<Card:4S>x",
])
def test_garbage_lines_are_rejected_with_a_reason(line: bytes) -> None:
    (event,) = events_of(line + b"\r\n")
    assert isinstance(event, ShoeAlarm) and event.code == "rejected_line" and event.text


def test_an_endless_line_is_rejected_and_the_next_line_still_reads() -> None:
    events = events_of(b"x" * (MAX_LINE * 3) + b"\r\n[Game]<Card:QD>\r\n")
    assert events == [ShoeAlarm("rejected_line", f"line longer than {MAX_LINE} bytes"),
                      CardDrawn("QD")]


def test_half_a_line_waits_for_its_end() -> None:
    session = BeeTekSession()
    assert session.received(b"[Game]<Ca", 0.0).events == []
    assert session.received(b"rd:7H>\r\n", 0.0).events == [CardDrawn("7H")]
