"""Diamond Blackjack warns a player who makes a very bad decision (the seed's
example: standing on 11); a variant may let the decision timer play basic
strategy. Basic strategy for 11 against a 9 is to double (every published
multi-deck chart, e.g. Wizard of Odds' 4-8 deck, dealer stands on soft 17)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from support.blackjack_table import Table
from support.broker import Broker
from support.station import StationThread, config_for

from dealer_station import strategy_advice, strategy_store
from dealer_station.actor import TableActor
from dealer_station.autoplay import Autoplay
from dealer_station.config import TableConfig, TimersConfig
from dealer_station.games.blackjack_dealer import TEN
from dealer_station.games.blackjack_rules import load_variant
from dealer_station.games.blackjack_strategy_table import build
from dealer_station.games.events import Decision
from dealer_station.journal import Journal
from dealer_station.payloads import Topics
from dealer_station.round_outputs import DecisionMade
from dealer_station.table_inputs import Command


def _actor(tmp_path: Path, variant: str, decision_seconds: float = 60) -> TableActor:
    config = TableConfig(
        id="bj",
        game="blackjack",
        variant=variant,
        timers=TimersConfig(decision_seconds=decision_seconds),
    )
    actor = TableActor(config, "test", Journal(tmp_path / "j.sqlite3"), Topics("p", "t", "bj"))
    actor.recover()
    return actor


# A round whose one box holds 6 5 (eleven) against the dealer's 9: its decision is due.
ELEVEN_AGAINST_A_NINE: list[tuple[str, dict[str, object]]] = [
    ("api", {"type": "round_open", "round": "r1"}),
    ("api", {"type": "bet", "player": "ann", "spot": "main", "box": 1, "amount": "10"}),
    ("api", {"type": "bets_closed"}),
    ("shoe", {"type": "card", "card": "6S"}),
    ("shoe", {"type": "card", "card": "9C"}),
    ("shoe", {"type": "card", "card": "5D"}),
]


def _eleven_against_a_nine(actor: TableActor) -> None:
    for source, event in ELEVEN_AGAINST_A_NINE:
        outcome = actor.handle(Command(source, event))
        assert outcome is not None and outcome.accepted


def test_standing_on_eleven_is_flagged_in_the_journal_and_the_event(tmp_path: Path) -> None:
    actor = _actor(tmp_path, "diamond-blackjack")
    _eleven_against_a_nine(actor)
    outcome = actor.handle(Command("api", {"type": "decision", "box": 1, "action": "stand"}))
    assert outcome is not None and outcome.accepted  # a warning, not a refusal
    decision = next(o for o in outcome.outputs_json() if o["type"] == "decision")
    assert decision["warning"].startswith("deviates from basic strategy, EV -0.")
    record = list(actor.journal.records("bj"))[-1]
    assert record.detail == decision["warning"]
    message = json.loads(actor.journal.outbox("bj", 0, 100)[-1].payload)
    assert message["type"] == "decision" and message["data"]["warning"] == decision["warning"]


def test_the_best_decision_is_not_flagged(tmp_path: Path) -> None:
    actor = _actor(tmp_path, "diamond-blackjack")
    _eleven_against_a_nine(actor)
    outcome = actor.handle(Command("api", {"type": "decision", "box": 1, "action": "double"}))
    assert outcome is not None
    assert "warning" not in next(o for o in outcome.outputs_json() if o["type"] == "decision")


def test_variants_without_warnings_say_nothing(tmp_path: Path) -> None:
    actor = _actor(tmp_path, "standard-blackjack")
    _eleven_against_a_nine(actor)
    outcome = actor.handle(Command("api", {"type": "decision", "box": 1, "action": "stand"}))
    assert outcome is not None
    assert "warning" not in next(o for o in outcome.outputs_json() if o["type"] == "decision")


def test_the_decision_timer_can_play_basic_strategy(tmp_path: Path) -> None:
    variant = tmp_path / "patient.toml"
    variant.write_text(
        'game = "blackjack"\nextends = "standard-blackjack"\ntitle = "Basic strategy on timeout"\n'
        'default_decision = "basic_strategy"\n'
    )

    async def play() -> str:
        actor = _actor(tmp_path, str(variant), decision_seconds=0.05)
        task = asyncio.create_task(actor.run())
        _eleven_against_a_nine(actor)
        for _ in range(200):
            await asyncio.sleep(0.01)
            records = [r for r in actor.journal.records("bj") if r.source == "timer"]
            if records:
                task.cancel()
                action: str = records[0].body["action"]
                return action
        task.cancel()
        raise AssertionError("the decision timer never fired")

    assert asyncio.run(play()) == "double"


@pytest.mark.parametrize(
    ("variant", "action"),
    # Hard 11 against a ten: Live Blackjack's dealer has peeked for blackjack,
    # so doubling pays; Standard has no hole card, its blackjack would take
    # the double too, so its table hits (a chart for one game plays both alike).
    [("live-blackjack", "double"), ("standard-blackjack", "hit")],
)
def test_the_self_driving_croupier_plays_the_variants_own_basic_strategy(
    variant: str, action: str
) -> None:
    t = Table(variant)
    t.bet(1)
    t.close()
    t.deal("5S", "TD", "6C")
    assert t.state.next_step().kind == "decision"
    rules = load_variant(variant)
    assert build(rules).hard[11][TEN] == ("Dh" if action == "double" else "H")
    autoplay = Autoplay("blackjack", variant, deals_cards=False)
    assert autoplay.next_event(t.state) == Decision(box=1, hand=0, action=action)


def _house_variant(tmp_path: Path, rules: str) -> Path:
    """Live Blackjack with the timer playing basic strategy, Diamond's warning
    and ``rules``: no packaged table is for it, so it is worked out."""
    path = tmp_path / "house.toml"
    path.write_text(
        'game = "blackjack"\nextends = "live-blackjack"\ntitle = "House"\n'
        'default_decision = "basic_strategy"\nwarn_deviation_ev = "0.20"\n' + rules
    )
    return path


def test_a_decision_never_works_a_table_out_on_the_loop(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A table driven before its start had the table worked out (no station
    # does that: Station.run and TableActor.run have it ready first).
    variant = _house_variant(tmp_path, "dealer_hits_soft_17 = true\ndouble_after_split = false\n")
    built = build.cache_info().currsize
    actor = _actor(tmp_path, str(variant))
    _eleven_against_a_nine(actor)  # the timer is armed for the decision now due
    outcome = actor.handle(Command("api", {"type": "decision", "box": 1, "action": "stand"}))
    assert outcome is not None and outcome.accepted
    assert build.cache_info().currsize == built  # nothing was worked out
    rules = load_variant(str(variant))
    assert strategy_advice.known(rules) is None
    # Until it is at hand the table warns of nothing and its timer stands, and says why.
    decision = next(o for o in outcome.outputs if isinstance(o, DecisionMade))
    assert decision.warning is None
    assert "not worked out yet" in caplog.text


def test_the_loop_refuses_to_work_a_table_out(tmp_path: Path) -> None:
    rules = load_variant(
        str(_house_variant(tmp_path, "dealer_hits_soft_17 = true\nmax_hands = 3\n"))
    )

    async def on_the_loop() -> None:
        strategy_advice.work_out(rules)

    with pytest.raises(RuntimeError, match="does not work out"):
        asyncio.run(on_the_loop())
    assert strategy_advice.known(rules) is None


def test_the_start_works_out_a_table_the_package_lacks_and_the_table_plays_it(
    tmp_path: Path,
) -> None:
    # Basic strategy for 11 against a 9 when the dealer hits soft 17 and has
    # no hole card (original bets only) is still to double: Wizard of Odds'
    # "no hole card" chart.
    variant = str(_house_variant(tmp_path, "dealer_hits_soft_17 = true\n"))
    rules = load_variant(variant)
    assert strategy_store.packaged(rules) is None
    config = TableConfig(id="bj", game="blackjack", variant=variant)

    async def start_then_play() -> tuple[str, str | None]:
        await strategy_advice.prepare([config])  # what Station.run does first
        assert strategy_advice.known(rules) is not None
        actor = _actor(tmp_path, variant, decision_seconds=0.05)
        task = asyncio.create_task(actor.run())
        for source, event in ELEVEN_AGAINST_A_NINE:
            assert (await actor.command(source, event)).accepted
        for _ in range(500):
            await asyncio.sleep(0.01)
            records = [r for r in actor.journal.records("bj") if r.source == "timer"]
            if records:
                task.cancel()
                return records[0].body["action"], records[0].detail
        task.cancel()
        raise AssertionError("the decision timer never fired")

    action, warning = asyncio.run(start_then_play())
    assert action == "double" and warning is None  # basic strategy is not warned of
    # Worked out in a child process, it is the table build() works out here.
    assert strategy_advice.known(rules) == build(rules)


def test_a_station_prepares_only_what_its_tables_ask(tmp_path: Path) -> None:
    roulette = TableConfig(id="r", game="roulette")
    # The model refuses a missing variant file when the config is read; a file
    # removed after that must not stop the start either.
    broken = TableConfig.model_construct(
        id="b", game="blackjack", variant=str(tmp_path / "missing.toml")
    )
    asyncio.run(strategy_advice.prepare([roulette, broken], [None]))  # nothing, nothing raised
    # A recovered table's rules count too (a round resumed in the journal's variant).
    diamond = _actor(tmp_path, "diamond-blackjack")
    rules = strategy_advice.blackjack_rules(diamond.state)
    assert rules is not None
    asyncio.run(strategy_advice.prepare([], [diamond.state]))
    assert strategy_advice.known(rules) == strategy_store.packaged(rules)


def test_a_station_has_its_tables_strategy_at_hand_before_the_tables_run(
    broker: Broker, tmp_path: Path
) -> None:
    variant = _house_variant(tmp_path, "dealer_hits_soft_17 = true\nresplit_aces = true\n")
    rules = load_variant(str(variant))
    assert strategy_store.packaged(rules) is None
    config = config_for(
        f'[[tables]]\nid = "bj"\ngame = "blackjack"\nvariant = "{variant}"\n',
        tmp_path / "j.sqlite3",
        broker.port,
    )
    # The start works the table out first: seconds, a minute on a busy machine.
    with StationThread(config, start_timeout=180) as st:  # its tables run, their publishers started
        assert st.call(lambda: strategy_advice.known(rules)) is not None
