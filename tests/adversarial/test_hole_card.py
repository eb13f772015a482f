"""A player who reads every channel must not learn the hole card.

Every shipped blackjack variant with a hole card is dealt through a real
framed shoe on a real pseudo-terminal into a real station, with a real
mosquitto. While the round is in play, every byte the station sends is kept:
every MQTT message under '#', every WebSocket frame to a viewer and to a
croupier (and the snapshot a page reloaded mid-round gets), GET /state for
every role, game recall for a pit boss and the game server, and the answer to
every POST. The hole card's code must be in none of them, nor the dealer's
two-card total in anything that speaks of the dealer, until the input that
turns the card over; after it, each channel must show it. The shoe deals the
hole card's code nowhere else in the whole test, so a hit is a leak.

Rounds: a peek on a ten without dealer blackjack; an ace up, insurance, and a
dealer blackjack found by the peek; a hole card that passes the scanner unread,
entered by a pit boss, and a void. A card burnt before the first round must
never be published (the default ``burn_cards = "hidden"``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from support.broker import Broker, Subscriber
from support.station_rig import SLOW, TOKENS, Rig, running, station_config
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from dealer_station.games.blackjack import BlackjackRound
from dealer_station.games.blackjack_hand import hand_total
from dealer_station.games.blackjack_rules import load_variant
from dealer_station.games.cards import parse_card
from drivers.shoe.simulator import FramedShoeSimulator

pytestmark = pytest.mark.adversarial

TABLE = "bj"
EVENTS = f"dealer-station/test/{TABLE}/round/event"
STATE = f"dealer-station/test/{TABLE}/round/state"
ROLES = ("croupier", "pit_boss", "game_server", "viewer")
RECALL_ROLES = ("pit_boss", "game_server")
# Codes the shoe deals nowhere but where the test says. Ranks and suits that
# are no hex digit, so no serial number or hash can hold one by chance.
BURN = "QS"
# Every other card: no ace, no ten, so no player blackjack muddles a round.
FILLER = ["2S", "3S", "4S", "5S", "6S", "7S", "9S", "2H", "3H", "5H", "6H", "7H", "9H"]


def hole_card_variants() -> list[str]:
    names = []
    for item in (resources.files("dealer_station.games") / "variants").iterdir():
        name = item.name.removesuffix(".toml")
        if 'game = "blackjack"' in item.read_text() and load_variant(name).hole_card:
            names.append(name)
    return sorted(names)


@dataclass
class Plan:
    """One round: the dealer's up card and hole card, and how it ends."""

    name: str
    up: str
    hole: str
    unread: bool = False  # the hole card passes unread; a pit boss enters it, then voids

    @property
    def two_card_total(self) -> int:
        return hand_total((parse_card(self.up), parse_card(self.hole)))[0]


PLANS = [
    Plan("peek on a ten, no blackjack", "TH", "8H"),
    Plan("ace up, insurance, dealer blackjack", "AS", "KH"),
    Plan("hole card unread, entered by a pit boss, round voided", "4H", "JS", unread=True),
]


@dataclass
class Feed:
    """One WebSocket client, every frame kept."""

    role: str
    conn: ClientConnection
    frames: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self) -> None:
        try:
            while True:
                text = self.conn.recv()
                with self.lock:
                    self.frames.append(str(text))
        except ConnectionClosed:
            return

    def snapshot(self) -> list[str]:
        with self.lock:
            return list(self.frames)


def open_feed(rig: Rig, role: str) -> ClientConnection:
    conn = connect(rig.url.replace("http", "ws") + f"/tables/{TABLE}/ws", open_timeout=10)
    conn.send(json.dumps({"token": TOKENS[role]}))
    return conn


