"""The integrity monitor, live: one watch per table (docs/integrity.md "Live").

A ``follow``-stage listener feeds the table's `Monitor` from each
`TableChange`: its records by journal seq, its round events (who deals, the
settlements) by message seq. At the station's start the table's stored journal is
fed first, read with a read-only `Journal` in a worker thread while the table
already runs (a table's 333,000 records take about 3 s, a million of a
station's tables 8 s, benchmarks/integrity_watch.py: the loop must not wait on
them); the changes that arrive meanwhile wait in a list and are fed after it,
those the history already held passed over by their seqs. So a record fed
twice (history, then live) counts once, and a restart keeps the counts.

A report is one look. The watch looks at its checkpoints only: once the
history is read (the start), at a shoe's end, at every ``spins_between_reports``
th spin of a roulette table (its history's spins counted), and at the first
record of a new UTC day. A finding in alarm at a look that was not in alarm at
the look before becomes the table's alarm (``integrity_<test>``), once; it is
raised again only after a look at which it was not in alarm. A start knows the
alarms raised before it from the journal's ``integrity`` alarm records.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from dealer_station.clock import iso
from dealer_station.integrity.findings import Verdict
from dealer_station.integrity.monitor import Monitor, Report
from dealer_station.integrity.observations import (
    Observation,
    ShoeEnd,
    Spin,
    event_of_payload,
    observe,
    of_round_events,
)
from dealer_station.integrity_journal import MARKS, records, round_events
from dealer_station.journal import Journal, Record
from dealer_station.payloads import INTEGRITY, Integrity, IntegrityFinding
from dealer_station.table_change import TableChange
from dealer_station.table_inputs import Alarm

if TYPE_CHECKING:
    from dealer_station.actor import TableActor
    from dealer_station.mqtt_publisher import TablePublisher

log = logging.getLogger(__name__)

Checkpoint = Literal["start", "shoe", "spins", "day"]
SOURCE = "integrity"
# A shoe's end that is a checkpoint (a shoe removed and put back goes on).
_SHOE_ENDS = ("shuffle", "new_shoe", "table", "empty")
# How often the watch looks at the broker link: a report the broker has not
# taken yet is offered again, a new connection given the last one.
RETRY_S = 1.0


def alarm_code(test: str) -> str:
    return "integrity_" + test.replace(".", "_")


def public_words(verdict: Verdict, level: float) -> str:
    """A finding's words for the studio (MQTT, the table's alarm): a check of
    the shoe's composition names its cards, one of which may still lie face
    down (a burnt card, a hole card when a shoe is removed mid-round): there
    it says how many, and the pit boss's page says which."""
    f = verdict.finding
    if not f.exact or not verdict.alarm:
        return verdict.words(level)
    return (
        f"ALARM: {f.subject}: the cards out of the shoe and the cards left do not make "
        f"its decks ({f.statistic:g} card(s) wrong). Stop, check the shoe, the tray and "
        "the cards; the pit boss's integrity page names them"
    )


@dataclass
class History:
    """What the stored journal held for a table when the watch started."""

    monitor: Monitor
    seq: int = 0  # the last record fed
    day: str = ""  # the UTC day of the last record read
    spins: int = 0
    msg_seq: int = 0  # the last settlement fed
    # The integrity alarms journaled: (code, message).
    alarms: list[tuple[str, str]] = field(default_factory=list)


