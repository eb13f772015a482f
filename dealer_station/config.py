"""The station's configuration: one TOML file, validated strictly.

Every model forbids unknown keys, so a typo in the file is an error that names
the key, never a silently ignored setting. Every check lives in the models'
validators: the game (`dealer_station.games.table.GAMES`), each table's variant
(the games' shipped variants, or a rule file), the shoe's protocol and its
settings (`drivers.shoe.BACKENDS`), and, for a config read from its file, what
the file names on disk: the journal's directory, the password, TLS and
calibration files. ``load_config`` gives the models the file's directory (the
validation context, `ConfigFile`); ``dealer-station run`` and ``dealer-station
config check FILE`` both call it, so they refuse the same files with the same
lines.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    NoReturn,
    Protocol,
    TypeVar,
    Union,
    get_type_hints,
)

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    create_model,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from dealer_station.games.rulefile import RuleFileError, shipped_variants
from dealer_station.games.table import GAMES
from drivers.shoe import BACKENDS
from drivers.shoe.backends import WIRED
from drivers.wheel import SENSORS

Identifier = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,62}$")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclasses.dataclass(frozen=True, slots=True)
class ConfigFile:
    """The validation context of a config read from its file: a relative path
    is relative to the file's directory, not to wherever the station starts,
    and each file the config names is checked. A config built in code (the
    demo, a test) has no context: its paths are taken as given."""

    directory: Path


def _context(info: ValidationInfo) -> ConfigFile | None:
    return info.context if isinstance(info.context, ConfigFile) else None


# A path that starts with this names a credential systemd hands the service
# (``LoadCredential=``, systemd/credentials.conf): a file in the private
# directory ``$CREDENTIALS_DIRECTORY`` names while the service runs.
CREDENTIALS = "$CREDENTIALS_DIRECTORY"


def _resolved(path: Path, info: ValidationInfo) -> Path:
    context = _context(info)
    if path.parts[:1] == (CREDENTIALS,):
        return _credential(path, context)
    return path if context is None or path.is_absolute() else context.directory / path


def _credential(path: Path, context: ConfigFile | None) -> Path:
    directory = os.environ.get("CREDENTIALS_DIRECTORY")
    if directory:
        return Path(directory).joinpath(*path.parts[1:])
    if context is None:  # a config built in code: taken as given
        return path
    _refuse(
        f"{path}: names a systemd credential, but $CREDENTIALS_DIRECTORY is not set (the "
        "station runs outside its unit, or the unit has no LoadCredential= for it)"
    )


def _refuse(problem: str) -> NoReturn:
    """A value the station could not use, said as it is ("<path>: is empty"),
    without pydantic's "Value error, " in front."""
    raise PydanticCustomError("unusable", "{problem}", {"problem": problem})


def _checked(path: Path, info: ValidationInfo, problem: Callable[[Path], str | None]) -> Path:
    """``path`` resolved against the config file's directory and, for a config
    read from its file, refused if ``problem`` finds one."""
    path = _resolved(path, info)
    if _context(info) is not None:
        found = problem(path)
        if found is not None:
            _refuse(found)
    return path


class TlsConfig(Strict):
    """TLS to the MQTT broker (docs/mqtt.md); a relative path is relative to the config file."""

    ca_file: Path | None = Field(
        None, description="The CA certificate (PEM file) the broker's is checked against."
    )
    cert_file: Path | None = Field(
        None, description="The station's client certificate (PEM file), for a broker asking one."
    )
    key_file: Path | None = Field(
        None,
        description="The private key (PEM file) of the client certificate; "
        "$CREDENTIALS_DIRECTORY/<name> is systemd's credential <name> (LoadCredential=).",
    )
    insecure: bool = Field(
        False,
        description="Skip checking the broker's certificate: only for a test broker with a "
        "self-signed certificate.",
    )

    @field_validator("ca_file", "cert_file", "key_file")
    @classmethod
    def _readable(cls, path: Path | None, info: ValidationInfo) -> Path | None:
        return None if path is None else _readable_file(path, info)


