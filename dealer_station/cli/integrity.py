"""``dealer-station integrity --db JOURNAL``: the integrity monitor over a
stored journal, for the compliance team (docs/integrity.md).

Read-only: the journal is opened without the writer's lock, so it runs beside
a running station. Exit status: 0 no alarm, 1 at least one alarm, 2 the
journal could not be read.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dealer_station.integrity.findings import Verdict
    from dealer_station.integrity.monitor import Report


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "integrity",
        help="run the integrity monitor's tests over a journal: wheel, shoe, outcomes, hold",
        description="Feed every record of a journal (and the settlements journaled with them) "
        "to the integrity monitor and print its findings: alarms first, in words a pit boss "
        "can act on. Exit status 1 when there is an alarm.",
    )
    parser.add_argument("--db", type=Path, required=True, help="the journal (SQLite) to read")
    parser.add_argument("--table", action="append", help="only this table (may be repeated)")
    parser.add_argument(
        "--since", help="only records from this UTC date or time on (2026-12-01, ISO 8601)"
    )
    parser.add_argument(
        "--level",
        type=float,
        default=0.01,
        help="the significance level (the config's [integrity] level; default 0.01)",
    )
    parser.add_argument("--json", action="store_true", help="the report as one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from dealer_station.integrity.monitor import Monitor
    from dealer_station.integrity.observations import observe
    from dealer_station.integrity_journal import records, round_events
    from dealer_station.journal import Journal

    if not 0 < args.level < 0.5:
        print("dealer-station integrity: --level must be above 0 and below 0.5", file=sys.stderr)
        return 2
    if not args.db.is_file():
        print(f"dealer-station integrity: no journal at {args.db}", file=sys.stderr)
        return 2
    monitor = Monitor()
    since = args.since or ""
    try:
        journal = Journal(args.db, read_only=True)
        try:
            for table in args.table or journal.tables():
                caused = round_events(journal, table)
                for r in records(journal, table):
                    if r.at < since:
                        continue
                    events = [e for _, e in caused.get(r.seq, ())]
                    monitor.feed_all(
                        observe(r.table, r.at, r.source, r.kind, r.status, r.reason, r.body, events)
                    )
        finally:
            journal.close()
    except sqlite3.Error as exc:
        print(f"dealer-station integrity: cannot read {args.db}: {exc}", file=sys.stderr)
        return 2
    report = monitor.report(args.level)
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
    else:
        _print(report)
    return 1 if report.alarms else 0


def _print(report: Report) -> None:
    level = report.level
    print(
        f"Integrity report: {len(report.alarms)} alarm(s) at the {level:g} level "
        "(Bonferroni over each table's tests)"
    )
    for t in report.tables:
        print(f"\n== {t.table}: {t.game} {t.variant or ''}".rstrip())
        if t.problem:
            print(f"   {t.problem}")
        for v in t.alarms:
            print(f" - {v.words(level)}")
        # The rest, one line a test: the full words are in --json.
        quiet: dict[str, list[Verdict]] = {}
        for v in t.verdicts:
            if not v.alarm:
                quiet.setdefault(v.finding.test, []).append(v)
        for test, found in sorted(quiet.items()):
            if len(found) == 1:
                print(f"   ok: {found[0].words(level)}")
            else:
                least = min(v.adjusted for v in found)
                print(f"   ok: {test}: {len(found)} findings, the lowest corrected p {least:.3g}")
        for s in t.skipped:
            if s.why:
                print(f"   not tested: {s.test} for {s.subject}: {s.why}")
            else:
                print(
                    f"   not run: {s.test} for {s.subject}: {s.sample} of the {s.minimum} it needs"
                )
