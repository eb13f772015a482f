"""The odds the monitor tests against, from published figures.

Sources:

- Wizard of Odds, Baccarat (wizardofodds.com/games/baccarat/basics/), 8 decks:
  Banker 2,292,252,566,437,888, Player 2,230,518,282,592,256, Tie
  475,627,426,473,216 of 4,998,398,275,503,360 deals; house edge Banker 1.06%
  (1.0579%), Player 1.24% (1.2351%) (the same figures tests/games cite);
  Tie at 8 to 1: 14.36%; a pair at 11 to 1: 10.36%.
- Wizard of Odds, "Blackjack Appendix 2B: Dealer Probabilities"
  (wizardofodds.com/games/blackjack/appendix/2b/), 1 deck, dealer stands on
  soft 17, the dealer's bust and blackjack chances per up-card before the peek
  (ace: bust 0.11654, blackjack 0.313726; 2: 0.352973, 0; 7: 0.259854, 0; ten:
  0.214264, 0.0784314).
- European roulette (docs/rules.md): every bet type's house edge is 1/37
  (2.70%); a straight up returns 36 times its stake 1 time in 37.
- A natural (a two-card 8 or 9, docs/rules.md) counted here by hand over the
  pairs of cards of one deck, independently of the monitor's formula.
"""

from __future__ import annotations

import itertools
import random

import pytest

from dealer_station.games.cards import RANKS, SUITS
from dealer_station.integrity.hold import baccarat_moments, roulette_moments
from dealer_station.integrity.monitor import Monitor
from dealer_station.integrity.observations import (
    BaccaratCoup,
    Bet,
    DealerHand,
    Settled,
    TableChosen,
)
from dealer_station.integrity.outcomes import (
    MIN_HANDS_PER_UP_CARD,
    baccarat_chances,
    bust_chances,
)

TOTAL_8 = 4_998_398_275_503_360


def test_baccarat_winners_are_wizard_of_odds_eight_deck_figures() -> None:
    p = baccarat_chances(8)
    assert p["banker"] == pytest.approx(2_292_252_566_437_888 / TOTAL_8, rel=1e-12)
    assert p["player"] == pytest.approx(2_230_518_282_592_256 / TOTAL_8, rel=1e-12)
    assert p["tie"] == pytest.approx(475_627_426_473_216 / TOTAL_8, rel=1e-12)


def test_a_natural_is_counted_over_the_pairs_of_one_deck() -> None:
    def value(rank: str) -> int:
        return 0 if rank in "TJQK" else RANKS.index(rank) + 1

    deck = [r for _ in SUITS for r in RANKS]
    pairs = list(itertools.permutations(range(52), 2))
    naturals = sum((value(deck[a]) + value(deck[b])) % 10 >= 8 for a, b in pairs)
    assert baccarat_chances(1)["natural"] == pytest.approx(naturals / len(pairs), rel=1e-12)


def test_dealer_bust_given_no_blackjack_is_appendix_2b_s() -> None:
    published = {
        0: (0.11654, 0.313726),
        1: (0.352973, 0.0),
        6: (0.259854, 0.0),
        9: (0.214264, 0.0784314),
    }
    ours = bust_chances(1, False)
    for up, (bust, blackjack) in published.items():
        assert ours[up] == pytest.approx(bust / (1 - blackjack), abs=2e-6)


def test_roulette_moments_give_the_published_edge_and_the_exact_variance() -> None:
    moments = roulette_moments("european-roulette")
    for spot, numbers in (
        ("straight", (17,)),
        ("red", ()),
        ("dozen", (2,)),
        ("corner", (1, 2, 4, 5)),
    ):
        mean, _ = moments([Bet(spot, 10.0, 0.0, numbers)])
        assert mean == pytest.approx(10.0 / 37, rel=1e-12)
    _, var = moments([Bet("straight", 1.0, 0.0, (17,))])
    # The house's net: +1 36 times in 37, -35 once; mean 1/37.
    assert var == pytest.approx((36 * (1 - 1 / 37) ** 2 + (-35 - 1 / 37) ** 2) / 37, rel=1e-12)
    # Red and black together: the house wins both only on zero; the net never varies otherwise.
    _, var = moments([Bet("red", 1.0, 0.0), Bet("black", 1.0, 0.0)])
    assert var == pytest.approx((36 * (0 - 2 / 37) ** 2 + (2 - 2 / 37) ** 2) / 37, rel=1e-12)


