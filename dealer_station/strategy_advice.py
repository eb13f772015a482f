"""Basic strategy at the table: the warning for a costly decision, the
decision the timer plays for a player who did not answer, and the table both
follow.

The variant decides both: ``warn_deviation_ev`` (Diamond Blackjack warns a
player who, say, stands on hard 11) and ``default_decision``. Both follow the
variant's one basic strategy table (``games/blackjack_strategy_table.build``),
the one the self-driving croupier plays and ``dealer-station odds`` prints; the
warning measures what a decision gives up against it with the combinatorial
analyser's exact values (``games/blackjack_strategy``; one hand's values take a
few hundredths of a second the first time, and are remembered).

A table takes seconds to work out, and the station's loop (every table, the
HTTP API, the MQTT acknowledgements, the watchdog) must never hold still that
long: the loop never works one out. A shipped variant's table is packaged
(``strategy_store``); any other is worked out in a child process by
``ready``, which the station awaits for every table before the tables start
and each table before it takes its first input (docs/decisions.md, "One basic strategy, never
worked out on the loop").
"""

from __future__ import annotations

import asyncio
import json
import logging
import pickle
import subprocess
import sys
import threading
from collections.abc import Iterable

from dealer_station import strategy_store
from dealer_station.config import TableConfig
from dealer_station.games import table as table_fold
from dealer_station.games.blackjack import BlackjackEngine, BlackjackRound
from dealer_station.games.blackjack_rules import BlackjackRules
from dealer_station.games.blackjack_strategy_table import BasicStrategy, build, deviation_warning
from dealer_station.games.engine import NextStep
from dealer_station.games.events import Decision, Event
from dealer_station.games.rulefile import RuleFileError
from dealer_station.games.table import TableState

log = logging.getLogger(__name__)

# The tables at hand, by variant: packaged ones once read, the others once
# worked out.
_TABLES: dict[BlackjackRules, BasicStrategy] = {}
# One build of a variant at a time: two tables of one variant wait for the
# first rather than each work it out again on the station's few cores.
_BUILDING = threading.Lock()


def known(rules: BlackjackRules) -> BasicStrategy | None:
    """The variant's table if it is at hand (worked out already, or packaged
    and read in a millisecond), else None: never works one out."""
    found = _TABLES.get(rules)
    if found is None:
        found = strategy_store.packaged(rules)
        if found is not None:
            _TABLES[rules] = found
    return found


def work_out(rules: BlackjackRules, *, apart: bool = False) -> BasicStrategy:
    """The variant's table, worked out now if it is not at hand (seconds): in
    this process, or with ``apart`` in a child process. Never on the loop's
    thread: there it raises rather than stall the loop."""
    found = known(rules)
    if found is not None:
        return found
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise RuntimeError(f"the loop does not work out the basic strategy of {rules.title!r}")
    with _BUILDING:
        found = _TABLES.get(rules)
        if found is None:
            found = _TABLES[rules] = _in_a_child(rules) if apart else build(rules)
    return found


# The child: the rules in (pickled by this module), the table's cells out.
_CHILD = """
import gc, json, pickle, sys
from dealer_station.games.blackjack_strategy_table import build
gc.disable()  # collections would only walk the solver's live values again and again
json.dump(build(pickle.load(sys.stdin.buffer)).to_data(), sys.stdout)
"""