DEFAULT_MQTT_PORT = 1883


class BrokerAddress(Strict):
    """One broker of `MqttConfig.brokers`."""

    host: str = Field(min_length=1, description="The broker's host name or IP address.")
    port: int = Field(DEFAULT_MQTT_PORT, ge=1, le=65535, description="The broker's TCP port.")

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def _broker_from_text(value: object) -> object:
    """``"host:port"`` as a `BrokerAddress` table: ``"host"`` alone is port 1883,
    an IPv6 address goes in brackets (``"[::1]:1883"``)."""
    if not isinstance(value, str):
        return value
    host, colon, port = value.rpartition(":")
    if not colon or (value.startswith("[") and not host.endswith("]")):
        host, port = value, str(DEFAULT_MQTT_PORT)  # no port, or a bracketed IPv6 alone
    if not port.isdigit():
        _refuse(f"{value!r}: not host:port (the port is a number)")
    return {"host": host.removeprefix("[").removesuffix("]"), "port": int(port)}


BrokerText = Annotated[str, Field(description='"host:port", or "host" for port 1883')]
BrokerEntry = Annotated[
    BrokerAddress,
    BeforeValidator(_broker_from_text, json_schema_input_type=BrokerText | BrokerAddress),
]


class MqttConfig(Strict):
    """The MQTT broker the station publishes to (docs/mqtt.md)."""

    host: str = Field("localhost", description="The broker's host name or IP address.")
    port: int = Field(DEFAULT_MQTT_PORT, ge=1, le=65535, description="The broker's TCP port.")
    brokers: list[BrokerEntry] | None = Field(
        None,
        min_length=1,
        description="Brokers to fail over between, in order, instead of host and port: "
        '["mq1:1883", "mq2:1883"] or tables with host and port (docs/mqtt.md, Failover). '
        "Credentials and TLS apply to each.",
    )
    protocol: Literal["5", "3.1.1"] = Field(
        "5", description='The MQTT protocol version: "5", or "3.1.1" for older brokers.'
    )
    prefix: str = Field(
        "dealer-station",
        description="The first level of every topic: topics are <prefix>/<studio>/<table>/...",
    )
    username: str | None = Field(None, description="The user name the station logs in with.")
    password: str | None = Field(
        None, description="The password the station logs in with (or give password_file)."
    )
    password_file: Path | None = Field(
        None,
        description="A file holding the password, so the config itself can be world-readable; "
        "$CREDENTIALS_DIRECTORY/<name> is systemd's credential <name> (LoadCredential=).",
    )
    tls: TlsConfig | None = Field(None, description="TLS to the broker; absent means plain TCP.")
    keepalive: int = Field(
        15, ge=5, le=600, description="The MQTT keep-alive interval, in seconds."
    )

    @field_validator("password_file")
    @classmethod
    def _password_usable(cls, path: Path | None, info: ValidationInfo) -> Path | None:
        return None if path is None else _checked(path, info, _password_problem)

    @model_validator(mode="after")
    def _one_password(self) -> MqttConfig:
        if self.password is not None and self.password_file is not None:
            raise ValueError("give password or password_file, not both")
        return self

    @model_validator(mode="after")
    def _one_broker_list(self) -> MqttConfig:
        if self.brokers is not None and self.model_fields_set & {"host", "port"}:
            raise ValueError("give host and port, or brokers, not both")
        return self

    def addresses(self) -> list[BrokerAddress]:
        """The brokers to try, in order: ``brokers``, or ``host`` and ``port`` as a
        list of one."""
        return self.brokers or [BrokerAddress(host=self.host, port=self.port)]

    def resolved_password(self) -> str | None:
        if self.password_file is not None:
            return self.password_file.read_text(encoding="utf-8").strip()
        return self.password


