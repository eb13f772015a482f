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
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from dealer_station import snapshot, strategy_advice, visibility
from dealer_station.clock import Clock, iso, utc_now
from dealer_station.config import SNAPSHOT_EVERY, BurnCards, TableConfig
from dealer_station.games import table as table_fold
from dealer_station.games.baccarat_roads import RoundMark, roads
from dealer_station.games.engine import Output
from dealer_station.games.events import (
    CloseBets,
    CloseInsurance,
    Event,
    HoldRound,
    SelectTable,
    VoidRound,
    event_to_json,
    parse_event,
)
from dealer_station.games.rejection import Rejected
from dealer_station.games.roulette_stats import roulette_stats
from dealer_station.journal import REFUSED_ON_REPLAY, Answer, Journal, OutMessage, Record
from dealer_station.payloads import RoundEvent, RoundState, Stats, Topics
from dealer_station.preconditions import (
    RETENTION_SECONDS,
    IdempotencyKey,
    Precondition,
    step_id,
)
from dealer_station.round_view import table_view
from dealer_station.table_inputs import Alarm, Command, DeviceChange, Outcome

log = logging.getLogger(__name__)

Availability = Literal["online", "offline"]
KNOWN_STATES = ("online", "offline")

# How many set-aside records a restart's alarm names one by one.
REPLAY_ALARM_LISTS = 5

# Settled rounds kept for the statistics: a whole 8-deck baccarat shoe holds
# about 80; roulette's hot and cold numbers look at the last 100 spins.
STATS_ROUNDS = 500

# A table's snapshot is taken a moment after the record that makes it due, off
# that input's path.
SNAPSHOT_DELAY_S = 1.0


# What the person at the table must do when the station refuses an input from
# the shoe or the camera: the alarm's words.
ALARM_ADVICE = {
    "misdeal": "Card {card} was not due. Hold it aside; pit boss: burn it or void the round.",
    "impossible_card": "Card {card} cannot come from this shoe (foreign card or misread). "
    "The round holds; pit boss: enter the card as it really is, or remove it and release.",
    "round_held": "The round holds: a pit boss resolves it first (enter, release or void).",
    "card_unread": "A card passed the scanner unread: pit boss, enter it by hand or void.",
    "bad_card": "The shoe sent something that is not a card. Pit boss: check the shoe.",
}


