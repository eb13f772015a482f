"""The load benchmark's machinery (benchmarks/broker_load.py) at a tiny size: two
station processes of five self-driving baccarat tables dealt fast, a real
mosquitto, the consumer's persistent session. What it asserts is behaviour only,
what the benchmark's figures rest on: every round event of every table reached
the consumer once and in seq order, every card the hands dealt among them, and
the benchmark's own count of losses, copies and disorder agrees. Its figures
(latency, CPU) are the benchmark's to report, not this test's."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

# The benchmarks are scripts, not a package: import this one from its folder.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from broker_load import delivery, mosquitto, run_step
from load_station import Pace, Receipt

# Fast, so that a few seconds hold many rounds of every table.
PACE = Pace(card_seconds=(0.05, 0.1), betting_seconds=0.3, pause_seconds=0.1)


@pytest.mark.slow
def test_every_round_event_of_every_table_reaches_the_consumer_once_in_order(
    tmp_path: Path,
) -> None:
    with mosquitto(tmp_path / "broker") as brokers:
        result, run = run_step(
            brokers, tables=5, per_station=3, pace=PACE, warmup=1, measure=4, work=tmp_path
        )
    assert result.stations == 2
    assert sorted(run.finals) == [f"t000{n}" for n in range(1, 6)]
    for table, final in run.finals.items():
        assert final > 20, table  # several rounds each
        got = [r.seq for r in run.receipts if r.table == table and r.seq <= final]
        assert got == list(range(1, final + 1)), table
    dealt = Counter((r.table, r.seq) for r in run.receipts if r.type == "card_dealt")
    cards = [(table, seq) for table, seq, _ in run.cards if seq <= run.finals[table]]
    assert {table for table, _ in cards} == set(run.finals)
    assert all(dealt[card] == 1 for card in cards)
    assert len(cards) == sum(1 for table, seq in dealt if seq <= run.finals[table]), (
        "a card_dealt event no hand dealt, or a card the hands dealt unseen"
    )
    assert (result.lost, result.copies, result.disorder, result.refused) == (0, 0, 0, 0)
    assert result.drained
    assert result.cards > 0


def _got(*events: tuple[str, int]) -> list[Receipt]:
    return [Receipt(0.0, table, seq, f"s/{table}/{seq}", "card_dealt") for table, seq in events]


def test_the_benchmark_counts_a_loss_a_copy_and_an_event_out_of_order_by_table() -> None:
    finals = {"a": 3, "b": 2}
    assert delivery(finals, _got(("a", 1), ("b", 1), ("a", 2), ("b", 2), ("a", 3))) == (0, 0, 0)
    # b's 2 never came; a's 2 came twice, and its 3 before its 2.
    assert delivery(finals, _got(("a", 1), ("a", 3), ("a", 2), ("b", 1), ("a", 2))) == (1, 1, 1)
    # One seq in two tables is two events, neither a copy of the other.
    assert delivery({"a": 1, "b": 1}, _got(("a", 1), ("b", 1))) == (0, 0, 0)