def test_baccarat_moments_give_the_published_edges() -> None:
    moments = baccarat_moments("live-baccarat", None)
    assert moments([Bet("banker", 1.0, 0.0)])[0] == pytest.approx(0.010579, abs=5e-7)
    assert moments([Bet("player", 1.0, 0.0)])[0] == pytest.approx(0.012351, abs=5e-7)
    assert moments([Bet("tie", 1.0, 0.0)])[0] == pytest.approx(0.1436, abs=5e-5)
    assert moments([Bet("player_pair", 1.0, 0.0)])[0] == pytest.approx(0.1036, abs=5e-5)


RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}


def _roulette_day(rng: random.Random, rounds: int, rigged: bool) -> list[Settled]:
    out = []
    for _ in range(rounds):
        n = rng.randrange(37)
        # A rigged table pays red 0.9 to 1 instead of 1 to 1.
        red = (19.0 if rigged else 20.0) if n in RED else 0.0
        bets = (Bet("straight", 1.0, 36.0 if n == 17 else 0.0, (17,)), Bet("red", 10.0, red))
        out.append(Settled("r-1", "2026-12-01", "roulette", bets, n))
    return out


def test_a_hold_far_above_the_odds_is_an_alarm_and_a_fair_day_is_not() -> None:
    for rigged, alarmed in ((False, False), (True, True)):
        monitor = Monitor()
        monitor.feed(TableChosen("r-1", "roulette", None, None))
        monitor.feed_all(_roulette_day(random.Random(21), 20_000, rigged))
        report = monitor.report(0.01)
        (hold,) = [v for v in report.tables[0].verdicts if v.finding.test == "hold"]
        assert hold.alarm is alarmed, hold.words(0.01)
        assert "where the odds give 2.70%" in hold.words(0.01)


def test_baccarat_and_blackjack_outcomes_far_from_the_odds_raise_alarms() -> None:
    rng = random.Random(22)
    monitor = Monitor()
    monitor.feed(TableChosen("b-1", "baccarat", None, None))
    monitor.feed(TableChosen("j-1", "blackjack", None, None))
    for _ in range(2000):
        # Banker wins half the time, ties never: a stacked shoe's pattern.
        winner = "banker" if rng.random() < 0.5 else "player"
        monitor.feed(BaccaratCoup("b-1", winner, rng.random() < 0.34, rng.random() < 0.34))
        # The dealer never busts with a six up.
        monitor.feed(DealerHand("j-1", 5, False))
    alarms = {(v.finding.subject, v.finding.test) for v in monitor.report(0.01).alarms}
    assert ("b-1", "baccarat.winners") in alarms
    assert ("j-1", "blackjack.dealer_bust") in alarms


def test_a_blackjack_table_works_its_bust_odds_out_when_it_is_chosen() -> None:
    """The odds and their caches (some 7 MiB) are taken as the station starts,
    not hours into play at the first report with enough hands (docs/memory.md)."""
    bust_chances.cache_clear()
    monitor = Monitor()
    monitor.feed(TableChosen("j-1", "blackjack", None, None))
    chosen = bust_chances.cache_info()
    assert chosen.misses == 1
    for _ in range(MIN_HANDS_PER_UP_CARD):
        monitor.feed(DealerHand("j-1", 5, False))
    verdicts = monitor.report(0.01).tables[0].verdicts
    (bust,) = [v for v in verdicts if v.finding.test == "blackjack.dealer_bust"]
    assert bust.finding.sample == MIN_HANDS_PER_UP_CARD
    assert bust_chances.cache_info() == chosen
