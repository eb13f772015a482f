"""The shoe's composition at its end, and the shuffle against the shoe before.

The composition is the variant's: live-baccarat deals from 8 decks
(docs/sources/live-baccarat.cs.txt, restated in docs/rules.md), so each of the
52 cards is in it 8 times, 416 cards in all.
"""

from __future__ import annotations

import random

from dealer_station.autoplay import Autoplay
from dealer_station.games import table
from dealer_station.games.cards import RANKS, SUITS
from dealer_station.games.events import CountOut, Shuffle, event_to_json
from dealer_station.integrity.monitor import Monitor, Report
from dealer_station.integrity.observations import (
    CardOut,
    Observation,
    ShoeEnd,
    TableChosen,
    observe,
)

LEVEL = 0.01
EIGHT_DECKS = [r + s for s in SUITS for r in RANKS] * 8


def _report(observations: list[Observation]) -> Report:
    monitor = Monitor()
    monitor.feed(TableChosen("b-1", "baccarat", None, None))
    monitor.feed_all(observations)
    return monitor.report(LEVEL)


def _shoe(cards: list[str], end: ShoeEnd) -> list[Observation]:
    return [*(CardOut("b-1", c) for c in cards), end]


def _shuffled(seed: int) -> list[str]:
    cards = list(EIGHT_DECKS)
    random.Random(seed).shuffle(cards)
    return cards


def _composition(report: Report) -> list[str]:
    return [
        v.words(LEVEL) for v in report.tables[0].verdicts if v.finding.test == "shoe.composition"
    ]


def test_a_whole_shoe_run_out_is_as_it_should_be() -> None:
    report = _report(_shoe(_shuffled(1), ShoeEnd("b-1", "empty", ())))
    assert not report.alarms
    assert _composition(report) == [
        "b-1, shoe 1 (ended by empty): 416 cards out and 0 left make the 8 decks: as it should be."
    ]


def test_one_missing_card_is_named_at_the_shoe_s_end() -> None:
    cards = _shuffled(2)
    cards.remove("QH")
    report = _report(_shoe(cards, ShoeEnd("b-1", "empty", ())))
    (words,) = _composition(report)
    assert words.startswith("ALARM")
    assert "1 card(s) of the 8 decks never came out" in words and ": QH." in words


def test_the_cards_counted_out_at_a_shuffle_close_the_count() -> None:
    cards = _shuffled(3)
    dealt, left = cards[:300], cards[300:]
    assert not _report(_shoe(dealt, ShoeEnd("b-1", "shuffle", tuple(left)))).alarms
    short = _report(_shoe(dealt, ShoeEnd("b-1", "shuffle", tuple(left[1:]))))
    assert short.alarms and left[0] in _composition(short)[0]


def test_a_foreign_card_refused_by_the_rules_is_an_extra_card_even_uncounted() -> None:
    cards = _shuffled(4)[:200]
    observations: list[Observation] = [CardOut("b-1", c) for c in cards]
    observations.insert(50, CardOut("b-1", "AS", refused=True))
    observations.append(ShoeEnd("b-1", "shuffle"))
    extra = [c for c in cards if c == "AS"]
    report = _report(observations)
    if len(extra) + 1 <= 8:
        # The shoe can hold one more ace of spades: uncounted, nothing is known.
        assert not any(v.finding.test == "shoe.composition" for v in report.tables[0].verdicts)
    full = _shuffled(5)
    observations = [CardOut("b-1", c) for c in full]
    observations.insert(10, CardOut("b-1", "AS", refused=True))
    observations.append(ShoeEnd("b-1", "shuffle"))
    (words,) = _composition(_report(observations))
    assert words.startswith("ALARM") and "1 AS too many" in words


def test_an_unread_card_entered_by_the_pit_boss_takes_its_place() -> None:
    cards = _shuffled(6)
    observations: list[Observation] = [CardOut("b-1", c) for c in cards]
    observations[100:101] = [CardOut("b-1", None), CardOut("b-1", cards[100], manual=True)]
    observations.append(ShoeEnd("b-1", "empty", ()))
    entered = _report(observations)
    assert not entered.alarms
    assert "unread" not in _composition(entered)[0]
    # Entered, it is known: a card missing besides it is not excused by it.
    del observations[200]
    assert _report(observations).alarms
    # Unread and never entered (the round voided): its value is unknown, no alarm.
    observations = [CardOut("b-1", c) for c in cards]
    observations[100] = CardOut("b-1", None)
    observations.append(ShoeEnd("b-1", "empty", ()))
    report = _report(observations)
    assert not report.alarms
    assert "1 unread and never entered" in _composition(report)[0]


