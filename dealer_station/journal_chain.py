"""The journal's hash chain: what makes an edited, inserted, deleted or moved
record visible (docs/journal.md, "The hash chain").

Pure: bytes in, hashes and verdicts out; the journal reads and writes the rows.
Each record's hash is ``SHA-256(previous hash || canonical bytes)``, where the
canonical bytes are every column of the record as stored and every outbox
message written in its transaction, so that what was published is as provable
as what was journaled. One chain per journal file, over every table, in seq
order; the first record's previous hash is ``GENESIS``.

The encoding is a length-prefixed one rather than JSON, so that another
implementation can reproduce it without copying a JSON library's escaping:

    value   := 0x00                                   NULL
             | 0x01 <8-byte big-endian signed>         INTEGER
             | 0x02 <4-byte big-endian length> <UTF-8>  TEXT
    record  := value(seq) value(table_id) value(at) value(source) value(by)
               value(why) value(kind) value(body) value(status) value(reason)
               value(detail) <4-byte big-endian count> message*
    message := value(table_id) value(msg_seq) value(topic) value(payload)

Messages go in ``msg_seq`` order. Columns are hashed as SQLite holds them (the
body is the stored JSON text, never re-encoded).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

GENESIS = bytes(32)

Value = int | str | None
# seq, table_id, at, source, by, why, kind, body, status, reason, detail
Columns = tuple[Value, ...]
# table_id, msg_seq, topic, payload
Message = tuple[Value, ...]

COLUMNS = (
    "seq",
    "table_id",
    "at",
    "source",
    "by",
    "why",
    "kind",
    "body",
    "status",
    "reason",
    "detail",
)
MESSAGE_COLUMNS = ("table_id", "msg_seq", "topic", "payload")


class NotCanonical(ValueError):
    """A column holds a value the journal never writes (a REAL, a BLOB)."""


_INTEGER = struct.Struct(">q").pack
_LENGTH = struct.Struct(">I").pack


def _value(value: object) -> bytes:
    # The exact class, not isinstance: a bool is no integer the journal writes.
    if value.__class__ is str:
        text = value.encode("utf-8")
        return b"\x02" + _LENGTH(len(text)) + text
    if value is None:
        return b"\x00"
    if value.__class__ is int:
        return b"\x01" + _INTEGER(value)
    raise NotCanonical(f"a {type(value).__name__} where the journal writes text or integers")


def canonical(columns: Columns, messages: Sequence[Message]) -> bytes:
    """The bytes of one record and its messages that its hash covers."""
    if len(columns) != len(COLUMNS):
        raise NotCanonical(f"{len(columns)} columns, not {len(COLUMNS)}")
    parts = [_value(v) for v in columns]
    parts.append(_LENGTH(len(messages)))
    parts.extend([_value(v) for message in messages for v in message])
    return b"".join(parts)


def as_previous(stored: str) -> bytes:
    """What a stored hash is as the previous hash of the next record. A text
    that is no hash at all (written by hand) stands for its own SHA-256, so that
    the writer goes on from it (a start always completes); verify names it."""
    if _is_hex(stored):
        return bytes.fromhex(stored)
    return hashlib.sha256(stored.encode("utf-8", "replace")).digest()


def link(previous: bytes, columns: Columns, messages: Sequence[Message]) -> bytes:
    """The hash of a record whose predecessor's hash is ``previous``."""
    return hashlib.sha256(previous + canonical(columns, messages)).digest()


@dataclass(frozen=True, slots=True)
class Row:
    """One record as the journal holds it: columns, messages, stored hash (hex)."""

    columns: Columns
    messages: tuple[Message, ...]
    hash: str | None

    @property
    def seq(self) -> int:
        seq = self.columns[0]
        assert isinstance(seq, int)
        return seq

    def at_seq(self, seq: int) -> Row:
        """The same record as if it had been written at ``seq``."""
        return replace(self, columns=(seq, *self.columns[1:]))


@dataclass(frozen=True, slots=True)
class Digest:
    """A published chain head: the hash of record ``seq`` at ``at``."""

    seq: int
    hash: str
    at: str = ""


@dataclass(frozen=True, slots=True)
class Break:
    """The first record that does not match, and what the chain can tell of why."""

    seq: int
    what: str  # edited | inserted | deleted | reordered | unchained | broken
    why: str


