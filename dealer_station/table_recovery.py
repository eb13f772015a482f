"""How a table is rebuilt at a start: its snapshot, then the journal after it.

The journal is the truth (docs/recovery.md): the table's state is the fold of
the rules over its accepted events. The replay is total, so a start always
completes: an accepted record that the rules now refuse is journaled as refused
on replay (and passed over by every later start), any other failure of one
record is logged, and the table's actor raises an alarm naming what it set aside.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from dealer_station import journal_chain, snapshot
from dealer_station.games import table as table_fold
from dealer_station.games.events import parse_event
from dealer_station.games.rejection import Rejected
from dealer_station.journal import REFUSED_ON_REPLAY, Journal, Record
from dealer_station.logging_setup import about
from dealer_station.operator_advice import journal_changed
from dealer_station.payloads import DEVICES, DeviceState
from dealer_station.round_outputs import RoundOutput, parse_outputs

log = logging.getLogger(__name__)

KNOWN_STATES = ("online", "offline")


def event_type(record: Record) -> str:
    """What a journaled event was, even when its body is no event at all."""
    body: object = record.body
    kind = body.get("type") if isinstance(body, dict) else None
    return kind if isinstance(kind, str) else "?"


def load_snapshot(
    journal: Journal, table: str, format_: str
) -> tuple[int, snapshot.TableSnapshot | None, str | None]:
    """The table's snapshot and the record it folds in, if this code wrote it
    and that record still has the hash the snapshot was taken at; else (0,
    None): replay the whole journal. Third, when the hash does not hold, the
    words of the alarm: the journal up to that record is not the one the table
    was built from."""
    saved = journal.snapshot(table)
    if saved is None:
        return 0, None, None
    seq, written_as, blob = saved
    if written_as != format_:
        log.info(
            "table %s: the snapshot is from other code: replaying the journal",
            table,
            extra=about(table),
        )
        return 0, None, None
    taken_at = journal.snapshot_hash(table)
    if not _still_holds(journal, seq, taken_at):
        log.error(
            "table %s: the snapshot folds in record %d at hash %s, which the journal no longer"
            " gives: the journal was changed; replaying all of it",
            table,
            seq,
            taken_at,
            extra=about(table),
        )
        return 0, None, journal_changed(seq)
    try:
        return seq, snapshot.loads(blob), None
    except Exception:  # a cache: whatever is wrong with it, the journal holds the truth
        log.exception(
            "table %s: unreadable snapshot: replaying the journal", table, extra=about(table)
        )
        return 0, None, None


def _still_holds(journal: Journal, seq: int, taken_at: str | None) -> bool:
    """Whether record ``seq`` still has the hash the snapshot was taken at, and
    its columns and messages, after its predecessor's hash, still give it."""
    if taken_at is None or journal.record_hash(seq) != taken_at:
        return False
    before = journal.record_hash(seq - 1) if seq > 1 else journal_chain.GENESIS.hex()
    rows = list(journal.rows(after=seq - 1, limit=1))
    if before is None or not rows or rows[0].seq != seq:
        return False
    row = rows[0]
    try:
        given = journal_chain.link(journal_chain.as_previous(before), row.columns, row.messages)
    except journal_chain.NotCanonical:  # a column holds what the station never writes
        return False
    return given.hex() == taken_at


@dataclass
class Replay:
    """What the journal after a snapshot folds into."""

    state: table_fold.TableState | None
    # Each accepted event's outputs, in order: what the statistics fold in.
    outputs: list[tuple[RoundOutput, ...]] = field(default_factory=list)
    refused: list[tuple[Record, Rejected]] = field(default_factory=list)
    failed: list[Record] = field(default_factory=list)
    # Events read, set aside or not: they count toward the next snapshot.
    read: int = 0
    devices: dict[str, tuple[DeviceState, str]] = field(default_factory=dict)


def unwatched() -> None:
    """A replay nobody follows."""


def replay(
    journal: Journal,
    table: str,
    after: int,
    state: table_fold.TableState | None,
    progress: Callable[[], None] = unwatched,
) -> Replay:
    """Fold the table's accepted events after record ``after`` into ``state``;
    ``progress`` is called for each event read (`start_progress`)."""
    done = Replay(state)
    set_aside = journal.refused_on_replay(table)
    for record in journal.records(table, kind="event", after=after):
        done.read += 1
        progress()
        if record.status != "accepted" or record.seq in set_aside:
            continue
        try:
            done.state, outputs = table_fold.apply(done.state, parse_event(record.body))
        except Rejected as rejected:
            done.refused.append((record, rejected))
            continue
        except Exception:  # one bad record must not keep the table down
            log.exception(
                "table %s: record %d could not be replayed",
                table,
                record.seq,
                extra=about(table),
            )
            done.failed.append(record)
            continue
        done.outputs.append(parse_outputs(outputs))
    for record in journal.records(table, kind="device", after=after):
        body = record.body
        if body.get("device") in DEVICES and body.get("state") in KNOWN_STATES:
            done.devices[body["device"]] = (body["state"], record.at)
    return done


def set_aside(
    journal: Journal, table: str, done: Replay, at: str
) -> list[tuple[int, str, str, str]]:
    """Journal each refused record as refused on replay; every record the start
    could not apply as (record, event type, source, reason), in journal order.
    Records, sources and reasons, never a card: a face-down card's value stays
    in the journal."""
    for record, rejected in done.refused:
        log.warning(
            "table %s: record %d (%s from %s) refused on replay: %s %s",
            table,
            record.seq,
            event_type(record),
            record.source,
            rejected.reason,
            rejected.detail,
            extra=about(table),
        )
        body = {"refers_to": record.seq, "event": record.body}
        refusal = Record(
            table,
            at,
            "station",
            REFUSED_ON_REPLAY,
            body,
            "refused",
            rejected.reason,
            rejected.detail,
        )
        journal.append(refusal, [])
    problems = [(record, rejected.reason) for record, rejected in done.refused]
    problems += [(record, "replay_error") for record in done.failed]
    problems.sort(key=lambda p: p[0].seq)
    return [(r.seq, event_type(r), r.source, reason) for r, reason in problems]
