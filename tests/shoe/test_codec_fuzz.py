"""Property tests of the Python codec: hostile input gives typed outcomes only,
and damaged streams never yield a card that was not sent."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

import firmware_proto as fp

cards = st.builds(
    fp.Card,
    index=st.integers(0, 0xFFFF),
    rank=st.integers(1, 13),
    suit=st.integers(0, 3),
    burn=st.booleans(),
    shoe_time_ms=st.integers(0, 0xFFFFFFFF),
)


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


@given(st.binary(max_size=600), st.lists(st.integers(0, 10_000), max_size=8))
@settings(max_examples=300)
def test_arbitrary_bytes_give_only_frames_faults_and_typed_errors(
    data: bytes, cuts: list[int]
) -> None:
    decoder = fp.FrameDecoder()
    frame_bytes = 0
    for chunk in _split(data, cuts):
        for item in decoder.feed(chunk):
            assert isinstance(item, fp.Frame | fp.FrameFault)
            if isinstance(item, fp.Frame):
                frame_bytes += 7 + len(item.payload)
                try:
                    fp.decode_message(item)
                except fp.MessageError as exc:
                    assert exc.reason
    # Every byte is accounted for exactly once: in a frame, discarded, or pending.
    assert frame_bytes + decoder.counters.bytes_discarded + decoder.pending == len(data)


@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=64))
def test_any_checked_frame_decodes_or_gets_a_reason(
    seq: int, type_code: int, payload: bytes
) -> None:
    frame = fp.Frame(seq, type_code, payload)
    try:
        message = fp.decode_message(frame)
    except fp.MessageError as exc:
        assert exc.kind in ("unknown_type", "bad_length", "bad_field")
        return
    again = fp.FrameDecoder().feed(fp.encode_message(message, seq))
    assert [fp.decode_message(f) for f in again if isinstance(f, fp.Frame)] == [message]


@given(st.lists(cards, min_size=1, max_size=20), st.integers(0, 255))
def test_cards_round_trip(sent: list[fp.Card], first_seq: int) -> None:
    stream = b"".join(fp.encode_message(c, (first_seq + i) & 0xFF) for i, c in enumerate(sent))
    items = fp.FrameDecoder().feed(stream)
    assert [fp.decode_message(f) for f in items if isinstance(f, fp.Frame)] == sent
    assert len(items) == len(sent)


mutation = st.tuples(
    st.sampled_from(["flip", "drop", "duplicate", "insert"]),
    st.integers(0, 100_000),
    st.integers(0, 255),
)


@given(st.lists(cards, min_size=1, max_size=30), st.lists(mutation, max_size=12),
       st.lists(st.integers(0, 10_000), max_size=6))
@settings(max_examples=300, derandomize=True)
def test_damaged_stream_never_yields_a_card_that_was_not_sent(
    sent: list[fp.Card], mutations: list[tuple[str, int, int]], cuts: list[int]
) -> None:
    """CRC-16 catches every 1-3 bit error and burst up to 16 bits; a shifted frame
    (drop, duplicate) passes by chance with probability 2^-16, and the station's
    sequence check then divides that by 256. Derandomised, so a pass is stable."""
    originals = {(i & 0xFF, c) for i, c in enumerate(sent)}
    stream = bytearray(b"".join(fp.encode_message(c, i & 0xFF) for i, c in enumerate(sent)))
    for kind, where, value in mutations:
        at = where % (len(stream) + 1)
        if kind == "flip" and at < len(stream):
            stream[at] ^= 1 << (value % 8)
        elif kind == "drop" and at < len(stream):
            del stream[at]
        elif kind == "duplicate" and at < len(stream):
            stream.insert(at, stream[at])
        elif kind == "insert":
            stream.insert(at, value)
    decoder = fp.FrameDecoder()
    for chunk in _split(bytes(stream), cuts):
        for item in decoder.feed(chunk):
            if isinstance(item, fp.Frame) and item.type == fp.MessageType.CARD:
                try:
                    card = fp.decode_message(item)
                except fp.MessageError:
                    continue
                assert (item.seq, card) in originals


@given(cards, st.integers(0, 255), st.sets(st.integers(16, 16 * 8 - 1), min_size=1, max_size=3))
@example(fp.Card(index=126, rank=1, suit=0, burn=False, shoe_time_ms=0), 0, {16})  # SYNC inside
def test_up_to_three_flipped_bits_after_len_are_always_caught(
    card: fp.Card, seq: int, bits: set[int]
) -> None:
    frame = bytearray(fp.encode_message(card, seq))
    for bit in bits:  # bit 16 is the first bit of SEQ: SYNC and LEN stay intact
        frame[bit // 8] ^= 0x80 >> (bit % 8)
    decoder = fp.FrameDecoder()
    assert not [i for i in decoder.feed(bytes(frame)) if isinstance(i, fp.Frame)]
    # The frame itself fails its check; a SYNC byte inside it (0x7E: card index
    # 126, say) starts one more candidate, which fails too.
    assert decoder.counters.bad_check >= 1