@dataclass
class Channels:
    """Everything the station sent, each item tagged with its channel."""

    rig: Rig
    mqtt: Subscriber
    feeds: list[Feed]
    http: list[tuple[str, bytes]] = field(default_factory=list)

    def _lists(self) -> list[list[tuple[str, bytes]]]:
        with self.mqtt.lock:
            mqtt = [(f"mqtt {m.topic}", m.payload) for m in self.mqtt.messages]
        feeds = [[(f"ws {feed.role}", f.encode()) for f in feed.snapshot()] for feed in self.feeds]
        return [mqtt, *feeds, list(self.http)]

    def mark(self) -> list[int]:
        """Where each channel stands now."""
        return [len(items) for items in self._lists()]

    def since(self, start: list[int], end: list[int] | None = None) -> list[tuple[str, bytes]]:
        """What each channel carried between two marks (or since one)."""
        lists = self._lists()
        ends = end or [len(items) for items in lists]
        return [item for items, a, b in zip(lists, start, ends, strict=True) for item in items[a:b]]

    def post(self, path: str, role: str, body: Any = None, status: int = 200) -> dict[str, Any]:
        answer = self.rig.post(path, role, body)
        self.http.append((f"POST {path} as {role}", answer.content))
        assert answer.status_code == status, (path, answer.status_code, answer.text)
        result: dict[str, Any] = answer.json()
        return result

    def read_everything(self, round_id: str | None) -> None:
        """What each role can ask for: the table now, and the round's recall."""
        for role in ROLES:
            answer = self.rig.get(f"/tables/{TABLE}/state", role)
            assert answer.status_code == 200
            self.http.append((f"GET /state as {role}", answer.content))
        for path in ("/tables", "/metrics"):  # whatever these answer must not leak either
            self.http.append((f"GET {path}", self.rig.get(path, "viewer").content))
        if round_id is None:
            return
        for role in RECALL_ROLES:
            for what, path in (
                ("recall", f"/tables/{TABLE}/rounds/{round_id}"),
                ("rounds", f"/tables/{TABLE}/rounds"),
            ):
                answer = self.rig.get(path, role)
                assert answer.status_code == 200, (path, answer.text)
                self.http.append((f"GET {what} as {role}", answer.content))

    def reload_a_page(self) -> None:
        """A viewer's page opened mid-round: its snapshot of the round so far."""
        with open_feed(self.rig, "viewer") as conn:
            while True:
                text = str(conn.recv(timeout=10))
                self.http.append(("ws snapshot of a reloaded page", text.encode()))
                if json.loads(text)["topic"] == "station":
                    return

    def caught_up(self) -> None:
        """Wait until MQTT and every WebSocket carry the table's last event
        and the state that follows it."""
        seq = self.rig.call(lambda: self.rig.actor(TABLE).msg_seq)

        def has(items: list[tuple[str, dict[str, Any]]]) -> bool:
            events = {p["seq"] for t, p in items if t.endswith("round/event")}
            states = {p["seq"] for t, p in items if t.endswith("round/state")}
            return (seq == 0 or seq in events) and seq in states

        def mqtt_items() -> list[tuple[str, dict[str, Any]]]:
            with self.mqtt.lock:
                return [(m.topic, json.loads(m.payload)) for m in self.mqtt.messages]

        def ws_items(feed: Feed) -> list[tuple[str, dict[str, Any]]]:
            frames = [json.loads(f) for f in feed.snapshot()]
            return [(f["topic"], f["payload"]) for f in frames]

        self.rig.wait_until(lambda: has(mqtt_items()) and all(has(ws_items(f)) for f in self.feeds))


def dealer_totals(document: Any, inside_dealer: bool = False) -> Iterator[int]:
    """Every total that speaks of the dealer: under a ``dealer`` key, or in a
    dict dealt ``to`` the dealer."""
    if isinstance(document, dict):
        if (inside_dealer or document.get("to") == "dealer") and isinstance(
            document.get("total"), int
        ):
            yield document["total"]
        for key, value in document.items():
            yield from dealer_totals(value, key == "dealer")
    elif isinstance(document, list):
        for value in document:
            yield from dealer_totals(value, inside_dealer)


def parsed(item: bytes) -> Any:
    try:
        return json.loads(item)
    except ValueError:
        return None


