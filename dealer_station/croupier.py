"""A self-driving croupier for a table whose cards come from a shoe.

It plays the croupier's and the players' part through the table's own input
queue, as the console and the game server would: opens rounds, places the
players' bets, decides by the variant's basic strategy, lets the timers close
betting and insurance. It never deals: cards come from the shoe (the demo's
simulator, the tests' simulator), and roulette results from the camera. The
demo runs one per table; the crash tests use it to play many rounds.
"""

from __future__ import annotations

import asyncio
import logging

from dealer_station import strategy_advice
from dealer_station.actor import TableActor
from dealer_station.autoplay import Autoplay
from dealer_station.games.events import CloseBets, Decision, PlaceBet

log = logging.getLogger(__name__)

# Steps the croupier leaves to others: the shoe, the camera, a pit boss (and
# a closed table, which a pit boss opens), or the timers (insurance is
# declined by its timer).
NOT_MINE = frozenset({"card", "wheel", "pit_boss", "closed", "insurance"})


class SelfDrivingCroupier:
    def __init__(
        self,
        actor: TableActor,
        *,
        seed: int = 1,
        pause_seconds: float = 2.0,
        think_seconds: float = 0.8,
        close_bets_early: bool = False,
    ) -> None:
        self.actor = actor
        self.pause_seconds = pause_seconds
        self.think_seconds = think_seconds
        self.close_bets_early = close_bets_early
        config = actor.config
        self.autoplay = Autoplay(
            config.game, config.variant, seed, config.id, deals_cards=False, count_out=True
        )
        self.changed = asyncio.Event()
        actor.listeners.subscribe("follow", lambda _: self.changed.set())

    async def run(self) -> None:
        rules = strategy_advice.blackjack_rules(self.actor.state)
        if rules is not None:
            # The players decide by the variant's basic strategy: have it at
            # hand (the station's start does) before the first decision.
            await strategy_advice.ready(rules)
        while True:
            await self.changed.wait()
            self.changed.clear()
            await self._act()

    async def _act(self) -> None:
        state = self.actor.state
        if state is None:
            return
        step = state.next_step()
        if step.kind in NOT_MINE:
            return
        if step.kind in ("round_open", "settled", "shuffle"):
            await asyncio.sleep(self.pause_seconds)
        elif step.kind == "decision":
            await asyncio.sleep(self.think_seconds)
        if self.actor.state is not state:
            self.changed.set()  # the table moved on while we waited: look again
            return
        try:
            event = self.autoplay.next_event(state)
        except LookupError:
            return
        if isinstance(event, CloseBets) and not self.close_bets_early:
            return  # the betting window's timer closes it
        outcome = await self.actor.command("croupier", event)
        if not outcome.accepted and not isinstance(event, PlaceBet | Decision):
            log.warning(
                "table %s refused the croupier's %s: %s",
                self.actor.id,
                event.type,
                outcome.reason,
                extra=self.actor.log_fields(),
            )
        if isinstance(event, PlaceBet):
            self.changed.set()  # the next bet, without waiting for another change