def read_history(path: Path, table: str) -> History:
    """Feed a new monitor the table's journal as ``dealer-station integrity``
    does, up to the last record when it starts (read in a worker thread: its
    own read-only connection, and a bound, so that records and settlements
    are read as of the same moment)."""
    history = History(Monitor())
    journal = Journal(path, read_only=True)
    try:
        upto = journal.last_seq(table)
        caused = round_events(journal, table)
        for seq, messages in caused.items():
            if seq <= upto:
                history.msg_seq = max(history.msg_seq, messages[-1][0])
        for r in records(journal, table):
            if r.seq > upto:
                break
            history.day = r.at[:10]
            if _ours(r):
                history.alarms.append((str(r.body.get("code")), str(r.body.get("message"))))
                continue
            events = [e for _, e in caused.get(r.seq, ())]
            observed = observe(r.table, r.at, r.source, r.kind, r.status, r.reason, r.body, events)
            history.monitor.feed_all(observed)
            history.spins += sum(isinstance(o, Spin) for o in observed)
        history.seq = upto
        # The game's exact odds, cached since, are worked out here, off the
        # loop, not at the table's first look: blackjack's bust chances (60 ms,
        # benchmarks/integrity_watch.py) as its tally was made, the rest by the
        # first report of the process.
        history.monitor.report(0.01)
    finally:
        journal.close()
    return history


def _ours(r: Record) -> bool:
    return r.kind == "alarm" and r.source == SOURCE