class PortDeviceConfig(Strict):
    """A device on a serial port that speaks one of its kind's protocols."""

    port: str
    protocol: str

    def link_options(self) -> dict[str, Any]:
        """The protocol's own settings, as the driver's ``open`` takes them."""
        return self.model_dump(exclude={"port", "protocol"})


class ShoeConfig(PortDeviceConfig):
    """A table's card shoe on a serial port (docs/shoe.md): what the shoes of every
    protocol have. Each protocol of `drivers.shoe.BACKENDS` has its model below,
    this plus the protocol's own settings; built in code without a protocol
    (``ShoeConfig(port=...)``), a table takes it as the default protocol's."""

    port: str = Field(
        description="The shoe's serial port: a udev name (/dev/dealer-shoe) or any pyserial URL."
    )
    protocol: str = Field(
        BACKENDS.default, description="The shoe's serial protocol, a name of drivers.shoe.BACKENDS."
    )


class WheelSensorConfig(PortDeviceConfig):
    """A roulette wheel's own sensor on a serial port (docs/wheel_sensor.md), as
    `ShoeConfig` is for a shoe: one model per protocol of `drivers.wheel.SENSORS`."""

    port: str = Field(
        description="The wheel controller's serial port: a udev name (/dev/dealer-wheel) or "
        "any pyserial URL."
    )
    protocol: str = Field(
        SENSORS.default,
        description="The wheel sensor's line protocol, a name of drivers.wheel.SENSORS.",
    )


class _Protocol(Protocol):
    """A registry's entry for one protocol, as a config model is built from it."""

    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def options(self) -> Any: ...


D = TypeVar("D", bound=PortDeviceConfig)


def _protocol_config(base: type[D], what: str, entry: _Protocol, default: str) -> type[D]:
    """``base`` plus the settings of the protocol ``entry`` (its options, each
    with its default, description and bounds)."""
    name = entry.name
    hints = get_type_hints(entry.options)
    settings: dict[str, Any] = {
        f.name: (hints[f.name], Field(f.default, **f.metadata))
        for f in dataclasses.fields(entry.options)
    }
    # Only the default protocol may go unsaid (a config without it has always
    # meant that one); the others are named, as the schema then says.
    settings["protocol"] = (
        Literal[name],
        Field(name, description=f"The {what}'s protocol: {name!r} (absent means this one).")
        if name == default
        else Field(description=f"The {what}'s protocol: {name!r}."),
    )
    model: type[D] = create_model(
        f"{name.replace('-', ' ').title().replace(' ', '')}{base.__name__}",
        __base__=base,
        __module__=__name__,
        __doc__=f"A {what} speaking {name!r}: {entry.description}.",
        **settings,
    )
    return model


# One model per protocol a real device can speak, built from the registries.
SHOE_CONFIGS = {
    name: _protocol_config(ShoeConfig, "shoe", BACKENDS[name], BACKENDS.default) for name in WIRED
}
SENSOR_CONFIGS = {
    name: _protocol_config(WheelSensorConfig, "wheel sensor", SENSORS[name], SENSORS.default)
    for name in SENSORS
}
# The keys holding a union tagged by a field, and their tags, which pydantic's
# errors put in the key's path.
_TAGGED_UNIONS = {"shoe": frozenset(SHOE_CONFIGS), "wheel_sensor": frozenset(SENSOR_CONFIGS)}

if TYPE_CHECKING:
    AnyShoeConfig = ShoeConfig
    AnySensorConfig = WheelSensorConfig
    GameName = str
else:
    AnyShoeConfig = Annotated[
        Union[tuple(SHOE_CONFIGS.values())],  # noqa: UP007 (built from the registry)
        Field(discriminator="protocol"),
    ]
    AnySensorConfig = Annotated[
        Union[tuple(SENSOR_CONFIGS.values())],  # noqa: UP007 (built from the registry)
        Field(discriminator="protocol"),
    ]
    GameName = Literal[tuple(GAMES)]


