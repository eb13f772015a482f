"""The framed shoe driver against real faults, through real pseudo-terminals."""

from __future__ import annotations

import dataclasses
import queue
import tempfile
import time
from pathlib import Path

import pytest
from support.shoe_rigs import WAIT_S, next_events, until

import firmware_proto as fp
from drivers.line_faults import LineFaults
from drivers.pty_port import PtyPort
from drivers.shoe import (
    CardDrawn,
    CardUnread,
    EventRefused,
    Indicator,
    ShoeAlarm,
    ShoeEvent,
    ShoeOffline,
    ShoeOnline,
    open_shoe,
)
from drivers.shoe.simulator import FramedShoeSimulator


def _link(sim: FramedShoeSimulator, events: queue.Queue[ShoeEvent], **options: object):  # type: ignore[no-untyped-def]
    return open_shoe("framed", port=sim.port, on_event=events, **options)


def _wait_for(condition, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.01)


def test_frames_split_across_reads_arrive_whole() -> None:
    events: queue.Queue[ShoeEvent] = queue.Queue()
    with FramedShoeSimulator(seed=1) as sim, _link(sim, events):
        assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
        sim.split_frames = True
        sim.draw(20)
        assert next_events(events, 20) == sim.sent


def test_noise_in_both_directions_loses_and_invents_nothing() -> None:
    events: queue.Queue[ShoeEvent] = queue.Queue()
    with FramedShoeSimulator(seed=2, heartbeat_interval=0.2) as sim, _link(sim, events) as link:
        assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
        sim.faults = LineFaults.mixed(0.03, seed=11)
        sim.station_faults = LineFaults.mixed(0.03, seed=12)
        sim.draw(150)
        sim.draw_unread()
        got = next_events(events, 151)
        assert got == sim.sent
        assert sim.faults.damaged > 0 and sim.station_faults.damaged > 0
        counters = link.counters()
        assert counters["bytes_discarded"] > 0
        assert counters["naks_sent"] > 0


def test_unplug_reconnects_and_continues_without_gap_or_repeat() -> None:
    events: queue.Queue[ShoeEvent] = queue.Queue()
    with FramedShoeSimulator(seed=3) as sim, _link(sim, events, reconnect_max=0.2):
        assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
        sim.draw(40)
        sim.unplug()  # cards still in flight
        before, offline = until(events, ShoeOffline)
        assert "failed" in offline.reason  # type: ignore[union-attr]
        sim.draw(25)  # drawn while the cable is out
        sim.replug()
        between, _ = until(events, ShoeOnline)
        sim.draw(15)
        after = next_events(events, 80 - len(before) - len(between))
        cards = before + between + after
        assert cards == sim.sent
        assert len(cards) == 80


def test_shoe_absent_at_start_is_offline_once_then_comes_online() -> None:
    events: queue.Queue[ShoeEvent] = queue.Queue()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "dealer-shoe"
        with open_shoe("framed", port=str(path), on_event=events, reconnect_max=0.1):
            offline = events.get(timeout=WAIT_S)
            assert isinstance(offline, ShoeOffline) and "cannot open" in offline.reason
            with FramedShoeSimulator(seed=4, link_path=path) as sim:
                assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
                sim.draw(3)
                assert next_events(events, 3) == sim.sent


def test_heartbeat_silence_raises_offline_and_recovery_resumes_the_sequence() -> None:
    events: queue.Queue[ShoeEvent] = queue.Queue()
    with FramedShoeSimulator(seed=5, heartbeat_interval=0.05) as sim, \
            _link(sim, events, heartbeat_timeout=0.5):
        assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
        sim.draw(5)
        sim.silence()
        before, offline = until(events, ShoeOffline)
        assert "no frame" in offline.reason  # type: ignore[union-attr]
        sim.draw(5)
        sim.silence(False)
        between, _ = until(events, ShoeOnline)
        cards = before + between + next_events(events, 10 - len(before) - len(between))
        assert cards == sim.sent


