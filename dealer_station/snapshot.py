"""A table as it stood after one journal record, so that a start need not
replay months of journal (docs/recovery.md).

A snapshot is a cache of the fold, never the truth: the journal keeps every
record, ``replay`` reads them all, and a start that cannot use the snapshot
replays the whole journal as before. Its *format* names the code that wrote it:
a hash of the rules' source and variant files, and of the table's own rule file
when its config names one. A snapshot written by other code (an upgrade, an
edited rule file) is not read, because a pickled round of another version of the
engine could mean something else; the start replays everything and the table
writes a new one.

Pickle, because the state is a tree of the rules' frozen dataclasses: the
journal's directory is the station's own, and whoever can write there can already
rewrite the journal itself.
"""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal

from dealer_station.games.engine import Output
from dealer_station.games.table import TableState


@dataclass(frozen=True)
class TableSnapshot:
    state: TableState
    # What the statistics fold in: the settled rounds of the shoe, the spins.
    settled: tuple[Output, ...]
    stats_at: str
    # Each device's availability and since when, as the device records leave it.
    devices: dict[str, tuple[Literal["online", "offline"], str]]


@cache
def _rules_digest() -> str:
    digest = hashlib.sha256()
    games = resources.files("dealer_station.games")
    files = [f for f in games.iterdir() if f.name.endswith(".py")]
    files += [f for f in (games / "variants").iterdir() if f.name.endswith(".toml")]
    for item in sorted(files, key=lambda f: f.name):
        digest.update(item.name.encode())
        digest.update(item.read_bytes())
    return digest.hexdigest()


def code_format(variant: str | None) -> str:
    """The format a table's snapshot has under this code and its rule files."""
    digest = hashlib.sha256(_rules_digest().encode())
    if variant is not None and Path(variant).suffix == ".toml" and Path(variant).exists():
        digest.update(Path(variant).read_bytes())
    return f"pickle{pickle.HIGHEST_PROTOCOL}:{digest.hexdigest()[:32]}"


def dumps(snapshot: TableSnapshot) -> bytes:
    return pickle.dumps(snapshot, protocol=pickle.HIGHEST_PROTOCOL)


def loads(blob: bytes) -> TableSnapshot:
    snapshot = pickle.loads(blob)
    if not isinstance(snapshot, TableSnapshot):
        raise TypeError(f"a snapshot holds {type(snapshot).__name__}, not a TableSnapshot")
    return snapshot
