"""A table's own timer: the betting window, the insurance offer, the decision due.

One timer at a time, for the step the table waits at. When it runs out the table
gets an input of its own (``source: timer``): bets close, insurance closes, or
the player who did not decide plays the variant's basic strategy. Like every
other input it is journaled, so a restart does not fire it twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from dealer_station import strategy_advice
from dealer_station.clock import Clock
from dealer_station.config import TimersConfig
from dealer_station.games.events import CloseBets, CloseInsurance, Event
from dealer_station.games.table import TableState


def step_key(state: TableState) -> tuple[str, ...]:
    """Which step a table waits at: a timer belongs to one."""
    step = state.next_step()
    round_id = "" if state.round is None else str(state.round.round_id)
    return (round_id, step.kind, step.to)


def timed_input(state: TableState, timers: TimersConfig) -> tuple[float, Event] | None:
    """How long the table waits at its step, and what it does then, or None for
    a step that waits for a person (a card, a spin) however long it takes."""
    step = state.next_step()
    if step.kind == "bets":
        return timers.betting_seconds, CloseBets(reason="timer")
    if step.kind == "insurance":
        return timers.insurance_seconds, CloseInsurance()
    if step.kind == "decision":
        return timers.decision_seconds, strategy_advice.timeout_decision(state, step)
    return None


@dataclass
class StepTimer:
    timers: TimersConfig
    clock: Clock
    # Called with the timer's input when it runs out (the actor's queue).
    fire: Callable[[Event], None]
    ends: datetime | None = field(init=False, default=None)
    key: tuple[str, ...] = field(init=False, default=())
    _handle: asyncio.TimerHandle | None = field(init=False, default=None, repr=False)

    def arm(self, state: TableState | None) -> None:
        """The timer of the step ``state`` waits at; one of an earlier step is
        cancelled, one of this step left running."""
        if state is None:
            return
        key = step_key(state)
        if key == self.key:
            return
        if self._handle is not None:
            self._handle.cancel()
        self._handle, self.key, self.ends = None, key, None
        timed = timed_input(state, self.timers)
        if timed is None:
            return
        delay, event = timed
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # recovering before the loop runs: run() arms it again
            self.key = ()
            return
        self.ends = self.clock() + timedelta(seconds=delay)
        self._handle = loop.call_later(delay, self.fire, event)

    def ends_after(self, state: TableState | None) -> datetime | None:
        """When the timer of the step ``state`` waits at ends, as far as it is
        known now: a step that has not had its timer yet shows none."""
        if state is None or self.key != step_key(state):
            return None
        return self.ends
