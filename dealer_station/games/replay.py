"""Replaying journaled events: the same fold the station runs, on lines of text.

Each input line is one JSON event. Each output record says whether that event was
accepted (with what it caused) or rejected (with the reason); a round's
settlement follows the event that ended it. Same input, same output, byte for
byte: nothing here reads a clock or a random source.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from dealer_station.games import table
from dealer_station.games.engine import Output
from dealer_station.games.events import event_to_json, parse_event
from dealer_station.games.rejection import Rejected


def replay(lines: Iterable[str]) -> Iterator[Output]:
    state: table.TableState | None = None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            yield {"line": number, "status": "rejected", "reason": "bad_json", "detail": str(exc)}
            continue
        try:
            event = parse_event(obj)
            state, outputs = table.apply(state, event)
        except Rejected as rejected:
            yield {
                "line": number,
                "status": "rejected",
                "reason": rejected.reason,
                "detail": rejected.detail,
                "event": obj,
            }
            continue
        settled = [o for o in outputs if o["type"] == "round_settled"]
        record: Output = {"line": number, "status": "accepted", "event": event_to_json(event)}
        caused = [o for o in outputs if o["type"] != "round_settled"]
        if caused:
            record["outputs"] = caused
        yield record
        yield from settled


def dumps(record: Output) -> str:
    """One output line, written the same way every time."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))