@dataclass(frozen=True, slots=True)
class Walk:
    """What a walk over the chain found: how far it held, and its first break."""

    records: int
    head: Digest | None  # the last record that chains (its stored hash)
    broken: Break | None
    # Each published digest found in the chain as it was walked, by seq.
    digests_seen: dict[int, str]


def _hex(digest: bytes) -> str:
    return digest.hex()


def _hashes(previous: bytes, row: Row) -> str | None:
    try:
        return _hex(link(previous, row.columns, row.messages))
    except NotCanonical:
        return None


def _diagnose(previous: bytes, row: Row, after: Row | None) -> Break:
    """Why ``row`` does not follow ``previous``, told apart by trying the
    explanations that leave a trace: its successor written at its place
    (inserted or reordered), its successor still chaining from its stored
    hash (edited)."""
    seq = row.seq
    if after is not None and after.hash is not None:
        moved = _hashes(previous, after.at_seq(seq))
        if moved is not None and moved in (after.hash, row.hash):
            back = _hashes(bytes.fromhex(moved), row.at_seq(after.seq))
            if back is not None and back in (row.hash, after.hash):
                return Break(
                    seq,
                    "reordered",
                    f"records {seq} and {after.seq} are in each other's place: each gives the "
                    "hash written for the other's position",
                )
            return Break(
                seq,
                "inserted",
                f"record {seq} was not written there: the record now at {after.seq} is the one "
                f"written as {seq}, so a record was inserted before it and the rest renumbered",
            )
        if row.hash is not None and _is_hex(row.hash):
            onward = _hashes(bytes.fromhex(row.hash), after)
            if onward == after.hash:
                return Break(
                    seq,
                    "edited",
                    f"record {seq} does not give the hash written with it and the next record "
                    f"still follows that hash: record {seq} (its columns or its outbox "
                    f"messages) was changed after it was written, or record {seq - 1} was "
                    "changed and given a new hash",
                )
    if row.hash is None:
        return Break(
            seq,
            "unchained",
            f"record {seq} has no hash: not written by the station (inserted by hand), or "
            "its hash erased",
        )
    if after is None:
        return Break(
            seq,
            "edited",
            f"record {seq}, the last, does not give the hash written with it: edited, or "
            "appended by something other than the station",
        )
    return Break(
        seq,
        "broken",
        f"record {seq} does not follow record {seq - 1}: records rewritten with their "
        "hashes, or a record deleted and the rest renumbered",
    )


def _is_hex(text: str) -> bool:
    try:
        return len(bytes.fromhex(text)) == 32
    except ValueError:
        return False


def walk(rows: Iterable[Row], digests: Sequence[Digest] = (), start: Digest | None = None) -> Walk:
    """Recompute the chain over ``rows`` (in seq order) and stop at the first
    record that does not match. ``start``: the record before the first row and
    its hash, where the journal's start was archived (journal_archive)."""
    wanted = {d.seq for d in digests}
    # An empty journal's digest (record 0) is the genesis hash.
    seen: dict[int, str] = {0: GENESIS.hex()} if 0 in wanted else {}
    previous, previous_seq, count = GENESIS, 0, 0
    if start is not None:
        previous, previous_seq = bytes.fromhex(start.hash), start.seq
    head: Digest | None = None
    it: Iterator[Row] = iter(rows)
    row = next(it, None)
    while row is not None:
        after = next(it, None)
        seq = row.seq
        if seq != previous_seq + 1:
            missing = (
                f"record {previous_seq + 1}"
                if seq == previous_seq + 2
                else f"records {previous_seq + 1} to {seq - 1}"
            )
            return Walk(
                count,
                head,
                Break(
                    previous_seq + 1,
                    "deleted",
                    f"{missing} missing: seqs go from {previous_seq or 'the start'} to {seq} "
                    "(the station numbers its records without gaps)",
                ),
                seen,
            )
        if row.hash is None or _hashes(previous, row) != row.hash:
            return Walk(count, head, _diagnose(previous, row, after), seen)
        count += 1
        previous, previous_seq = bytes.fromhex(row.hash), seq
        head = Digest(seq, row.hash)
        if seq in wanted:
            seen[seq] = row.hash
        row = after
    return Walk(count, head, None, seen)
