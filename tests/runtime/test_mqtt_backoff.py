"""The broker link's reconnect delays: full jitter, so a studio's stations do not
come back in lockstep after a broker restart (issue 19). Seeded generators and
counted draws, no clock: the spread is a property of the delays, not of timing."""

from __future__ import annotations

import asyncio
import random
import statistics

import pytest
from support.broker import free_port

from dealer_station.backoff import Backoff
from dealer_station.config import MqttConfig
from dealer_station.mqtt_link import RECONNECT_DELAY_S, MqttLink

STATIONS = 100


def first_delays(attempt: int) -> list[float]:
    """The ``attempt``-th delay (1-based) of each of a hundred stations' links."""
    delays = []
    for station in range(STATIONS):
        backoff = Backoff(*RECONNECT_DELAY_S, rng=random.Random(station))
        delays.append([backoff.next() for _ in range(attempt)][-1])
    return delays


def test_a_hundred_stations_spread_their_first_retry_over_the_whole_window() -> None:
    first, _ = RECONNECT_DELAY_S
    delays = first_delays(1)
    assert all(0.0 <= d <= first for d in delays)
    # Lockstep would put every station at one instant: here no 10 % of the
    # window holds more than a fifth of them (uniform: a tenth, give or take).
    per_tenth = [sum(1 for d in delays if k / 10 <= d / first < (k + 1) / 10) for k in range(10)]
    assert max(per_tenth) <= STATIONS // 5, per_tenth
    assert min(per_tenth) >= 1, per_tenth
    # A uniform draw over [0, first] has a standard deviation of first / sqrt(12).
    assert statistics.pstdev(delays) == pytest.approx(first / 12**0.5, rel=0.25)


def test_the_cap_doubles_to_the_last_and_a_success_starts_over() -> None:
    first, last = RECONNECT_DELAY_S
    caps = [min(first * 2**n, last) for n in range(8)]
    for attempt, cap in enumerate(caps, start=1):
        delays = first_delays(attempt)
        assert all(0.0 <= d <= cap for d in delays)
        # Drawn over the whole cap, not bunched at its top like a plain doubling.
        assert min(delays) < cap / 10 and max(delays) > cap * 0.9, (attempt, cap)
    after_reset = []
    for station in range(STATIONS):
        backoff = Backoff(first, last, rng=random.Random(station))
        for _ in range(8):
            backoff.next()
        backoff.reset()
        after_reset.append(backoff.next())
    assert max(after_reset) <= first


def test_one_seed_gives_one_sequence_and_two_seeds_two() -> None:
    def sequence(seed: int) -> list[float]:
        backoff = Backoff(*RECONNECT_DELAY_S, rng=random.Random(seed))
        return [backoff.next() for _ in range(6)]

    assert sequence(3) == sequence(3)
    assert sequence(3) != sequence(4)


def test_a_back_off_refuses_bounds_it_cannot_keep() -> None:
    with pytest.raises(ValueError, match="first <= last"):
        Backoff(0.0, 1.0)
    with pytest.raises(ValueError, match="first <= last"):
        Backoff(2.0, 1.0)


class CountedBackoff(Backoff):
    """The link's own back-off, each delay it draws kept."""

    def __init__(self, seed: int) -> None:
        super().__init__(0.001, 0.004, random.Random(seed))
        self.drawn: list[float] = []

    def next(self) -> float:
        delay = super().next()
        self.drawn.append(delay)
        return delay


def test_the_link_waits_the_jittered_delays_between_attempts() -> None:
    """A link to a port where no broker listens: every failed connect draws its
    wait from the back-off it was given, the same delays a twin of the same seed
    draws."""
    backoff = CountedBackoff(seed=11)

    async def scenario() -> None:
        link = MqttLink(
            MqttConfig(host="127.0.0.1", port=free_port()),
            "backoff-test",
            name="backoff test",
            will=None,
            max_inflight=1,
            backoff=backoff,
        )
        link.start()
        for _ in range(2000):
            if len(backoff.drawn) >= 5:
                break
            await asyncio.sleep(0.005)
        await link.close()

    asyncio.run(scenario())
    assert len(backoff.drawn) >= 5
    twin = Backoff(0.001, 0.004, random.Random(11))
    assert backoff.drawn == [twin.next() for _ in backoff.drawn]
    assert len(set(backoff.drawn)) == len(backoff.drawn)


def test_the_link_tries_each_broker_in_turn_and_backs_off_once_a_round(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Three brokers of which none listens: the link tries them in the list's
    order, round after round, and draws one back-off delay per round of the
    list, not one per broker."""
    backoff = CountedBackoff(seed=5)
    ports = [free_port() for _ in range(3)]
    brokers = [f"127.0.0.1:{port}" for port in ports]

    async def scenario() -> None:
        link = MqttLink(
            MqttConfig.model_validate({"brokers": brokers}),
            "failover-test",
            name="failover test",
            will=None,
            max_inflight=1,
            backoff=backoff,
        )
        link.start()
        for _ in range(2000):
            if len(backoff.drawn) >= 3:
                break
            await asyncio.sleep(0.005)
        await link.close()

    with caplog.at_level("DEBUG", logger="dealer_station.mqtt_link"):
        asyncio.run(scenario())
    tried = [
        broker
        for record in caplog.records
        for broker in brokers
        if record.getMessage().startswith(f"failover test: no broker at {broker}:")
    ]
    assert len(tried) >= 9
    assert tried == (brokers * len(tried))[: len(tried)]
    # The draw comes with the failure that ends a round: one per three.
    assert len(backoff.drawn) == len(tried) // 3
