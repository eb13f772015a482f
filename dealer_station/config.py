"""The station's configuration: one TOML file, validated strictly.

Every model forbids unknown keys, so a typo in the file is an error that names
the key, never a silently ignored setting. ``load_config`` then checks what the
file names on disk: each table's variant, the journal's directory, the password
and TLS files. ``dealer-station run`` and ``dealer-station config check FILE``
both go through it, so they refuse the same files with the same lines.
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

Identifier = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,62}$")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TlsConfig(Strict):
    """TLS to the MQTT broker (docs/mqtt.md); a relative path is relative to the config file."""

    ca_file: Path | None = Field(
        None, description="The CA certificate (PEM file) the broker's is checked against."
    )
    cert_file: Path | None = Field(
        None, description="The station's client certificate (PEM file), for a broker asking one."
    )
    key_file: Path | None = Field(
        None, description="The private key (PEM file) of the client certificate."
    )
    insecure: bool = Field(
        False,
        description="Skip checking the broker's certificate: only for a test broker with a "
        "self-signed certificate.",
    )


class MqttConfig(Strict):
    """The MQTT broker the station publishes to (docs/mqtt.md)."""

    host: str = Field("localhost", description="The broker's host name or IP address.")
    port: int = Field(1883, ge=1, le=65535, description="The broker's TCP port.")
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
        description="A file holding the password, so the config itself can be world-readable.",
    )
    tls: TlsConfig | None = Field(None, description="TLS to the broker; absent means plain TCP.")
    keepalive: int = Field(
        15, ge=5, le=600, description="The MQTT keep-alive interval, in seconds."
    )

    @model_validator(mode="after")
    def _one_password(self) -> MqttConfig:
        if self.password is not None and self.password_file is not None:
            raise ValueError("give password or password_file, not both")
        return self

    def resolved_password(self) -> str | None:
        if self.password_file is not None:
            return self.password_file.read_text(encoding="utf-8").strip()
        return self.password


class ShoeConfig(Strict):
    """A table's card shoe on a serial port (docs/shoe.md)."""

    port: str = Field(
        description="The shoe's serial port: a udev name (/dev/dealer-shoe) or any pyserial URL."
    )
    protocol: Literal["framed", "beetek"] = Field(
        "framed",
        description='The shoe\'s serial protocol: "framed" (ours, firmware_proto/PROTOCOL.md) '
        'or "beetek" (Bee-Tek ASCII lines).',
    )
    baudrate: int | None = Field(
        None, description="The serial speed in baud; absent means the protocol's own."
    )
    heartbeat_timeout: float = Field(
        5.0, gt=0, description="A shoe silent for this long is offline, in seconds."
    )


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
    game: Literal["blackjack", "baccarat", "roulette"] = Field(description="The game played.")
    variant: str | None = Field(
        None,
        description="The rules: a shipped variant's name or the path of a .toml rule file; "
        "absent means the game's default.",
    )
    shoe: ShoeConfig | None = Field(
        None, description="The card shoe of a card game; absent means none is connected."
    )
    camera: CameraConfig | None = Field(None, description="The wheel camera (roulette).")
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


# What the station publishes of a burnt card (docs/mqtt.md, dealer_station/visibility.py).
BurnCards = Literal["hidden", "shown"]


class PublishConfig(Strict):
    """What the station publishes (docs/mqtt.md)."""

    burn_cards: BurnCards = Field(
        "hidden",
        description='How a burnt card is published: "hidden" sends only "a card was burnt" '
        'and keeps its value in the journal, "shown" sends its value.',
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


class PitBossConfig(Strict):
    """A pit boss and the scrypt hash of their PIN (``dealer-station auth hash-pin``)."""

    name: PersonName = Field(
        description="The pit boss's name, as the console lists it and the journal records it."
    )
    pin_scrypt: str = Field(
        pattern=r"^scrypt\$[0-9]+\$[0-9]+\$[0-9]+\$[0-9a-f]{32,}\$[0-9a-f]{64}$",
        description="The scrypt hash of the PIN, scrypt$<n>$<r>$<p>$<salt hex>$<key hex> "
        "(dealer-station auth hash-pin).",
    )


class AuthConfig(Strict):
    """Who may use the HTTP API (docs/api.md)."""

    tokens: list[TokenConfig] = Field([], description="The bearer tokens the API accepts.")
    pit_bosses: list[PitBossConfig] = Field(
        [], description="The pit bosses who may sign in at a console with their PIN."
    )

    @model_validator(mode="after")
    def _unique(self) -> AuthConfig:
        for what, values in (
            ("token name", [t.name for t in self.tokens]),
            ("token", [t.sha256 for t in self.tokens]),
            ("pit boss", [b.name for b in self.pit_bosses]),
        ):
            twice = sorted({v for v in values if values.count(v) > 1})
            if twice:
                raise ValueError(f"{what} {twice[0]!r} is used twice")
        return self


# How many records a start may have to replay beyond a table's snapshot
# (docs/recovery.md): a busy table journals about a thousand inputs an hour.
SNAPSHOT_EVERY = 1000


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
    )
    snapshot_every: Annotated[int, Field(ge=1)] = Field(
        SNAPSHOT_EVERY,
        description="A table's state is snapshot every this many journal records, the most a "
        "start replays beyond it (docs/recovery.md).",
    )
    mqtt: MqttConfig = Field(MqttConfig(), description="The MQTT broker.")
    http: HttpConfig = Field(HttpConfig(), description="The HTTP API and its limits.")
    auth: AuthConfig = Field(AuthConfig(), description="The API's tokens and pit bosses.")
    publish: PublishConfig = Field(PublishConfig(), description="What the station publishes.")
    tables: list[TableConfig] = Field(description="The tables the station runs, at least one.")

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
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    try:
        return StationConfig.model_validate(raw)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            message = error["msg"]
            if error["type"] == "extra_forbidden":
                message = "unknown key"
            problems.append(f"{source}: {_where(error['loc'])}: {message}")
        raise ConfigError("\n".join(problems)) from None


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
    config = _relative_to(parse_config(text, str(path)), path.parent)
    problems = [f"{path}: {key}: {problem}" for key, problem in _on_disk(config)]
    if problems:
        raise ConfigError("\n".join(problems))
    return config