@dataclass
class Round:
    """What the channels carried before and after the hole card was turned over,
    and the answer to the input that turned it."""

    before: list[tuple[str, bytes]]
    after: list[tuple[str, bytes]]
    reveal_answer: bytes | None


@dataclass
class Dealer:
    """The croupier's hand at the shoe: the next card by where it goes."""

    rig: Rig
    sim: FramedShoeSimulator
    filler: list[str] = field(default_factory=lambda: list(FILLER) * 4)

    def state(self) -> Any:
        return self.rig.call(lambda: self.rig.actor(TABLE).state)

    def draw(self, code: str, *, unread: bool = False, burn: bool = False) -> None:
        before = self.rig.call(lambda: self.rig.actor(TABLE).msg_seq)
        self.sim.cards_left.append(code)
        if unread:
            self.sim.draw_unread()
        else:
            self.sim.draw(burn=burn)
        self.rig.wait_until(
            lambda: (
                self.sim.all_acknowledged()
                and self.rig.call(lambda: self.rig.actor(TABLE).msg_seq) > before
            )
        )

    def next_card(self, plan: Plan) -> str:
        rnd = self.state().round
        assert isinstance(rnd, BlackjackRound)
        if rnd.phase == "dealing" and self.state().next_step().to == "dealer":
            return plan.up if not rnd.dealer else plan.hole
        return self.filler.pop()


def play(channels: Channels, dealer: Dealer, plan: Plan) -> Round:
    """Play one round. Every action is taken after the channels caught up and
    were read; what was sent before the action that turns the hole card over is
    ``before``, what was sent after it ``after``."""
    start = channels.mark()
    boundary: list[int] | None = None
    reveal_answer: bytes | None = None

    def act(action: Callable[[], object]) -> None:
        nonlocal boundary, reveal_answer
        channels.caught_up()
        channels.read_everything(round_id)
        mark = channels.mark()
        answers = len(channels.http)
        action()
        if boundary is None and dealer.state().round.hole_card == "revealed":
            boundary = mark
            posted = channels.http[answers:]
            reveal_answer = posted[0][1] if posted else None

    opened = channels.post(f"/tables/{TABLE}/round/open", "croupier")
    round_id = opened["state"]["round"]
    for box in (1, 2):
        channels.post(
            f"/tables/{TABLE}/bets",
            "game_server",
            {"player": "p1", "spot": "main", "box": box, "amount": "10"},
        )
    channels.post(f"/tables/{TABLE}/round/close-bets", "game_server")
    page_reloaded = False
    while True:
        state = dealer.state()
        step = state.next_step()
        rnd = state.round
        if rnd.hole_card == "face_down" and not page_reloaded:
            channels.caught_up()
            channels.reload_a_page()
            page_reloaded = True
        if step.kind == "card":
            code = dealer.next_card(plan)
            unread = plan.unread and code == plan.hole
            act(lambda code=code, unread=unread: dealer.draw(code, unread=unread))
        elif step.kind == "pit_boss":
            # The place the pit boss's dialog names: where the held card goes.
            body = {"card": plan.hole, "to": step.to, "why": "card unread by the scanner"}
            act(lambda body=body: channels.post(f"/tables/{TABLE}/pit-boss/card", "pit_boss", body))
            # A double-click: the same card again, refused, must not echo it.
            act(
                lambda body=body: channels.post(
                    f"/tables/{TABLE}/pit-boss/card", "pit_boss", body, status=409
                )
            )
        elif plan.unread and rnd.hole_card == "face_down":
            why = {"why": "dealer error"}
            act(lambda why=why: channels.post(f"/tables/{TABLE}/pit-boss/void", "pit_boss", why))
        elif step.kind == "insurance":
            offer = next(o for o in rnd.offers if o.taken is None)
            body = {"box": offer.box, "player": offer.player, "offer": offer.kind}
            body["take"] = offer.box == 1
            act(lambda body=body: channels.post(f"/tables/{TABLE}/offers", "game_server", body))
        elif step.kind == "decision":
            box = int(step.to.split()[1])
            cards = len(rnd.box(box).hands[0].cards)
            action = "hit" if box == 1 and cards == 2 and "hit" in step.options else "stand"
            body = {"box": box, "action": action}
            act(lambda body=body: channels.post(f"/tables/{TABLE}/decisions", "game_server", body))
        else:
            assert step.kind == "settled", step
            break
    channels.caught_up()
    channels.read_everything(round_id)
    assert boundary is not None, f"{plan.name}: the hole card was never turned over"
    return Round(channels.since(start, boundary), channels.since(boundary), reveal_answer)


