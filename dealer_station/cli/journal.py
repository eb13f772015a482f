"""``dealer-station journal verify|digest|export|backup|archive``: the journal
for a regulator, its backups and archives.

Every subcommand but ``archive`` opens the journal read-only (no lock, no
write): it works on a copy and beside a running station alike. ``archive``
deletes what it moved, as the journal's one writer (docs/journal.md).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dealer_station.journal import Journal
    from dealer_station.journal_chain import Digest

HEAD = re.compile(r"^(\d+):([0-9a-f]{64})$")
UTC_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "journal",
        help="verify the journal's hash chain, print its digest, export a table's events, "
        "back it up, archive it",
        description="Read a station's journal (read-only: safe while the station runs), back "
        "it up (read-only too), archive its settled past (the station stopped).",
    )
    commands = parser.add_subparsers(dest="journal_command", metavar="SUBCOMMAND", required=True)

    verify = commands.add_parser(
        "verify",
        help="recompute the hash chain and name the first record that does not match",
        description="Recompute the journal's hash chain (docs/journal.md). Exit 0 if it is whole "
        "(and matches every digest given), 1 if not, 2 on a usage error.",
    )
    verify.add_argument(
        "--db", required=True, type=Path, metavar="JOURNAL", help="the journal (SQLite file)"
    )
    given = verify.add_mutually_exclusive_group()
    given.add_argument(
        "--digest",
        type=Path,
        metavar="FILE",
        help="a file of published digests (JSON, one per line, as the journal/digest topic "
        "carries them): the journal up to each must be the one published",
    )
    given.add_argument("--head", metavar="SEQ:HASH", help="one published digest")
    add_archives(verify)
    verify.set_defaults(handler=run_verify)

    digest = commands.add_parser(
        "digest",
        help="print the chain head as the station publishes it (JSON)",
        description="Print the journal's chain head {seq, hash, at, studio, station} as JSON, "
        "the payload of the journal/digest topic.",
    )
    digest.add_argument("--db", required=True, type=Path, metavar="JOURNAL")
    digest.add_argument("--studio", default="", help="the studio's name, for the record")
    digest.add_argument("--station", default="", help="the station's name, for the record")
    digest.set_defaults(handler=run_digest)

    export = commands.add_parser(
        "export",
        help="write a table's events as the JSON lines `replay` reads",
        description="Write the table's game events, accepted and refused, as journaled and in "
        "order, one JSON line each: the input of `dealer-station replay`.",
    )
    export.add_argument("--db", required=True, type=Path, metavar="JOURNAL")
    export.add_argument("--table", required=True)
    add_selection(export)
    add_archives(export)
    export.set_defaults(handler=run_export)

    backup = commands.add_parser(
        "backup",
        help="copy the journal into a directory, checked, keeping the newest N copies",
        description="Copy the journal with SQLite's online backup (read-only, safe while the "
        "station runs), check the copy (PRAGMA integrity_check, the hash chain), rename it into "
        "DIR with the time in its name and remove all but the newest N backups. Exit 0 with "
        "the backup made, 1 if it could not be (disk full, the copy not whole), 2 on a usage "
        "error (no such file or directory, not a journal).",
    )
    _add_journal(backup)
    backup.add_argument("--to", required=True, type=Path, metavar="DIR", help="where backups go")
    backup.add_argument(
        "--keep", type=int, default=14, metavar="N", help="backups of the journal kept (14)"
    )
    backup.set_defaults(handler=run_backup)

    archive = commands.add_parser(
        "archive",
        help="move the rounds settled before a date into a sealed archive file",
        description="Move the records of the rounds settled or voided before DATE (whole "
        "rounds; what the next start reads stays) into FILE, a read-only SQLite file sealed "
        "with its chain's hashes, noted with its SHA-256 in the journal. Stop the station "
        "first: this writes the journal. Exit 0 archived, 1 nothing to archive or refused "
        "(the station runs), 2 on a usage error.",
    )
    _add_journal(archive)
    archive.add_argument(
        "--before", required=True, help="UTC date or time: records older than this may go"
    )
    archive.add_argument("--to", required=True, type=Path, metavar="FILE", help="the new archive")
    archive.set_defaults(handler=run_archive)


def _add_journal(parser: argparse.ArgumentParser) -> None:
    # --db as well, the name every other journal subcommand gives the file.
    parser.add_argument("--journal", "--db", dest="db", required=True, type=Path, metavar="JOURNAL")


def add_selection(parser: argparse.ArgumentParser) -> None:
    """--round or --since: the records of one round, or since a date."""
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--round", help="only the records of this round (its id)")
    which.add_argument(
        "--since", help="only the records at or after this UTC date or time (2026-12-01)"
    )


def add_archives(parser: argparse.ArgumentParser) -> None:
    """--archive FILE, repeated: the journal's archives, read before it as one."""
    parser.add_argument(
        "--archive",
        action="append",
        type=Path,
        default=[],
        metavar="FILE",
        help="an archive of the journal's first records (`journal archive`), oldest first; "
        "repeat for each",
    )


