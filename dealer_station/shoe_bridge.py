"""From the shoe's link to a table's actor, and the indicator back.

The shoe link runs in its own thread and reports typed events; each becomes one
input of the table's queue. The link hands an event over before it acknowledges
it to the shoe, and this bridge returns only once the table has journaled a
card; a card the table failed on or did not journal in time is withdrawn and
refused (`EventRefused`), so the link does not acknowledge it and the shoe sends
it again: the shoe forgets a card only when the journal holds it.

The price of that order: a station that dies between journaling a card and
acknowledging it sees the shoe send that card again after the restart. Each
card carries the shoe's identity for it, a `CardIdentity` (boot id, insertion,
card index: framed protocol, version 2), which no other card of any shoe, boot or
insertion shares, and is journaled with it. A card is dropped as a duplicate only
when a card of that whole identity is journaled: the identities of the table's
last shoe events are read from the journal at the start (they hold everything a
shoe can still resend: its queue is 64 messages) and each card journaled since is
added. The Bee-Tek shoe never resends and names nothing, so none of its cards is
ever dropped.

A noisy line refuses the same way thousands of times: the first refusal is
journaled and alarmed at once, the repeats of the next `REFUSALS_WINDOW_S` are
counted and journaled as one alarm with the count.

The indicator follows what the table waits for: green when a card is due (or,
during a count-out, while the shoe still holds cards), red otherwise, and red
before the bridge lets go of the shoe.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import NoReturn

from dealer_station.actor import TableActor
from dealer_station.config import ShoeConfig
from dealer_station.games.cards import CardError, parse_card
from dealer_station.games.events import BurnCard, CardUnread, DealCard
from dealer_station.input_identity import CardIdentity, read_card_identity
from dealer_station.table_change import TableChange
from dealer_station.table_inputs import Alarm, Command, DeviceChange, Outcome
from drivers.shoe import (
    CardDrawn,
    EventRefused,
    Indicator,
    ShoeAlarm,
    ShoeEvent,
    ShoeLink,
    ShoeOffline,
    ShoeOnline,
    ShoeState,
    open_shoe,
)
from drivers.shoe import CardUnread as ShoeCardUnread

log = logging.getLogger(__name__)

SHOE_STATE_ADVICE = {
    "cut_card": "The cut card is out: finish this round, then shuffle.",
    "empty": "The shoe is empty: shuffle a new shoe.",
    "removed": "The shoe was removed from the scanner: put it back before drawing.",
    "inserted": "The shoe is back in the scanner.",
}

# How long the link's thread waits for the journal before it gives up on a card
# (the loop is stopping, or stuck). The card is then withdrawn from the table
# and refused to the link, which does not acknowledge it: the shoe sends it
# again after its timeout, and the table has another chance.
JOURNAL_WAIT_S = 10.0

# Cards refused in a row before the croupier is alarmed: a table that fails on a
# card fails on each resend of it, and the shoe's queue fills behind it.
FAILURES_BEFORE_ALARM = 3

# Card identities remembered: four times the shoe's queue, so that every card a shoe
# can resend after a restart is among them.
REMEMBERED_CARDS = 256

# Identical refusals within this time after the first are one journal record.
REFUSALS_WINDOW_S = 10.0

# The shoe's alarms that say "the line carried something that is not a message".
LINE_REFUSALS = frozenset({"rejected_line", "malformed_message"})


def to_input(
    event: ShoeEvent, identity: CardIdentity | None = None
) -> Command | DeviceChange | Alarm:
    if isinstance(event, CardDrawn):
        try:
            card = parse_card(event.card)
        except CardError:
            # Journaled as refused (bad_card) with what the shoe really sent.
            kind = "burn" if event.burn else "card"
            return Command("shoe", {"type": kind, "card": event.card}, identity=identity)
        return Command("shoe", BurnCard(card) if event.burn else DealCard(card), identity=identity)
    if isinstance(event, ShoeCardUnread):
        return Command("shoe", CardUnread(), identity=identity)
    if isinstance(event, ShoeOnline):
        detail = " ".join(p for p in (event.vendor, event.model, event.firmware_version) if p)
        return DeviceChange("shoe", True, detail or event.protocol)
    if isinstance(event, ShoeOffline):
        return DeviceChange("shoe", False, event.reason)
    if isinstance(event, ShoeState):
        return Alarm(f"shoe_{event.state}", SHOE_STATE_ADVICE[event.state], "shoe")
    assert isinstance(event, ShoeAlarm)
    return Alarm(f"shoe_{event.code}", event.text, "shoe")


def card_identity(
    boot_id: int | None, event: CardDrawn | ShoeCardUnread
) -> CardIdentity | None:
    """The shoe's identity for a card, or None when the shoe gives it none."""
    if boot_id is None or event.insertion is None or event.shoe_index is None:
        return None
    return CardIdentity(boot_id, event.insertion, event.shoe_index)


