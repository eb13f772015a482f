"""The framed session's handshake and stall rules, with time as an argument."""

from __future__ import annotations

import firmware_proto as fp
from drivers.shoe import CardDrawn, ShoeOffline, ShoeOnline
from drivers.shoe.framed_session import FramedSession
from drivers.shoe.session import SessionOutput


def frames(out: SessionOutput) -> list[fp.Message]:
    return [fp.decode_message(f) for f in fp.FrameDecoder().feed(bytes(out.tx))
            if isinstance(f, fp.Frame)]


def online_session() -> FramedSession:
    session = FramedSession()
    reset = frames(session.connected(0.0))[0]
    assert isinstance(reset, fp.Reset) and reset.challenge != 0
    out = session.received(fp.encode_message(
        fp.Hello(fp.PROTOCOL_VERSION, 7, 0, "", "", "", "", reset.challenge)), 0.0)
    assert isinstance(out.events[0], ShoeOnline)
    return session


CARD = fp.encode_message(fp.Card(1, 1, 3, False, 0), seq=0)


def test_a_lost_ack_now_and_then_is_not_a_stall() -> None:
    session = online_session()
    assert isinstance(session.received(CARD, 0.1).events[0], CardDrawn)
    for moment in (1.0, 5.0, 9.0, 13.0):  # the same card again, each ACK lost
        out = session.received(CARD, moment)
        assert out.events == [] and fp.Ack(1) in frames(out)
    assert session.online


def test_frames_refused_for_two_seconds_end_the_session_with_a_reset() -> None:
    session = online_session()
    assert session.received(CARD, 0.1).events
    moment, out = 1.0, SessionOutput()
    while not out.events:
        out = session.received(CARD, moment)  # retransmitted every 250 ms, never taken
        moment += 0.25
    assert moment - 1.0 >= 2.0
    assert isinstance(out.events[0], ShoeOffline) and "stalled" in out.events[0].reason
    assert not session.online
    assert any(isinstance(m, fp.Reset) for m in frames(out))


def test_only_the_answer_to_the_reset_is_believed() -> None:
    session = FramedSession()
    reset = frames(session.connected(0.0))[0]
    assert isinstance(reset, fp.Reset)
    for challenge in (0, reset.challenge ^ 1):  # a power-up HELLO, a forged one
        hello = fp.Hello(fp.PROTOCOL_VERSION, 7, 0, "", "", "", "", challenge)
        assert session.received(fp.encode_message(hello), 0.1).events == []
    assert not session.online
    answer = fp.Hello(fp.PROTOCOL_VERSION, 7, 0, "", "", "", "", reset.challenge)
    assert isinstance(session.received(fp.encode_message(answer), 0.2).events[0], ShoeOnline)
    # The same answer again is a HELLO in mid-session: the session starts over.
    out = session.received(fp.encode_message(answer), 0.3)
    assert isinstance(out.events[0], ShoeOffline) and not session.online
    again = next(m for m in frames(out) if isinstance(m, fp.Reset))
    assert again.challenge != reset.challenge


def cards(first: int, count: int) -> bytes:
    return b"".join(fp.encode_message(fp.Card(first + i + 1, 1, 1, False, 0), seq=first + i)
                    for i in range(count))


def test_a_delivery_taken_back_is_delivered_again_and_nothing_after_it_skipped() -> None:
    session = online_session()
    out = session.received(cards(0, 4), 0.1)  # one read: seq 0..3
    assert [e.shoe_index for e in out.events] == [1, 2, 3, 4]  # type: ignore[attr-defined]
    rest = session.take_back(out, 1, 0.1)  # the consumer took seq 0, not seq 1
    assert rest.events == []  # seq 2 and 3 are not handed over past the gap
    assert [m for m in frames(rest) if isinstance(m, fp.Ack | fp.Nak)] == [fp.Ack(1)]
    assert session.counters()["delivered"] == 1
    # The shoe, never acknowledged past seq 0, resends from seq 1 after its timeout.
    again = session.received(cards(1, 3), 0.4)
    assert [e.shoe_index for e in again.events] == [2, 3, 4]  # type: ignore[attr-defined]
    assert fp.Ack(4) in frames(again)
    assert session.online and session.counters()["delivered"] == 4


def test_a_delivery_taken_back_before_a_handshake_handshakes_again() -> None:
    session = online_session()
    challenge = frames(session.received(fp.encode_message(  # a HELLO mid-session
        fp.Hello(fp.PROTOCOL_VERSION, 7, 0, "", "", "", "", 1)), 0.1))[0]
    assert isinstance(challenge, fp.Reset) and not session.online
    answer = fp.encode_message(fp.Hello(fp.PROTOCOL_VERSION, 7, 0, "", "", "", "",
                                        challenge.challenge))
    out = session.received(answer, 0.2)
    assert isinstance(out.events[0], ShoeOnline)
    out = session.received(cards(0, 1) + answer, 0.3)  # a card, then a (replayed) HELLO
    rest = session.take_back(out, 0, 0.3)
    assert not session.online and isinstance(rest.events[-1], ShoeOffline)
    replies = frames(rest)
    assert not any(isinstance(m, fp.Ack | fp.Nak) for m in replies)
    reset = replies[-1]
    assert isinstance(reset, fp.Reset)
    session.received(fp.encode_message(
        fp.Hello(fp.PROTOCOL_VERSION, 7, 0, "", "", "", "", reset.challenge)), 0.4)
    assert [e.shoe_index for e in session.received(cards(0, 1), 0.5).events] == [1]  # type: ignore[attr-defined]
