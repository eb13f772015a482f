"""The secrets the config keeps: a token's SHA-256, a PIN's scrypt.

A token is a random string handed to one client; the config keeps only its
SHA-256, so a leaked config file holds no usable token. A PIN is short: a plain
hash of it falls to ten thousand guesses, so each PIN is kept as scrypt with its
own salt (``scrypt$<n>$<r>$<p>$<salt hex>$<key hex>``). Here, outside the API,
because ``dealer-station auth`` and the demo make them too (docs/architecture.md:
only the API imports the API).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
SCRYPT_KEY_BYTES = 32


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