def test_indicator_reaches_the_shoe_and_is_corrected_from_heartbeats() -> None:
    events: queue.Queue[ShoeEvent] = queue.Queue()
    with FramedShoeSimulator(seed=6, heartbeat_interval=0.05) as sim, \
            _link(sim, events) as link:
        assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
        link.set_indicator(Indicator.GREEN)
        _wait_for(lambda: sim.indicator is Indicator.GREEN, "indicator green")
        sim.station_faults = LineFaults(drop=1.0)  # the command is lost on the line
        link.set_indicator(Indicator.RED)
        time.sleep(0.1)
        assert Indicator(sim.indicator) is Indicator.GREEN
        sim.station_faults = LineFaults()
        _wait_for(lambda: sim.indicator is Indicator.RED, "indicator red from heartbeat check")


class RawShoe:
    """The shoe side written by hand, for frames the simulator would never send."""

    def __init__(self, tmp: str) -> None:
        self.pty = PtyPort(Path(tmp) / "dealer-shoe")
        self.pty.open()
        self.port = str(self.pty.link_path)
        self.decoder = fp.FrameDecoder()

    def send(self, message: fp.Message, seq: int = 0) -> None:
        self.pty.write(fp.encode_message(message, seq))

    def send_raw(self, frame: bytes) -> None:
        self.pty.write(frame)

    def answer_reset(self, hello: fp.Hello) -> None:
        """Wait for the station's RESET and answer with `hello`, echoing its challenge."""
        reset = self.wait_for(fp.Reset)
        assert isinstance(reset, fp.Reset)
        self.send(dataclasses.replace(hello, challenge=reset.challenge))

    def received(self) -> list[fp.Message]:
        deadline = time.monotonic() + 0.3
        out = []
        while time.monotonic() < deadline:
            for item in self.decoder.feed(self.pty.read()):
                if isinstance(item, fp.Frame):
                    out.append(fp.decode_message(item))
            time.sleep(0.01)
        return out

    def wait_for(self, kind: type) -> fp.Message:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            for item in self.decoder.feed(self.pty.read()):
                if isinstance(item, fp.Frame):
                    message = fp.decode_message(item)
                    if isinstance(message, kind):
                        return message
            time.sleep(0.005)
        raise AssertionError(f"no {kind.__name__} from the station")


HELLO = fp.Hello(fp.PROTOCOL_VERSION, 99, 0, "Raw", "RAW", "R1", "0")


def test_a_shoe_of_another_protocol_version_stays_offline_with_a_reason() -> None:
    events: queue.Queue[ShoeEvent] = queue.Queue()
    with tempfile.TemporaryDirectory() as tmp:
        shoe = RawShoe(tmp)
        with open_shoe("framed", port=shoe.port, on_event=events):
            shoe.answer_reset(fp.Hello(1, 99, 0, "Raw", "RAW", "R1", "0", None))
            shoe.send(fp.Card(1, 1, 3, False, 0), seq=0)
            alarm = events.get(timeout=WAIT_S)
            assert isinstance(alarm, ShoeAlarm) and alarm.code == "protocol_version"
            replies = shoe.received()
            assert not [m for m in replies if isinstance(m, fp.Ack)]
            # asked again, answered the same: no second alarm
            shoe.answer_reset(fp.Hello(1, 99, 0, "Raw", "RAW", "R1", "0", None))
            shoe.received()
            assert events.empty()
        shoe.pty.close()


def test_duplicates_are_dropped_and_gaps_are_nakked_not_reordered() -> None:
    events: queue.Queue[ShoeEvent] = queue.Queue()
    with tempfile.TemporaryDirectory() as tmp:
        shoe = RawShoe(tmp)
        with open_shoe("framed", port=shoe.port, on_event=events):
            shoe.answer_reset(HELLO)
            assert shoe.wait_for(fp.Ack) == fp.Ack(0)
            assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
            ace = fp.Card(1, 1, 3, False, 0)
            king = fp.Card(2, 13, 0, False, 0)
            shoe.send(ace, seq=0)
            shoe.send(ace, seq=0)
            shoe.send(fp.Card(3, 2, 2, False, 0), seq=2)  # seq 1 never sent: a gap
            replies = shoe.received()
            assert fp.Nak(1) in replies
            shoe.send(king, seq=1)
            assert events.get(timeout=WAIT_S) == CardDrawn("AS", False, 1, 0, insertion=1)
            assert events.get(timeout=WAIT_S) == CardDrawn("KC", False, 2, 0, insertion=1)
            assert events.empty()
        shoe.pty.close()


