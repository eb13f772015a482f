"""The adapter: a journal record and its round events to observations, fed
from the real rules engine's outputs (the self-driving table's rounds)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from dealer_station.autoplay import Autoplay
from dealer_station.games import table
from dealer_station.games.events import (
    ChangeDealer,
    CloseBets,
    OpenRound,
    SelectTable,
    WheelResult,
    event_to_json,
)
from dealer_station.input_identity import SpinReading, journal_keys
from dealer_station.integrity.monitor import Monitor
from dealer_station.integrity.observations import (
    CardOut,
    CountingOut,
    DealerHand,
    Observation,
    Settled,
    ShoeEnd,
    Spin,
    TableChosen,
    event_of_payload,
    observe,
    of_round_events,
)
from dealer_station.table_messages import round_event


def _play(game: str, variant: str | None, rounds: int) -> list[tuple[dict[str, Any], list[Any]]]:
    auto = Autoplay(game, variant, seed=5, table="t-1")
    state: table.TableState | None = None
    out = []
    settled = 0
    while settled < rounds:
        event = auto.next_event(state)
        state, outputs = table.apply(state, event)
        out.append((event_to_json(event), outputs))
        settled += sum(o["type"] == "round_settled" for o in outputs)
    return out


def _observed(played: list[tuple[dict[str, Any], list[Any]]]) -> list[Observation]:
    found: list[Observation] = []
    for body, outputs in played:
        found += observe(
            "t-1", "2026-12-01T10:00:00.000Z", "shoe", "event", "accepted", None, body, outputs
        )
    return found


def test_a_blackjack_table_with_a_hole_card_gives_every_card_in_order() -> None:
    played = _play("blackjack", "blackjack-3-position", 40)
    found = _observed(played)
    cards = [o.card for o in found if isinstance(o, CardOut)]
    assert cards == [b["card"] for b, _ in played if b["type"] in ("card", "burn")]
    assert isinstance(found[0], ShoeEnd) and isinstance(found[1], TableChosen)
    settled = [o for o in found if isinstance(o, Settled)]
    assert len(settled) == 40 and all(s.day == "2026-12-01" for s in settled)
    # Each hand the dealer played out names its first card's rank class.
    for _, outputs in played:
        for o in outputs:
            if o["type"] == "round_settled" and not o["dealer"]["blackjack"]:
                first = o["dealer"]["cards"][0][0]
                assert first in "A23456789TJQK"
    hands = [o for o in found if isinstance(o, DealerHand)]
    assert 0 < len(hands) <= 40


def test_a_roulette_spin_and_its_settlement() -> None:
    played = _play("roulette", None, 5)
    found = _observed(played)
    numbers = [o.number for o in found if isinstance(o, Spin)]
    assert numbers == [b["number"] for b, _ in played if b["type"] == "wheel_result"]
    assert [o.number for o in found if isinstance(o, Settled)] == numbers


def test_a_camera_spin_gives_the_landing_distance_the_camera_journaled() -> None:
    # The record's body as the actor journals a camera result: the event and
    # the reading's keys (input_identity.journal_keys), not a copy of their names.
    reading = SpinReading(3, 0.91, rotor_rpm=27.4, release_pocket=5, landing_distance=12)
    body = event_to_json(WheelResult(17)) | journal_keys(reading)
    (spin,) = observe("t-1", "2026-12-01T10:00:00.000Z", "camera", "event", "accepted", None,
                      body, ())  # fmt: skip
    assert spin == Spin("t-1", 17, landing_distance=12, rotor_rpm=27.4)


def test_the_outbox_payload_is_the_engine_s_record() -> None:
    (_, outputs), *_ = [
        p for p in _play("baccarat", None, 1) if any(o["type"] == "round_settled" for o in p[1])
    ]
    settled = next(o for o in outputs if o["type"] == "round_settled")
    message = round_event(
        studio="s", table="t-1", topic="x", msg_seq=1, kind="round_settled",
        data={k: v for k, v in settled.items() if k != "type"}, source="shoe",
        round_id=settled["round"], at=datetime(2026, 12, 1, tzinfo=UTC),
    )  # fmt: skip
    import json

    assert event_of_payload(json.loads(message.payload)) == json.loads(json.dumps(settled))


def test_refused_and_unread_cards_and_an_emptied_shoe() -> None:
    def one(
        kind: str, status: str, reason: str | None, body: dict[str, Any], source: str = "shoe"
    ) -> list[Observation]:
        return observe("t-1", "2026-12-01T10:00:00Z", source, kind, status, reason, body, ())

    assert one("event", "rejected", "impossible_card", {"type": "card", "card": "AS"}) == [
        CardOut("t-1", "AS", refused=True)
    ]
    # A card the shoe read when none was due left the shoe all the same.
    assert one("event", "rejected", "misdeal", {"type": "burn", "card": "AS"}) == [
        CardOut("t-1", "AS", burned=True, refused=True)
    ]
    assert one("event", "rejected", "bad_card", {"type": "card", "card": "ZZ"}) == [
        CardOut("t-1", None, refused=True)
    ]
    # A card typed at the console and refused never came out of any shoe.
    assert one("event", "rejected", "misdeal", {"type": "card", "card": "AS"}, "console") == []
    assert one("event", "accepted", None, {"type": "card_unread"}) == [CardOut("t-1", None)]
    assert one("alarm", "note", None, {"code": "shoe_empty", "message": "..."}) == [
        ShoeEnd("t-1", "empty", ())
    ]
    # A shuffle says nothing of the cards left; a count-out before it read them.
    assert one("event", "accepted", None, {"type": "shuffle"}) == [ShoeEnd("t-1", "shuffle")]
    assert one("event", "accepted", None, {"type": "count_out"}) == [CountingOut("t-1")]


def _blackjack_settled(
    dealer: list[str], total: int, hands: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "type": "round_settled", "round": "t-1-000001", "game": "blackjack",
        "dealer": {"cards": dealer, "total": total, "soft": False, "blackjack": False},
        "boxes": [{"box": 1, "hands": hands}], "payouts": [],
    }  # fmt: skip


def test_a_dealer_hand_counts_only_where_the_dealer_had_to_play() -> None:
    def hands(event: dict[str, Any]) -> list[Observation]:
        found = observe("t-1", "2026-12-01T10:00:00Z", "shoe", "event", "accepted", None,
                        {"type": "decision"}, [event])  # fmt: skip
        return [o for o in found if isinstance(o, DealerHand)]

    bust = {"hand": 0, "cards": ["TD", "6S", "9H"], "total": 25, "result": "lose"}
    standing = {"hand": 0, "cards": ["TD", "8S"], "total": 18, "result": "win"}
    # Every box bust: the dealer stops at 6-9 = 15, which says nothing of busting.
    assert hands(_blackjack_settled(["6C", "9D"], 15, [bust])) == []
    assert hands(_blackjack_settled(["6C", "9D", "8H"], 23, [standing])) == [
        DealerHand("t-1", 5, True)
    ]
    assert hands(_blackjack_settled(["KC", "7D"], 17, [standing, bust])) == [
        DealerHand("t-1", 9, False)
    ]


def test_a_round_s_spin_counts_for_the_dealer_who_opened_it() -> None:
    # docs/decisions.md, "Dealer sign-on": a dealer change during a round applies
    # from the next round, so the spin of a round Ana opened is Ana's, though Ben
    # signed on before the ball landed; the next round is Ben's.
    events: list[Any] = [
        SelectTable("roulette", None, "t-1"),
        ChangeDealer("Ana P."),
        OpenRound("r1"),
        CloseBets(),
        ChangeDealer("Ben K."),
        WheelResult(7),
        OpenRound("r2"),
        CloseBets(),
        WheelResult(9),
    ]
    state: table.TableState | None = None
    monitor = Monitor()
    reading = SpinReading(1, 0.9, landing_distance=4)
    for event in events:
        state, outputs = table.apply(state, event)
        body = event_to_json(event)
        if isinstance(event, WheelResult):
            body |= journal_keys(reading)
        monitor.feed_all(
            observe("t-1", "2026-12-01T10:00:00.000Z", "camera", "event", "accepted", None,
                    body, outputs)
        )  # fmt: skip
    (report,) = monitor.report(0.01).tables
    throws = {(s.subject, s.sample) for s in report.skipped if s.test == "wheel.signature"}
    assert throws == {("t-1, dealer Ana P.", 1), ("t-1, dealer Ben K.", 1)}


def test_a_dozen_payout_reads_alike_in_the_old_form_and_the_new() -> None:
    """Journals written before name the first dozen ``"numbers": [1]``; now
    ``"dozen": 1``. The hold's observations see the same bet in both."""

    def settled(**placement: Any) -> list[Settled]:
        payout = {"player": "ann", "spot": "dozen", "stake": "5", "returns": "15", **placement}
        event = {"type": "round_settled", "game": "roulette", "number": 5, "payouts": [payout]}
        found = of_round_events("rou", "2026-12-02T00:00:00.000Z", [event])
        return [o for o in found if isinstance(o, Settled)]

    (new,) = settled(dozen=1)
    assert new.bets[0].numbers == (1,)
    assert settled(numbers=[1]) == [new]
