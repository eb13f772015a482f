"""``dealer-station replay FILE`` or ``replay --db JOURNAL --table T``: apply
journaled events, print what they did."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from dealer_station.cli.journal import add_archives, add_selection, open_read_only


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="apply a file of JSON-line events and print each one's fate and every settlement",
        description="Apply JSON-line events in order (docs/events.md) and write JSON lines: each "
        "event accepted or rejected with its reason, then each round's settlement. "
        "Same input, same output, byte for byte. With --db, the events are a table's in the "
        "journal (read-only), as `journal export` writes them.",
    )
    parser.add_argument(
        "file", nargs="?", help="a JSON-lines file of events, or - for standard input"
    )
    parser.add_argument(
        "--db", type=Path, metavar="JOURNAL", help="replay a table straight from this journal"
    )
    parser.add_argument("--table", help="the table to replay (with --db)")
    add_selection(parser)
    add_archives(parser)
    parser.set_defaults(handler=run)


def _selected(
    lines: Iterable[tuple[str, bool]], outputs: Iterable[dict[str, Any]]
) -> Iterator[dict[str, Any]]:
    """The replay's records of the lines taken; a settlement goes with the line
    before it, the one that ended the round."""
    taken = [t for _, t in lines]
    last = False
    for record in outputs:
        line = record.get("line")
        if isinstance(line, int):
            last = taken[line - 1]
        if last:
            yield record


def run(args: argparse.Namespace) -> int:
    from dealer_station.games.replay import dumps, replay

    if args.db is None:
        if args.file is None or args.table or args.round or args.since or args.archive:
            print("dealer-station replay: give a FILE, or --db and --table", file=sys.stderr)
            return 2
        return _replay_file(args.file)
    if args.file is not None or args.table is None:
        print("dealer-station replay: --db needs --table and no FILE", file=sys.stderr)
        return 2
    from dealer_station.journal_export import Selection, lines

    journal = open_read_only(args.db, "replay", args.archive)
    if journal is None:
        return 2
    with contextlib.closing(journal), journal.one_instant():
        if args.table not in journal.tables():
            print(f"dealer-station replay: no table {args.table!r} in {args.db}", file=sys.stderr)
            return 2
        # The whole table is folded (a round's replay starts from the table as
        # every record before it left it); the selection picks what is printed.
        exported = list(lines(journal, args.table, Selection(args.round, args.since)))
    outputs = replay(line for line, _ in exported)
    for record in _selected(exported, outputs):
        sys.stdout.write(dumps(record) + "\n")
    return 0


def _replay_file(name: str) -> int:
    from dealer_station.games.replay import dumps, replay

    if name == "-":
        lines = sys.stdin
    else:
        try:
            lines = open(name, encoding="utf-8")  # noqa: SIM115 - closed at exit
        except OSError as exc:
            print(f"dealer-station replay: {exc}", file=sys.stderr)
            return 2
    # Rejected events are part of a journal's story (the station journals what
    # it refused), so they are output, not a failure of the replay.
    with lines:
        for record in replay(lines):
            sys.stdout.write(dumps(record) + "\n")
    return 0