def _on_disk(config: StationConfig) -> list[tuple[str, str]]:
    """What the config names that the station could not use: (key, why)."""
    problems: list[tuple[str, str]] = []
    for i, t in enumerate(config.tables):
        variant = _variant_problem(t.game, t.variant)
        if variant is not None:
            problems.append((f"tables[{i}].variant", variant))
        if t.camera is not None and t.camera.calibration is not None:
            problems += _unreadable(f"tables[{i}].camera.calibration", t.camera.calibration)
    journal = _journal_problem(config.journal)
    if journal is not None:
        problems.append(("journal", journal))
    mqtt = config.mqtt
    if mqtt.password_file is not None:
        problems += _password_problem(mqtt.password_file)
    if mqtt.tls is not None:
        for key in ("ca_file", "cert_file", "key_file"):
            tls_file: Path | None = getattr(mqtt.tls, key)
            if tls_file is not None:
                problems += _unreadable(f"mqtt.tls.{key}", tls_file)
    return problems


def _variant_problem(game: str, variant: str | None) -> str | None:
    # Imported here: the rules are not needed to parse a config.
    from dealer_station.games.rulefile import RuleFileError
    from dealer_station.games.table import GAMES

    try:
        GAMES[game](variant, None)
    except RuleFileError as exc:
        if exc.key != "variant":  # the file was found: what inside it is wrong
            return str(exc)
        if variant is not None and variant.endswith(".toml"):
            return f"{variant}: no such file"
        shipped = ", ".join(_shipped_variants(game))
        return f"no {game} variant {variant!r}; shipped: {shipped} (or the path of a .toml file)"
    except (ValueError, OSError) as exc:  # a rule file that is not UTF-8, or unreadable
        return f"{variant}: {exc}"
    return None


def _shipped_variants(game: str) -> list[str]:
    variants = resources.files("dealer_station.games") / "variants"
    return sorted(
        item.name.removesuffix(".toml")
        for item in variants.iterdir()
        if item.name.endswith(".toml")
        and tomllib.loads(item.read_text(encoding="utf-8")).get("game") == game
    )


def _unreadable(key: str, path: Path) -> list[tuple[str, str]]:
    try:
        with path.open("rb") as f:
            f.read(1)
    except OSError as exc:
        return [(key, f"{path}: {exc.strerror}")]
    return []


def _password_problem(path: Path) -> list[tuple[str, str]]:
    key = "mqtt.password_file"
    try:
        password = path.read_bytes().decode("utf-8").strip()
    except OSError as exc:
        return [(key, f"{path}: {exc.strerror}")]
    except UnicodeDecodeError:
        return [(key, f"{path}: not UTF-8 text")]
    return [] if password else [(key, f"{path}: is empty")]


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


def _relative_to(config: StationConfig, base: Path) -> StationConfig:
    """Paths written relative in the file are relative to the file, not to the
    directory the station happens to start in."""

    def resolve(p: Path) -> Path:
        return p if p.is_absolute() else base / p

    def resolve_optional(p: Path | None) -> Path | None:
        return None if p is None else resolve(p)

    tables = []
    for t in config.tables:
        camera = t.camera
        if camera is not None:
            source = camera.source
            if not source.isdigit() and "://" not in source:
                source = str(resolve(Path(source)))
            calibration = resolve_optional(camera.calibration)
            camera = camera.model_copy(update={"source": source, "calibration": calibration})
        variant = t.variant
        if variant is not None and variant.endswith(".toml"):
            variant = str(resolve(Path(variant)))
        tables.append(t.model_copy(update={"camera": camera, "variant": variant}))
    mqtt = config.mqtt
    tls = mqtt.tls
    if tls is not None:
        tls = tls.model_copy(
            update={
                "ca_file": resolve_optional(tls.ca_file),
                "cert_file": resolve_optional(tls.cert_file),
                "key_file": resolve_optional(tls.key_file),
            }
        )
    mqtt = mqtt.model_copy(
        update={"password_file": resolve_optional(mqtt.password_file), "tls": tls}
    )
    return config.model_copy(
        update={"tables": tables, "journal": resolve(config.journal), "mqtt": mqtt}
    )