class NoMoreBetsConfig(Strict):
    """When the camera closes betting itself from the ball's speed (docs/wheel.md,
    "No more bets from the camera"): the first rule that holds fires; the betting
    timer stays the fallback when the camera cannot see the ball."""

    below_revs_per_s: float | None = Field(
        None, gt=0, description="Close when the ball goes slower than this, in revolutions "
        "a second against the bowl."
    )
    before_drop_s: float | None = Field(
        None, gt=0, description="Close this many seconds before the ball is expected to "
        "leave the track."
    )

    @model_validator(mode="after")
    def _a_rule(self) -> NoMoreBetsConfig:
        if self.below_revs_per_s is None and self.before_drop_s is None:
            raise ValueError("give below_revs_per_s, before_drop_s or both")
        return self


class CameraConfig(Strict):
    """A roulette table's wheel camera (docs/wheel.md)."""

    source: str = Field(
        description='Where frames come from: a device index ("0"), a video file, or a stream URL.'
    )
    calibration: Path | None = Field(
        None, description="The wheel's calibration file (JSON, docs/wheel.md)."
    )
    offline_after_seconds: float = Field(
        3.0,
        gt=0,
        description="A live camera that delivers no frame for this long, in seconds, is offline "
        "(an alarm: results need a pit boss) until frames come again; longer than a USB "
        "camera's hiccup, short enough that no spin is judged on a dead picture.",
    )
    no_more_bets: NoMoreBetsConfig | None = Field(
        None,
        description="Close betting from the ball's speed; absent, the camera never closes "
        "betting (the croupier, the game server or the timer do).",
    )

    @field_validator("source")
    @classmethod
    def _source_file(cls, source: str, info: ValidationInfo) -> str:
        if source.isdigit() or "://" in source:  # a device index, a stream
            return source
        return str(_resolved(Path(source), info))

    @field_validator("calibration")
    @classmethod
    def _calibration_readable(cls, path: Path | None, info: ValidationInfo) -> Path | None:
        return None if path is None else _readable_file(path, info)


class WheelReadingsConfig(Strict):
    """How a roulette table with both a camera and a wheel sensor settles
    (docs/wheel_sensor.md, "Two sources, one verdict")."""

    primary: Literal["camera", "sensor"] = Field(
        "camera",
        description="The source whose reading the journal names first when both agree; with "
        "one source only, that one settles.",
    )
    wait_seconds: float = Field(
        5.0,
        gt=0,
        description="How long the first reading of a spin waits for the other source's, in "
        "seconds; then it settles alone, flagged, with an alarm.",
    )


class TimersConfig(Strict):
    """How long the players have for each step of a round."""

    betting_seconds: float = Field(
        15.0, gt=0, description="How long betting stays open each round, in seconds."
    )
    decision_seconds: float = Field(
        20.0, gt=0, description="How long a player has for each decision, in seconds."
    )
    insurance_seconds: float = Field(
        10.0, gt=0, description="How long the players have to take insurance, in seconds."
    )


class SelfDrivingConfig(Strict):
    """A robot that plays croupier and players, at a pace a person can follow."""

    seed: int = Field(1, description="The seed of the robot's random choices.")
    pause_seconds: float = Field(2.0, ge=0, description="The pause between rounds, in seconds.")
    think_seconds: float = Field(
        0.8, ge=0, description="The pause before each player decision, in seconds."
    )