def test_a_shoe_removed_and_put_back_is_one_shoe() -> None:
    cards = _shuffled(7)
    observations = [
        *(CardOut("b-1", c) for c in cards[:100]),
        ShoeEnd("b-1", "removed"),
        *(CardOut("b-1", c) for c in cards[100:]),
        ShoeEnd("b-1", "empty", ()),
    ]
    report = _report(observations)
    assert not report.alarms
    assert len(_composition(report)) == 1
    assert not [s for s in report.tables[0].skipped if s.test == "shoe.composition"]


def test_the_cards_counted_out_are_the_end_of_the_shoe_s_order() -> None:
    """A shoe put back unshuffled, cut where the count-out began: its first
    cards are the ones counted out, in the order counted."""
    first = _shuffled(14)
    observations = _shoe(first[:312], ShoeEnd("b-1", "shuffle", tuple(first[312:])))
    observations += [CardOut("b-1", c) for c in first[312:372]]
    found = {v.finding.test for v in _report(observations).alarms}
    assert {"shoe.shuffle", "shoe.repeated_run"} <= found


def test_an_unshuffled_shoe_and_a_shuffled_one() -> None:
    first = _shuffled(8)
    fair = _report(
        _shoe(first, ShoeEnd("b-1", "empty", ())) + _shoe(_shuffled(9), ShoeEnd("b-1", "empty", ()))
    )
    assert not fair.alarms, [v.words(LEVEL) for v in fair.alarms]
    # The same order again, cut once (the shoe's back half first): not shuffled.
    again = first[170:] + first[:170]
    same = _report(
        _shoe(first, ShoeEnd("b-1", "empty", ())) + _shoe(again[:300], ShoeEnd("b-1", "shuffle"))
    )
    found = {v.finding.test: v for v in same.alarms}
    # Every pair but the one across the cut is kept; the cut's may be kept by chance.
    assert found["shoe.shuffle"].finding.statistic >= 298
    assert found["shoe.repeated_run"].finding.statistic >= 246


def test_a_stacked_run_of_twenty_cards_is_caught() -> None:
    first = _shuffled(10)
    second = _shuffled(11)
    # Twenty cards of the first shoe, in their order, put back into the second.
    run = first[200:220]
    rest = list(second)
    for c in run:
        rest.remove(c)
    stacked = rest[:150] + run + rest[150:]
    report = _report(
        _shoe(first, ShoeEnd("b-1", "empty", ())) + _shoe(stacked, ShoeEnd("b-1", "empty", ()))
    )
    (alarm,) = report.alarms
    assert alarm.finding.test == "shoe.repeated_run"
    assert alarm.finding.statistic >= 20


def test_a_journal_read_from_mid_shoe_audits_from_the_next_shoe_on() -> None:
    """No table event (a --since cut): the shoe in play is not audited, the next is."""
    from dealer_station.integrity.observations import Settled

    cards = _shuffled(12)
    monitor = Monitor()
    monitor.feed(Settled("b-1", "2026-12-01", "baccarat", ()))
    monitor.feed_all([CardOut("b-1", c) for c in cards[200:]])
    monitor.feed(ShoeEnd("b-1", "empty", ()))
    monitor.feed_all(_shoe(_shuffled(13), ShoeEnd("b-1", "empty", ())))
    report = monitor.report(LEVEL)
    assert not report.alarms
    assert len(_composition(report)) == 1


def _played_shoe(lose: bool) -> tuple[Report, str | None]:
    """A baccarat shoe dealt by the rules engine to its cut card and counted out
    through the scanner before the shuffle (``count_out``), fed to the monitor
    as a journal holds it; ``lose``: one of the cards behind the cut card fell
    on the floor and was never read (which one, returned)."""
    auto = Autoplay("baccarat", seed=11, table="b-1", count_out=True)
    monitor = Monitor()
    state: table.TableState | None = None
    lost = None
    while True:
        event = auto.next_event(state)
        if isinstance(event, CountOut) and lose:
            assert auto.shoe is not None
            lost = str(auto.shoe.cards.pop(0))
        state, outputs = table.apply(state, event)
        body = event_to_json(event)
        monitor.feed_all(observe("b-1", AT, "shoe", "event", "accepted", None, body, outputs))
        if isinstance(event, Shuffle) and state.rounds_started:
            return monitor.report(LEVEL), lost


AT = "2026-12-02T10:00:00Z"


def test_a_shoe_counted_out_through_the_scanner_is_checked_whole() -> None:
    words = _composition(_played_shoe(False)[0])
    assert words == [
        "b-1, shoe 1 (ended by shuffle): 416 cards out and 0 left make the 8 decks: "
        "as it should be."
    ]


def test_a_card_lost_before_the_count_out_is_named_at_the_shuffle() -> None:
    report, lost = _played_shoe(True)
    (words,) = _composition(report)
    assert words.startswith("ALARM") and f": {lost}." in words
    assert "1 card(s) of the 8 decks never came out" in words
