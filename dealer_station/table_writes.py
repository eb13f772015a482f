"""What each kind of input writes: its journal record, its round events and
alarms, and the table as it is after it.

The actor (``actor.py``) owns the queue, the order of a change and the journal;
it hands each input, in its one task, to one of the four writers here: a command
(`command`), refused or not, a device's change (`device`), an alarm (`alarm`).
They commit through ``table.write``, which journals a record with its messages
in one transaction and adds both to the input's change, and they change the
table only after that commit.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any, Protocol

from dealer_station import strategy_advice, visibility
from dealer_station.clock import iso
from dealer_station.config import BurnCards
from dealer_station.games import table as table_fold
from dealer_station.games.engine import Output
from dealer_station.games.events import HoldRound, event_to_json, parse_event
from dealer_station.games.rejection import Rejected
from dealer_station.input_identity import journal_keys
from dealer_station.journal import Answer, OutMessage, Record
from dealer_station.operator_advice import OFFLINE_ADVICE, REFUSAL_ADVICE
from dealer_station.payloads import DEVICES, DeviceState, Topics
from dealer_station.round_outputs import DecisionMade, RoundHeld, RoundSettled, parse_outputs
from dealer_station.table_alarms import ActiveAlarm, TableAlarms
from dealer_station.table_answers import answer_to_keep
from dealer_station.table_inputs import Alarm, Command, DeviceChange, Outcome
from dealer_station.table_messages import round_event, round_state
from dealer_station.table_stats import TableStats
from dealer_station.table_timers import StepTimer


class WritingTable(Protocol):
    """What the writers read and change of a table: its actor's fields."""

    studio: str
    topics: Topics
    burn_cards: BurnCards
    state: table_fold.TableState | None
    msg_seq: int
    devices: dict[str, tuple[DeviceState, str]]
    alarms: TableAlarms
    last_result: str | None
    stats: TableStats
    timer: StepTimer
    changed_at: datetime
    opening_since: str

    @property
    def id(self) -> str: ...

    def write(
        self, record: Record, messages: list[OutMessage], answer: Answer | None = None
    ) -> int:
        """Journal ``record`` with ``messages`` (and ``answer``); its journal seq."""
        ...


def command(table: WritingTable, item: Command, now: datetime) -> Outcome:
    """Apply a command to the rules and journal it, accepted or refused."""
    raw = dict(item.event) if isinstance(item.event, dict) else event_to_json(item.event)
    raw |= journal_keys(item.identity)
    stale = item.expect.stale(table.state) if item.expect is not None else None
    if stale is not None:
        return _refused(table, item, raw, Rejected("stale", stale), now)
    try:
        event = parse_event(item.event) if isinstance(item.event, dict) else item.event
        new_state, engine_outputs = table_fold.apply(table.state, event)
    except Rejected as rejected:
        return _refused(table, item, raw, rejected, now)
    outputs = parse_outputs(engine_outputs)
    warning = strategy_advice.warning(table.state, event)
    if warning is not None:
        outputs = tuple(
            replace(o, warning=warning) if isinstance(o, DecisionMade) else o for o in outputs
        )
    round_id = _round_of(new_state)
    # The engine's outputs never leave the actor: only their public form.
    public = visibility.public_outputs(outputs, table.burn_cards)
    messages = [_event_message(table, o.type, o.data(), item.source, round_id, now) for o in public]
    if any(isinstance(o, RoundSettled) for o in outputs):
        table.alarms.clear()
    elif outputs and (item.source == "shoe" or event.type in ("manual_card", "hold_release")):
        # A card taken, from the shoe or entered by a pit boss, or a held card
        # removed, answers a card alarm.
        table.alarms.answered("shoe-card")
    if any(isinstance(o, RoundHeld) and o.reason == "card_unread" for o in outputs):
        advice = REFUSAL_ADVICE["card_unread"]
        messages.append(_raise_alarm(table, "card_unread", advice, "shoe-card", round_id, now))
    # A typed event's JSON is ``raw`` already; a request's is its event's.
    body = raw if event is item.event else event_to_json(event) | journal_keys(item.identity)
    outcome, answer = _answered(table, item, new_state, Outcome(True, 0, outputs=public))
    record = Record(
        table.id,
        iso(now),
        item.source,
        "event",
        body,
        "accepted",
        detail=warning,
        by=item.by,
        why=item.why,
    )
    seq = table.write(record, messages, answer)
    table.state = new_state
    table.stats.remember(outputs, now)
    for out, message in zip(outputs, messages[: len(outputs)], strict=True):
        if isinstance(out, RoundSettled):
            table.last_result = message.payload
    if any(o.type == table_fold.OPENING_CHANGED for o in outputs):
        table.opening_since = iso(now)
    return replace(outcome, seq=seq)