class TableConfig(Strict):
    """One table the station runs."""

    id: Identifier = Field(
        description="The table's id, in its MQTT topics and API paths: lower-case letters, "
        "digits and hyphens."
    )
    game: GameName = Field(description="The game played.")
    variant: str | None = Field(
        None,
        description="The rules: a shipped variant's name or the path of a .toml rule file; "
        "absent means the game's default.",
    )
    shoe: AnyShoeConfig | None = Field(
        None, description="The card shoe of a card game; absent means none is connected."
    )
    camera: CameraConfig | None = Field(None, description="The wheel camera (roulette).")
    wheel_sensor: AnySensorConfig | None = Field(
        None, description="The wheel's own sensor (roulette): its controller's serial line."
    )
    wheel_readings: WheelReadingsConfig = Field(
        WheelReadingsConfig(),
        description="Which reading of the wheel settles when the table has two sources.",
    )
    timers: TimersConfig = Field(TimersConfig(), description="The round's timers.")
    recovery: Literal["resume", "void"] = Field(
        "void",
        description="What a restart does with a round that was in play: resume it where it "
        "was, or void it with every stake returned (docs/recovery.md).",
    )
    self_driving: SelfDrivingConfig | None = Field(
        None,
        description="A robot plays croupier and players (never the shoe or the wheel): the "
        "demo, and a burn-in of new hardware before it goes live.",
    )
    require_dealer: bool = Field(
        False,
        description="Open no round while no dealer is signed on at the table's console "
        "(docs/api.md, \"A dealer at the console\").",
    )

    @field_validator("variant")
    @classmethod
    def _known_variant(cls, variant: str | None, info: ValidationInfo) -> str | None:
        if variant is None:
            return None
        if variant.endswith(".toml"):
            variant = str(_resolved(Path(variant), info))
        game = info.data.get("game")
        problem = None if game is None else _variant_problem(game, variant)
        if problem is not None:
            _refuse(problem)
        return variant

    @field_validator("shoe", mode="before")
    @classmethod
    def _default_protocol(cls, shoe: object) -> object:
        """A shoe without ``protocol`` speaks the default one, as it always has."""
        if isinstance(shoe, ShoeConfig):
            shoe = shoe.model_dump()
        if isinstance(shoe, dict) and "protocol" not in shoe:
            return {**shoe, "protocol": BACKENDS.default}
        return shoe

    @field_validator("wheel_sensor", mode="before")
    @classmethod
    def _default_sensor_protocol(cls, sensor: object) -> object:
        if isinstance(sensor, WheelSensorConfig):
            sensor = sensor.model_dump()
        if isinstance(sensor, dict) and "protocol" not in sensor:
            return {**sensor, "protocol": SENSORS.default}
        return sensor

    @model_validator(mode="after")
    def _wheel_sources(self) -> TableConfig:
        if self.wheel_sensor is not None and self.game != "roulette":
            raise ValueError(f"a wheel sensor belongs to a roulette table, not {self.game}")
        if self.wheel_readings.primary == "sensor" and self.wheel_sensor is None:
            raise ValueError("wheel_readings.primary is the sensor, but the table has none")
        return self

    @property
    def wheel_sources(self) -> tuple[Literal["camera", "sensor"], ...]:
        """The table's sources of a winning number, the primary first."""
        have: list[Literal["camera", "sensor"]] = []
        if self.camera is not None:
            have.append("camera")
        if self.wheel_sensor is not None:
            have.append("sensor")
        return tuple(sorted(have, key=lambda s: s != self.wheel_readings.primary))


# What the station publishes of a burnt card (docs/mqtt.md, dealer_station/visibility.py).
BurnCards = Literal["hidden", "shown"]


class PublishConfig(Strict):
    """What the station publishes (docs/mqtt.md)."""

    burn_cards: BurnCards = Field(
        "hidden",
        description='How a burnt card is published: "hidden" sends only "a card was burnt" '
        'and keeps its value in the journal, "shown" sends its value.',
    )


class IntegrityConfig(Strict):
    """The integrity monitor (docs/integrity.md)."""

    level: float = Field(
        0.01,
        gt=0,
        lt=0.5,
        description="The significance level: the chance that a fair table shows any "
        "alarm in one report (the tests of a table are Bonferroni-corrected together).",
    )
    spins_between_reports: int = Field(
        500,
        ge=1,
        description="A roulette table's report (one look, docs/integrity.md) every this "
        "many spins; also at each shoe's end and once a UTC day.",
    )