def open_read_only(
    path: Path, command: str, archives: Sequence[Path] | None = ()
) -> Journal | None:
    """The journal read-only, with its archives before it, or None having said
    why (a usage error: an archive missing or changed is one too). ``archives``
    None: the caller reads the archives itself (verify names what is wrong)."""
    import sqlite3

    from dealer_station.journal import Journal
    from dealer_station.journal_archive import mismatches

    if not path.is_file():
        print(f"dealer-station {command}: {path}: no such file", file=sys.stderr)
        return None
    try:
        journal = Journal(path, read_only=True)
        journal.tables()
        problems = [] if archives is None else mismatches(journal, archives)
        if archives and not problems:
            journal.read_with(archives)
            journal.tables()
    except sqlite3.DatabaseError as exc:
        print(f"dealer-station {command}: {path}: not a journal ({exc})", file=sys.stderr)
        return None
    if problems:
        for problem in problems:
            print(f"dealer-station {command}: {path}: {problem}", file=sys.stderr)
        journal.close()
        return None
    return journal


def _digests(args: argparse.Namespace) -> list[Digest] | None:
    from dealer_station.journal_chain import Digest

    if args.head is not None:
        match = HEAD.match(args.head)
        if match is None:
            print(
                "dealer-station journal verify: --head is SEQ:HASH (hex SHA-256)", file=sys.stderr
            )
            return None
        return [Digest(int(match[1]), match[2])]
    if args.digest is None:
        return []
    try:
        text = args.digest.read_text(encoding="utf-8")
        found = []
        for line in text.splitlines():
            if line.strip():
                obj = json.loads(line)
                found.append(Digest(int(obj["seq"]), str(obj["hash"]), str(obj.get("at", ""))))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"dealer-station journal verify: {args.digest}: {exc}", file=sys.stderr)
        return None
    if not found:
        print(f"dealer-station journal verify: {args.digest}: no digest in it", file=sys.stderr)
        return None
    return found


def run_verify(args: argparse.Namespace) -> int:
    from dealer_station.journal_archive import chain_start, mismatches, seals
    from dealer_station.journal_chain import Digest, walk

    digests = _digests(args)
    if digests is None:
        return 2
    journal = open_read_only(args.db, "journal verify", None)
    if journal is None:
        return 2
    out: list[str] = []
    whole = True
    with contextlib.closing(journal):
        if not journal.has_chain():
            print(
                f"journal {args.db}: NOT CHAINED: written before the hash chain; the station "
                "chains it at its next start (docs/journal.md, Migration)"
            )
            return 1
        noted = seals(journal)
        start = chain_start(journal)
        problems = mismatches(journal, args.archive) if args.archive else []
        if args.archive and not problems:
            journal.read_with(args.archive)
            start = None  # one chain from record 1, through the archives
            out.extend(f"archive {s.file}: records {s.first_seq} to {s.last_seq}" for s in noted)
        elif start is not None and not problems:
            out.append(
                f"records 1 to {start.seq} are archived ({', '.join(s.file for s in noted)}): "
                "not read; give --archive to verify them too"
            )
        for problem in problems:
            whole = False
            out.append(problem)
        sealed = [Digest(s.last_seq, s.head_hash) for s in noted if start is None]
        with journal.one_instant():
            found = walk(journal.rows(), [*digests, *sealed], start)
            migrations = journal.chain_migrations()
            orphans = journal.orphan_messages()
    for seal in sealed:
        if found.digests_seen.get(seal.seq, seal.hash) != seal.hash:
            whole = False
            out.append(f"ARCHIVE SEAL MISMATCH: record {seal.seq} is not the archive's head")
    if found.head is None and found.broken is None:
        out.append("the journal is empty")
    if found.broken is not None:
        whole = False
        out.append(f"BROKEN at record {found.broken.seq} ({found.broken.what}): {found.broken.why}")
        out.append(
            f"the chain holds from the start to record {found.head.seq if found.head else 0}"
        )
    elif found.head is not None:
        out.append(
            f"the chain holds: {found.records} records, head {found.head.seq}:{found.head.hash}"
        )
    for number, (first, last, at) in enumerate(migrations):
        text = (
            f"records {first} to {last} were chained at {at}, when the journal was opened by "
            "code that chains, not when they were written"
        )
        if number == 0 and first == 1:
            out.append(f"migration: {text} (the journal was written before the chain)")
        else:
            whole = False
            out.append(
                f"NOT CHAINED WHEN WRITTEN: {text}, after records that were: written by code "
                "that does not chain (a downgrade), or their hashes erased"
            )
    if orphans:
        whole = False
        listed = ", ".join(str(seq) for seq in orphans[:10])
        out.append(
            f"DELETED: the outbox holds messages of record(s) {listed}"
            f"{' and more' if len(orphans) > 10 else ''} that the journal no longer has"
        )
    for published in digests:
        when = f" (published {published.at})" if published.at else ""
        label = f"digest {published.seq}:{published.hash}{when}"
        seen = found.digests_seen.get(published.seq)
        if seen == published.hash:
            out.append(
                f"{label}: matches: the journal up to record {published.seq} is the one published"
            )
            continue
        whole = False
        if seen is not None:
            out.append(
                f"DIGEST MISMATCH: {label}: record {published.seq} has hash {seen}: the journal "
                f"up to record {published.seq} is not the one published (rewritten from some "
                "record on, its chain recomputed)"
            )
        elif found.broken is not None and published.seq >= found.broken.seq:
            out.append(f"{label}: cannot be checked: the chain breaks before it")
        elif start is not None and published.seq <= start.seq:
            out.append(f"{label}: cannot be checked: its record is archived (give --archive)")
        else:
            last = found.head.seq if found.head else 0
            out.append(
                f"DIGEST MISMATCH: {label}: the journal ends at record {last}, before the "
                "digest's record: records deleted from its end"
            )
    print(f"journal {args.db}: {'WHOLE' if whole else 'NOT WHOLE'}")
    for line in out:
        print(f"  {line}")
    return 0 if whole else 1


