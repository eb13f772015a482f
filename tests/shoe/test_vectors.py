"""Both codecs, Python and the reference C, against the one shared vector file."""

from __future__ import annotations

import binascii
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from support.shoe_vectors import VECTOR_FILE, Vector, load_vectors, python_outcome

import firmware_proto as fp

VECTORS = load_vectors()
C_DIR = Path(fp.__file__).parent / "c"


def bitwise_crc16(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = (((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1) & 0xFFFF
    return crc


def test_crc_check_value() -> None:
    assert fp.crc16_ccitt_false(b"123456789") == 0x29B1
    assert bitwise_crc16(b"123456789") == 0x29B1


def test_every_frame_crc_agrees_with_two_other_implementations() -> None:
    for vector in VECTORS:
        for item in fp.FrameDecoder().feed(vector.stream):
            if isinstance(item, fp.Frame):
                body = bytes((len(item.payload), item.seq, item.type)) + item.payload
                assert fp.crc16_ccitt_false(body) == bitwise_crc16(body)
                assert binascii.crc_hqx(body, 0xFFFF) == bitwise_crc16(body)


def test_vector_file_is_what_its_generator_writes() -> None:
    from support.make_vectors import render

    assert VECTOR_FILE.read_text() == render()


def test_vector_file_covers_the_cases_that_matter() -> None:
    outcomes = " ".join(v.outcome for v in VECTORS)
    for needed in ("bad_check=1", "bad_length=1", "E:unknown_type", "E:bad_field",
                   "E:bad_length", "M:HELLO", "M:CARD_UNREAD", "M:SHOE_STATE", "M:ERROR",
                   "M:ACK", "M:NAK", "M:RESET", "M:INDICATOR", "M:KEEPALIVE", "M:CARD:n=2",
                   "pending=15"):
        assert needed in outcomes, needed


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v.name)
def test_python_codec_whole_stream(vector: Vector) -> None:
    assert python_outcome([vector.stream]) == vector.outcome


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v.name)
def test_python_codec_outcome_does_not_depend_on_read_sizes(vector: Vector) -> None:
    one_by_one = [vector.stream[i : i + 1] for i in range(len(vector.stream))]
    assert python_outcome(one_by_one) == vector.outcome
    rng = random.Random(vector.name)
    chunks, rest = [], vector.stream
    while rest:
        n = rng.randint(1, 9)
        chunks.append(rest[:n])
        rest = rest[n:]
    assert python_outcome(chunks) == vector.outcome


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: v.name)
def test_python_encoder_reproduces_decoded_frames(vector: Vector) -> None:
    for item in fp.FrameDecoder().feed(vector.stream):
        if not isinstance(item, fp.Frame):
            continue
        try:
            message = fp.decode_message(item)
        except fp.MessageError:
            continue
        again = fp.encode_message(message, item.seq)
        if "reserved_flags" in vector.name:
            # Reserved bits are ignored on receipt, so only the meaning survives.
            assert fp.decode_message(fp.FrameDecoder().feed(again)[0]) == message  # type: ignore[arg-type]
        else:
            assert again == fp.encode_frame(item.seq, item.type, item.payload)


@pytest.fixture(scope="module")
def c_vector_check(tmp_path_factory: pytest.TempPathFactory) -> Path:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.fail("gcc is required: ./dev test installs it")
    exe = tmp_path_factory.mktemp("c") / "vector_check"
    subprocess.run(
        [gcc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O2",
         str(C_DIR / "shoe_proto.c"), str(C_DIR / "vector_check.c"), "-o", str(exe)],
        check=True, capture_output=True, text=True,
    )
    return exe


def test_c_codec_passes_every_vector(c_vector_check: Path) -> None:
    run = subprocess.run([str(c_vector_check), str(VECTOR_FILE)],
                         capture_output=True, text=True, check=True)
    got = {}
    for line in run.stdout.splitlines():
        name, outcome = line.split("|", 1)
        got[name.strip()] = " ".join(outcome.split())
    assert got == {v.name: v.outcome for v in VECTORS}