class HttpConfig(Strict):
    """The HTTP face and its limits (dealer_station/api/guard.py, connections.py;
    docs/api.md "Limits"). The defaults fit a station's few clients: a console and
    an overlay per table, a game server, a Prometheus."""

    host: str = Field("127.0.0.1", description="The address the HTTP API listens on.")
    port: int = Field(8080, ge=0, le=65535, description="The TCP port the HTTP API listens on.")
    max_body_bytes: int = Field(
        64 * 1024,
        ge=1024,
        le=16 * 1024 * 1024,
        description="The largest request body (a bet list, a command), in bytes: over it is "
        "413, unread.",
    )
    max_ws_message_bytes: int = Field(
        16 * 1024,
        ge=1024,
        le=1024 * 1024,
        description="The largest WebSocket message a client may send (only its token, once), "
        "in bytes.",
    )
    max_connections: int = Field(
        256,
        ge=8,
        le=4096,
        description="The most HTTP and WebSocket connections at once; systemd's LimitNOFILE "
        "is sized on it.",
    )
    request_seconds: float = Field(
        10.0,
        gt=0,
        le=300,
        description="A request's headers must be in within this of connecting or of the last "
        "answer, in seconds.",
    )
    body_seconds: float = Field(
        10.0,
        gt=0,
        le=300,
        description="A request's body must be in within this of its headers, in seconds.",
    )
    keep_alive_seconds: int = Field(
        5,
        ge=1,
        le=300,
        description="An idle keep-alive connection is closed after this, in seconds.",
    )
    metrics_open: bool = Field(
        False, description="Serve /metrics without a token, for a Prometheus on a trusted network."
    )


# -- auth (dealer_station/api/auth.py; docs/api.md) ------------------------------------------

Role = Literal["croupier", "pit_boss", "game_server", "viewer"]
PersonName = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9 ._'-]{0,63}$")]


class TokenConfig(Strict):
    """A bearer token: only its SHA-256 is kept (``dealer-station auth hash-token``)."""

    name: PersonName = Field(description="The token's holder (console-table-1, say).")
    role: Role = Field(description="What the token may do (docs/api.md).")
    sha256: str = Field(
        pattern=r"^[0-9a-f]{64}$",
        description="The token's SHA-256, in hex (dealer-station auth hash-token).",
    )
    table: Identifier | None = Field(
        None,
        description="The table whose console holds this croupier token: it signs dealers on "
        "only there. Absent: at any table.",
    )


PinScrypt = Annotated[
    str,
    Field(
        pattern=r"^scrypt\$[0-9]+\$[0-9]+\$[0-9]+\$[0-9a-f]{32,}\$[0-9a-f]{64}$",
        description="The scrypt hash of the PIN, scrypt$<n>$<r>$<p>$<salt hex>$<key hex> "
        "(dealer-station auth hash-pin).",
    ),
]


class PitBossConfig(Strict):
    """A pit boss and the scrypt hash of their PIN (``dealer-station auth hash-pin``)."""

    name: PersonName = Field(
        description="The pit boss's name, as the console lists it and the journal records it."
    )
    pin_scrypt: PinScrypt


class DealerConfig(Strict):
    """A croupier who signs on at a table's console (``dealer-station auth hash-pin
    --dealer``)."""

    name: PersonName = Field(description="The name the console lists for the sign-on.")
    display_name: PersonName | None = Field(
        None,
        description="What the table shows (the overlay) and the journal records of each "
        "round; absent: the name.",
    )
    pin_scrypt: PinScrypt

    @property
    def shown(self) -> str:
        return self.display_name or self.name


class AuthConfig(Strict):
    """Who may use the HTTP API (docs/api.md)."""

    tokens: list[TokenConfig] = Field([], description="The bearer tokens the API accepts.")
    pit_bosses: list[PitBossConfig] = Field(
        [], description="The pit bosses who may sign in at a console with their PIN."
    )
    dealers: list[DealerConfig] = Field(
        [], description="The croupiers who sign on at a table's console with their PIN."
    )

    @model_validator(mode="after")
    def _unique(self) -> AuthConfig:
        for what, values in (
            ("token name", [t.name for t in self.tokens]),
            ("token", [t.sha256 for t in self.tokens]),
            ("pit boss", [b.name for b in self.pit_bosses]),
            ("dealer", [d.name for d in self.dealers]),
            # Each round records its dealer by the name shown: one person each.
            ("dealer display name", [d.shown for d in self.dealers]),
        ):
            twice = sorted({v for v in values if values.count(v) > 1})
            if twice:
                raise ValueError(f"{what} {twice[0]!r} is used twice")
        return self


