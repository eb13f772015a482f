"""A journal two tables played into through their actors (the station's own
code), the tampering an attacker with write access to its file can do (plain
SQL on the file, as `sqlite3` would), and the verify command run as a
subprocess, as a regulator runs it."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from dealer_station import journal_chain
from dealer_station.actor import TableActor
from dealer_station.config import TableConfig
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.table_inputs import Command

# Player 9C 8H = 7 stands; banker 2D 3S = 5 draws KD, 5: the player wins
# (docs/rules.md, baccarat: "Player draws a third card on 0-5, stands on 6-7";
# "If Player stood, Banker draws on 0-5"), and a player bet pays 1:1.
PLAYER_WINS = ("9C", "2D", "8H", "3S", "KD")


@dataclass(frozen=True)
class Played:
    path: Path
    # The record of the last card of each baccarat round: the one whose
    # messages carry the round's settlement, its payouts.
    settling: tuple[int, ...]
    last_seq: int


def table(journal: Journal, table_id: str, game: str) -> TableActor:
    config = TableConfig.model_validate({"id": table_id, "game": game})
    actor = TableActor(config, "test", journal, Topics("p", "test", table_id))
    actor.recover()
    return actor


def send(actor: TableActor, source: str, *events: dict[str, object]) -> int:
    """Send accepted inputs; the last one's record."""
    for event in events:
        outcome = actor.handle(Command(source, event))
        assert outcome is not None and outcome.accepted, outcome
    return actor.journal.last_seq(actor.id)


def play_baccarat_round(actor: TableActor, round_id: str) -> int:
    send(
        actor,
        "api",
        {"type": "round_open", "round": round_id},
        {"type": "bet", "player": "ann", "spot": "player", "amount": "100"},
        {"type": "bets_closed"},
    )
    return send(actor, "shoe", *({"type": "card", "card": c} for c in PLAYER_WINS))


def play_roulette_round(actor: TableActor, round_id: str, number: int) -> int:
    send(
        actor,
        "api",
        {"type": "round_open", "round": round_id},
        {"type": "bet", "player": "bob", "spot": "red", "amount": "10"},
        {"type": "bets_closed"},
    )
    return send(actor, "camera", {"type": "wheel_result", "number": number})


def played(path: Path, rounds: int = 4) -> Played:
    """Two tables, their rounds interleaved, one journal: one chain over both."""
    journal = Journal(path)
    bac, rou = table(journal, "bac", "baccarat"), table(journal, "rou", "roulette")
    settling = []
    for i in range(rounds):
        settling.append(play_baccarat_round(bac, f"b{i}"))
        play_roulette_round(rou, f"r{i}", 17 + i)
    last = journal.chain_head()
    journal.close()
    assert last is not None
    return Played(path, tuple(settling), last[0])


def verify(path: Path, *extra: str) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "dealer_station", "journal", "verify", "--db", str(path), *extra],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout + done.stderr


def tamper(path: Path, *statements: tuple[str, tuple[object, ...]]) -> None:
    """Plain SQL on the file, with no station running: what someone with the
    file can do."""
    db = sqlite3.connect(path)
    with db:
        for statement, args in statements:
            db.execute(statement, args)
    db.close()


def rechain_from(path: Path, seq: int) -> None:
    """Recompute every hash from record ``seq`` on with the published
    algorithm: the careful forger's last step, which verify alone cannot tell."""
    reader = Journal(path, read_only=True)
    previous = bytes.fromhex(reader.record_hash(seq - 1) or "") if seq > 1 else bytes(32)
    updates = []
    for row in reader.rows(after=seq - 1):
        previous = journal_chain.link(previous, row.columns, row.messages)
        updates.append((previous.hex(), row.seq))
    reader.close()
    db = sqlite3.connect(path)
    with db:
        db.executemany("UPDATE journal SET hash = ? WHERE seq = ?", updates)
    db.close()