def refusal_key(event: ShoeEvent) -> str | None:
    """What makes two refusals from the line identical, or None for an input
    that is not a refusal of the line. (No backend delivers a not-a-card: the
    framed codec decodes ranks and suits, a Bee-Tek card line that does not
    parse is an unread card, which the table must hear each time.)"""
    if isinstance(event, ShoeAlarm) and event.code in LINE_REFUSALS:
        return event.code
    return None


class CardNames:
    """The identities of the cards the journal holds, the newest
    `REMEMBERED_CARDS`, from the journaled ids (newest first) they start with."""

    def __init__(self, journaled: list[str]) -> None:
        self._order: deque[CardIdentity] = deque(maxlen=REMEMBERED_CARDS)
        self._names: set[CardIdentity] = set()
        for journal_id in reversed(journaled[:REMEMBERED_CARDS]):
            card = read_card_identity(journal_id)
            if card is not None:
                self.add(card)

    def __contains__(self, card: CardIdentity) -> bool:
        return card in self._names

    def add(self, card: CardIdentity) -> None:
        if len(self._order) == self._order.maxlen:
            self._names.discard(self._order[0])
        self._order.append(card)
        self._names.add(card)


@dataclass
class _Repeats:
    key: str
    first: Alarm
    count: int = 0
    flush: asyncio.TimerHandle | None = None