def _in_a_child(rules: BlackjackRules) -> BasicStrategy:
    """``build(rules)`` in a process of its own. In a thread of the station's
    it still held the loop still, up to a second at a time: each garbage
    collection walks the solver's many live values, and freeing them when it
    returns is one long deallocation, both holding the interpreter lock
    (benchmarks/strategy_first_decision.py). Should the child fail to run,
    this process works the table out (slower, but the start completes)."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD],
            input=pickle.dumps(rules),
            capture_output=True,
            check=True,
            timeout=600,
        )
        return BasicStrategy.from_data(json.loads(done.stdout))
    except (OSError, subprocess.SubprocessError, ValueError, KeyError) as exc:
        said = getattr(exc, "stderr", None) or b""
        log.warning(
            "working out %r in a child process failed (%s %s); working it out here",
            rules.title,
            exc,
            said[-400:].decode(errors="replace"),
        )
        return build(rules)


async def ready(rules: BlackjackRules) -> BasicStrategy:
    """The variant's table: at hand, or worked out in a child process (seconds)
    while the loop goes on."""
    found = known(rules)
    if found is not None:
        return found
    log.info("working out the basic strategy of %r (no packaged table)", rules.title)
    return await asyncio.to_thread(work_out, rules, apart=True)


def rules_of(config: TableConfig) -> BlackjackRules | None:
    """The rules of a blackjack table as its config names them (a name or a
    variant file), None for another game or a variant that does not load (the
    table's start journals why)."""
    try:
        engine = table_fold.GAMES[config.game](config.variant, None).engine
    except (KeyError, RuleFileError):
        return None
    return engine.rules if isinstance(engine, BlackjackEngine) else None


async def prepare(tables: Iterable[TableConfig], states: Iterable[TableState | None] = ()) -> None:
    """Have every table's basic strategy at hand that the table asks (its
    warnings, its timer) or its self-driving croupier plays: at the start,
    before any table runs, so that no decision waits for one. ``tables`` as
    configured; ``states`` as recovered (a round resumed in the variant the
    journal ran, when the config names another since)."""
    wanted: dict[BlackjackRules, None] = {}
    for config in tables:
        rules = rules_of(config)
        if rules is not None and (needs_strategy(rules) or config.self_driving is not None):
            wanted[rules] = None
    for state in states:
        rules = blackjack_rules(state)
        if rules is not None and needs_strategy(rules):
            wanted[rules] = None
    await asyncio.gather(*(ready(rules) for rules in wanted))


def blackjack_rules(state: TableState | None) -> BlackjackRules | None:
    engine = state.setup.engine if state is not None else None
    return engine.rules if isinstance(engine, BlackjackEngine) else None


def needs_strategy(rules: BlackjackRules) -> bool:
    """Whether the table itself asks basic strategy (a warning or a timer)."""
    return rules.warn_deviation_ev is not None or rules.default_decision == "basic_strategy"


def _blackjack(state: TableState | None) -> tuple[BlackjackRules, BlackjackRound] | None:
    if state is None:
        return None
    engine, rnd = state.setup.engine, state.round
    if isinstance(engine, BlackjackEngine) and isinstance(rnd, BlackjackRound):
        return engine.rules, rnd
    return None


def _not_ready(rules: BlackjackRules, what: str) -> None:
    # Only a table that decides before ``ready`` ran: the start prevents it.
    log.error("the basic strategy of %r is not worked out yet: %s", rules.title, what)


def warning(state: TableState | None, event: Event) -> str | None:
    """The warning for a decision, decided before it is applied: for the hand
    it names, or the hand whose decision is due."""
    found = _blackjack(state)
    if found is None or state is None or not isinstance(event, Decision):
        return None
    rules, rnd = found
    threshold = rules.warn_deviation_ev
    if threshold is None:
        return None
    hand = event.hand
    if hand is None:
        step = state.next_step()
        hand = step.hand if step.kind == "decision" and step.hand is not None else 0
    b = rnd.box(event.box)
    if (
        hand >= len(b.hands)
        or rnd.up_card is None
        or event.action not in ("hit", "stand", "double", "split", "surrender", "stand_all")
    ):
        return None
    strategy = known(rules)
    if strategy is None:
        _not_ready(rules, "no warning for this decision")
        return None
    h = b.hands[hand]
    try:
        return deviation_warning(
            rules,
            strategy,
            h.cards,
            rnd.up_card,
            event.action,
            float(threshold),
            hands_in_box=len(b.hands),
            first_hand=hand == 0,
            doubled=h.doubled,
        )
    except ValueError:  # a hand the analyser has no decision for (21, or no cards)
        return None


def timeout_decision(state: TableState, step: NextStep) -> Decision:
    """What the decision timer plays on the hand whose decision ``step`` is:
    stand, or the variant's basic strategy."""
    assert step.box is not None and step.hand is not None  # a decision is a hand's
    found = _blackjack(state)
    action = "stand"
    if found is not None and found[0].default_decision == "basic_strategy":
        rules, rnd = found
        strategy = known(rules)
        if strategy is None:
            _not_ready(rules, "the timer stands")
        else:
            played = rnd.box(step.box).hands[step.hand]
            assert rnd.up_card is not None
            action = strategy.play(played.cards, rnd.up_card, step.options, played.doubled)
    return Decision(step.box, action, step.hand)