def _event_type(record: Record) -> str:
    """What a journaled event was, even when its body is no event at all."""
    body: object = record.body
    kind = body.get("type") if isinstance(body, dict) else None
    return kind if isinstance(kind, str) else "?"


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
        play.

        Total: an accepted record that the rules now refuse is journaled as
        refused on replay (and passed over by every later start), any other
        failure of one record is logged; the replay goes on and a pit boss gets
        an alarm saying what could not be applied. A start always completes."""
        self.msg_seq = self.journal.last_msg_seq(self.id)
        self.forget_old_answers()
        self._snapshot_format = snapshot.code_format(self.config.variant)
        self.recovered_from = self._load_snapshot()
        state = self.state
        set_aside = self.journal.refused_on_replay(self.id)
        refused: list[tuple[Record, Rejected]] = []
        failed: list[Record] = []
        for record in self.journal.records(self.id, kind="event", after=self.recovered_from):
            self._since_snapshot += 1
            if record.status != "accepted" or record.seq in set_aside:
                continue
            try:
                state, outputs = table_fold.apply(state, parse_event(record.body))
            except Rejected as rejected:
                refused.append((record, rejected))
                continue
            except Exception:  # one bad record must not keep the table down
                log.exception("table %s: record %d could not be replayed", self.id, record.seq)
                failed.append(record)
                continue
            self._remember(outputs)
        for record in self.journal.records(self.id, kind="device", after=self.recovered_from):
            body = record.body
            if body.get("device") in ("shoe", "camera") and body.get("state") in KNOWN_STATES:
                self.devices[body["device"]] = (body["state"], record.at)
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
        # Last, so that the void of an interrupted round does not clear the alarm.
        self._set_aside(refused, failed)

    def _set_aside(self, refused: list[tuple[Record, Rejected]], failed: list[Record]) -> None:
        """Journal each refused record as refused on replay, and tell a pit boss
        what the start could not apply. The alarm names records, sources and
        reasons, never a card: a face-down card's value stays in the journal."""
        if not refused and not failed:
            return
        now = self.clock()
        for record, rejected in refused:
            log.warning(
                "table %s: record %d (%s from %s) refused on replay: %s %s",
                self.id,
                record.seq,
                _event_type(record),
                record.source,
                rejected.reason,
                rejected.detail,
            )
            self.journal.append(
                Record(
                    self.id,
                    iso(now),
                    "station",
                    REFUSED_ON_REPLAY,
                    {"refers_to": record.seq, "event": record.body},
                    "refused",
                    rejected.reason,
                    rejected.detail,
                ),
                [],
            )
        problems = [(record, rejected.reason) for record, rejected in refused]
        problems += [(record, "replay_error") for record in failed]
        problems.sort(key=lambda p: p[0].seq)
        listed = "; ".join(
            f"record {r.seq} ({_event_type(r)} from {r.source}): {reason}"
            for r, reason in problems[:REPLAY_ALARM_LISTS]
        )
        more = len(problems) - REPLAY_ALARM_LISTS
        message = (
            f"At the restart {len(problems)} journaled input(s) could not be applied and were "
            f"set aside: {listed}{f'; and {more} more' if more > 0 else ''}. "
            "Pit boss: check the table's last rounds against the journal."
        )
        self.handle(Alarm("replay_refused", message, "station"))

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
        self.forget_old_answers()

    def forget_old_answers(self) -> None:
        """Idempotency keys are kept for the retention window (docs/api.md): at
        each start and with each snapshot, off any input's path."""
        cutoff = self.clock() - timedelta(seconds=RETENTION_SECONDS)
        self.journal.forget_answers(self.id, iso(cutoff))

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
        rules = strategy_advice.blackjack_rules(self.state)
        if rules is not None and strategy_advice.needs_strategy(rules):
            await strategy_advice.ready(rules)  # at hand before the first decision
        self._arm_timer()
        self._notify()
        self._consider_snapshot()
        try:
            while True:
                item = await self.queue.get()
                try:
                    self.handle(item)
                except Exception:  # a bug must not stop the table: log it and go on
                    # Its kind and source, not the item: it may hold a face-down card.
                    source = item.source if isinstance(item, Command | Alarm) else item.device
                    kind = type(item).__name__
                    log.exception("table %s failed to handle a %s from %s", self.id, kind, source)
                    if isinstance(item, Command | Alarm) and item.reply and not item.reply.done():
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
        expect: Precondition | None = None,
        key: IdempotencyKey | None = None,
    ) -> Outcome:
        """Journal and apply one input; the outcome says accepted or why not."""
        loop = asyncio.get_running_loop()
        reply: asyncio.Future[Outcome] = loop.create_future()
        self.submit(Command(source, event, by, why, reply, ref, expect, key))
        return await reply

    def handle(self, item: Command | DeviceChange | Alarm) -> Outcome | None:
        if (
            isinstance(item, Command)
            and isinstance(item.reply, concurrent.futures.Future)
            and not item.reply.set_running_or_notify_cancel()
        ):
            # Withdrawn by a device thread that stopped waiting (the shoe bridge):
            # its device sends the input again, and it must be journaled once.
            return None
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
                return outcome
        if isinstance(item, DeviceChange):
            self._device(item, now)
        elif isinstance(item, Alarm):
            outcome = self._alarm_record(item, now)
        else:
            outcome = self._command(item, now)
        self._arm_timer()
        # The listeners first: a device thread woken by the reply would take the
        # interpreter lock from the publisher about to send the round events.
        self._notify()
        reply = item.reply if isinstance(item, Command | Alarm) else None
        if reply is not None and not reply.done():
            assert outcome is not None
            reply.set_result(outcome)
        self._since_snapshot += 1
        self._consider_snapshot()
        return outcome

    def _notify(self) -> None:
        for listener in self.listeners:
            listener(self)

    # -- inputs ---------------------------------------------------------------------------

    def known_answer(self, key: IdempotencyKey, now: datetime | None = None) -> Outcome | None:
        """The first answer to a client's key, within the retention window."""
        now = self.clock() if now is None else now
        since = iso(now - timedelta(seconds=RETENTION_SECONDS))
        known = self.journal.answer(self.id, key.principal, key.key, since)
        if known is None:
            return None
        if known.fingerprint != key.fingerprint:
            return Outcome(
                False,
                known.journal_seq,
                "idempotency_key_reused",
                f"key {key.key!r} named another request (journal record {known.journal_seq})",
                replayed=True,
            )
        return Outcome.from_answer(known)

    def _answered(
        self, item: Command, state: table_fold.TableState | None, outcome: Outcome
    ) -> tuple[Outcome, Answer | None]:
        """The outcome with the table as it is after the input, and the answer
        to keep for the request's idempotency key, for a command that is answered."""
        if item.expect is None and item.key is None:
            return outcome, None
        saved = self.state, self.timer_ends
        self.state = state
        if state is None or self._timer_key != self._step_key(state):
            self.timer_ends = None  # the step's timer starts once the input is in
        try:
            view = self.round_state()
        finally:
            self.state, self.timer_ends = saved
        outcome = replace(outcome, state=None if view is None else view.model_dump(mode="json"))
        if item.key is None:
            return outcome, None
        key = item.key
        return outcome, Answer(key.principal, key.key, key.fingerprint, outcome.to_answer())

    def _command(self, item: Command, now: datetime) -> Outcome:
        raw = dict(item.event) if isinstance(item.event, dict) else event_to_json(item.event)
        if item.ref is not None:
            raw["id"] = item.ref
        stale = item.expect.stale(self.state) if item.expect is not None else None
        if stale is not None:
            return self._rejected(item, raw, Rejected("stale", stale), now)
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
        elif outputs and (item.source == "shoe" or event.type in ("manual_card", "hold_release")):
            # A card taken, from the shoe or entered by a pit boss, or a held card
            # removed, answers a card alarm.
            self.alarms = [a for a in self.alarms if a["source"] != "shoe-card"]
        if any(o == {"type": "round_held", "reason": "card_unread"} for o in outputs):
            messages.append(
                self._raise_alarm(
                    "card_unread", ALARM_ADVICE["card_unread"], "shoe-card", round_id, now
                )
            )
        body = event_to_json(event)
        if item.ref is not None:
            body["id"] = item.ref
        outcome, answer = self._answered(item, new_state, Outcome(True, 0, outputs=tuple(public)))
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
            answer,
        )
        self.state = new_state
        self._remember(outputs)
        for out, message in zip(outputs, messages[: len(outputs)], strict=True):
            if out["type"] == "round_settled":
                self.last_result = message.payload
        return replace(outcome, seq=seq)

    def _strategy_warning(self, event: Event) -> str | None:
        """Diamond Blackjack's warning for a decision far from basic strategy."""
        return strategy_advice.warning(self.state, event)

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
        outcome, answer = self._answered(
            item, self.state, Outcome(False, 0, rejected.reason, detail)
        )
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
                "camera": "Wheel camera offline: enter each number on the pad (tap, then confirm).",
            }[change.device]
            messages.append(
                self._raise_alarm(f"{change.device}_offline", advice, source, round_id, now)
            )
        self.journal.append(
            Record(self.id, iso(now), change.device, "device", body, "note"), messages
        )

    def _alarm_record(self, alarm: Alarm, now: datetime) -> Outcome:
        round_id = self._round_of(self.state)
        body: dict[str, Any] = {"code": alarm.code, "message": alarm.message}
        stale = alarm.expect.stale(self.state) if alarm.expect is not None else None
        if stale is not None:
            data = {"reason": "stale", "detail": stale, "event": {"type": "alarm", **body}}
            refused = self._event_message("rejected", data, alarm.source, round_id, now)
            record = Record(self.id, iso(now), alarm.source, "alarm", body, "rejected", "stale")
            seq = self.journal.append(replace(record, detail=stale), [refused])
            return Outcome(False, seq, "stale", stale)
        message = self._raise_alarm(
            alarm.code, alarm.message, alarm.source, round_id, now, alarm.count
        )
        if alarm.count != 1:
            body["count"] = alarm.count
        seq = self.journal.append(
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
        alarm = {"code": code, "message": message, "source": source, "at": iso(now)}
        self.alarms = [a for a in self.alarms if a["code"] != code] + [alarm]
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
        # What a command for this moment sends back as If-Match (docs/api.md).
        view["next"]["step"] = step_id(self.state)
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

    def _step_key(self, state: table_fold.TableState) -> tuple[str, ...]:
        step = state.next_step()
        return (self._round_of(state) or "", step.kind, step.to)

    def _arm_timer(self) -> None:
        """One timer at a time: the betting window, the insurance offer, or the
        decision due now. A timer whose moment has passed is cancelled."""
        if self.state is None:
            return
        step = self.state.next_step()
        key = self._step_key(self.state)
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
            delay = timers.decision_seconds
            event = strategy_advice.timeout_decision(self.state, step)
        if delay is None or event is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # recovering before the loop runs: run() arms it again
            self._timer_key = ()
            return
        self.timer_ends = self.clock() + timedelta(seconds=delay)
        self._timer = loop.call_later(delay, self.submit, Command("timer", event))