# How many records a start may have to replay beyond a table's snapshot
# (docs/recovery.md): a busy table journals about a thousand inputs an hour.
SNAPSHOT_EVERY = 1000

# How long a stop waits for the rounds in play (docs/decisions.md, "Table state
# and drain"): a blackjack round of seven boxes at a croupier's pace fits.
DRAIN_SECONDS = 120.0


class StationConfig(Strict):
    """One station: a studio's computer running one or more tables."""

    studio: Identifier = Field(
        description="The studio's id, in every MQTT topic: lower-case letters, digits and hyphens."
    )
    station: Identifier = Field(
        description="This station's id: lower-case letters, digits and hyphens."
    )
    journal: Path = Field(
        Path("/var/lib/dealer-station/journal.sqlite3"),
        description="The journal's SQLite file (docs/journal.md); its directory must be writable.",
        validate_default=True,  # the default journal is checked like a written one
    )
    snapshot_every: Annotated[int, Field(ge=1)] = Field(
        SNAPSHOT_EVERY,
        description="A table's state is snapshot every this many journal records, the most a "
        "start replays beyond it (docs/recovery.md).",
    )
    start_report_seconds: float = Field(
        10.0,
        gt=0,
        le=30,
        description="While a start replays a long journal, every this many seconds it tells "
        "systemd it is still working (EXTEND_TIMEOUT_USEC, three times this) and how far it "
        "is (STATUS=); under the unit's TimeoutStartSec= (90 s).",
    )
    drain_seconds: float = Field(
        DRAIN_SECONDS,
        ge=0,
        le=3600,
        description="At a stop (SIGTERM), how long the station waits for the rounds in play "
        "to settle, every table closing after its round, before it stops anyway (a second "
        "SIGTERM stops at once); 0: no wait. Under the unit's TimeoutStopSec= (150 s).",
    )
    mqtt: MqttConfig = Field(MqttConfig(), description="The MQTT broker.")
    http: HttpConfig = Field(HttpConfig(), description="The HTTP API and its limits.")
    auth: AuthConfig = Field(AuthConfig(), description="The API's tokens and pit bosses.")
    publish: PublishConfig = Field(PublishConfig(), description="What the station publishes.")
    integrity: IntegrityConfig = Field(
        IntegrityConfig(), description="The integrity monitor's alarms."
    )
    tables: list[TableConfig] = Field(description="The tables the station runs, at least one.")

    @field_validator("journal")
    @classmethod
    def _journal_usable(cls, journal: Path, info: ValidationInfo) -> Path:
        return _checked(journal, info, _journal_problem)

    @field_validator("tables")
    @classmethod
    def _unique_tables(cls, tables: list[TableConfig]) -> list[TableConfig]:
        if not tables:
            raise ValueError("a station runs at least one table")
        ids = [t.id for t in tables]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ValueError(f"table id {duplicates[0]!r} is used twice")
        return tables

    @model_validator(mode="after")
    def _consoles_at_tables(self) -> StationConfig:
        tables = {t.id for t in self.tables}
        for token in self.auth.tokens:
            if token.table is not None and token.table not in tables:
                raise ValueError(f"token {token.name!r} names no table of this station")
        return self


class ConfigError(ValueError):
    """A config file that cannot run, with every problem and where it is."""


