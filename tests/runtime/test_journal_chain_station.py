"""A running station's journal verifies while it is written (read-only, no
lock), and the station publishes its chain head, retained, on each table's
``journal/digest`` topic: the digest a studio keeps elsewhere, against which a
later verify proves the journal up to it was not rewritten."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from support.broker import Broker, Subscriber
from support.chained_journal import rechain_from, send, tamper, verify
from support.dealing import dealt_baccarat
from support.station import StationThread, config_for

from dealer_station.journal import Journal
from dealer_station.journal_digest import publish_daily
from dealer_station.mqtt_publisher import TablePublisher
from dealer_station.station import Station


def _settled(st: StationThread) -> int:
    result: int = st.call(lambda: len(st.actor("bac").stats.settled))
    return result


def test_a_journal_being_written_verifies_and_its_digest_is_published(
    broker: Broker, tmp_path: Path
) -> None:
    path = tmp_path / "journal.sqlite3"
    sub = Subscriber(broker.port, "dealer-station/test/bac/journal/digest")
    try:
        with dealt_baccarat(path, broker.port) as config, StationThread(config) as st:
            st.wait_until(lambda: _settled(st) >= 2, timeout=60)
            # The table deals on while each verify reads the file.
            for _ in range(3):
                before = st.call(lambda: st.actor("bac").journal.last_seq("bac"))
                code, out = verify(path)
                assert code == 0, out
                assert st.call(lambda: st.actor("bac").journal.last_seq("bac")) > before
            message = sub.wait_for(lambda got: len(got) >= 1, timeout=30)[0]
        digest = json.loads(message.payload)
        assert set(digest) == {"v", "table", "at", "studio", "station", "seq", "hash"}
        assert (digest["table"], digest["studio"], digest["station"]) == ("bac", "test", "st")
        journal = Journal(path, read_only=True)
        assert journal.record_hash(digest["seq"]) == digest["hash"]
        last = journal.chain_head()
        journal.close()
        assert last is not None and last[0] > digest["seq"]  # it dealt on after the start
    finally:
        sub.close()

    # A late subscriber (the studio's archive) still gets it: retained.
    late = Subscriber(broker.port, "dealer-station/test/bac/journal/digest")
    try:
        (kept,) = late.wait_for(lambda got: len(got) >= 1, timeout=10)
        assert kept.retain and json.loads(kept.payload) == digest
    finally:
        late.close()

    published = tmp_path / "digests.jsonl"
    published.write_text(kept.payload.decode() + "\n")
    code, out = verify(path, "--digest", str(published))
    assert code == 0, out
    assert f"digest {digest['seq']}:{digest['hash']}" in out and "matches" in out

    # A record up to the digest's edited and every hash recomputed is caught by it.
    edited = digest["seq"]
    tamper(path, ("UPDATE journal SET at = '2020-01-01T00:00:00.000Z' WHERE seq = ?", (edited,)))
    rechain_from(path, edited)
    assert verify(path)[0] == 0
    code, out = verify(path, "--digest", str(published))
    assert code == 1, out
    assert "DIGEST MISMATCH" in out


def test_the_digest_goes_out_again_at_utc_midnight_with_the_new_head(
    broker: Broker, tmp_path: Path
) -> None:
    """The station's clock stands just before midnight and runs on: the start's
    digest, then at midnight a new one with the records journaled since. The
    tables' publishers are the station's own, on a real broker."""
    start = datetime(2026, 12, 1, 23, 59, 58, 500_000, tzinfo=UTC)
    began = time.monotonic()

    def clock() -> datetime:
        return start + timedelta(seconds=time.monotonic() - began)

    sub = Subscriber(broker.port, "dealer-station/test/+/journal/digest")
    config = config_for(
        '[[tables]]\nid = "rou"\ngame = "roulette"\n[[tables]]\nid = "bac"\ngame = "baccarat"\n',
        tmp_path / "journal.sqlite3",
        broker.port,
    )

    async def run() -> None:
        station = Station(config)
        for actor in station.actors.values():
            actor.recover()
        publishers = {
            tid: TablePublisher(actor, config.mqtt, station.journal, client_id=f"st-{tid}")
            for tid, actor in station.actors.items()
        }
        for publisher in publishers.values():
            publisher.start()
        digests = asyncio.create_task(
            publish_daily(station.journal, publishers, "test", "st", clock)
        )
        await asyncio.to_thread(sub.wait_for, lambda got: len(got) >= 2, 10)
        send(station.actors["rou"], "api", {"type": "round_open", "round": "after"})
        await asyncio.to_thread(sub.wait_for, lambda got: len(got) >= 4, 10)
        digests.cancel()
        for publisher in publishers.values():
            await publisher.close()
        station.journal.close()

    try:
        asyncio.run(run())
        got = [json.loads(m.payload) for m in sub.messages]
    finally:
        sub.close()
    first, second = got[:2], got[2:4]
    assert {d["table"] for d in first} == {d["table"] for d in second} == {"rou", "bac"}
    assert len({(d["seq"], d["hash"]) for d in first}) == 1  # one journal, one head
    assert len({(d["seq"], d["hash"]) for d in second}) == 1
    assert second[0]["seq"] == first[0]["seq"] + 1  # the round opened after the first
    assert first[0]["at"].startswith("2026-12-01T23:59:5")
    assert second[0]["at"].startswith("2026-12-02T00:00:0")
    journal = Journal(tmp_path / "journal.sqlite3", read_only=True)
    assert journal.record_hash(second[0]["seq"]) == second[0]["hash"]
    journal.close()
