"""``dealer-station replay FILE``: apply journaled events, print what they did."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="apply a file of JSON-line events and print each one's fate and every settlement",
        description="Apply JSON-line events in order (docs/events.md) and write JSON lines: each "
        "event accepted or rejected with its reason, then each round's settlement. "
        "Same input, same output, byte for byte.",
    )
    parser.add_argument("file", help="a JSON-lines file of events, or - for standard input")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dealer_station.games.replay import dumps, replay

    if args.file == "-":
        lines = sys.stdin
    else:
        try:
            lines = open(args.file, encoding="utf-8")  # noqa: SIM115 - closed at exit
        except OSError as exc:
            print(f"dealer-station replay: {exc}", file=sys.stderr)
            return 2
    # Rejected events are part of a journal's story (the station journals what
    # it refused), so they are output, not a failure of the replay.
    with lines:
        for record in replay(lines):
            sys.stdout.write(dumps(record) + "\n")
    return 0
