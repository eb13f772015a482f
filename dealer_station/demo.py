"""The demo station: three live tables on one machine, every part real.

- an MQTT broker: Debian's mosquitto when it is installed, else an embedded
  amqtt broker (the station then speaks MQTT 3.1.1, which amqtt serves);
- a baccarat and a blackjack table (any shipped blackjack variant:
  ``--blackjack-variant``), each fed by the shoe simulator on a real
  pseudo-terminal, opened through the real serial driver; the simulator draws a
  card whenever the shoe's indicator turns green, as a croupier would;
- a roulette table whose camera is a recorded wheel (``drivers/recorded_wheel.py``):
  a short clip the package carries (``demo_wheel/``), played each time the table
  waits for a spin, through the real detector;
- a self-driving croupier and players at each table (``self_driving``).

What only the demo does (launching the recorded spin, refilling the simulated
shoes when a table shuffles) it does from listeners of its own on the tables:
the station's modules know nothing of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.resources
import logging
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer_station.actor import TableActor
from dealer_station.config import (
    AuthConfig,
    CameraConfig,
    HttpConfig,
    MqttConfig,
    PitBossConfig,
    SelfDrivingConfig,
    ShoeConfig,
    StationConfig,
    TableConfig,
    TimersConfig,
    TokenConfig,
)
from dealer_station.credentials import hash_pin, hash_token, new_token
from dealer_station.demo_spins import RenderedWheel
from dealer_station.games.blackjack_rules import SHIPPED_VARIANTS, load_variant
from dealer_station.games.table import TableState
from dealer_station.station import Station
from dealer_station.table_change import TableChange
from drivers.recorded_wheel import RecordedWheel
from drivers.shoe.shuffled_shoe import shuffled_shoe
from drivers.shoe.simulator import FramedShoeSimulator
from firmware_proto import Indicator

log = logging.getLogger(__name__)

# A valid spin of the renderer's (seed 190: the ball rests on 5), 4.8 s at
# 320x240, in Motion JPEG to stay small: docs/wheel.md says how it was made.
WHEEL_CLIP = "demo_wheel/valid-190.avi"

DEFAULT_BLACKJACK_VARIANT = "standard-blackjack"

# The pace of the demo's croupier: a card every so often while the indicator is
# green, so a person can follow the deal in the console.
CARD_EVERY_S = 0.7


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class DemoBroker:
    kind: str
    port: int


class NoDemoBroker(Exception):
    """Neither broker the demo can run is installed (or not the one asked for)."""


EMBEDDED_MISSING = (
    "the embedded broker (amqtt) is not installed: it is the demo extra, "
    "pip install 'dealer-station[demo]', or install mosquitto (apt install mosquitto)"
)


def _embedded_broker_class() -> Any:
    # amqtt is the demo's extra, never a production station's dependency.
    try:
        from amqtt.broker import Broker
    except ImportError as exc:
        raise NoDemoBroker(EMBEDDED_MISSING) from exc
    return Broker


def _mosquitto(choice: str) -> str | None:
    """The mosquitto the demo runs, or None for the embedded broker; refuses
    at once (before the demo starts anything) a broker that is not installed."""
    mosquitto = shutil.which("mosquitto") or (
        "/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None
    )
    if choice == "mosquitto" and mosquitto is None:
        raise NoDemoBroker("mosquitto is not installed: use --broker embedded")
    if mosquitto is not None and choice != "embedded":
        return mosquitto
    _embedded_broker_class()
    return None


@contextlib.asynccontextmanager
async def demo_broker(workdir: Path, port: int, choice: str = "auto") -> AsyncIterator[DemoBroker]:
    mosquitto = _mosquitto(choice)
    if mosquitto is not None:
        conf = workdir / "mosquitto.conf"
        conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        process = subprocess.Popen(
            [mosquitto, "-c", str(conf)],
            stdout=subprocess.DEVNULL,
            stderr=(workdir / "mosquitto.log").open("ab"),
            # Out of the terminal's process group: Ctrl-C stops the station, which
            # says "offline" to the broker before the demo stops the broker.
            start_new_session=True,
        )
        try:
            yield DemoBroker("mosquitto", port)
        finally:
            process.terminate()
            process.wait()
        return
    broker = _embedded_broker_class()(
        {
            "listeners": {"default": {"type": "tcp", "bind": f"127.0.0.1:{port}"}},
            "plugins": {
                "amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}
            },
        }
    )
    await broker.start()
    try:
        yield DemoBroker("amqtt (embedded)", port)
    finally:
        await broker.shutdown()


@contextlib.contextmanager
def wheel_clip() -> Iterator[Path]:
    """The package's wheel clip as a file OpenCV can open, for as long as the
    demo runs (an installed package may be a zip: then it is a temporary copy)."""
    with importlib.resources.as_file(
        importlib.resources.files("dealer_station").joinpath(WHEEL_CLIP)
    ) as path:
        yield path


def launch_when_due(actor: TableActor, wheel: RecordedWheel) -> None:
    """The croupier's hand at the wheel: the recorded spin plays each time the
    table waits for one."""

    def follow(change: TableChange) -> None:
        due = change.state is not None and change.state.next_step().kind == "wheel"
        # On the loop's next turn: the camera's thread, woken, must not take the
        # interpreter lock from the publisher about to send this change.
        asyncio.get_running_loop().call_soon(wheel.spin_due, due)

    actor.listeners.subscribe("follow", follow)


def reshuffle_with_the_table(actor: TableActor, simulator: FramedShoeSimulator, decks: int) -> None:
    """When the table's shoe is shuffled (or a new one begun), the simulated
    shoe is too, as the croupier's hands would: its cards are the new shoe's."""
    out = _cards_out(actor.state)

    def follow(change: TableChange) -> None:
        nonlocal out
        before, out = out, _cards_out(change.state)
        if out == 0 and before > 0:
            simulator.cards_left = shuffled_shoe(decks, None)

    actor.listeners.subscribe("follow", follow)


def _cards_out(state: TableState | None) -> int:
    shoe = state.shoe if state is not None else None
    return 0 if shoe is None else shoe.dealt + shoe.burned


@dataclass(frozen=True)
class DemoCredentials:
    """Made fresh for each demo and printed: never a secret in the code."""

    tokens: dict[str, str]
    pin: str

    @classmethod
    def new(cls) -> DemoCredentials:
        roles = ("croupier", "pit_boss", "game_server", "viewer")
        return cls({role: new_token() for role in roles}, f"{secrets.randbelow(10**4):04d}")

    def auth(self) -> AuthConfig:
        return AuthConfig(
            tokens=[
                TokenConfig(name=f"demo-{role.replace('_', '-')}", role=role, sha256=hash_token(t))
                for role, t in self.tokens.items()
            ],
            pit_bosses=[PitBossConfig(name="Demo Pit Boss", pin_scrypt=hash_pin(self.pin))],
        )


class UnknownVariant(ValueError):
    """A blackjack variant the station does not ship."""


def blackjack_decks(variant: str) -> int:
    """The decks of a shipped blackjack variant (its simulated shoe holds as
    many); ``UnknownVariant`` for any other name."""
    if variant not in SHIPPED_VARIANTS:
        raise UnknownVariant(
            f"no blackjack variant {variant!r}; shipped: {', '.join(SHIPPED_VARIANTS)}"
        )
    return load_variant(variant).decks


def demo_config(
    workdir: Path,
    broker: DemoBroker,
    http_port: int,
    shoes: dict[str, str],
    credentials: DemoCredentials,
    wheel: RecordedWheel,
    blackjack_variant: str = DEFAULT_BLACKJACK_VARIANT,
) -> StationConfig:
    timers = TimersConfig(betting_seconds=6, decision_seconds=6, insurance_seconds=4)

    def self_driven(table_id: str, game: str, **rules_and_devices: Any) -> TableConfig:
        """Every demo table plays itself, on timers short enough to watch."""
        return TableConfig(
            id=table_id,
            game=game,
            timers=timers,
            self_driving=SelfDrivingConfig(),
            **rules_and_devices,
        )

    return StationConfig(
        studio="demo",
        station="demo-station",
        journal=workdir / "journal.sqlite3",
        auth=credentials.auth(),
        mqtt=MqttConfig(
            host="127.0.0.1",
            port=broker.port,
            protocol="5" if broker.kind == "mosquitto" else "3.1.1",
        ),
        http=HttpConfig(host="127.0.0.1", port=http_port),
        tables=[
            self_driven("baccarat-1", "baccarat", shoe=ShoeConfig(port=shoes["baccarat-1"])),
            self_driven(
                "blackjack-1",
                "blackjack",
                variant=blackjack_variant,
                shoe=ShoeConfig(port=shoes["blackjack-1"]),
            ),
            # The station reads `wheel` instead (Station's `cameras`).
            self_driven("roulette-1", "roulette", camera=CameraConfig(source=str(wheel.clip))),
        ],
    )


def demo_shoe(decks: int, seed: int) -> FramedShoeSimulator:
    """A simulated shoe that deals for as long as the demo runs: it keeps no
    record of what it sent (a test's ground truth, here only growing memory)."""
    return FramedShoeSimulator(decks=decks, seed=seed, record=False)


async def deal_when_green(simulator: FramedShoeSimulator, decks: int) -> None:
    """The croupier's hand: a card whenever the shoe's light is green."""
    while True:
        await asyncio.sleep(CARD_EVERY_S)
        if simulator.indicator == Indicator.GREEN:
            if not simulator.cards_left:
                simulator.cards_left = shuffled_shoe(decks, None)
            simulator.draw()


async def run_demo(
    workdir: Path | None = None,
    http_port: int = 8080,
    seed: int = 1,
    broker_choice: str = "auto",
    blackjack_variant: str = DEFAULT_BLACKJACK_VARIANT,
) -> None:
    decks = {"baccarat-1": 8, "blackjack-1": blackjack_decks(blackjack_variant)}
    _mosquitto(broker_choice)
    with contextlib.ExitStack() as stack:
        kept = workdir is not None
        if workdir is None:
            workdir = Path(tempfile.mkdtemp(prefix="dealer-demo-"))
            # Last out: said once the directory is gone.
            stack.callback(print, f"dealer-station demo: {workdir} and its journal deleted")
            stack.callback(shutil.rmtree, workdir, ignore_errors=True)
        wheel = RenderedWheel(stack.enter_context(wheel_clip()), seed)
        simulators = {
            tid: stack.enter_context(demo_shoe(n, seed + i))
            for i, (tid, n) in enumerate(decks.items())
        }
        async with demo_broker(workdir, free_port(), broker_choice) as broker:
            credentials = DemoCredentials.new()
            config = demo_config(
                workdir,
                broker,
                http_port,
                {tid: sim.port for tid, sim in simulators.items()},
                credentials,
                wheel,
                blackjack_variant,
            )
            station = Station(config, cameras={"roulette-1": wheel})
            launch_when_due(station.actors["roulette-1"], wheel)
            dealers = []
            for tid, sim in simulators.items():
                reshuffle_with_the_table(station.actors[tid], sim, decks[tid])
                dealers.append(asyncio.create_task(deal_when_green(sim, decks[tid])))
            _print_where_to_look(config, broker, credentials, kept)
            try:
                await station.run()
            finally:
                for task in dealers:
                    task.cancel()


def _print_where_to_look(
    config: StationConfig, broker: DemoBroker, credentials: DemoCredentials, kept: bool
) -> None:
    base = f"http://{config.http.host}:{config.http.port}"
    croupier, viewer = credentials.tokens["croupier"], credentials.tokens["viewer"]
    watch = f"mosquitto_sub -h 127.0.0.1 -p {broker.port} -t '{config.mqtt.prefix}/#' -v"
    lines = [
        "",
        "dealer-station demo: three live tables",
        f"  broker      {broker.kind} on 127.0.0.1:{broker.port}",
        f"  watch MQTT  {watch}",
    ]
    if shutil.which("mosquitto_sub") is None:
        lines.append("              (mosquitto_sub: apt install mosquitto-clients)")
    lines.append("")
    for table in config.tables:
        lines += [
            f"  {table.id}" + (f"  ({table.variant})" if table.variant else ""),
            f"    console   {base}/console/{table.id}#token={croupier}",
            f"    overlay   {base}/overlay/{table.id}#token={viewer}",
        ]
    lines += [
        "",
        f"  pit boss    Demo Pit Boss, PIN {credentials.pin}",
        f"  API tokens  game server {credentials.tokens['game_server']}",
        f"              pit boss {credentials.tokens['pit_boss']}",
        f"  API docs    {base}/docs",
        f"  journal     {config.journal}",
        "              "
        + (
            "kept after the demo stops"
            if kept
            else "deleted when the demo stops (--dir DIR keeps it)"
        ),
        "  stop        Ctrl-C",
        "",
    ]
    print("\n".join(lines), flush=True)
