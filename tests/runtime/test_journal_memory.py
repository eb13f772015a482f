"""The journal's writer keeps a small page cache, however long the journal
grows (issue 19 part 6, docs/memory.md): SQLite's default of 2,000 KiB filled
over the demo's first half hour and was held for good. Counted in the bytes
malloc has handed out (glibc's ``mallinfo2``, every arena), never RSS."""

from __future__ import annotations

import ctypes
from pathlib import Path

from dealer_station.journal import WRITER_CACHE_KIB, Journal, OutMessage, Record

# A body of some 3 KB: each record and its message take pages of their own.
BODY = {"type": "note", "text": "x" * 3000}


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd",
            "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost",
        )
    ]  # fmt: skip


def in_use() -> int:
    """Bytes malloc has handed out and not had back, over all arenas."""
    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = _MallInfo2
    info: _MallInfo2 = libc.mallinfo2()
    return int(info.uordblks) + int(info.hblkhd)


def append(journal: Journal, records: int, first: int) -> None:
    for seq in range(first, first + records):
        record = Record("t", "2026-12-05T00:00:00Z", "api", "event", BODY, "accepted")
        journal.append(record, [OutMessage("t", seq, "p/s/t/round/event", str(BODY))])


def test_the_writer_keeps_a_small_page_cache_however_long_the_journal(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    try:
        append(journal, 100, 1)  # its statements prepared, its first pages read
        before = in_use()
        append(journal, 1500, 101)  # some 9 MB of records and messages
        grown = in_use() - before
    finally:
        journal.close()
    assert grown < 2 * WRITER_CACHE_KIB * 1024, f"{grown / 1024:.0f} KiB more in use"