@pytest.fixture
def sim() -> Iterator[FramedShoeSimulator]:
    with FramedShoeSimulator(decks=6, seed=13, heartbeat_interval=0.2) as shoe:
        # Only the cards the test puts on top are ever dealt.
        shoe.cards_left = []
        yield shoe


@pytest.mark.parametrize("variant", hole_card_variants())
def test_no_channel_shows_the_hole_card_before_the_rules_reveal_it(
    variant: str, broker: Broker, tmp_path: Path, sim: FramedShoeSimulator
) -> None:
    assert {p.hole for p in PLANS}.isdisjoint([*FILLER, BURN, *(p.up for p in PLANS)])
    table = {
        "id": TABLE,
        "game": "blackjack",
        "variant": variant,
        "shoe": {"port": sim.port},
        "timers": SLOW,
    }
    mqtt = Subscriber(broker.port, "#")
    with running(station_config(tmp_path, broker.port, [table])) as rig:
        rig.wait_until(
            lambda: rig.call(lambda: rig.actor(TABLE).devices.get("shoe", ("",))[0]) == "online"
        )
        feeds = [Feed(role, open_feed(rig, role)) for role in ("viewer", "croupier")]
        threads = [threading.Thread(target=f.run, daemon=True) for f in feeds]
        for t in threads:
            t.start()
        channels = Channels(rig, mqtt, feeds)
        dealer = Dealer(rig, sim)
        try:
            channels.caught_up()
            dealer.draw(BURN, burn=True)
            rounds = {plan.name: play(channels, dealer, plan) for plan in PLANS}
            journal = [r.body.get("card") for r in rig.records(TABLE)]
        finally:
            for feed in feeds:
                feed.conn.close()
            mqtt.close()

    for plan in PLANS:
        seen = rounds[plan.name]
        hole = plan.hole.encode()
        leaks = [where for where, item in seen.before if hole in item]
        assert not leaks, f"{plan.name}: {plan.hole} before the reveal in {leaks}"
        totals = [
            where
            for where, item in seen.before
            if plan.two_card_total in dealer_totals(parsed(item))
        ]
        assert not totals, f"{plan.name}: the dealer's {plan.two_card_total} in {totals}"
        # The channels say a face-down card is there.
        down = {where for where, item in seen.before if b'"face":"down"' in item}
        assert {"ws viewer", "ws croupier", f"mqtt {EVENTS}"} <= down, down
        # After the reveal every channel shows the card.
        shown = {where for where, item in seen.after if hole in item}
        wanted = {
            f"mqtt {EVENTS}",
            f"mqtt {STATE}",
            "ws viewer",
            "ws croupier",
            *(f"GET /state as {role}" for role in ROLES),
            *(f"GET recall as {role}" for role in RECALL_ROLES),
        }
        assert wanted <= shown, f"{plan.name}: after the reveal no {plan.hole} in {wanted - shown}"
        # Recall of the ended round shows the hole card's own input as journaled.
        recall = [parsed(item) for where, item in seen.after if where == "GET recall as pit_boss"]
        inputs = [i["body"] for i in recall[-1]["inputs"]]
        assert any(body.get("card") == plan.hole for body in inputs), inputs
        # The answer to the POST that turned it over shows it.
        assert seen.reveal_answer is not None and hole in seen.reveal_answer
        # The station knows the card all along: the journal holds it.
        assert plan.hole in journal
    burnt = [
        where for where, item in channels.since([0] * len(channels.mark())) if BURN.encode() in item
    ]
    assert not burnt, f"the burnt {BURN} was published in {burnt}"
    assert BURN in journal
