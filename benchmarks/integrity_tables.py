"""Journals and tables for the integrity benchmarks (and the CLI's test).

``write_journal`` plays rounds with the self-driving table (a shuffled shoe,
random bets, basic strategy: dealer_station/autoplay.py) through the rules
engine, and journals each input as the station does: one record, and beside it
in the same transaction the round events it caused as RoundEvent payloads
(dealer_station/table_messages.py). The records' times advance one second per
input from ``start``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from dealer_station.autoplay import Autoplay
from dealer_station.clock import iso
from dealer_station.games import table
from dealer_station.games.events import event_to_json
from dealer_station.games.rejection import Rejected
from dealer_station.journal import Journal, OutMessage, Record
from dealer_station.payloads import Topics
from dealer_station.table_messages import round_event

START = datetime.fromisoformat("2026-12-01T00:00:00+00:00")


def write_journal(
    path: Path,
    game: str,
    records: int,
    *,
    seed: int = 1,
    table_id: str | None = None,
    fast: bool = False,
) -> int:
    """Journal about ``records`` inputs of one self-driving table; returns the
    rounds settled. ``fast`` writes without an fsync per record (a benchmark's
    journal of a million records, not a station's)."""
    table_id = table_id or f"{game}-1"
    topic = Topics("dealer-station", "bench", table_id).event
    auto = Autoplay(game, seed=seed, table=table_id)
    state: table.TableState | None = None
    journal = Journal(path)
    if fast:
        # A benchmark's shortcut into the journal: no fsync per record.
        journal._db.execute("PRAGMA synchronous=OFF")
    msg_seq = journal.last_msg_seq(table_id)
    settled = 0
    at = START
    try:
        for _ in range(records):
            event = auto.next_event(state)
            body = event_to_json(event)
            source = "shoe" if body["type"] in ("card", "burn") else "croupier"
            at += timedelta(seconds=1)
            try:
                state, outputs = table.apply(state, event)
            except Rejected as refused:
                record = Record(
                    table_id,
                    iso(at),
                    source,
                    "event",
                    body,
                    "rejected",
                    refused.reason,
                    refused.detail,
                )
                journal.append(record, [])
                continue
            round_id = state.round.round_id if state is not None and state.round else None
            messages: list[OutMessage] = []
            for output in outputs:
                msg_seq += 1
                data = {k: v for k, v in output.items() if k != "type"}
                messages.append(
                    round_event(
                        studio="bench",
                        table=table_id,
                        topic=topic,
                        msg_seq=msg_seq,
                        kind=str(output["type"]),
                        data=data,
                        source=source,
                        round_id=round_id,
                        at=at,
                    )
                )
                settled += output["type"] == "round_settled"
            journal.append(Record(table_id, iso(at), source, "event", body, "accepted"), messages)
    finally:
        journal.close()
    return settled
