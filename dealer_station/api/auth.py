"""Who may do what: bearer tokens with a role, pit-boss PINs, PIN sessions.

A token is a random string handed to one client (the console at the table, the
game server, the overlay); the config keeps only its SHA-256, so a leaked config
file holds no usable token. A PIN is short: a plain hash of it falls to ten
thousand guesses, so each PIN is kept as scrypt with its own salt
(``scrypt$<n>$<r>$<p>$<salt hex>$<key hex>``), and guesses are rationed.

A pit boss steps in at the console by name and PIN: the console gets a session
token of role ``pit_boss`` in that person's name, valid ``SESSION_SECONDS``, so
every action it takes is journaled as theirs. Logging out or the end of that
time ends the session everywhere, its live feeds too (:meth:`Authority.session_over`).
Every comparison with a secret is constant-time.

The rationing (docs/api.md, "A pit boss at the console") counts wrong PINs
three ways; reaching any limit locks for ``LOCK_SECONDS`` (429 with Retry-After):

- per console and name: ``PAIR_FAILURES`` wrong PINs for one pit boss from one
  console (its croupier token) lock that name at that console, as before: a tired
  pit boss who mistypes locks only themselves, and only there;
- per console: ``CLIENT_FAILURES`` wrong PINs for any names, unknown names too,
  lock that console out of PIN sign-in, so it cannot spray guesses over names;
- per name: ``NAME_FAILURES`` from all consoles together lock the name. It is a
  multiple of a console's allowance, so one console, whoever holds it, cannot lock
  a pit boss out of the other consoles.

A console is its croupier token's name, not its peer address: an attacker can
change the address, not the token, and the tokens are the config's, so few.
A guess is counted before its PIN is checked: a check runs only while the wrong
PINs counted plus the checks in flight are under every limit, so any number of
concurrent guesses gets no more checks than the smallest limit. Only configured
names and tokens are counted, so memory stays bounded whatever names are sent.

A dealer signs on at the console the same way (``dealer_sign_on``), with the
same three counts and limits, kept apart from the pit bosses': a dealer's PIN
gives no powers, and a croupier who mistypes theirs must not lock out the pit
boss called to the table. A sign-on opens no session: it says who deals at
the table (docs/api.md, "A dealer at the console").
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from dealer_station.config import AuthConfig, DealerConfig, Role
from dealer_station.credentials import hash_token, new_token, verify_pin

SESSION_SECONDS = 300.0
PAIR_FAILURES = 5
CLIENT_FAILURES = 2 * PAIR_FAILURES
NAME_FAILURES = 4 * PAIR_FAILURES
LOCK_SECONDS = 60.0
# scrypt needs 128 * n * r bytes (16 MiB here): checks run one at a time.
PIN_CHECKS_AT_ONCE = 1


@dataclass(frozen=True, slots=True)
class Principal:
    """Who sent a request: the token's or the pit boss's name, and the role; a
    console's token may name its table (the only one it signs dealers on at)."""

    name: str
    role: Role
    table: str | None = None


class PinLocked(Exception):
    def __init__(self, seconds: float) -> None:
        super().__init__(f"too many wrong PINs: locked for {seconds:.0f} s")
        self.seconds = seconds


@dataclass
class _Tries:
    """One name's or one client's guesses since its last success or lock."""

    limit: int
    failures: int = 0
    checking: int = 0
    locked_until: float = 0.0

    def admit(self, now: float) -> None:
        if self.locked_until > now:
            raise PinLocked(self.locked_until - now)
        if self.failures + self.checking >= self.limit:
            # The checks in flight will lock it when they fail.
            raise PinLocked(LOCK_SECONDS)

    def settle(self, right: bool, now: float) -> None:
        self.checking -= 1
        if right:
            self.failures = 0
            return
        self.failures += 1
        if self.failures >= self.limit:
            self.failures = 0
            self.locked_until = now + LOCK_SECONDS


@dataclass
class _Session:
    principal: Principal
    expires: float
    ended: asyncio.Event = field(default_factory=asyncio.Event)


# Whose PINs a guess is for: each kind is rationed on its own.
PinKind = Literal["pit_boss", "dealer"]


