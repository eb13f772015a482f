"""Game recall: rounds read back from the journal.

A round is found by its ``round_opened`` message in the outbox; its story is
every journal record from the input that opened it to the one that settled it
(cards, decisions, refusals, device notes, who did what and why), and every
round event published for it. Queries run in a worker thread on their own
read-only connection: a long recall never holds up the loop the tables run on.
The threads are a fixed few, started with the app: a flood of recalls waits
for them rather than starting more, each with a malloc arena that stays.
SQLite in WAL mode lets that reader run beside the station's one writer.

While a round is in play, its recall shows of each input's card only what
that input's published events showed (dealer_station/visibility.py): the hole
card's record says a card was dealt face down, for every role, until the round
ends; its value is in the events once ``hole_card_revealed`` is.

Round ids are unique per table by construction unless a game server chose one
twice or the table's counter restarted with a new variant; then the latest
round of that id is the one shown.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from dealer_station import visibility
from dealer_station.api.bodies import (
    EventPage,
    JournalEntry,
    RoundHistory,
    RoundList,
    RoundSummary,
)
from dealer_station.payloads import RoundEvent
from dealer_station.thread_pools import FixedThreads

# Recalls at once; more wait. Two: one long recall does not hold up the rest.
READERS = 2

# The exact type is checked with json_extract; instr() is a cheap first cut.
_OF_TYPE = "instr(payload, ?) > 0 AND json_extract(payload, '$.type') = ?"


@contextmanager
def _reader(path: Path) -> Iterator[sqlite3.Connection]:
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        yield db
    finally:
        db.close()


def _type_args(kind: str) -> tuple[str, str]:
    return (f'"type":"{kind}"', kind)


def _opening_of(db: sqlite3.Connection, table: str, round_id: str) -> Any:
    """The latest ``round_opened`` of that round id, or None: how a round is found."""
    return db.execute(
        f"SELECT msg_seq, journal_seq, payload FROM outbox WHERE table_id = ? AND {_OF_TYPE}"
        " AND json_extract(payload, '$.round') = ? ORDER BY msg_seq DESC LIMIT 1",
        (table, *_type_args("round_opened"), round_id),
    ).fetchone()


def _end_of(db: sqlite3.Connection, table: str, round_id: str, after: int) -> Any:
    return db.execute(
        "SELECT msg_seq, journal_seq, payload FROM outbox WHERE table_id = ? AND msg_seq > ?"
        f" AND {_OF_TYPE} AND json_extract(payload, '$.round') = ? ORDER BY msg_seq LIMIT 1",
        (table, after, *_type_args("round_settled"), round_id),
    ).fetchone()


def _summary(opened: dict[str, Any], settled: dict[str, Any] | None) -> RoundSummary:
    data = settled["data"] if settled else None
    status = "open" if data is None else "void" if data.get("voided") else "settled"
    return RoundSummary(
        round=opened["round"],
        opened_at=opened["at"],
        status=status,
        settled_at=settled["at"] if settled else None,
        settlement=data,
    )


def list_rounds(path: Path, table: str, limit: int, before: int | None) -> RoundList:
    with _reader(path) as db:
        rows = db.execute(
            f"SELECT msg_seq, payload FROM outbox WHERE table_id = ? AND msg_seq < ?"
            f" AND {_OF_TYPE} ORDER BY msg_seq DESC LIMIT ?",
            (table, before if before is not None else 2**62, *_type_args("round_opened"), limit),
        ).fetchall()
        rounds = []
        for msg_seq, payload in rows:
            opened = json.loads(payload)
            end = _end_of(db, table, opened["round"], msg_seq)
            rounds.append(_summary(opened, json.loads(end[2]) if end else None))
    more = len(rows) == limit
    return RoundList(rounds=rounds, before=rows[-1][0] if more else None)


def round_history(path: Path, table: str, round_id: str) -> RoundHistory | None:
    with _reader(path) as db:
        start = _opening_of(db, table, round_id)
        if start is None:
            return None
        first_msg, first_seq, payload = start
        end = _end_of(db, table, round_id, first_msg)
        last_msg, last_seq = (end[0], end[1]) if end else (2**62, 2**62)
        records = db.execute(
            "SELECT seq, at, source, kind, body, status, reason, detail, by, why FROM journal"
            " WHERE table_id = ? AND seq BETWEEN ? AND ? ORDER BY seq",
            (table, first_seq, last_seq),
        ).fetchall()
        events = db.execute(
            "SELECT journal_seq, payload FROM outbox WHERE table_id = ? AND msg_seq BETWEEN ? AND ?"
            " AND json_extract(payload, '$.round') = ? ORDER BY msg_seq",
            (table, first_msg, last_msg, round_id),
        ).fetchall()
    summary = _summary(json.loads(payload), json.loads(end[2]) if end else None)
    published: dict[int, list[dict[str, Any]]] = {}
    for journal_seq, event in events:
        published.setdefault(journal_seq, []).append(json.loads(event)["data"])
    inputs = []
    for seq, at, source, kind, body, status, reason, detail, by, why in records:
        shown, words = json.loads(body), detail
        if end is None:
            shown, words = _as_published(shown, detail, published.get(seq, []))
        inputs.append(
            JournalEntry(
                seq=seq,
                at=at,
                source=source,
                kind=kind,
                body=shown,
                status=status,
                reason=reason,
                detail=words,
                by=by,
                why=why,
            )
        )
    return RoundHistory(
        **summary.model_dump(),
        table=table,
        inputs=inputs,
        events=[RoundEvent.model_validate_json(row[1]) for row in events],
    )


def _as_published(
    body: dict[str, Any], detail: str | None, published: list[dict[str, Any]]
) -> tuple[dict[str, Any], str | None]:
    """An input of a round in play (and its refusal's words), showing its card
    only if one of the events it published carried it: a face-down card, a
    hidden burn or a withheld refusal stays a card without a value."""
    card = body.get("card")
    if card is None:
        return body, detail
    shown = any(
        data.get("card") == card or (data.get("event") or {}).get("card") == card
        for data in published
    )
    if shown:
        return body, detail
    faces = [d.get("face") or (d.get("event") or {}).get("face") for d in published]
    face = next((f for f in faces if f in visibility.WITHHELD), "down")
    hidden, words = visibility.public_refusal(body, detail or "", face)
    return hidden, words if detail is not None else None


def events_after(path: Path, table: str, after: int, limit: int) -> EventPage:
    with _reader(path) as db:
        rows = db.execute(
            "SELECT payload FROM outbox WHERE table_id = ? AND msg_seq > ?"
            " ORDER BY msg_seq LIMIT ?",
            (table, after, limit),
        ).fetchall()
    events = [RoundEvent.model_validate_json(row[0]) for row in rows]
    return EventPage(events=events, after=events[-1].seq if len(events) == limit else None)


def round_exists(path: Path, table: str, round_id: str) -> bool:
    with _reader(path) as db:
        return _opening_of(db, table, round_id) is not None


def current_round_start(path: Path, table: str) -> int:
    """The msg_seq of the table's last ``round_opened`` (0 when none): where the
    live feed starts replaying the round in play."""
    with _reader(path) as db:
        row = db.execute(
            f"SELECT msg_seq FROM outbox WHERE table_id = ? AND {_OF_TYPE}"
            " ORDER BY msg_seq DESC LIMIT 1",
            (table, *_type_args("round_opened")),
        ).fetchone()
    return int(row[0]) if row else 0


class History:
    """The queries above, each on one of ``READERS`` threads of its own."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.threads = FixedThreads(READERS, "history")

    def close(self) -> None:
        self.threads.close()

    async def rounds(self, table: str, limit: int, before: int | None) -> RoundList:
        return await self.threads.run(list_rounds, self.path, table, limit, before)

    async def round(self, table: str, round_id: str) -> RoundHistory | None:
        return await self.threads.run(round_history, self.path, table, round_id)

    async def events(self, table: str, after: int, limit: int) -> EventPage:
        return await self.threads.run(events_after, self.path, table, after, limit)

    async def exists(self, table: str, round_id: str) -> bool:
        return await self.threads.run(round_exists, self.path, table, round_id)