def _refused(
    table: WritingTable, item: Command, raw: dict[str, Any], rejected: Rejected, now: datetime
) -> Outcome:
    round_id = _round_of(table.state)
    face = visibility.withheld_face(raw, table.state, table.burn_cards)
    echoed, detail = visibility.public_refusal(raw, rejected.detail, face)
    data = {"reason": rejected.reason, "detail": detail, "event": echoed}
    messages = [_event_message(table, "rejected", data, item.source, round_id, now)]
    if item.source in DEVICES and rejected.reason in REFUSAL_ADVICE:
        card = visibility.WITHHELD[face] if face else raw.get("card", "?")
        advice = REFUSAL_ADVICE[rejected.reason].format(card=card)
        messages.append(_raise_alarm(table, rejected.reason, advice, "shoe-card", round_id, now))
    refusal = Outcome(False, 0, rejected.reason, detail)
    outcome, answer = _answered(table, item, table.state, refusal)
    record = Record(
        table.id,
        iso(now),
        item.source,
        "event",
        raw,
        "rejected",
        rejected.reason,
        rejected.detail,
        item.by,
        item.why,
    )
    seq = table.write(record, messages, answer)
    in_play = table.state is not None and not table.state.round_over
    if item.source == "shoe" and rejected.reason == "impossible_card" and in_play:
        # The round stops until a pit boss has seen the card: an input of its
        # own, so the hold is in the journal and a restart keeps it.
        command(table, Command("station", HoldRound("impossible_card")), now)
    return replace(outcome, seq=seq)


def _answered(
    table: WritingTable, item: Command, state: table_fold.TableState | None, outcome: Outcome
) -> tuple[Outcome, Answer | None]:
    """The outcome with the table as it is after the input, and the answer
    to keep for the request's idempotency key, for a command that is answered."""
    if item.expect is None and item.key is None:
        return outcome, None
    view = round_state(
        table.id,
        state,
        msg_seq=table.msg_seq,
        at=table.changed_at,
        # The step's timer starts once the input is in.
        timer_ends=table.timer.ends_after(state),
        alarms=table.alarms.active,
    )
    outcome = replace(outcome, state=None if view is None else view.model_dump(mode="json"))
    if item.key is None:
        return outcome, None
    return outcome, answer_to_keep(item.key, outcome)


def device(table: WritingTable, change: DeviceChange, now: datetime) -> None:
    """Journal a device going online or offline (not a repeat of its state);
    offline raises the alarm that tells the croupier what to do."""
    state: DeviceState = "online" if change.online else "offline"
    known = table.devices.get(change.device)
    if known is not None and known[0] == state:
        return
    table.devices[change.device] = (state, iso(now))
    round_id = _round_of(table.state)
    body = {"device": change.device, "state": state, "detail": change.detail}
    messages = [_event_message(table, "device", body, "station", round_id, now)]
    source = f"{change.device}-device"
    if change.online:
        table.alarms.answered(source)
    else:
        advice = OFFLINE_ADVICE[change.device]
        code = f"{change.device}_offline"
        messages.append(_raise_alarm(table, code, advice, source, round_id, now))
    table.write(Record(table.id, iso(now), change.device, "device", body, "note"), messages)


def alarm(table: WritingTable, item: Alarm, now: datetime) -> Outcome:
    """Journal and raise an alarm, or refuse a person's alarm meant for a step
    the table has left."""
    round_id = _round_of(table.state)
    body: dict[str, Any] = {"code": item.code, "message": item.message}
    stale = item.expect.stale(table.state) if item.expect is not None else None
    if stale is not None:
        data = {"reason": "stale", "detail": stale, "event": {"type": "alarm", **body}}
        refused = _event_message(table, "rejected", data, item.source, round_id, now)
        record = Record(table.id, iso(now), item.source, "alarm", body, "rejected", "stale", stale)
        return Outcome(False, table.write(record, [refused]), "stale", stale)
    message = _raise_alarm(table, item.code, item.message, item.source, round_id, now, item.count)
    if item.count != 1:
        body["count"] = item.count
    seq = table.write(Record(table.id, iso(now), item.source, "alarm", body, "note"), [message])
    return Outcome(True, seq)


def _raise_alarm(
    table: WritingTable,
    code: str,
    message: str,
    source: str,
    round_id: str | None,
    now: datetime,
    count: int = 1,
) -> OutMessage:
    table.alarms.raise_alarm(ActiveAlarm(code, message, source, iso(now)))
    data: dict[str, Any] = {"code": code, "message": message}
    if count != 1:
        data["count"] = count
    return _event_message(table, "alarm", data, "station", round_id, now)


def _round_of(state: table_fold.TableState | None) -> str | None:
    if state is None or state.round is None:
        return None
    round_id: str = state.round.round_id
    return round_id


def _event_message(
    table: WritingTable, kind: str, data: Output, source: str, round_id: str | None, now: datetime
) -> OutMessage:
    """The table's next round event: each message takes the next of its numbers."""
    table.msg_seq += 1
    return round_event(
        studio=table.studio,
        table=table.id,
        topic=table.topics.event,
        msg_seq=table.msg_seq,
        kind=kind,
        data=data,
        source=source,
        round_id=round_id,
        at=now,
    )