@dataclass
class Authority:
    config: AuthConfig
    clock: Callable[[], float] = time.monotonic
    _sessions: dict[str, _Session] = field(default_factory=dict)
    _names: dict[tuple[PinKind, str], _Tries] = field(default_factory=dict)
    _clients: dict[tuple[PinKind, str], _Tries] = field(default_factory=dict)
    _pairs: dict[tuple[PinKind, str, str], _Tries] = field(default_factory=dict)
    _checks: asyncio.Semaphore = field(
        default_factory=lambda: asyncio.Semaphore(PIN_CHECKS_AT_ONCE)
    )

    def principal(self, token: str) -> Principal | None:
        digest = hash_token(token)
        found: Principal | None = None
        # Every entry is compared, so the time taken does not tell which one matched.
        for entry in self.config.tokens:
            if hmac.compare_digest(digest, entry.sha256):
                found = Principal(entry.name, entry.role, entry.table)
        now = self.clock()
        for key, session in list(self._sessions.items()):
            if session.expires <= now:
                self._end(key)
            elif hmac.compare_digest(digest, key):
                found = session.principal
        return found

    def pit_boss_names(self) -> list[str]:
        return [b.name for b in self.config.pit_bosses]

    def counted(self) -> int:
        """How many names and clients the rationing remembers (bounded by the config)."""
        return len(self._names) + len(self._clients) + len(self._pairs)

    def dealer_names(self) -> list[str]:
        return [d.name for d in self.config.dealers]

    async def _right_pin(
        self, kind: PinKind, name: str, pin: str, encoded: str | None, client: Principal
    ) -> bool:
        """Whether ``pin`` is the one ``encoded`` (None: no such name) hashes,
        counted against the client and the name; raises ``PinLocked``."""
        tries = [self._clients.setdefault((kind, client.name), _Tries(CLIENT_FAILURES))]
        if encoded is not None:
            tries.append(self._names.setdefault((kind, name), _Tries(NAME_FAILURES)))
            pair = (kind, client.name, name)
            tries.append(self._pairs.setdefault(pair, _Tries(PAIR_FAILURES)))
        now = self.clock()
        for t in tries:
            t.admit(now)
        for t in tries:
            t.checking += 1
        right = False
        try:
            if encoded is not None:
                async with self._checks:
                    # scrypt takes tens of milliseconds by design: off the loop.
                    right = await asyncio.to_thread(verify_pin, pin, encoded)
        finally:
            now = self.clock()
            for t in tries:
                t.settle(right, now)
        return right

    async def pin_login(
        self, name: str, pin: str, client: Principal
    ) -> tuple[str, Principal, float] | None:
        """A session token for the pit boss ``name``, or None for a wrong name or
        PIN; raises ``PinLocked`` while ``client`` (the console's croupier token)
        or the name may not guess."""
        boss = next((b for b in self.config.pit_bosses if b.name == name), None)
        encoded = None if boss is None else boss.pin_scrypt
        # An unknown name is counted too: no spraying guesses over the names.
        right = await self._right_pin("pit_boss", name, pin, encoded, client)
        if boss is None or not right:
            return None
        token = new_token()
        principal = Principal(boss.name, "pit_boss")
        self._sessions[hash_token(token)] = _Session(principal, self.clock() + SESSION_SECONDS)
        return token, principal, SESSION_SECONDS

    async def dealer_sign_on(self, name: str, pin: str, client: Principal) -> DealerConfig | None:
        """The dealer ``name`` if ``pin`` is theirs, else None; raises
        ``PinLocked`` as ``pin_login`` does, on counts of its own."""
        dealer = next((d for d in self.config.dealers if d.name == name), None)
        encoded = None if dealer is None else dealer.pin_scrypt
        right = await self._right_pin("dealer", name, pin, encoded, client)
        if dealer is None or not right:
            return None
        return dealer

    def reconfigure(self, config: AuthConfig) -> None:
        """A reloaded ``[auth]``: its tokens and PINs count from the next request.
        A pit boss's session ends if their entry is gone or their PIN changed (a
        changed PIN is often a leaked one), and the rationing forgets names and
        consoles no longer configured, so it stays bounded by the config."""
        pins = {b.name: b.pin_scrypt for b in config.pit_bosses}
        before = {b.name: b.pin_scrypt for b in self.config.pit_bosses}
        self.config = config
        for digest, session in list(self._sessions.items()):
            name = session.principal.name
            if pins.get(name) is None or pins[name] != before.get(name):
                self._end(digest)
        names = {("pit_boss", n) for n in pins} | {("dealer", d.name) for d in config.dealers}
        consoles = {t.name for t in config.tokens}
        self._names = {k: v for k, v in self._names.items() if k in names}
        self._clients = {k: v for k, v in self._clients.items() if k[1] in consoles}
        self._pairs = {
            k: v for k, v in self._pairs.items() if k[1] in consoles and (k[0], k[2]) in names
        }

    def end_session(self, token: str) -> None:
        self._end(hash_token(token))

    def _end(self, digest: str) -> None:
        session = self._sessions.pop(digest, None)
        if session is not None:
            session.ended.set()

    async def session_over(self, token: str) -> None:
        """Return when the PIN session ``token`` ends (logout or expiry); for a
        token from the config, never: those end with the config."""
        session = self._sessions.get(hash_token(token))
        if session is None:
            await asyncio.get_running_loop().create_future()
            return
        left = session.expires - self.clock()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(session.ended.wait(), max(left, 0.0))
        self._end(hash_token(token))
