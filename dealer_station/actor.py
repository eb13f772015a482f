"""One table's actor: the single writer of its state.

One asyncio task per table consumes one input queue: shoe events, wheel results,
commands from the console and the game server, and its own timers. Each input is
journaled (accepted, or rejected with the reason) before anything about it is
published; the table's state is ``fold(apply, journal)``, so a restart replays
the journal and the table is where it was (docs/recovery.md). What an input did
reaches the table's listeners as one `TableChange`, in the order
``table_change`` states. What each kind of input writes (its record, its round
events and alarms) is ``table_writes``'s; the actor commits it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from dealer_station import snapshot, strategy_advice, table_writes
from dealer_station.boot import new_boot_id
from dealer_station.clock import Clock, iso, utc_now
from dealer_station.config import SNAPSHOT_EVERY, BurnCards, TableConfig
from dealer_station.games import table as table_fold
from dealer_station.games.events import (
    Event,
    OpenTable,
    SelectTable,
    VoidRound,
)
from dealer_station.input_identity import InputIdentity
from dealer_station.journal import Answer, Journal, OutMessage, Record
from dealer_station.logging_setup import about
from dealer_station.operator_advice import replay_refused
from dealer_station.payloads import DeviceState, Topics
from dealer_station.preconditions import IdempotencyKey, Precondition
from dealer_station.table_alarms import TableAlarms
from dealer_station.table_answers import forget_old_answers, known_answer
from dealer_station.table_change import Listeners, TableChange
from dealer_station.table_inputs import Alarm, Command, DeviceChange, Outcome
from dealer_station.table_recovery import load_snapshot, replay, set_aside, unwatched
from dealer_station.table_snapshots import SnapshotSchedule
from dealer_station.table_stats import TableStats
from dealer_station.table_timers import StepTimer

log = logging.getLogger(__name__)

# Why a table the station closed for its stop opens at its next start.
REOPEN_REASON = "station started"


@dataclass
class TableActor:
    config: TableConfig
    studio: str
    journal: Journal
    topics: Topics
    clock: Clock = utc_now
    queue: asyncio.Queue[Command | DeviceChange | Alarm] = field(default_factory=asyncio.Queue)
    listeners: Listeners = field(default_factory=Listeners)
    snapshot_every: int = SNAPSHOT_EVERY
    burn_cards: BurnCards = "hidden"
    # The station's boot id, on the table's device availability (a table alone,
    # as in a test, is a boot of its own).
    boot: str = field(default_factory=new_boot_id)
    state: table_fold.TableState | None = field(init=False, default=None)
    msg_seq: int = field(init=False, default=0)
    # Each device's availability and since when.
    devices: dict[str, tuple[DeviceState, str]] = field(init=False, default_factory=dict)
    alarms: TableAlarms = field(init=False, default_factory=TableAlarms)
    last_result: str | None = field(init=False, default=None)
    stats: TableStats = field(init=False)
    timer: StepTimer = field(init=False)
    changed_at: datetime = field(init=False, default_factory=utc_now)
    # When the table took its opening state (`TableState.opening`): the time of
    # the record that set it, or for a table never closed the actor's start.
    opening_since: str = field(init=False, default_factory=lambda: iso(utc_now()))
    # The table as it stands after its last change: what every channel shows.
    latest: TableChange = field(init=False)
    # The record the last start's snapshot folded in (0: the start replayed all).
    recovered_from: int = field(init=False, default=0)
    # False until `recover` has rebuilt the table: until then it is not ready (/readyz).
    recovered: bool = field(init=False, default=False)
    snapshots: SnapshotSchedule = field(init=False)
    _snapshot_format: str = field(init=False, default="", repr=False)
    # What the input in hand has journaled so far: its change.
    _records: list[Record] = field(init=False, default_factory=list, repr=False)
    _messages: list[OutMessage] = field(init=False, default_factory=list, repr=False)
    # Only while the table's task waits on its empty queue (``_idle``) and no input
    # is in hand (``_in_hand``: `handle` runs) is an input taken at once (`submit`).
    _idle: bool = field(init=False, default=False, repr=False)
    _in_hand: bool = field(init=False, default=False, repr=False)
    # A reload's config for the table, waiting for the round in play to end.
    _next_config: TableConfig | None = field(init=False, default=None, repr=False)

    def __post_init__(self) -> None:
        self.stats = TableStats(self.id)
        self.timer = StepTimer(
            self.config.timers, self.clock, lambda event: self.submit(Command("timer", event))
        )
        self.snapshots = SnapshotSchedule(self.save_snapshot, self.snapshot_every)
        self.latest = self._change()

    @property
    def id(self) -> str:
        return self.config.id

    def log_fields(self) -> dict[str, str]:
        """``extra=`` for a log record about this table: its id, and the round in play."""
        in_play = self.state is not None and not self.state.round_over
        return about(self.id, self.state.round.round_id if self.state and in_play else None)

    # -- start: the journal is the truth ------------------------------------------------

    def recover(self, progress: Callable[[], None] = unwatched) -> None:
        """Rebuild the table from its snapshot and the journal after it (or the
        whole journal), then apply the recovery procedure to a round that was in
        play. Total (``table_recovery``): a start always completes, and a pit
        boss is told what it could not apply. ``progress`` is called for each
        record read (`start_progress`). A replay of a snapshot's worth of records
        or more ends with a snapshot, so that a start that follows soon (a crash,
        a kill by systemd) does not replay them again."""
        self.msg_seq = self.journal.last_msg_seq(self.id)
        self.forget_old_answers()
        self._snapshot_format = snapshot.code_format(self.config.variant)
        self.recovered_from, taken, changed = load_snapshot(
            self.journal, self.id, self._snapshot_format
        )
        if taken is not None:
            self.state = taken.state
            self.stats.restore(taken.settled, taken.stats_at)
            self.devices = dict(taken.devices)
        done = replay(self.journal, self.id, self.recovered_from, self.state, progress)
        self.snapshots.since += done.read
        for outputs in done.outputs:
            self.stats.remember(outputs, self.changed_at)
        self.devices.update(done.devices)
        self.last_result = self.journal.last_message(self.id, "round_settled")
        since = self.journal.last_message(self.id, table_fold.OPENING_CHANGED)
        if since is not None:
            self.opening_since = json.loads(since)["at"]
        self.state = state = done.state
        self.latest = self._change()
        log.info(
            "table %s rebuilt from %s and %d records after it",
            self.id,
            f"the snapshot at record {self.recovered_from}" if self.recovered_from else "nothing",
            done.read,
            extra=self.log_fields(),
        )
        if state is not None and not state.round_over:
            if self.config.recovery == "void":
                self.handle(Command("station", VoidRound("station restarted: round voided")))
            else:
                log.info(
                    "table %s resumes round %s",
                    self.id,
                    state.round.round_id,
                    extra=self.log_fields(),
                )
        wanted = SelectTable(self.config.game, self.config.variant, self.id)
        if self.state is None:
            self.handle(Command("station", wanted))
        elif self.state.round_over:
            # The config names another game or variant than the journal ran last.
            variant = table_fold.GAMES[wanted.game](wanted.variant, None).variant
            if (self.state.game, self.state.setup.variant) != (wanted.game, variant):
                self.handle(Command("station", wanted))
        opening = None if self.state is None else self.state.opening
        if opening is not None and opening.pit_boss is None and opening.state != "open":
            # Closed by the station for its stop: open again at its start. A
            # table a pit boss closed stays closed (docs/decisions.md).
            self.handle(Command("station", OpenTable(reason=REOPEN_REASON)))
        # Last, so that the void of an interrupted round does not clear the alarm.
        problems = set_aside(self.journal, self.id, done, iso(self.clock()))
        if problems:
            self.handle(Alarm("replay_refused", replay_refused(problems), "station"))
        if changed is not None:
            self.handle(Alarm("journal_changed", changed, "station"))
        if done.read >= self.snapshot_every:
            # Now, not on the schedule's delay: the table may not live that long.
            self.snapshots.cancel()
            self.save_snapshot()
            log.info(
                "table %s: snapshot taken after replaying %d records",
                self.id,
                done.read,
                extra=self.log_fields(),
            )
        self.recovered = True

    def save_snapshot(self) -> None:
        """Store the table as it stands after its last journaled record."""
        if self.state is None:
            return
        taken = snapshot.TableSnapshot(
            self.state, self.stats.settled_json(), self.stats.at, dict(self.devices)
        )
        seq = self.journal.last_seq(self.id)
        self.journal.save_snapshot(self.id, seq, self._snapshot_format, snapshot.dumps(taken))
        self.snapshots.taken()
        self.forget_old_answers()

    def forget_old_answers(self) -> None:
        forget_old_answers(self.journal, self.id, self.clock())

    def reconfigure(self, config: TableConfig) -> None:
        """A reload's config for this table, which differs from the running one
        in its timers only (``config_reload``): taken between rounds, so a round
        is timed by one config from its start to its end. Its timers time the
        steps the table waits at from then on."""
        self._next_config = config
        self._take_next_config()
        # The file read now is taken: an earlier one's refusal asks nothing more.
        if self.alarms.resolved("config_reload_refused"):
            self.latest = self._change()
            self.listeners.notify(self.latest)

    def _take_next_config(self) -> None:
        if self._next_config is None or not (self.state is None or self.state.round_over):
            return
        self.config, self._next_config = self._next_config, None
        self.timer.timers = self.config.timers
        log.info("table %s: reloaded config taken", self.id, extra=self.log_fields())

    # -- the loop -------------------------------------------------------------------------

    async def run(self) -> None:
        """Consume the queue forever; ``recover()`` first."""
        rules = strategy_advice.blackjack_rules(self.state)
        if rules is not None and strategy_advice.needs_strategy(rules):
            await strategy_advice.ready(rules)  # at hand before the first decision
        self.timer.arm(self.state)
        self.latest = self._change()
        self.listeners.notify(self.latest)
        self.snapshots.consider()
        try:
            while True:
                self._idle = True
                try:
                    item = await self.queue.get()
                finally:
                    self._idle = False
                self._take(item)
        finally:
            # The station closes the journal once the tables have stopped.
            self._idle = False
            self.snapshots.cancel()

    def _take(self, item: Command | DeviceChange | Alarm) -> None:
        try:
            self.handle(item)
        except Exception:  # a bug must not stop the table: log it and go on
            self._in_hand = False
            # Its kind and source, not the item: it may hold a face-down card.
            source = item.source if isinstance(item, Command | Alarm) else item.device
            kind = type(item).__name__
            log.exception(
                "table %s failed to handle a %s from %s",
                self.id,
                kind,
                source,
                extra=self.log_fields(),
            )
            if isinstance(item, Command | Alarm) and item.reply and not item.reply.done():
                item.reply.set_exception(RuntimeError("internal error"))

    def submit(self, item: Command | DeviceChange | Alarm, *, at_once: bool = False) -> None:
        """Queue ``item``; with ``at_once``, from a callback on the table's loop,
        handle it now if the table's task waits on its empty queue. Then no
        input is ahead of it, queued or taken (the task handles what it takes
        without yielding), so the order is the queue's, and a card does not
        wait a turn of the loop for the task to wake. An input sent while it is
        handled (a listener's) is queued behind it."""
        if at_once and self._idle and not self._in_hand and self.queue.empty():
            self._take(item)
        else:
            self.queue.put_nowait(item)

    async def command(
        self,
        source: str,
        event: Event | dict[str, Any],
        by: str | None = None,
        why: str | None = None,
        identity: InputIdentity | None = None,
        expect: Precondition | None = None,
        key: IdempotencyKey | None = None,
    ) -> Outcome:
        """Journal and apply one input; the outcome says accepted or why not."""
        loop = asyncio.get_running_loop()
        reply: asyncio.Future[Outcome] = loop.create_future()
        self.submit(Command(source, event, by, why, reply, identity, expect, key))
        return await reply

    def handle(self, item: Command | DeviceChange | Alarm) -> Outcome | None:
        """Journal and apply one input, then tell the listeners and the sender,
        in the order ``table_change`` states."""
        if (
            isinstance(item, Command)
            and isinstance(item.reply, concurrent.futures.Future)
            and not item.reply.set_running_or_notify_cancel()
        ):
            # Withdrawn by a device thread that stopped waiting (the shoe bridge):
            # its device sends the input again, and it must be journaled once.
            return None
        self._in_hand = True
        now = self.clock()
        self.changed_at = now
        outcome: Outcome | None = None
        if isinstance(item, Command) and item.key is not None:
            # Looked up here, in the table's one writer: a retry queued behind
            # the first request finds its answer.
            outcome = self.known_answer(item.key, now)
            if outcome is not None:
                if item.reply is not None and not item.reply.done():
                    item.reply.set_result(outcome)
                self._in_hand = False
                return outcome
        self._records.clear()
        self._messages.clear()
        if isinstance(item, DeviceChange):
            table_writes.device(self, item, now)
        elif isinstance(item, Alarm):
            outcome = table_writes.alarm(self, item, now)
        else:
            outcome = table_writes.command(self, item, now)
        self._take_next_config()
        self.timer.arm(self.state)
        read_at = item.read_at if isinstance(item, Command) else None
        self.latest = self._change(tuple(self._records), tuple(self._messages), read_at)
        # The listeners first: a device thread woken by the reply would take the
        # interpreter lock from the publisher about to send the round events.
        self.listeners.notify(self.latest)
        reply = item.reply if isinstance(item, Command | Alarm) else None
        if reply is not None and not reply.done():
            assert outcome is not None
            reply.set_result(outcome)
        self.snapshots.count()
        self._in_hand = False
        return outcome

    def _change(
        self,
        records: tuple[Record, ...] = (),
        messages: tuple[OutMessage, ...] = (),
        read_at: float | None = None,
    ) -> TableChange:
        return TableChange(
            self.id,
            records,
            messages,
            self.state,
            self.msg_seq,
            self.changed_at,
            self.timer.ends,
            tuple(self.alarms.active),
            self.last_result,
            dict(self.devices),
            self.boot,
            self.stats.moment(self.state.game if self.state is not None else ""),
            self.opening_since,
            read_at,
        )

    def write(
        self, record: Record, messages: list[OutMessage], answer: Answer | None = None
    ) -> int:
        """Commit one record and its round events; the input's change holds both."""
        seq = self.journal.append(record, messages, answer)
        self._records.append(replace(record, seq=seq))
        self._messages.extend(messages)
        return seq

    def known_answer(self, key: IdempotencyKey, now: datetime | None = None) -> Outcome | None:
        return known_answer(self.journal, self.id, key, self.clock() if now is None else now)
