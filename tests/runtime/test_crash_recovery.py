"""kill -9 the station at random moments of 50 rounds, restart it each time.

The station runs as a real subprocess (``dealer-station run``), a self-driving
croupier plays the rounds, the shoe simulator on a PTY is the croupier's hand
(it draws when the shoe's light is green), a real mosquitto carries the
messages. Afterwards, from the journal and from what a subscriber received: no
round lost, none settled twice, no card lost, repeated or invented, and no
message id ever carried two different contents. The tables take a snapshot
every few records, so kills land around snapshots too; the last snapshot must
give the table a full replay of the journal gives.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from contextlib import closing
from pathlib import Path

import pytest
from support.broker import Broker, Subscriber

from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from drivers.shoe.events import CardDrawn
from drivers.shoe.shuffled_shoe import shuffled_shoe
from drivers.shoe.simulator import FramedShoeSimulator
from firmware_proto import Indicator

ROUNDS = 50


class Dealer:
    """Draws a card whenever the shoe's light is green, while the station runs."""

    def __init__(self, sim: FramedShoeSimulator) -> None:
        self.sim = sim
        self.station_up = threading.Event()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            if self.station_up.is_set() and self.sim.indicator == Indicator.GREEN:
                if not self.sim.cards_left:  # the croupier brings a new shoe
                    self.sim.cards_left = shuffled_shoe(8, len(self.sim.sent))
                self.sim.draw()
            time.sleep(0.03)


def _settled_rounds(journal: Path) -> Counter[str]:
    with sqlite3.connect(journal) as db:
        rows = db.execute("SELECT payload FROM outbox").fetchall()
    settled: Counter[str] = Counter()
    for (payload,) in rows:
        message = json.loads(payload)
        if message["type"] == "round_settled":
            settled[message["data"]["round"]] += 1
    return settled


def _records(journal: Path) -> int:
    if not journal.exists():
        return 0
    with closing(sqlite3.connect(journal)) as db:
        try:
            (n,) = db.execute("SELECT COUNT(*) FROM journal").fetchone()
        except sqlite3.OperationalError:  # the station has not made its tables yet
            return 0
    return int(n)


