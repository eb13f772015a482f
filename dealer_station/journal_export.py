"""A table's game events out of the journal, as the JSON lines ``replay`` reads
(docs/journal.md, "For the compliance team").

Every event record of the table, accepted or refused, in journal order, its
body as journaled. Device and alarm records are not inputs of the rules and are
left out; so are the records a start wrote for an input it set aside (kind
``replay``): the input they name is exported, and the rules refuse it again.

A selection (one round, or the records since a date) is a slice of those lines.
Which round a record belongs to is the fold's to say (a round's id may be the
table's count of rounds), so the slice is found by folding the table from its
first event: the same fold, the same ids as the station.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass

from dealer_station.games import table as table_fold
from dealer_station.games.events import parse_event
from dealer_station.journal import Journal


@dataclass(frozen=True, slots=True)
class Selection:
    """Which of a table's events: all, one round's, or those since a time."""

    round: str | None = None
    since: str | None = None  # ISO date or time, UTC, compared with the record's `at`

    def everything(self) -> bool:
        return self.round is None and self.since is None


def _round_of(state: table_fold.TableState | None) -> str | None:
    """The id of the table's round, in play or last settled."""
    if state is None or state.round is None:
        return None
    return str(state.round.round_id)


def lines(
    journal: Journal, table: str, selection: Selection | None = None
) -> Iterator[tuple[str, bool]]:
    """Each event of the table as one JSON line, and whether the selection
    takes it. A record of round R is any from the one that opened R to the one
    that settled or voided it, refused ones included."""
    selection = selection or Selection()
    state: table_fold.TableState | None = None
    for record in journal.records(table, kind="event"):
        line = json.dumps(record.body, ensure_ascii=False, separators=(",", ":"))
        if selection.everything():
            yield line, True
            continue
        last = _round_of(state)
        in_play = last if state is not None and not state.round_over else None
        # What the rules refuse leaves the table as it was (the station's fold,
        # table_recovery, passes over it the same way).
        with contextlib.suppress(Exception):
            state, _ = table_fold.apply(state, parse_event(record.body))
        now = _round_of(state)
        taken = True
        if selection.round is not None:
            opened = now == selection.round and last != selection.round
            taken = in_play == selection.round or opened
        if selection.since is not None:
            taken = taken and record.at >= selection.since
        yield line, taken
