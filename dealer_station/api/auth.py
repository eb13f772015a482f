"""Who may do what: bearer tokens with a role, pit-boss PINs, PIN sessions.

A token is a random string handed to one client (the console at the table, the
game server, the overlay); the config keeps only its SHA-256, so a leaked config
file holds no usable token. A PIN is short: a plain hash of it falls to ten
thousand guesses, so each PIN is kept as scrypt with its own salt
(``scrypt$<n>$<r>$<p>$<salt hex>$<key hex>``) and a pit boss's name locks for
``LOCK_SECONDS`` after ``MAX_FAILURES`` wrong PINs in a row.

A pit boss steps in at the console by name and PIN: the console gets a session
token of role ``pit_boss`` in that person's name, valid ``SESSION_SECONDS``, so
every action it takes is journaled as theirs. Every comparison with a secret is
constant-time.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from dealer_station.config import AuthConfig, Role

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
SCRYPT_KEY_BYTES = 32
SESSION_SECONDS = 300.0
MAX_FAILURES = 5
LOCK_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class Principal:
    """Who sent a request: the token's or the pit boss's name, and the role."""

    name: str
    role: Role


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    salt = secrets.token_bytes(16) if salt is None else salt
    key = hashlib.scrypt(
        pin.encode("utf-8"),
        salt=salt,
        n=SCRYPT_N,
        r=SCRYPT_R,
        p=SCRYPT_P,
        dklen=SCRYPT_KEY_BYTES,
    )
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${key.hex()}"


def verify_pin(pin: str, encoded: str) -> bool:
    _, n, r, p, salt, key = encoded.split("$")
    expected = bytes.fromhex(key)
    got = hashlib.scrypt(
        pin.encode("utf-8"),
        salt=bytes.fromhex(salt),
        n=int(n),
        r=int(r),
        p=int(p),
        dklen=len(expected),
        # n * r * 128 bytes, with room: the default 32 MiB refuses n=2**15, r=8.
        maxmem=256 * int(n) * int(r) + 1024 * 1024,
    )
    return hmac.compare_digest(got, expected)


class PinLocked(Exception):
    def __init__(self, seconds: float) -> None:
        super().__init__(f"too many wrong PINs: locked for {seconds:.0f} s")
        self.seconds = seconds


@dataclass
class _Session:
    principal: Principal
    expires: float


@dataclass
class Authority:
    config: AuthConfig
    clock: Callable[[], float] = time.monotonic
    _sessions: dict[str, _Session] = field(default_factory=dict)
    _failures: dict[str, int] = field(default_factory=dict)
    _locked_until: dict[str, float] = field(default_factory=dict)

    def principal(self, token: str) -> Principal | None:
        digest = hash_token(token)
        found: Principal | None = None
        # Every entry is compared, so the time taken does not tell which one matched.
        for entry in self.config.tokens:
            if hmac.compare_digest(digest, entry.sha256):
                found = Principal(entry.name, entry.role)
        now = self.clock()
        for key, session in list(self._sessions.items()):
            if session.expires <= now:
                del self._sessions[key]
            elif hmac.compare_digest(digest, key):
                found = session.principal
        return found

    def pit_boss_names(self) -> list[str]:
        return [b.name for b in self.config.pit_bosses]

    async def pin_login(self, name: str, pin: str) -> tuple[str, Principal, float] | None:
        """A session token for the pit boss ``name``, or None for a wrong name or
        PIN; raises ``PinLocked`` while the name is locked."""
        now = self.clock()
        locked_until = self._locked_until.get(name, 0.0)
        if locked_until > now:
            raise PinLocked(locked_until - now)
        boss = next((b for b in self.config.pit_bosses if b.name == name), None)
        # scrypt takes tens of milliseconds by design: off the loop the tables run on.
        right = boss is not None and await asyncio.to_thread(verify_pin, pin, boss.pin_scrypt)
        if boss is None or not right:
            failures = self._failures.get(name, 0) + 1
            self._failures[name] = failures
            if failures >= MAX_FAILURES:
                self._failures[name] = 0
                self._locked_until[name] = now + LOCK_SECONDS
            return None
        self._failures.pop(name, None)
        token = new_token()
        principal = Principal(boss.name, "pit_boss")
        self._sessions[hash_token(token)] = _Session(principal, self.clock() + SESSION_SECONDS)
        return token, principal, SESSION_SECONDS

    def end_session(self, token: str) -> None:
        self._sessions.pop(hash_token(token), None)