def _wait_for_records(journal: Path, count: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while _records(journal) < count:
        assert time.monotonic() < deadline, "the restarted station journaled nothing"
        time.sleep(0.05)


def _wait_for_backlog_sent(journal: Path, timeout: float = 60.0) -> None:
    """Until the broker has acknowledged every message the journal holds (the
    station then runs and has its signal handlers: a SIGTERM is a clean stop)."""
    deadline = time.monotonic() + timeout
    while True:
        with closing(sqlite3.connect(journal)) as db:
            (last,) = db.execute("SELECT MAX(msg_seq) FROM outbox").fetchone()
            (acked,) = db.execute("SELECT msg_seq FROM acked").fetchone()
        if acked == last:
            return
        assert time.monotonic() < deadline, f"acknowledged {acked} of {last}"
        time.sleep(0.05)


@pytest.mark.slow
def test_kill_dash_nine_at_random_points_of_50_rounds(broker: Broker, tmp_path: Path) -> None:
    rng = random.Random(20261130)
    journal = tmp_path / "journal.sqlite3"
    sub = Subscriber(broker.port, "dealer-station/test/bac/round/event")
    with FramedShoeSimulator(decks=8, seed=11, link_path=tmp_path / "shoe") as sim:
        config = tmp_path / "station.toml"
        config.write_text(
            f'studio = "test"\nstation = "st"\njournal = "{journal}"\nsnapshot_every = 5\n'
            # Its last run deals no card: the stop must not wait for a round.
            "drain_seconds = 0\n"
            f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n'
            "[http]\nport = 0\n"
            f'[[tables]]\nid = "bac"\ngame = "baccarat"\n'
            f'shoe = {{ port = "{sim.port}" }}\n'
            "timers = { betting_seconds = 0.2 }\n"
            "self_driving = { pause_seconds = 0.05, think_seconds = 0.0 }\n"
        )
        dealer = Dealer(sim)
        kills = 0
        process: subprocess.Popen[bytes] | None = None

        def played() -> int:
            return sum(_settled_rounds(journal).values()) if journal.exists() else 0

        try:
            while played() < ROUNDS:
                process = subprocess.Popen(
                    [sys.executable, "-m", "dealer_station", "run", "--config", str(config)],
                    stdout=subprocess.DEVNULL,
                    stderr=(tmp_path / "station.log").open("ab"),
                )
                dealer.station_up.set()
                if rng.random() < 0.2:
                    # A kill during the start: the replay, the handshake.
                    time.sleep(rng.uniform(0.0, 1.0))
                else:
                    # A kill at work: timed from the station's first new record, so a
                    # slow start on a busy machine cannot eat every life's rounds.
                    _wait_for_records(journal, _records(journal) + 1)
                    time.sleep(rng.uniform(0.2, 2.5))
                dealer.station_up.clear()
                process.send_signal(signal.SIGKILL)
                process.wait()
                kills += 1
                assert kills < 200, "the station stopped making progress"
            # A last, clean run: the backlog of the last crash goes out.
            before = _records(journal)
            process = subprocess.Popen(
                [sys.executable, "-m", "dealer_station", "run", "--config", str(config)],
                stdout=subprocess.DEVNULL,
                stderr=(tmp_path / "station.log").open("ab"),
            )
            _wait_for_records(journal, before + 1)
            _wait_for_backlog_sent(journal)
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=30) == 0
        finally:
            dealer.stop.set()
            if process is not None and process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
        sent_cards = [e for e in sim.sent if isinstance(e, CardDrawn)]
        boot_id = sim.boot_id
    time.sleep(0.5)
    sub.close()

    with sqlite3.connect(journal) as db:
        shoe_cards = [
            json.loads(body)
            for (body,) in db.execute(
                "SELECT body FROM journal WHERE source = 'shoe' AND kind = 'event' ORDER BY seq"
            )
        ]
        outbox = {
            seq: payload
            for seq, payload in db.execute("SELECT msg_seq, payload FROM outbox ORDER BY msg_seq")
        }
        (acked,) = db.execute("SELECT msg_seq FROM acked").fetchone()

    # No round settled twice; every round opened was settled (or voided at a
    # restart), but for at most the one in play at the last stop.
    settled = _settled_rounds(journal)
    assert sum(settled.values()) >= ROUNDS
    assert max(settled.values()) == 1
    opened = [json.loads(p)["data"]["round"] for p in outbox.values() if '"round_opened"' in p]
    assert len(set(opened)) == len(opened)
    assert len(set(opened) - set(settled)) <= 1

    # Every card the shoe sent reached the journal once, in order, none invented.
    assert [c["id"] for c in shoe_cards] == [
        f"{boot_id}:{c.insertion}:{c.shoe_index}" for c in sent_cards
    ]
    assert [c["card"] for c in shoe_cards] == [c.card for c in sent_cards]

    # The outbox has no gaps; everything acknowledged reached the subscriber; a
    # message id never carried two contents.
    assert list(outbox) == list(range(1, len(outbox) + 1))
    copies: dict[str, set[bytes]] = defaultdict(set)
    for message in sub.messages:
        copies[json.loads(message.payload)["id"]].add(message.payload)
    assert all(len(contents) == 1 for contents in copies.values())
    received = {int(i.rsplit("/", 1)[1]) for i in copies}
    assert set(range(1, acked + 1)) <= received
    for seq in received:
        assert copies[f"test/bac/{seq}"] == {outbox[seq].encode()}

    # The snapshot the station left is the table a full replay builds.
    with sqlite3.connect(journal) as db:
        (snapshots,) = db.execute("SELECT COUNT(*) FROM snapshot").fetchone()
    assert snapshots == 1
    full_copy = tmp_path / "full.sqlite3"
    # SQLite's backup, not a file copy: this process's own connections keep the
    # WAL from being folded into the file.
    with closing(sqlite3.connect(journal)) as source, closing(sqlite3.connect(full_copy)) as copy:
        source.backup(copy)
        copy.execute("DELETE FROM snapshot")
        copy.commit()
    tables = []
    for path in (journal, full_copy):
        config = TableConfig.model_validate({"id": "bac", "game": "baccarat", "recovery": "resume"})
        table = TableActor(config, "test", Journal(path), Topics("p", "test", "bac"))
        table.recover()
        tables.append(table)
    from_snapshot, full = tables
    assert from_snapshot.recovered_from > 0 and full.recovered_from == 0
    assert from_snapshot.state is not None and full.state is not None
    assert (from_snapshot.state.shoe, from_snapshot.state.round) == (
        full.state.shoe,
        full.state.round,
    )
    assert from_snapshot.state.rounds_started == full.state.rounds_started
    assert from_snapshot.stats.settled == full.stats.settled
    print(f"{kills} kills, {sum(settled.values())} rounds, {len(sent_cards)} cards")