def run_digest(args: argparse.Namespace) -> int:
    from dealer_station.clock import utc_now
    from dealer_station.journal_digest import digest

    journal = open_read_only(args.db, "journal digest")
    if journal is None:
        return 2
    with contextlib.closing(journal):
        if not journal.has_chain():
            print(f"dealer-station journal digest: {args.db}: not chained yet", file=sys.stderr)
            return 1
        head = digest(journal, args.studio, args.station, "", utc_now())
    print(head.model_dump_json())
    return 0


def run_export(args: argparse.Namespace) -> int:
    from dealer_station.journal_export import Selection, lines

    journal = open_read_only(args.db, "journal export", args.archive)
    if journal is None:
        return 2
    with contextlib.closing(journal), journal.one_instant():
        if args.table not in journal.tables():
            print(
                f"dealer-station journal export: no table {args.table!r} in {args.db}",
                file=sys.stderr,
            )
            return 2
        for line, taken in lines(journal, args.table, Selection(args.round, args.since)):
            if taken:
                sys.stdout.write(line + "\n")
    return 0


def run_backup(args: argparse.Namespace) -> int:
    from dealer_station.journal_backup import BackupError, NoDirectory, NotAJournal, backup

    if args.keep < 1:
        print("dealer-station journal backup: --keep is 1 or more", file=sys.stderr)
        return 2
    try:
        made = backup(args.db, args.to, args.keep)
    except (NotAJournal, NoDirectory) as exc:
        print(f"dealer-station journal backup: {exc}", file=sys.stderr)
        return 2
    except BackupError as exc:
        print(f"dealer-station journal backup: FAILED: {exc}", file=sys.stderr)
        return 1
    head = f"record {made.head.seq} hash {made.head.hash}" if made.head else "no record yet"
    print(f"backup {made.path}: {made.records} records, {head}, integrity ok, chain whole")
    for old in made.removed:
        print(f"  removed {old} (keeping {args.keep})")
    return 0


def _is_utc_date(text: str) -> bool:
    from datetime import datetime

    if not UTC_DATE.match(text):
        return False
    try:
        datetime.fromisoformat(text)
    except ValueError:  # 2026-13-01
        return False
    return True


def run_archive(args: argparse.Namespace) -> int:
    from dealer_station.journal import JournalInUse
    from dealer_station.journal_archive import ArchiveError, archive

    if not args.db.is_file():
        print(f"dealer-station journal archive: {args.db}: no such file", file=sys.stderr)
        return 2
    if not _is_utc_date(args.before):
        # Compared with the records' `at` as text: anything else would archive nonsense.
        print(
            "dealer-station journal archive: --before is a UTC date or time: 2026-12-01, "
            f"2026-12-01T18:00 or 2026-12-01T18:00:00, not {args.before!r}",
            file=sys.stderr,
        )
        return 2
    try:
        seal = archive(args.db, args.before, args.to)
    except JournalInUse as exc:
        print(f"dealer-station journal archive: {exc}: stop the station first", file=sys.stderr)
        return 1
    except ArchiveError as exc:
        print(f"dealer-station journal archive: {exc}", file=sys.stderr)
        return 1
    print(
        f"archived records {seal.first_seq} to {seal.last_seq} into {args.to} "
        f"(head {seal.head_hash}, SHA-256 {seal.sha256})"
    )
    return 0
