"""A running station's journal verifies while it is written (read-only, no
lock), and the station publishes its chain head, retained, on each table's
``journal/digest`` topic: the digest a studio keeps elsewhere, against which a
later verify proves the journal up to it was not rewritten."""

from __future__ import annotations

import json
from pathlib import Path

from support.broker import Broker, Subscriber
from support.chained_journal import rechain_from, tamper, verify
from support.dealing import dealt_baccarat
from support.station import StationThread

from dealer_station.journal import Journal


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
            (message,) = sub.wait_for(lambda got: len(got) >= 1, timeout=30)
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
