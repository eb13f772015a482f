"""A noisy line costs a few journal rows, not one per garbled line.

The issue's fault: every line a Bee-Tek shoe sent that did not parse was a
journal row and an MQTT message, 5,150 of them per MiB of line noise. Here a
real station (its actor, its journal, a real mosquitto) reads a Bee-Tek
simulator on a real PTY that carries 1 MiB of noise in the middle of a round;
the refusals are journaled once with their count, and the next good card is
dealt.
"""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path

import pytest
from support.broker import Broker
from support.station import StationThread, config_for

from drivers.shoe.beetek_simulator import BeeTekShoeSimulator

pytestmark = pytest.mark.adversarial

MIB = 1 << 20


def line_noise(size: int, seed: int) -> bytes:
    """Random bytes, as a line with a bad ground carries them, but never a '<':
    no garbled line can happen to be a message (docs/shoe.md: the protocol has
    no checksum, so such a line could not be told from a real one)."""
    rng = random.Random(seed)
    noise = bytes(b for b in rng.randbytes(size + size // 100) if b != ord("<"))
    return noise[:size] + b"\r\n"


def rows(journal: Path) -> tuple[int, int]:
    with sqlite3.connect(journal) as db:
        (records,) = db.execute("SELECT COUNT(*) FROM journal").fetchone()
        (messages,) = db.execute("SELECT COUNT(*) FROM outbox").fetchone()
    return int(records), int(messages)


def test_a_mebibyte_of_line_noise_is_one_alarm_with_its_count(
    broker: Broker, tmp_path: Path
) -> None:
    journal = tmp_path / "journal.sqlite3"
    noise = line_noise(MIB, seed=13)
    # What the noise holds, worked out here from the bytes: every non-empty
    # run between line ends is one line the shoe's reader must refuse.
    garbled = len([line for line in re.split(rb"[\r\n]", noise) if line])
    with BeeTekShoeSimulator(seed=2) as bsim:
        config = config_for(
            f'[[tables]]\nid = "bac"\ngame = "baccarat"\n'
            f'shoe = {{ port = "{bsim.port}", protocol = "beetek" }}\n'
            "timers = { betting_seconds = 60 }\n",
            journal,
            broker.port,
        )
        with StationThread(config) as st:
            st.wait_until(lambda: st.call(
                lambda: st.actor("bac").devices.get("shoe", ("",))[0]) == "online")
            assert st.command("bac", {"type": "round_open", "round": "r1"}).accepted
            assert st.command("bac", {"type": "bets_closed"}).accepted
            table = st.actor("bac")
            before = st.call(lambda: rows(journal))
            last = st.call(lambda: table.journal.last_seq("bac"))
            bsim.stream(noise)
            card = bsim.draw(1)[0]
            st.wait_until(lambda: st.next_step("bac") != ("card", "player"))
            after = st.call(lambda: rows(journal))
            added = st.call(lambda: list(table.journal.records("bac", after=last)))

    print(f"\n{garbled} garbled lines: {after[0] - before[0]} journal rows, "
          f"{after[1] - before[1]} outbox messages, the card's included")
    assert garbled > 1000
    alarms = [r for r in added if r.kind == "alarm"]
    assert {r.body["code"] for r in alarms} == {"shoe_rejected_line"}
    assert sum(r.body.get("count", 1) for r in alarms) == garbled
    assert len(alarms) <= 4  # the first at once, then one per window of repeats
    dealt = [r for r in added if r.kind == "event"]
    assert [(r.body["card"], r.status) for r in dealt] == [(card, "accepted")]
    assert after[0] - before[0] == len(alarms) + 1
    assert after[1] - before[1] <= len(alarms) + 3  # an alarm each, the card's messages