def _where(loc: tuple[int | str, ...]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts[-1] += f"[{item}]"
        else:
            parts.append(item)
    return ".".join(parts) or "(file)"


def parse_config(text: str, source: str = "config") -> StationConfig:
    """A config from TOML text, its paths taken as given and not checked on disk."""
    return _validated(text, source, None)


def load_config(path: Path) -> StationConfig:
    """The station's config from its file, with every path it names resolved
    against the file's directory and checked; a ``ConfigError`` has one line
    per problem, each naming the file and the key."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path}: not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x}): "
            "save the file as UTF-8"
        ) from None
    return _validated(text, str(path), ConfigFile(path.parent))


def _validated(text: str, source: str, context: ConfigFile | None) -> StationConfig:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    try:
        return StationConfig.model_validate(raw, context=context)
    except ValidationError as exc:
        problems = [f"{source}: {_where(loc)}: {message}" for loc, message in
                    map(_problem, exc.errors())]
        raise ConfigError("\n".join(problems)) from None


def _problem(error: ErrorDetails) -> tuple[tuple[int | str, ...], str]:
    """Where an error is and what it says, as the file's author wrote the keys:
    the member of a tagged union (``shoe``'s protocol) is not a key of theirs."""
    path = error["loc"]
    loc = tuple(
        item for i, item in enumerate(path)
        if not (i and item in _TAGGED_UNIONS.get(str(path[i - 1]), frozenset()))
    )
    if error["type"] == "extra_forbidden":
        return loc, "unknown key"
    if error["type"] == "union_tag_invalid":
        ctx = error.get("ctx", {})
        *others, last = str(ctx.get("expected_tags", "")).split(", ")
        expected = f"{', '.join(others)} or {last}" if others else last
        return (*loc, str(ctx.get("discriminator", "")).strip("'")), f"Input should be {expected}"
    return loc, error["msg"]


def _variant_problem(game: str, variant: str | None) -> str | None:
    try:
        GAMES[game](variant, None)
    except RuleFileError as exc:
        if exc.key != "variant":  # the file was found: what inside it is wrong
            return str(exc)
        if variant is not None and variant.endswith(".toml"):
            return f"{variant}: no such file"
        shipped = ", ".join(shipped_variants(game))
        return f"no {game} variant {variant!r}; shipped: {shipped} (or the path of a .toml file)"
    except (ValueError, OSError) as exc:  # a rule file that is not UTF-8, or unreadable
        return f"{variant}: {exc}"
    return None


def _readable_file(path: Path, info: ValidationInfo) -> Path:
    return _checked(path, info, _unreadable)


def _unreadable(path: Path) -> str | None:
    try:
        with path.open("rb") as f:
            f.read(1)
    except OSError as exc:
        return f"{path}: {exc.strerror}"
    return None


def _password_problem(path: Path) -> str | None:
    try:
        password = path.read_bytes().decode("utf-8").strip()
    except OSError as exc:
        return f"{path}: {exc.strerror}"
    except UnicodeDecodeError:
        return f"{path}: not UTF-8 text"
    return None if password else f"{path}: is empty"


def _journal_problem(journal: Path) -> str | None:
    """Why the station could not open its journal for writing, or None. Looks
    without changing anything: no directory is made, no database opened (a
    running station's journal is checked as safely as a new one)."""
    if journal.exists():
        if not journal.is_file():
            return f"{journal}: not a file"
        try:
            fd = os.open(journal, os.O_RDWR)
        except OSError as exc:
            return f"{journal}: {exc.strerror}"
        with os.fdopen(fd, "rb") as f:
            header = f.read(16)
        # An empty file is a new database to SQLite.
        if header and header != b"SQLite format 3\0":
            return f"{journal}: not an SQLite database"
    directory = journal.parent
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return f"{existing} is not a directory, so {directory} cannot be made"
    # Write access, tried for real: the station also writes the WAL, its index
    # and the lock file beside the journal. An unnamed file leaves nothing.
    try:
        tempfile.TemporaryFile(dir=existing).close()
    except OSError as exc:
        if existing == directory:
            return f"directory {directory} is not writable: {exc.strerror}"
        return f"directory {directory} cannot be made in {existing}: {exc.strerror}"
    return None
