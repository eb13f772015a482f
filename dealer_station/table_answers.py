"""A client's idempotency key and the answer kept for it (docs/api.md): a
retry within the retention window gets the first answer, and nothing is
applied twice. Looked up in the table's one writer, so a retry queued behind
the first request finds that request's answer."""

from __future__ import annotations

from datetime import datetime, timedelta

from dealer_station.clock import iso
from dealer_station.journal import Answer, Journal
from dealer_station.preconditions import RETENTION_SECONDS, IdempotencyKey
from dealer_station.table_inputs import Outcome


def known_answer(
    journal: Journal, table: str, key: IdempotencyKey, now: datetime
) -> Outcome | None:
    """The first answer to a client's key, within the retention window; a
    refusal if the key named another request."""
    since = iso(now - timedelta(seconds=RETENTION_SECONDS))
    known = journal.answer(table, key.principal, key.key, since)
    if known is None:
        return None
    if known.fingerprint != key.fingerprint:
        return Outcome(
            False,
            known.journal_seq,
            "idempotency_key_reused",
            f"key {key.key!r} named another request (journal record {known.journal_seq})",
            replayed=True,
        )
    return Outcome.from_answer(known)


def answer_to_keep(key: IdempotencyKey, outcome: Outcome) -> Answer:
    return Answer(key.principal, key.key, key.fingerprint, outcome.to_answer())


def forget_old_answers(journal: Journal, table: str, now: datetime) -> None:
    """Keys are kept for the retention window: forgotten at each start and with
    each snapshot, off any input's path."""
    journal.forget_answers(table, iso(now - timedelta(seconds=RETENTION_SECONDS)))
