"""One table's actor: the single writer of its state.

One asyncio task per table consumes one input queue: shoe events, wheel results,
commands from the console and the game server, and its own timers. Each input is
journaled (accepted, or rejected with the reason) before anything about it is
published; the table's state is ``fold(apply, journal)``, so a restart replays
the journal and the table is where it was (docs/recovery.md). What an input did
reaches the table's listeners as one `TableChange`, in the order
``table_change`` states.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from dealer_station import snapshot, strategy_advice, visibility
from dealer_station.clock import Clock, iso, utc_now
from dealer_station.config import SNAPSHOT_EVERY, BurnCards, TableConfig
from dealer_station.games import table as table_fold
from dealer_station.games.engine import Output
from dealer_station.games.events import (
    Event,
    HoldRound,
    SelectTable,
    VoidRound,
    event_to_json,
    parse_event,
)
from dealer_station.games.rejection import Rejected
from dealer_station.input_identity import InputIdentity, journal_keys
from dealer_station.journal import Answer, Journal, OutMessage, Record
from dealer_station.operator_advice import OFFLINE_ADVICE, REFUSAL_ADVICE, replay_refused
from dealer_station.payloads import DeviceState, Topics
from dealer_station.preconditions import IdempotencyKey, Precondition
from dealer_station.round_outputs import DecisionMade, RoundHeld, RoundSettled, parse_outputs
from dealer_station.table_alarms import ActiveAlarm, TableAlarms
from dealer_station.table_answers import answer_to_keep, forget_old_answers, known_answer
from dealer_station.table_change import Listeners, TableChange
from dealer_station.table_inputs import Alarm, Command, DeviceChange, Outcome
from dealer_station.table_messages import round_event, round_state
from dealer_station.table_recovery import load_snapshot, replay, set_aside
from dealer_station.table_snapshots import SnapshotSchedule
from dealer_station.table_stats import TableStats
from dealer_station.table_timers import StepTimer

log = logging.getLogger(__name__)


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
    state: table_fold.TableState | None = field(init=False, default=None)
    msg_seq: int = field(init=False, default=0)
    # Each device's availability and since when.
    devices: dict[str, tuple[DeviceState, str]] = field(init=False, default_factory=dict)
    alarms: TableAlarms = field(init=False, default_factory=TableAlarms)
    last_result: str | None = field(init=False, default=None)
    stats: TableStats = field(init=False)
    timer: StepTimer = field(init=False)
    changed_at: datetime = field(init=False, default_factory=utc_now)
    # The table as it stands after its last change: what every channel shows.
    latest: TableChange = field(init=False)
    # The record the last start's snapshot folded in (0: the start replayed all).
    recovered_from: int = field(init=False, default=0)
    snapshots: SnapshotSchedule = field(init=False)
    _snapshot_format: str = field(init=False, default="", repr=False)
    # What the input in hand has journaled so far: its change.
    _records: list[Record] = field(init=False, default_factory=list, repr=False)
    _messages: list[OutMessage] = field(init=False, default_factory=list, repr=False)
    # Only while the table's task waits on its empty queue (``_idle``) and no input
    # is in hand (``_in_hand``: `handle` runs) is an input taken at once (`submit`).
    _idle: bool = field(init=False, default=False, repr=False)
    _in_hand: bool = field(init=False, default=False, repr=False)

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

    # -- start: the journal is the truth ------------------------------------------------

    def recover(self) -> None:
        """Rebuild the table from its snapshot and the journal after it (or the
        whole journal), then apply the recovery procedure to a round that was in
        play. Total (``table_recovery``): a start always completes, and a pit
        boss is told what it could not apply."""
        self.msg_seq = self.journal.last_msg_seq(self.id)
        self.forget_old_answers()
        self._snapshot_format = snapshot.code_format(self.config.variant)
        self.recovered_from, taken = load_snapshot(self.journal, self.id, self._snapshot_format)
        if taken is not None:
            self.state = taken.state
            self.stats.restore(taken.settled, taken.stats_at)
            self.devices = dict(taken.devices)
        done = replay(self.journal, self.id, self.recovered_from, self.state)
        self.snapshots.since += done.read
        for outputs in done.outputs:
            self.stats.remember(outputs, self.changed_at)
        self.devices.update(done.devices)
        self.last_result = self.journal.last_message(self.id, "round_settled")
        self.state = state = done.state
        self.latest = self._change()
        log.info(
            "table %s rebuilt from %s and %d records after it",
            self.id,
            f"the snapshot at record {self.recovered_from}" if self.recovered_from else "nothing",
            done.read,
        )
        if state is not None and not state.round_over:
            if self.config.recovery == "void":
                self.handle(Command("station", VoidRound("station restarted: round voided")))
            else:
                log.info("table %s resumes round %s", self.id, state.round.round_id)
        wanted = SelectTable(self.config.game, self.config.variant, self.id)
        if self.state is None:
            self.handle(Command("station", wanted))
        elif self.state.round_over:
            # The config names another game or variant than the journal ran last.
            variant = table_fold.GAMES[wanted.game](wanted.variant, None).variant
            if (self.state.game, self.state.setup.variant) != (wanted.game, variant):
                self.handle(Command("station", wanted))
        # Last, so that the void of an interrupted round does not clear the alarm.
        problems = set_aside(self.journal, self.id, done, iso(self.clock()))
        if problems:
            self.handle(Alarm("replay_refused", replay_refused(problems), "station"))

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
            log.exception("table %s failed to handle a %s from %s", self.id, kind, source)
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
            self._device(item, now)
        elif isinstance(item, Alarm):
            outcome = self._alarm_record(item, now)
        else:
            outcome = self._command(item, now)
        self.timer.arm(self.state)
        self.latest = self._change(tuple(self._records), tuple(self._messages))
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
        self, records: tuple[Record, ...] = (), messages: tuple[OutMessage, ...] = ()
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
            self.stats.moment(self.state.game if self.state is not None else ""),
        )

    def _journal(
        self, record: Record, messages: list[OutMessage], answer: Answer | None = None
    ) -> int:
        """Commit one record and its round events; the input's change holds both."""
        seq = self.journal.append(record, messages, answer)
        self._records.append(replace(record, seq=seq))
        self._messages.extend(messages)
        return seq

    # -- inputs ---------------------------------------------------------------------------

    def known_answer(self, key: IdempotencyKey, now: datetime | None = None) -> Outcome | None:
        return known_answer(self.journal, self.id, key, self.clock() if now is None else now)

    def _answered(
        self, item: Command, state: table_fold.TableState | None, outcome: Outcome
    ) -> tuple[Outcome, Answer | None]:
        """The outcome with the table as it is after the input, and the answer
        to keep for the request's idempotency key, for a command that is answered."""
        if item.expect is None and item.key is None:
            return outcome, None
        view = round_state(
            self.id,
            state,
            msg_seq=self.msg_seq,
            at=self.changed_at,
            # The step's timer starts once the input is in.
            timer_ends=self.timer.ends_after(state),
            alarms=self.alarms.active,
        )
        outcome = replace(outcome, state=None if view is None else view.model_dump(mode="json"))
        if item.key is None:
            return outcome, None
        return outcome, answer_to_keep(item.key, outcome)

    def _command(self, item: Command, now: datetime) -> Outcome:
        raw = dict(item.event) if isinstance(item.event, dict) else event_to_json(item.event)
        raw |= journal_keys(item.identity)
        stale = item.expect.stale(self.state) if item.expect is not None else None
        if stale is not None:
            return self._rejected(item, raw, Rejected("stale", stale), now)
        try:
            event = parse_event(item.event) if isinstance(item.event, dict) else item.event
            new_state, engine_outputs = table_fold.apply(self.state, event)
        except Rejected as rejected:
            return self._rejected(item, raw, rejected, now)
        outputs = parse_outputs(engine_outputs)
        warning = strategy_advice.warning(self.state, event)
        if warning is not None:
            outputs = tuple(
                replace(o, warning=warning) if isinstance(o, DecisionMade) else o for o in outputs
            )
        round_id = self._round_of(new_state)
        # The engine's outputs never leave the actor: only their public form.
        public = visibility.public_outputs(outputs, self.burn_cards)
        messages = [
            self._event_message(o.type, o.data(), item.source, round_id, now) for o in public
        ]
        if any(isinstance(o, RoundSettled) for o in outputs):
            self.alarms.clear()
        elif outputs and (item.source == "shoe" or event.type in ("manual_card", "hold_release")):
            # A card taken, from the shoe or entered by a pit boss, or a held card
            # removed, answers a card alarm.
            self.alarms.answered("shoe-card")
        if any(isinstance(o, RoundHeld) and o.reason == "card_unread" for o in outputs):
            messages.append(
                self._raise_alarm(
                    "card_unread", REFUSAL_ADVICE["card_unread"], "shoe-card", round_id, now
                )
            )
        # A typed event's JSON is ``raw`` already; a request's is its event's.
        body = raw if event is item.event else event_to_json(event) | journal_keys(item.identity)
        outcome, answer = self._answered(item, new_state, Outcome(True, 0, outputs=public))
        seq = self._journal(
            Record(
                self.id,
                iso(now),
                item.source,
                "event",
                body,
                "accepted",
                detail=warning,
                by=item.by,
                why=item.why,
            ),
            messages,
            answer,
        )
        self.state = new_state
        self.stats.remember(outputs, now)
        for out, message in zip(outputs, messages[: len(outputs)], strict=True):
            if isinstance(out, RoundSettled):
                self.last_result = message.payload
        return replace(outcome, seq=seq)

    def _rejected(
        self, item: Command, raw: dict[str, Any], rejected: Rejected, now: datetime
    ) -> Outcome:
        round_id = self._round_of(self.state)
        face = visibility.withheld_face(raw, self.state, self.burn_cards)
        echoed, detail = visibility.public_refusal(raw, rejected.detail, face)
        data = {"reason": rejected.reason, "detail": detail, "event": echoed}
        messages = [self._event_message("rejected", data, item.source, round_id, now)]
        if item.source in ("shoe", "camera") and rejected.reason in REFUSAL_ADVICE:
            card = visibility.WITHHELD[face] if face else raw.get("card", "?")
            advice = REFUSAL_ADVICE[rejected.reason].format(card=card)
            messages.append(self._raise_alarm(rejected.reason, advice, "shoe-card", round_id, now))
        outcome, answer = self._answered(
            item, self.state, Outcome(False, 0, rejected.reason, detail)
        )
        seq = self._journal(
            Record(
                self.id,
                iso(now),
                item.source,
                "event",
                raw,
                "rejected",
                rejected.reason,
                rejected.detail,
                item.by,
                item.why,
            ),
            messages,
            answer,
        )
        if item.source == "shoe" and rejected.reason == "impossible_card" and self._in_play():
            # The round stops until a pit boss has seen the card: an input of its
            # own, so the hold is in the journal and a restart keeps it.
            self._command(Command("station", HoldRound("impossible_card")), now)
        return replace(outcome, seq=seq)

    def _in_play(self) -> bool:
        return self.state is not None and not self.state.round_over

    def _device(self, change: DeviceChange, now: datetime) -> None:
        state: DeviceState = "online" if change.online else "offline"
        known = self.devices.get(change.device)
        if known is not None and known[0] == state:
            return
        self.devices[change.device] = (state, iso(now))
        round_id = self._round_of(self.state)
        body = {"device": change.device, "state": state, "detail": change.detail}
        messages = [self._event_message("device", body, "station", round_id, now)]
        source = f"{change.device}-device"
        if change.online:
            self.alarms.answered(source)
        else:
            advice = OFFLINE_ADVICE[change.device]
            messages.append(
                self._raise_alarm(f"{change.device}_offline", advice, source, round_id, now)
            )
        self._journal(Record(self.id, iso(now), change.device, "device", body, "note"), messages)

    def _alarm_record(self, alarm: Alarm, now: datetime) -> Outcome:
        round_id = self._round_of(self.state)
        body: dict[str, Any] = {"code": alarm.code, "message": alarm.message}
        stale = alarm.expect.stale(self.state) if alarm.expect is not None else None
        if stale is not None:
            data = {"reason": "stale", "detail": stale, "event": {"type": "alarm", **body}}
            refused = self._event_message("rejected", data, alarm.source, round_id, now)
            record = Record(self.id, iso(now), alarm.source, "alarm", body, "rejected", "stale")
            seq = self._journal(replace(record, detail=stale), [refused])
            return Outcome(False, seq, "stale", stale)
        message = self._raise_alarm(
            alarm.code, alarm.message, alarm.source, round_id, now, alarm.count
        )
        if alarm.count != 1:
            body["count"] = alarm.count
        seq = self._journal(
            Record(self.id, iso(now), alarm.source, "alarm", body, "note"), [message]
        )
        return Outcome(True, seq)

    def _raise_alarm(
        self,
        code: str,
        message: str,
        source: str,
        round_id: str | None,
        now: datetime,
        count: int = 1,
    ) -> OutMessage:
        self.alarms.raise_alarm(ActiveAlarm(code, message, source, iso(now)))
        data: dict[str, Any] = {"code": code, "message": message}
        if count != 1:
            data["count"] = count
        return self._event_message("alarm", data, "station", round_id, now)

    # -- messages -------------------------------------------------------------------------

    @staticmethod
    def _round_of(state: table_fold.TableState | None) -> str | None:
        if state is None or state.round is None:
            return None
        round_id: str = state.round.round_id
        return round_id

    def _event_message(
        self, kind: str, data: Output, source: str, round_id: str | None, now: datetime
    ) -> OutMessage:
        self.msg_seq += 1
        return round_event(
            studio=self.studio,
            table=self.id,
            topic=self.topics.event,
            msg_seq=self.msg_seq,
            kind=kind,
            data=data,
            source=source,
            round_id=round_id,
            at=now,
        )