def test_a_malformed_card_is_damage_until_repeated_then_an_unread_card() -> None:
    events: queue.Queue[ShoeEvent] = queue.Queue()
    bad_card = fp.encode_frame(0, fp.MessageType.CARD, bytes.fromhex("0001 0001 0e 00 00 00000000"))
    with tempfile.TemporaryDirectory() as tmp:
        shoe = RawShoe(tmp)
        with open_shoe("framed", port=shoe.port, on_event=events):
            shoe.answer_reset(HELLO)
            assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
            shoe.send_raw(bad_card)
            assert fp.Nak(0) in shoe.received()
            assert events.empty()
            shoe.send_raw(bad_card)
            shoe.send_raw(bad_card)
            unread = events.get(timeout=WAIT_S)
            assert isinstance(unread, CardUnread) and "rank 14" in unread.reason
            assert fp.Ack(1) in shoe.received()
        shoe.pty.close()


@pytest.mark.slow
def test_ten_thousand_cards_over_a_line_damaging_one_byte_in_a_hundred() -> None:
    """The issue's fault-injection test: 1 % of bytes from the shoe flipped, dropped
    or duplicated (a third each), and the same on the station's replies."""
    events: queue.Queue[ShoeEvent] = queue.Queue()
    # Heartbeat silence is another test's subject: on a machine starved of CPU
    # the 10,000 cards must not be cut by an offline verdict.
    with (
        FramedShoeSimulator(decks=200, seed=10) as sim,
        _link(sim, events, heartbeat_timeout=60.0) as link,
    ):
        assert isinstance(events.get(timeout=WAIT_S), ShoeOnline)
        sim.faults = LineFaults.mixed(0.01, seed=21)
        sim.station_faults = LineFaults.mixed(0.01, seed=22)
        sim.draw(10_000)
        got = next_events(events, 10_000)
        assert got == sim.sent
        assert sim.wait_until_acknowledged(WAIT_S)
        time.sleep(0.1)
        assert events.empty()
        counters = link.counters()
        print(f"\nshoe bytes damaged: {sim.faults.flipped} flipped, {sim.faults.dropped} "
              f"dropped, {sim.faults.duplicated} duplicated; station bytes damaged: "
              f"{sim.station_faults.damaged}; retransmitted frames: {sim.retransmissions}; "
              f"station: {counters}")
        assert sim.faults.damaged > 1000
        assert counters["delivered"] == 10_000


def test_a_card_the_sink_did_not_take_is_sent_again_and_none_is_lost() -> None:
    taken: list[ShoeEvent] = []
    tried: list[int] = []
    refuse = {3: EventRefused("stuck"), 5: RuntimeError("a bug"), 9: None}  # None: too slow

    def sink(event: ShoeEvent) -> None:
        if isinstance(event, CardDrawn) and event.shoe_index is not None:
            tried.append(event.shoe_index)
            if event.shoe_index in refuse:
                error = refuse.pop(event.shoe_index)
                if error is None:
                    time.sleep(0.5)  # longer than the shoe's retransmission timer
                    error = EventRefused("timed out")
                raise error
        taken.append(event)

    with FramedShoeSimulator(seed=4, retransmit_after=0.25) as sim, \
            open_shoe("framed", port=sim.port, on_event=sink) as link:
        _wait_for(lambda: any(isinstance(e, ShoeOnline) for e in taken), "online")
        sim.draw(12)  # several in one read: those after a refused one wait with it
        _wait_for(lambda: len(taken) == 13, "twelve cards taken")
        assert sim.wait_until_acknowledged(WAIT_S)
        assert taken[1:] == sim.sent  # each card once, in order, none lost
        assert [tried.count(i) for i in (3, 5, 9)] == [2, 2, 2]
        assert link.counters()["taken_back"] == 3
        assert sim.retransmissions > 0
