"""A stored journal as the integrity monitor reads it: its records, and beside
each the round events it caused that tell the monitor something (who deals the
round that opened, each settlement), for ``dealer-station integrity`` and for
the station's watch reading a table's history (``integrity_watch``)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from dealer_station.integrity.observations import event_of_payload
from dealer_station.journal import Journal, Record

# Inputs the monitor learns nothing from, passed over unparsed (a million
# records' bets) unless they settled a round.
UNREAD_INPUTS = ("bet", "bet_cancel", "bets_closed", "hold", "hold_release")
# The round events it reads, as their payloads name them.
ROUND_EVENTS = ("round_opened", "round_settled")
MARKS = tuple(f'"type":"{kind}"' for kind in ROUND_EVENTS)


def round_events(
    journal: Journal, table: str
) -> dict[int, list[tuple[int, Mapping[str, Any]]]]:
    """The table's round events the monitor reads, by the journal seq of the
    record that caused them: each its message seq and its data, in message order."""
    caused: dict[int, list[tuple[int, Mapping[str, Any]]]] = {}
    for kind in ROUND_EVENTS:
        for seq, payload in journal.messages_of_type(table, kind):
            message = json.loads(payload)
            caused.setdefault(seq, []).append((int(message["seq"]), event_of_payload(message)))
    for events in caused.values():
        events.sort(key=lambda m: m[0])
    return caused


def records(journal: Journal, table: str) -> Iterator[Record]:
    """The table's records in order, but the inputs the monitor does not read."""
    return journal.records_but(table, UNREAD_INPUTS, "round_settled")
