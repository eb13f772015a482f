"""One table's actor: the single writer of its state.

One asyncio task per table consumes one input queue: shoe events, wheel results,
commands from the console and the game server, and its own timers. Each input is
journaled (accepted, or rejected with the reason) before anything about it is
published; the table's state is ``fold(apply, journal)``, so a restart replays
the journal and the table is where it was (docs/recovery.md).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from dealer_station import snapshot, strategy_advice, visibility
from dealer_station.config import SNAPSHOT_EVERY, BurnCards, TableConfig
from dealer_station.games import table as table_fold
from dealer_station.games.baccarat_roads import RoundMark, roads
from dealer_station.games.engine import Output
from dealer_station.games.events import (
    CloseBets,
    CloseInsurance,
    Decision,
    Event,
    SelectTable,
    VoidRound,
    event_to_json,
    parse_event,
)
from dealer_station.games.rejection import Rejected
from dealer_station.games.roulette_stats import roulette_stats
from dealer_station.journal import Journal, OutMessage, Record
from dealer_station.payloads import RoundEvent, RoundState, Stats, Topics
from dealer_station.round_view import table_view

log = logging.getLogger(__name__)

Availability = Literal["online", "offline"]

# Settled rounds kept for the statistics: a whole 8-deck baccarat shoe holds
# about 80; roulette's hot and cold numbers look at the last 100 spins.
STATS_ROUNDS = 500

Clock = Callable[[], datetime]

# A table's snapshot is taken a moment after the record that makes it due, off
# that input's path.
SNAPSHOT_DELAY_S = 1.0


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


# What the person at the table must do when the station refuses an input from
# the shoe or the camera: the alarm's words.
ALARM_ADVICE = {
    "misdeal": "Card {card} was not due. Hold it aside; pit boss: burn it or void the round.",
    "impossible_card": "Card {card} cannot come from this shoe (foreign card or misread). "
    "Stop; pit boss: check the card.",
    "round_held": "The round holds for an unread card: pit boss, enter the card or void.",
    "card_unread": "A card passed the scanner unread: pit boss, enter it by hand or void.",
    "bad_card": "The shoe sent something that is not a card. Pit boss: check the shoe.",
}


@dataclass
class Command:
    """An input for the table: a typed event, or the raw JSON of one (checked
    here, so a malformed request is journaled as refused like any other)."""

    source: str
    event: Event | dict[str, Any]
    by: str | None = None
    why: str | None = None
    # Told the outcome once the change is journaled and the listeners (the
    # publisher first) have seen it. A device's thread waits on a concurrent
    # future, set without a turn of the loop.
    reply: asyncio.Future[Outcome] | concurrent.futures.Future[Outcome] | None = None
    # The device's own name for this input (the shoe's "<boot>:<card index>"),
    # journaled as the event's ``id``.
    ref: str | None = None


@dataclass
class DeviceChange:
    device: Literal["shoe", "camera"]
    online: bool
    detail: str = ""


@dataclass
class Alarm:
    code: str
    message: str
    source: str


@dataclass(frozen=True)
class Outcome:
    accepted: bool
    seq: int
    reason: str = ""
    detail: str = ""
    outputs: tuple[Output, ...] = ()


@dataclass
class TableActor:
    config: TableConfig
    studio: str
    journal: Journal
    topics: Topics
    clock: Clock = utc_now
    queue: asyncio.Queue[Command | DeviceChange | Alarm] = field(default_factory=asyncio.Queue)
    listeners: list[Callable[[TableActor], None]] = field(default_factory=list)
    snapshot_every: int = SNAPSHOT_EVERY
    burn_cards: BurnCards = "hidden"
    state: table_fold.TableState | None = field(init=False, default=None)
    msg_seq: int = field(init=False, default=0)
    # Each device's availability and since when.
    devices: dict[str, tuple[Availability, str]] = field(init=False, default_factory=dict)
    alarms: list[dict[str, Any]] = field(init=False, default_factory=list)
    last_result: str | None = field(init=False, default=None)
    settled: list[Output] = field(init=False, default_factory=list)
    _timer: asyncio.TimerHandle | None = field(init=False, default=None)
    _timer_key: tuple[str, ...] = field(init=False, default=())
    timer_ends: datetime | None = field(init=False, default=None)
    changed_at: datetime = field(init=False, default_factory=utc_now)
    # When the statistics last changed (a round settled, a new shoe).
    stats_at: str = field(init=False, default="")
    _stats_version: int = field(init=False, default=0, repr=False)
    _stats_cache: tuple[tuple[int, str], Stats | None] | None = field(
        init=False, default=None, repr=False
    )
    # The record the last start's snapshot folded in (0: the start replayed all).
    recovered_from: int = field(init=False, default=0)
    _snapshot_format: str = field(init=False, default="", repr=False)
    _since_snapshot: int = field(init=False, default=0, repr=False)
    _snapshot_due: asyncio.TimerHandle | None = field(init=False, default=None, repr=False)

    @property
    def id(self) -> str:
        return self.config.id

    # -- start: the journal is the truth ------------------------------------------------

    def recover(self) -> None:
        """Rebuild the table from its snapshot and the journal after it (or the
        whole journal), then apply the recovery procedure to a round that was in
        play."""
        self.msg_seq = self.journal.last_msg_seq(self.id)
        self._snapshot_format = snapshot.code_format(self.config.variant)
        self.recovered_from = self._load_snapshot()
        state = self.state
        for record in self.journal.records(self.id, kind="event", after=self.recovered_from):
            self._since_snapshot += 1
            if record.status != "accepted":
                continue
            state, outputs = table_fold.apply(state, parse_event(record.body))
            self._remember(outputs)
        for record in self.journal.records(self.id, kind="device", after=self.recovered_from):
            self.devices[record.body["device"]] = (record.body["state"], record.at)
        self.last_result = self.journal.last_message(self.id, "round_settled")
        self.state = state
        log.info(
            "table %s rebuilt from %s and %d records after it",
            self.id,
            f"the snapshot at record {self.recovered_from}" if self.recovered_from else "nothing",
            self._since_snapshot,
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

    def _load_snapshot(self) -> int:
        """Take the table's snapshot if this code wrote it; the record it folds
        in, or 0 to replay the whole journal."""
        saved = self.journal.snapshot(self.id)
        if saved is None:
            return 0
        seq, format_, blob = saved
        if format_ != self._snapshot_format:
            log.info("table %s: the snapshot is from other code: replaying the journal", self.id)
            return 0
        try:
            taken = snapshot.loads(blob)
        except Exception:  # a cache: whatever is wrong with it, the journal holds the truth
            log.exception("table %s: unreadable snapshot: replaying the journal", self.id)
            return 0
        self.state = taken.state
        self.settled = list(taken.settled)
        self.stats_at = taken.stats_at
        self.devices = dict(taken.devices)
        return seq

    def save_snapshot(self) -> None:
        """Store the table as it stands after its last journaled record."""
        self._snapshot_due = None
        if self.state is None:
            return
        taken = snapshot.TableSnapshot(
            self.state, tuple(self.settled), self.stats_at, dict(self.devices)
        )
        seq = self.journal.last_seq(self.id)
        self.journal.save_snapshot(self.id, seq, self._snapshot_format, snapshot.dumps(taken))
        self._since_snapshot = 0

    def _consider_snapshot(self) -> None:
        if self._since_snapshot < self.snapshot_every or self._snapshot_due is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # recovering before the loop runs: run() looks again
            return
        self._snapshot_due = loop.call_later(SNAPSHOT_DELAY_S, self.save_snapshot)

    def _remember(self, outputs: list[Output]) -> None:
        """Keep what the statistics need: the settled rounds of the current shoe
        (baccarat's roads start again with each shoe), the last spins (roulette)."""
        for out in outputs:
            if out["type"] in ("new_shoe", "shuffle"):
                self.settled.clear()
            elif out["type"] == "round_settled" and not out.get("voided"):
                self.settled.append(out)
                del self.settled[:-STATS_ROUNDS]
            else:
                continue
            self.stats_at = iso(self.changed_at)
            self._stats_version += 1

    def stats(self) -> Stats | None:
        """The roads or the wheel's statistics, worked out again only when a
        round settled or a shoe began: several listeners ask on every change,
        and the roads cost milliseconds a card must not wait for."""
        if self.state is None:
            return None
        key = (self._stats_version, self.state.game)
        if self._stats_cache is None or self._stats_cache[0] != key:
            self._stats_cache = (key, self._work_out_stats(self.state.game))
        return self._stats_cache[1]

    def _work_out_stats(self, game: str) -> Stats | None:
        if game == "baccarat":
            marks = [RoundMark.from_outcome(o) for o in self.settled]
            data = roads(marks).to_json()
        elif game == "roulette":
            data = roulette_stats([o["number"] for o in self.settled]).to_json()
        else:
            return None
        return Stats(table=self.id, at=self.stats_at, game=game, stats=data)

    # -- the loop -------------------------------------------------------------------------

    async def run(self) -> None:
        """Consume the queue forever; ``recover()`` first."""
        self._arm_timer()
        self._notify()
        self._consider_snapshot()
        try:
            while True:
                item = await self.queue.get()
                try:
                    self.handle(item)
                except Exception:  # a bug must not stop the table: log it and go on
                    log.exception("table %s failed to handle %r", self.id, item)
                    if isinstance(item, Command) and item.reply and not item.reply.done():
                        item.reply.set_exception(RuntimeError("internal error"))
        finally:
            # The station closes the journal once the tables have stopped.
            if self._snapshot_due is not None:
                self._snapshot_due.cancel()

    def submit(self, item: Command | DeviceChange | Alarm) -> None:
        self.queue.put_nowait(item)

    async def command(
        self,
        source: str,
        event: Event | dict[str, Any],
        by: str | None = None,
        why: str | None = None,
        ref: str | None = None,
    ) -> Outcome:
        """Journal and apply one input; the outcome says accepted or why not."""
        loop = asyncio.get_running_loop()
        reply: asyncio.Future[Outcome] = loop.create_future()
        self.submit(Command(source, event, by, why, reply, ref))
        return await reply

    def handle(self, item: Command | DeviceChange | Alarm) -> Outcome | None:
        now = self.clock()
        self.changed_at = now
        outcome: Outcome | None = None
        if isinstance(item, DeviceChange):
            self._device(item, now)
        elif isinstance(item, Alarm):
            self._alarm_record(item, now)
        else:
            outcome = self._command(item, now)
        self._arm_timer()
        # The listeners first: a device thread woken by the reply would take the
        # interpreter lock from the publisher about to send the round events.
        self._notify()
        if isinstance(item, Command) and item.reply is not None and not item.reply.done():
            assert outcome is not None
            item.reply.set_result(outcome)
        self._since_snapshot += 1
        self._consider_snapshot()
        return outcome

    def _notify(self) -> None:
        for listener in self.listeners:
            listener(self)

    # -- inputs ---------------------------------------------------------------------------

    def _command(self, item: Command, now: datetime) -> Outcome:
        raw = dict(item.event) if isinstance(item.event, dict) else event_to_json(item.event)
        if item.ref is not None:
            raw["id"] = item.ref
        try:
            event = parse_event(item.event) if isinstance(item.event, dict) else item.event
            new_state, outputs = table_fold.apply(self.state, event)
        except Rejected as rejected:
            return self._rejected(item, raw, rejected, now)
        warning = self._strategy_warning(event)
        if warning is not None:
            for out in outputs:
                if out["type"] == "decision":
                    out["warning"] = warning
        round_id = self._round_of(new_state)
        # The engine's outputs never leave the actor: only their public form.
        public = visibility.public_outputs(outputs, self.burn_cards)
        messages = [self._event_message(o["type"], o, item.source, round_id, now) for o in public]
        if any(o["type"] == "round_settled" for o in outputs):
            self.alarms.clear()
        elif outputs and (item.source == "shoe" or event.type == "manual_card"):
            # A card taken, from the shoe or entered by a pit boss, answers a card alarm.
            self.alarms = [a for a in self.alarms if a["source"] != "shoe-card"]
        if any(o["type"] == "round_held" for o in outputs):
            messages.append(
                self._raise_alarm(
                    "card_unread", ALARM_ADVICE["card_unread"], "shoe-card", round_id, now
                )
            )
        body = event_to_json(event)
        if item.ref is not None:
            body["id"] = item.ref
        seq = self.journal.append(
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
        )
        self.state = new_state
        self._remember(outputs)
        for out, message in zip(outputs, messages[: len(outputs)], strict=True):
            if out["type"] == "round_settled":
                self.last_result = message.payload
        return Outcome(True, seq, outputs=tuple(public))

    def _strategy_warning(self, event: Event) -> str | None:
        """Diamond Blackjack's warning for a decision far from basic strategy."""
        if not isinstance(event, Decision) or self.state is None:
            return None
        hand = event.hand
        if hand is None:
            step = self.state.next_step()
            hand = int(step.to.split()[3]) if step.kind == "decision" else 0
        return strategy_advice.warning(self.state, event.box, hand, event.action)

    def _rejected(
        self, item: Command, raw: dict[str, Any], rejected: Rejected, now: datetime
    ) -> Outcome:
        round_id = self._round_of(self.state)
        face = visibility.withheld_face(raw, self.state, self.burn_cards)
        echoed, detail = visibility.public_refusal(raw, rejected.detail, face)
        data = {"reason": rejected.reason, "detail": detail, "event": echoed}
        messages = [self._event_message("rejected", data, item.source, round_id, now)]
        if item.source in ("shoe", "camera") and rejected.reason in ALARM_ADVICE:
            card = visibility.WITHHELD[face] if face else raw.get("card", "?")
            advice = ALARM_ADVICE[rejected.reason].format(card=card)
            messages.append(self._raise_alarm(rejected.reason, advice, "shoe-card", round_id, now))
        seq = self.journal.append(
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
        )
        return Outcome(False, seq, rejected.reason, detail)

    def _device(self, change: DeviceChange, now: datetime) -> None:
        state: Availability = "online" if change.online else "offline"
        known = self.devices.get(change.device)
        if known is not None and known[0] == state:
            return
        self.devices[change.device] = (state, iso(now))
        round_id = self._round_of(self.state)
        body = {"device": change.device, "state": state, "detail": change.detail}
        messages = [self._event_message("device", body, "station", round_id, now)]
        source = f"{change.device}-device"
        if change.online:
            self.alarms = [a for a in self.alarms if a["source"] != source]
        else:
            advice = {
                "shoe": "Shoe offline: do not draw. Check the shoe's cable; the round waits.",
                "camera": "Wheel camera offline: results need a pit boss's confirmation.",
            }[change.device]
            messages.append(
                self._raise_alarm(f"{change.device}_offline", advice, source, round_id, now)
            )
        self.journal.append(
            Record(self.id, iso(now), change.device, "device", body, "note"), messages
        )

    def _alarm_record(self, alarm: Alarm, now: datetime) -> None:
        round_id = self._round_of(self.state)
        message = self._raise_alarm(alarm.code, alarm.message, alarm.source, round_id, now)
        body = {"code": alarm.code, "message": alarm.message}
        self.journal.append(
            Record(self.id, iso(now), alarm.source, "alarm", body, "note"), [message]
        )

    def _raise_alarm(
        self, code: str, message: str, source: str, round_id: str | None, now: datetime
    ) -> OutMessage:
        alarm = {"code": code, "message": message, "source": source, "at": iso(now)}
        self.alarms = [a for a in self.alarms if a["code"] != code] + [alarm]
        return self._event_message(
            "alarm", {"code": code, "message": message}, "station", round_id, now
        )

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
        body = {k: v for k, v in data.items() if k != "type"}
        payload = RoundEvent(
            table=self.id,
            at=iso(now),
            id=f"{self.studio}/{self.id}/{self.msg_seq}",
            seq=self.msg_seq,
            round=round_id,
            type=kind,
            source=source,
            data=body,
        )
        return OutMessage(self.id, self.msg_seq, self.topics.event, payload.model_dump_json())

    def round_state(self) -> RoundState | None:
        if self.state is None:
            return None
        view = table_view(self.state)
        if self.timer_ends is not None:
            view["next"]["ends_at"] = iso(self.timer_ends)
        return RoundState(
            table=self.id,
            at=iso(self.changed_at),
            seq=self.msg_seq,
            round=view["round"],
            game=view["game"],
            variant=view["variant"],
            next=view["next"],
            action=view["action"],
            hold=view["hold"],
            shoe=view.get("shoe"),
            view=view.get("table"),
            alarms=list(self.alarms),
        )

    # -- timers -----------------------------------------------------------------------------

    def _arm_timer(self) -> None:
        """One timer at a time: the betting window, the insurance offer, or the
        decision due now. A timer whose moment has passed is cancelled."""
        if self.state is None:
            return
        step = self.state.next_step()
        round_id = self._round_of(self.state) or ""
        key = (round_id, step.kind, step.to)
        if key == self._timer_key:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._timer_key, self.timer_ends = None, key, None
        timers = self.config.timers
        delay: float | None = None
        event: Event | None = None
        if step.kind == "bets":
            delay, event = timers.betting_seconds, CloseBets()
        elif step.kind == "insurance":
            delay, event = timers.insurance_seconds, CloseInsurance()
        elif step.kind == "decision":
            _, box, _, hand = step.to.split()
            action = strategy_advice.timeout_action(self.state, int(box), int(hand), step.options)
            delay, event = timers.decision_seconds, Decision(int(box), action, int(hand))
        if delay is None or event is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # recovering before the loop runs: run() arms it again
            self._timer_key = ()
            return
        self.timer_ends = self.clock() + timedelta(seconds=delay)
        self._timer = loop.call_later(delay, self.submit, Command("timer", event))
