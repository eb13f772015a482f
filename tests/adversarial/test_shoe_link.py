"""Forged and corrupted HELLO frames on the shoe's line, mid-session.

The issue's fault: one forged or corrupted HELLO (a valid CRC, crafted boot id or
sequence number) moved the station's position, the shoe ignored every answer
from then on, and 33 cards waited while the shoe still showed online. Here the
framed simulator on a real PTY is the shoe, the real driver the station, and the
forgeries are written onto the PTY between the shoe's own frames. Afterwards
every card the shoe drew arrives once, in order; and whenever the link cannot go
on, it says offline, never online-but-stalled.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

import pytest
from support.shoe_rigs import until

import firmware_proto as fp
from drivers.shoe import CardDrawn, ShoeAlarm, ShoeEvent, ShoeOffline, ShoeOnline, open_shoe
from drivers.shoe.simulator import FramedShoeSimulator

pytestmark = pytest.mark.adversarial

WAIT_S = 20.0  # a guard against hanging, never a measurement

Forgery = Callable[[FramedShoeSimulator], bytes]


def hello(
    boot_id: int, next_seq: int, version: int = fp.PROTOCOL_VERSION, challenge: int = 0
) -> bytes:
    """A HELLO as the simulated shoe writes it, with the numbers given. A blind
    forger cannot know the challenge of the station's last RESET."""
    return fp.encode_message(fp.Hello(version, boot_id, next_seq, "Simulated", "SIM-SHOE",
                                      f"SIM{boot_id & 0xFFFFFFFF:08X}", "sim-1", challenge))


def corrupted_genuine(sim: FramedShoeSimulator) -> bytes:
    """The shoe's own HELLO with its boot id and next_seq bits flipped, the CRC
    made right again: damage that the frame check cannot see."""
    frame = fp.FrameDecoder().feed(hello(sim.boot_id, 3, challenge=0x1234))[0]
    assert isinstance(frame, fp.Frame)
    payload = bytearray(frame.payload)
    payload[2] ^= 0x10  # boot id
    payload[5] ^= 0x40  # next_seq
    return fp.encode_frame(0, fp.MessageType.HELLO, bytes(payload))


FORGERIES: dict[str, Forgery] = {
    "same_boot_next_seq_ahead": lambda sim: hello(sim.boot_id, 60),
    "same_boot_next_seq_behind": lambda sim: hello(sim.boot_id, 200),
    "new_boot_id": lambda sim: hello(sim.boot_id ^ 0x5A5A5A5A, 0),
    "other_protocol_version": lambda sim: hello(sim.boot_id, 0, version=1),
    "corrupted_genuine": corrupted_genuine,
    "a_burst_of_all_of_them": lambda sim: b"".join(
        hello(sim.boot_id ^ n, (n * 37) & 0xFF) for n in range(20)),
}


def collect_cards(events: queue.Queue[ShoeEvent], count: int) -> list[ShoeEvent]:
    """Every event up to the `count`-th card, then whatever follows at once."""
    got: list[ShoeEvent] = []
    while sum(isinstance(e, CardDrawn) for e in got) < count:
        got.append(events.get(timeout=WAIT_S))
    time.sleep(0.2)
    while not events.empty():
        got.append(events.get_nowait())
    return got


def truth(sim: FramedShoeSimulator) -> list[ShoeEvent]:
    return [e for e in sim.sent if isinstance(e, CardDrawn)]


@pytest.mark.parametrize("forgery", FORGERIES.values(), ids=FORGERIES.keys())
def test_a_forged_hello_mid_session_restarts_the_session_and_no_card_is_lost_or_repeated(
    forgery: Forgery,
) -> None:
    events: queue.Queue[ShoeEvent] = queue.Queue()
    with (
        FramedShoeSimulator(seed=5, heartbeat_interval=0.2) as sim,
        open_shoe("framed", port=sim.port, on_event=events),
    ):
        assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
        sim.draw(10)
        sim.inject(forgery(sim))  # among the shoe's frames in flight
        sim.draw(10)
        assert sim.wait_until_acknowledged(WAIT_S)
        got = collect_cards(events, 20)
        sim.draw(5)  # and the link goes on
        got += collect_cards(events, 5)

    assert [e for e in got if isinstance(e, CardDrawn)] == truth(sim)
    offline = [e for e in got if isinstance(e, ShoeOffline)]
    assert offline and all("HELLO in mid-session" in e.reason for e in offline)
    # The session came back each time it went: online is the last word.
    presence = [e for e in got if isinstance(e, ShoeOnline | ShoeOffline)]
    assert isinstance(presence[-1], ShoeOnline)
    # A forged boot id is never taken for a shoe that restarted.
    assert all(e.boot_id == sim.boot_id for e in presence if isinstance(e, ShoeOnline))
    assert not [e for e in got if isinstance(e, ShoeAlarm) and e.code == "shoe_restarted"]


def last_challenge(sim: FramedShoeSimulator) -> int | None:
    """The challenge of the last RESET on the line, as a tap on it reads it."""
    challenge = None
    for item in fp.FrameDecoder().feed(bytes(sim.station_log)):
        if isinstance(item, fp.Frame) and item.type == fp.MessageType.RESET:
            message = fp.decode_message(item)
            assert isinstance(message, fp.Reset)
            challenge = message.challenge
    return challenge


def test_a_forged_hello_that_answers_the_reset_cannot_leave_the_link_stalled_online() -> None:
    """The one HELLO the station believes answers its RESET. A forger who reads
    the line (its challenge) and answers first, claiming the shoe is 95 messages
    further than it is, makes the station refuse the shoe's real frames: the
    station must see that nothing is delivered, say offline, and handshake
    again with the real shoe."""
    events: queue.Queue[ShoeEvent] = queue.Queue()
    with (
        FramedShoeSimulator(seed=6, heartbeat_interval=0.1) as sim,
        open_shoe("framed", port=sim.port, on_event=events, heartbeat_timeout=0.5),
    ):
        assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
        sim.draw(5)
        assert sim.wait_until_acknowledged(WAIT_S)
        answered = last_challenge(sim)
        sim.silence()  # a hung firmware: the station goes offline and sends RESET
        got, _ = until(events, ShoeOffline)
        deadline = time.monotonic() + WAIT_S
        while last_challenge(sim) == answered and time.monotonic() < deadline:
            time.sleep(0.01)
        challenge = last_challenge(sim)
        assert challenge is not None and challenge != answered
        sim.inject(hello(sim.boot_id, 100, challenge=challenge))
        lost, _ = until(events, ShoeOnline)
        assert [e.code for e in lost if isinstance(e, ShoeAlarm)] == ["messages_lost"]
        sim.silence(False)
        sim.draw(5)
        more, stalled = until(events, ShoeOffline)
        assert "stalled" in stalled.reason  # type: ignore[union-attr]
        assert not [e for e in more if isinstance(e, CardDrawn)]  # online, and stuck
        got += collect_cards(events, 5)
        assert sim.wait_until_acknowledged(WAIT_S)

    assert [e for e in got if isinstance(e, CardDrawn)] == truth(sim)
    assert any(isinstance(e, ShoeAlarm) and e.code == "sequence_resynced" for e in got)
    assert isinstance([e for e in got if isinstance(e, ShoeOnline | ShoeOffline)][-1],
                      ShoeOnline)
