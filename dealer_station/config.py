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
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    # Only for a test broker with a self-signed certificate.
    insecure: bool = False


class MqttConfig(Strict):
    host: str = "localhost"
    port: int = Field(1883, ge=1, le=65535)
    protocol: Literal["5", "3.1.1"] = "5"
    # Topics are <prefix>/<studio>/<table>/...
    prefix: str = "dealer-station"
    username: str | None = None
    password: str | None = None
    # A file holding the password, so the config itself can be world-readable.
    password_file: Path | None = None
    tls: TlsConfig | None = None
    keepalive: int = Field(15, ge=5, le=600)

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
    # A udev name (/dev/dealer-shoe) or any pyserial URL.
    port: str
    protocol: Literal["framed", "beetek"] = "framed"
    baudrate: int | None = None
    heartbeat_timeout: float = Field(5.0, gt=0)


class CameraConfig(Strict):
    # A device index ("0"), a video file, or a stream URL.
    source: str
    calibration: Path | None = None
    # A live camera that delivers no frame for this long is offline (an alarm:
    # results need a pit boss) until frames come again. Longer than a USB
    # camera's hiccup, short enough that no spin is judged on a dead picture.
    offline_after_seconds: float = Field(3.0, gt=0)


class TimersConfig(Strict):
    betting_seconds: float = Field(15.0, gt=0)
    decision_seconds: float = Field(20.0, gt=0)
    insurance_seconds: float = Field(10.0, gt=0)


class SelfDrivingConfig(Strict):
    seed: int = 1
    # Between rounds, and before each player decision: a pace a person can follow.
    pause_seconds: float = Field(2.0, ge=0)
    think_seconds: float = Field(0.8, ge=0)


class TableConfig(Strict):
    id: Identifier
    game: Literal["blackjack", "baccarat", "roulette"]
    variant: str | None = None
    shoe: ShoeConfig | None = None
    camera: CameraConfig | None = None
    timers: TimersConfig = TimersConfig()
    # What a restart does with a round that was in play: resume it where it was,
    # or void it with every stake returned (docs/recovery.md).
    recovery: Literal["resume", "void"] = "void"
    # A robot plays croupier and players (never the shoe or the wheel): the demo,
    # and a burn-in of new hardware before it goes live.
    self_driving: SelfDrivingConfig | None = None


# What the station publishes of a burnt card (docs/mqtt.md, dealer_station/visibility.py).
BurnCards = Literal["hidden", "shown"]


class PublishConfig(Strict):
    # "hidden": a burn goes out as "a card was burnt", its value kept in the journal.
    burn_cards: BurnCards = "hidden"


class HttpConfig(Strict):
    """The HTTP face and its limits (dealer_station/api/guard.py, connections.py;
    docs/api.md "Limits"). The defaults fit a station's few clients: a console and
    an overlay per table, a game server, a Prometheus."""

    host: str = "127.0.0.1"
    port: int = Field(8080, ge=0, le=65535)
    # The largest request body (a bet list, a command): over it is 413, unread.
    max_body_bytes: int = Field(64 * 1024, ge=1024, le=16 * 1024 * 1024)
    # The largest WebSocket message a client may send (only its token, once).
    max_ws_message_bytes: int = Field(16 * 1024, ge=1024, le=1024 * 1024)
    # HTTP and WebSocket connections at once; systemd's LimitNOFILE is sized on it.
    max_connections: int = Field(256, ge=8, le=4096)
    # A request's headers must be in within this of connecting or of the last answer.
    request_seconds: float = Field(10.0, gt=0, le=300)
    # A request's body must be in within this of its headers.
    body_seconds: float = Field(10.0, gt=0, le=300)
    # An idle keep-alive connection is closed after this.
    keep_alive_seconds: int = Field(5, ge=1, le=300)
    # /metrics without a token, for a Prometheus on a trusted network.
    metrics_open: bool = False


# -- auth (dealer_station/api/auth.py; docs/api.md) ------------------------------------------

Role = Literal["croupier", "pit_boss", "game_server", "viewer"]
PersonName = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9 ._'-]{0,63}$")]


class TokenConfig(Strict):
    """A bearer token: only its SHA-256 is kept (``dealer-station auth hash-token``)."""

    name: PersonName
    role: Role
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class PitBossConfig(Strict):
    """A pit boss and the scrypt hash of their PIN (``dealer-station auth hash-pin``):
    ``scrypt$<n>$<r>$<p>$<salt hex>$<key hex>``."""

    name: PersonName
    pin_scrypt: str = Field(
        pattern=r"^scrypt\$[0-9]+\$[0-9]+\$[0-9]+\$[0-9a-f]{32,}\$[0-9a-f]{64}$"
    )


class AuthConfig(Strict):
    tokens: list[TokenConfig] = []
    pit_bosses: list[PitBossConfig] = []

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
    studio: Identifier
    station: Identifier
    journal: Path = Path("/var/lib/dealer-station/journal.sqlite3")
    snapshot_every: Annotated[int, Field(ge=1)] = SNAPSHOT_EVERY
    mqtt: MqttConfig = MqttConfig()
    http: HttpConfig = HttpConfig()
    auth: AuthConfig = AuthConfig()
    publish: PublishConfig = PublishConfig()
    tables: list[TableConfig]

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
