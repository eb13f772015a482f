"""A table change: what one input did to a table, built once, and the order in
which it reaches everyone who follows the table.

The ordering contract
---------------------

For every input a table takes (a card, a decision, a device's change, an alarm,
its own timer), in its one writer, the table's actor:

1. **journals first.** The input's records and the round events they cause are
   committed in one SQLite transaction (the events in the outbox beside the
   records), fsync'd, before anyone hears of them. A change no listener saw is
   not lost: the outbox has its events, the journal its state.
2. **then hands one `TableChange` to its listeners, in stage order**:

   - ``publish``: the table's MQTT publisher, first and only one, because the
     studio's game server and overlays wait for its round events: it sends the
     change's events at once and its retained topics a moment later;
   - ``relay``: the station's WebSocket feed (the console, the overlay), the same
     events and retained topics, relative to the table;
   - ``follow``: whoever only watches the table: the shoe's green light, the
     self-driving croupier, the demo's wheel and shoe.

   The stages are the contract, not the order in which the station happens to
   create its parts: a listener says its stage when it subscribes, and
   `Listeners` calls every ``publish`` listener before any ``relay`` one, and so on.
3. **and answers last.** Only then is the input's sender told the outcome: the
   shoe's link thread, woken by it, acknowledges the card to the shoe (so a card
   the shoe sees acknowledged is journaled), and would otherwise take the
   interpreter lock from the publisher about to send the card's event.

A listener reads the change, never the actor: the change carries the records
and messages of the input and the table as it stands after it. What costs
(the ``round/state`` JSON, the roads) is built when a channel first asks for it,
once for all channels.

The outbox is read back only for what no change carried to a channel: the
backlog after the broker was away (the publisher, from its cursor), and a
client's view of the round in play when the station starts (the feed).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Literal

from dealer_station.games.table import TableState
from dealer_station.journal import OutMessage, Record
from dealer_station.payloads import DeviceState, RoundState
from dealer_station.table_alarms import ActiveAlarm
from dealer_station.table_messages import retained_topics, round_state, table_opening
from dealer_station.table_stats import StatsMoment

Stage = Literal["publish", "relay", "follow"]
STAGES: tuple[Stage, ...] = ("publish", "relay", "follow")


@dataclass(frozen=True, eq=False)
class TableChange:
    """One input's change, and the table as it stands after it."""

    table: str
    # What the input journaled, and the round events (in ``msg_seq`` order) it
    # put in the outbox in the same transaction. Both empty for the table as it
    # stands (`TableActor.standing`).
    records: tuple[Record, ...]
    messages: tuple[OutMessage, ...]
    state: TableState | None
    # The last round event the table has sent.
    msg_seq: int
    at: datetime
    timer_ends: datetime | None
    alarms: tuple[ActiveAlarm, ...]
    last_result: str | None
    devices: Mapping[str, tuple[DeviceState, str]]
    boot: str
    stats: StatsMoment
    # When the table took its opening state (`TableState.opening`), ISO 8601.
    opening_since: str
    # The input's `Command.read_at`, when its device said when it had it.
    read_at: float | None = None

    @cached_property
    def round_state(self) -> RoundState | None:
        return round_state(
            self.table,
            self.state,
            msg_seq=self.msg_seq,
            at=self.at,
            timer_ends=self.timer_ends,
            alarms=self.alarms,
        )

    @cached_property
    def retained(self) -> Mapping[str, str]:
        """The table's retained topics, by relative topic, as they read now."""
        return retained_topics(
            self.table,
            self.round_state,
            table_opening(self.table, self.state, self.opening_since),
            self.last_result,
            self.devices,
            self.boot,
            self.stats.stats,
        )


Listener = Callable[[TableChange], None]


@dataclass
class Listeners:
    """A table's listeners, called in stage order whatever the order in which
    they subscribed."""

    _by_stage: dict[Stage, list[Listener]] = field(
        default_factory=lambda: {stage: [] for stage in STAGES}
    )

    def subscribe(self, stage: Stage, listener: Listener) -> None:
        if stage == "publish" and self._by_stage["publish"]:
            raise ValueError("a table has one publisher")
        self._by_stage[stage].append(listener)

    def notify(self, change: TableChange) -> None:
        for stage in STAGES:
            for listener in self._by_stage[stage]:
                listener(change)
