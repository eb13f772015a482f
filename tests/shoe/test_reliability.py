"""The go-back-N state machines over a simulated lossy channel, in virtual time."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import firmware_proto as fp
from firmware_proto.reliability import seq_distance


def test_seq_distance_wraps() -> None:
    assert seq_distance(0, 255) == 1
    assert seq_distance(255, 0) == -1
    assert seq_distance(10, 10) == 0
    assert seq_distance(127, 0) == 127
    assert seq_distance(128, 0) == -128


def _damage(data: bytes, rng: random.Random, rate: float) -> bytes:
    out = bytearray()
    for byte in data:
        roll = rng.random()
        if roll < rate / 3:
            out.append(byte ^ (1 << rng.randrange(8)))
        elif roll < 2 * rate / 3:
            continue
        elif roll < rate:
            out += bytes((byte, byte))
        else:
            out.append(byte)
    return bytes(out)


def _run_link(cards: list[fp.Card], seed: int, rate: float) -> tuple[list[fp.Card], int]:
    """Shoe and station state machines joined by a channel that damages bytes both ways."""
    rng = random.Random(seed)
    sender = fp.ReliableSender(first_seq=rng.randrange(256), retransmit_after=0.05)
    receiver = fp.ReliableReceiver()
    to_station, to_shoe = fp.FrameDecoder(), fp.FrameDecoder()
    hello = fp.Hello(1, 7, sender.oldest_unacked, "v", "m", "s", "f")
    delivered: list[fp.Card] = []
    pending = list(cards)
    now = 0.0
    handshake_done = False
    for _ in range(100_000):
        now += 0.01
        while pending and sender.unacked < sender.capacity:
            sender.submit(pending.pop(0))
        wire = b"".join(sender.due(now))
        if not handshake_done:
            wire += fp.encode_message(hello)
        replies = b""
        for item in to_station.feed(_damage(wire, rng, rate)) + to_station.abandon_partial():
            if isinstance(item, fp.FrameFault):
                nak = receiver.corruption_seen()
                replies += fp.encode_message(nak) if nak else b""
                continue
            try:
                message = fp.decode_message(item)
            except fp.MessageError:
                # Noise that slipped past the CRC (about 1 in 65536 damaged
                # candidates): the station treats it as damage, not as a message.
                nak = receiver.corruption_seen()
                replies += fp.encode_message(nak) if nak else b""
                continue
            if isinstance(message, fp.Hello):
                replies += fp.encode_message(receiver.handshake(message).reply)
                continue
            verdict, reply = receiver.receive(item.seq)
            if verdict is fp.Verdict.DELIVER:
                assert isinstance(message, fp.Card)
                delivered.append(message)
            replies += fp.encode_message(reply) if reply else b""
        for item in to_shoe.feed(_damage(replies, rng, rate)) + to_shoe.abandon_partial():
            if isinstance(item, fp.Frame):
                try:
                    message = fp.decode_message(item)
                except fp.MessageError:
                    continue
                if isinstance(message, fp.Ack):
                    handshake_done = True
                    sender.on_ack(message, now)
                elif isinstance(message, fp.Nak):
                    sender.on_nak(message, now)
        if not pending and sender.unacked == 0 and handshake_done:
            return delivered, sender.retransmissions
    raise AssertionError("link did not converge")


card_lists = st.lists(
    st.builds(fp.Card, st.integers(1, 416), st.integers(1, 13), st.integers(0, 3),
              st.booleans(), st.integers(0, 2**32 - 1)),
    min_size=1, max_size=150,
)


@given(card_lists, st.integers(0, 2**32), st.sampled_from([0.0, 0.01, 0.05, 0.2]))
@settings(max_examples=60, deadline=None)
def test_every_card_arrives_once_in_order_over_a_damaging_channel(
    cards: list[fp.Card], seed: int, rate: float
) -> None:
    delivered, _ = _run_link(cards, seed, rate)
    assert delivered == cards


def test_a_clean_channel_needs_no_retransmission() -> None:
    cards = [fp.Card(i, 1 + i % 13, i % 4, False, i) for i in range(1, 300)]
    delivered, retransmissions = _run_link(cards, seed=1, rate=0.0)
    assert delivered == cards
    assert retransmissions == 0


def test_receiver_drops_duplicates_and_refuses_gaps() -> None:
    receiver = fp.ReliableReceiver()
    assert receiver.receive(0) == (fp.Verdict.NOT_CONNECTED, None)
    result = receiver.handshake(fp.Hello(1, 1, 250, "", "", "", ""))
    assert result.reply == fp.Ack(250)
    assert receiver.receive(250) == (fp.Verdict.DELIVER, fp.Ack(251))
    assert receiver.receive(250) == (fp.Verdict.DUPLICATE, fp.Ack(251))
    assert receiver.receive(253) == (fp.Verdict.OUT_OF_ORDER, fp.Nak(251))
    assert receiver.receive(254) == (fp.Verdict.OUT_OF_ORDER, None)  # one NAK per gap
    assert receiver.corruption_seen() is None
    for seq in (251, 252, 253, 254, 255, 0):
        assert receiver.receive(seq)[0] is fp.Verdict.DELIVER
    assert receiver.expected == 1


def test_handshake_keeps_position_for_the_same_boot_and_reports_losses() -> None:
    receiver = fp.ReliableReceiver()
    receiver.handshake(fp.Hello(1, 42, 10, "", "", "", ""))
    receiver.receive(10)
    receiver.receive(11)
    # Reconnection, the shoe never saw the ACKs of 10 and 11: keep expecting 12.
    same = receiver.handshake(fp.Hello(1, 42, 10, "", "", "", ""))
    assert (same.reply, same.shoe_restarted, same.lost) == (fp.Ack(12), False, 0)
    # The shoe claims 12..14 are gone although they never arrived: say so.
    gap = receiver.handshake(fp.Hello(1, 42, 15, "", "", "", ""))
    assert (gap.reply, gap.lost) == (fp.Ack(15), 3)
    rebooted = receiver.handshake(fp.Hello(1, 43, 0, "", "", "", ""))
    assert (rebooted.reply, rebooted.shoe_restarted) == (fp.Ack(0), True)


def test_sender_ignores_acks_for_what_it_never_sent() -> None:
    sender = fp.ReliableSender(window=2)
    for i in range(4):
        sender.submit(fp.Card(i + 1, 1, 0, False, 0))
    sender.on_ack(fp.Ack(0), 0.0)
    assert len(sender.due(0.0)) == 2
    sender.on_ack(fp.Ack(3), 0.0)  # only 0 and 1 were ever sent
    assert sender.unacked == 4
    sender.on_ack(fp.Ack(2), 0.0)
    assert sender.unacked == 2


def test_sender_goes_back_on_nak_and_on_timeout() -> None:
    sender = fp.ReliableSender(window=4, retransmit_after=1.0)
    frames = []
    for i in range(3):
        sender.submit(fp.Card(i + 1, 1, 0, False, 0))
    sender.on_ack(fp.Ack(0), 0.0)
    frames = sender.due(0.0)
    assert len(frames) == 3
    assert sender.due(0.5) == []
    sender.on_nak(fp.Nak(1), 0.6)
    assert sender.due(0.6) == frames[1:]
    assert sender.due(1.5) == []
    assert sender.due(1.7) == frames[1:]
    assert sender.retransmissions == 4