@dataclass
class IntegrityWatch:
    actor: TableActor
    journal_path: Path
    level: float
    spins_between_reports: int
    monitor: Monitor = field(default_factory=Monitor)
    report: Report | None = None
    checkpoint: Checkpoint | None = None
    # The last record and settlement fed: what is at or below is not fed again.
    seq: int = 0
    msg_seq: int = 0
    # The findings in alarm at the last look, by (code, subject).
    raised: set[tuple[str, str]] = field(default_factory=set)
    # Changes that came while the history was read; None once it is.
    _waiting: list[TableChange] | None = field(default_factory=list)
    _journaled: list[tuple[str, str]] = field(default_factory=list)
    _spins: int = 0
    _day: str = ""
    _due: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def table(self) -> str:
        return self.actor.id

    def subscribe(self) -> None:
        self.actor.listeners.subscribe("follow", self.on_change)

    async def run(self, publisher: TablePublisher) -> None:
        """The history first, then each report to the broker, forever."""
        try:
            await self.catch_up()
        except Exception:  # the table goes on; its watch counts from now on
            log.exception(
                "table %s: the journal's history could not be read",
                self.table,
                extra=self.actor.log_fields(),
            )
            waiting, self._waiting = self._waiting or [], None
            for change in waiting:
                self._feed(change)
        await self.keep_published(publisher)

    async def catch_up(self) -> None:
        """Read the history off the loop, then feed what came meanwhile and
        take the start's look."""
        history = await asyncio.to_thread(read_history, self.journal_path, self.table)
        self.monitor = history.monitor
        self.seq, self.msg_seq = history.seq, history.msg_seq
        self._journaled = history.alarms
        self._day = history.day
        self._spins = history.spins
        waiting, self._waiting = self._waiting or [], None
        for change in waiting:
            self._feed(change)
        self.look("start")

    def on_change(self, change: TableChange) -> None:
        if self._waiting is not None:
            self._waiting.append(change)
            return
        due = self._feed(change)
        if due is not None:
            self.look(due)

    def _feed(self, change: TableChange) -> Checkpoint | None:
        """Feed what is new in the change; the checkpoint it reaches, if any."""
        due: Checkpoint | None = None
        at = iso(change.at)
        for r in change.records:
            if r.seq <= self.seq:
                continue
            self.seq = r.seq
            at = r.at
            if r.at[:10] != self._day:
                if self._day:
                    due = "day"
                self._day = r.at[:10]
            if _ours(r):
                continue
            due = self._count(
                observe(r.table, r.at, r.source, r.kind, r.status, r.reason, r.body, ()), due
            )
        events = []
        for m in change.messages:
            if m.msg_seq > self.msg_seq and any(mark in m.payload for mark in MARKS):
                self.msg_seq = m.msg_seq
                events.append(event_of_payload(json.loads(m.payload)))
        if events:
            due = self._count(of_round_events(self.table, at, events), due)
        return due

    def _count(self, observed: Iterable[Observation], due: Checkpoint | None) -> Checkpoint | None:
        for o in observed:
            self.monitor.feed(o)
            if isinstance(o, Spin):
                # The table's spins, its history's included: a restart keeps the rhythm.
                self._spins += 1
                if self._spins % self.spins_between_reports == 0:
                    due = due or "spins"
            elif isinstance(o, ShoeEnd) and o.why in _SHOE_ENDS:
                due = "shoe"
        return due

    def look(self, checkpoint: Checkpoint) -> None:
        """One look: the report, its new alarms raised, its topic due."""
        report = self.monitor.report(self.level)
        self.report, self.checkpoint = report, checkpoint
        now: dict[tuple[str, str], Verdict] = {
            (alarm_code(v.finding.test), v.finding.subject): v for v in report.alarms
        }
        for key, verdict in now.items():
            if key in self.raised or self._raised_before(*key):
                continue
            words = public_words(verdict, self.level)
            log.warning("table %s: %s", self.table, words, extra=self.actor.log_fields())
            self.actor.submit(Alarm(key[0], words, SOURCE))
        self.raised = set(now)
        self._journaled = []  # a start's memory serves its first look only
        self._due.set()

    def _raised_before(self, code: str, subject: str) -> bool:
        return any(c == code and subject in m for c, m in self._journaled)

    def payload(self) -> Integrity | None:
        report = self.report
        if report is None or self.checkpoint is None:
            return None
        state = self.actor.state
        return Integrity(
            table=self.table,
            at=iso(self.actor.clock()),
            game=state.game if state is not None else "",
            variant=state.setup.variant if state is not None else None,
            checkpoint=self.checkpoint,
            records=self.seq,
            level=self.level,
            alarms=len(report.alarms),
            findings=[
                IntegrityFinding(
                    test=v.finding.test,
                    subject=v.finding.subject,
                    sample=v.finding.sample,
                    statistic=v.finding.statistic,
                    p_value=v.finding.p_value,
                    adjusted=v.adjusted,
                    alarm=v.alarm,
                    words=public_words(v, self.level),
                )
                for v in current(report)
            ],
            not_run=sorted({s.test for t in report.tables for s in t.skipped if not s.why}),
        )

    async def keep_published(self, publisher: TablePublisher) -> None:
        """Send each report, retained, once the broker link can take it, and
        again on each new connection: a broker restarted without its disk has
        forgotten it, and the publisher re-sends only the table's own topics."""
        connects = 0
        me = asyncio.current_task()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._due.wait(), RETRY_S)
            if me is not None and me.cancelling():
                # Python 3.11's wait_for returns the wait's result when a cancel
                # meets a report falling due in the same turn: the stop would be
                # lost, and the station would never end (gh-86296).
                raise asyncio.CancelledError
            up = publisher.connected
            if up and publisher.connects != connects:
                connects = publisher.connects
                if self.report is not None:
                    self._due.set()
            payload = self.payload() if up and self._due.is_set() else None
            topic = publisher.topics.full(INTEGRITY)
            if payload is not None and (
                publisher.link.publish(topic, payload.model_dump_json(), retain=True) is not None
            ):
                self._due.clear()
            elif self._due.is_set():
                # Due and not sent (the broker away): the set event would wake
                # this loop at once, round and round, starving the table's loop.
                await asyncio.sleep(RETRY_S)


def current(report: Report) -> list[Verdict]:
    """What a channel shows of a report: every alarm, and each test's latest
    finding per table (a table's report keeps every shoe and every day it saw;
    the latest is the one in question, the alarms the ones to act on)."""
    out: list[Verdict] = []
    for t in report.tables:
        latest: dict[tuple[str, str], Verdict] = {}
        for v in t.verdicts:
            subject = v.finding.subject
            # A day's hold and a shoe's tests name their day or shoe; a dealer's
            # signature is a test of its own subject.
            kind = subject if ", dealer " in subject else ""
            latest[(v.finding.test, kind)] = v
        keep = set(map(id, latest.values()))
        out += [v for v in t.verdicts if v.alarm or id(v) in keep]
    return out