class ShoeBridge:
    def __init__(self, actor: TableActor, config: ShoeConfig) -> None:
        self.actor = actor
        self.config = config
        self.link: ShoeLink | None = None
        self.green: bool | None = None
        self.boot_id: int | None = None
        self.cards = CardNames([])
        self.duplicates_dropped = 0
        # Cards refused to the link in a row (the table did not journal them).
        self.failures = 0
        self._repeats: _Repeats | None = None
        self._closing = False
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        loop = self._loop = asyncio.get_running_loop()
        self.cards = CardNames(self.actor.journal.recent_ids(self.actor.id, "shoe",
                                                             REMEMBERED_CARDS))

        def post(event: ShoeEvent) -> None:
            # The station has the card decoded: its time to the PUBACK starts now.
            read_at = time.perf_counter()
            item, card = self._input(event)
            if item is None:
                return
            if not isinstance(item, Command):
                loop.call_soon_threadsafe(self._submit, item, refusal_key(event))
                return
            reply: concurrent.futures.Future[Outcome] = concurrent.futures.Future()
            item.reply = reply
            if isinstance(event, CardDrawn):
                item.read_at = read_at
            # Named, not shown: a log line must not carry a face-down card's value.
            what = f"{type(event).__name__} {card or '(unnamed)'}"
            try:
                loop.call_soon_threadsafe(self._submit, item, None)
                try:
                    reply.result(timeout=JOURNAL_WAIT_S)
                except concurrent.futures.TimeoutError:
                    if reply.cancel():  # the table will not journal it now
                        self._not_journaled(what, "the journal did not take it in time")
                    reply.result()  # the table has it in hand: a moment more
            except RuntimeError:  # the loop closed, or the table failed on it (logged there)
                self._not_journaled(what, "the table failed on it or is stopping")
            self.failures = 0
            if card is not None:
                self.cards.add(card)

        # The protocol's own settings, as the config's shoe section holds them
        # (drivers.shoe.BACKENDS[protocol].options).
        self.link = open_shoe(self.config.protocol, port=self.config.port, on_event=post,
                              **self.config.link_options())
        self.actor.listeners.subscribe("follow", self._follow_table)
        self.link.start()

    def _not_journaled(self, what: str, why: str) -> NoReturn:
        """Refuse a card to the link, which leaves it unacknowledged: the shoe
        sends it again. In the link's thread."""
        self.failures += 1
        if self.failures == FAILURES_BEFORE_ALARM and self._loop is not None:
            # Refused for ever the shoe would resend for ever, and only a log would
            # say so: the croupier is told (if the table can still journal an alarm).
            alarm = Alarm("shoe_card_not_journaled",
                          f"The table has not journaled the shoe's card {self.failures} times: "
                          "stop drawing and call a technician.", "shoe")
            with contextlib.suppress(RuntimeError):  # the loop closed: the station stops
                self._loop.call_soon_threadsafe(self._submit, alarm, None)
        raise EventRefused(f"table {self.actor.id}: {what} was not journaled ({why}, "
                           f"{self.failures} in a row); the shoe sends it again")

    def _input(
        self, event: ShoeEvent
    ) -> tuple[Command | DeviceChange | Alarm | None, CardIdentity | None]:
        """The table's input for ``event`` and the card's identity, or None for
        a card the journal already holds. In the link's thread."""
        if isinstance(event, ShoeOnline):
            self.boot_id = event.boot_id
        if not isinstance(event, CardDrawn | ShoeCardUnread):
            return to_input(event), None
        card = card_identity(self.boot_id, event)
        if card is not None and card in self.cards:
            self.duplicates_dropped += 1
            log.warning(
                "table %s: card %s is already journaled",
                self.actor.id,
                card,
                extra=self.actor.log_fields(),
            )
            return None, card
        return to_input(event, card), card

    # -- on the loop ------------------------------------------------------------------

    def _submit(self, item: Command | DeviceChange | Alarm, key: str | None) -> None:
        """Hand ``item`` to the table; a refusal like the last is only counted."""
        repeats = self._repeats
        if key is not None and repeats is not None and repeats.key == key:
            repeats.count += 1
            return
        self._flush_repeats()
        if key is not None:
            assert isinstance(item, Alarm)
            flush = asyncio.get_running_loop().call_later(REFUSALS_WINDOW_S, self._flush_repeats)
            self._repeats = _Repeats(key, item, flush=flush)
        # On the loop, from the link's thread: the table takes a card now if it is idle.
        self.actor.submit(item, at_once=True)

    def _flush_repeats(self) -> None:
        """Journal the refusals counted since the first, as one alarm."""
        repeats, self._repeats = self._repeats, None
        if repeats is None:
            return
        if repeats.flush is not None:
            repeats.flush.cancel()
        if repeats.count:
            first = repeats.first
            self.actor.submit(Alarm(
                first.code,
                f"{repeats.count} more like this: {first.message}",
                first.source,
                count=repeats.count,
            ))

    # -- the indicator ----------------------------------------------------------------

    def close(self) -> None:
        """Red first, so the croupier stops drawing; then let go of the shoe and
        journal the refusals still being counted. Called from another thread
        while the table still runs."""
        self._closing = True
        if self.link is None:
            return
        if self.link.supports_indicator:
            self.link.set_indicator(Indicator.RED)
        self.link.close()
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._flush_repeats)

    def _follow_table(self, change: TableChange) -> None:
        if (
            self._closing
            or self.link is None
            or not self.link.supports_indicator
            or change.state is None
        ):
            return
        kind = change.state.next_step().kind
        shoe = change.state.shoe
        green = kind == "card" or (kind == "count_out" and shoe is not None and shoe.cards_left > 0)
        if green != self.green:
            self.green = green
            self.link.set_indicator(Indicator.GREEN if green else Indicator.RED)
