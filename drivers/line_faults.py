"""Damage to bytes on the line, reproducible from a seed."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class LineFaults:
    """Per-byte probabilities of a flipped bit, a dropped byte, a duplicated byte."""

    flip: float = 0.0
    drop: float = 0.0
    duplicate: float = 0.0
    seed: int = 0
    flipped: int = 0
    dropped: int = 0
    duplicated: int = 0
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    @classmethod
    def mixed(cls, rate: float, seed: int = 0) -> LineFaults:
        """`rate` of all bytes damaged, a third each flipped, dropped, duplicated."""
        return cls(flip=rate / 3, drop=rate / 3, duplicate=rate / 3, seed=seed)

    @property
    def active(self) -> bool:
        return self.flip + self.drop + self.duplicate > 0

    @property
    def damaged(self) -> int:
        return self.flipped + self.dropped + self.duplicated

    def apply(self, data: bytes) -> bytes:
        if not self.active:
            return data
        out = bytearray()
        rng = self._rng
        flip, drop, dup = self.flip, self.flip + self.drop, self.flip + self.drop + self.duplicate
        for byte in data:
            roll = rng.random()
            if roll >= dup:
                out.append(byte)
            elif roll < flip:
                out.append(byte ^ (1 << rng.randrange(8)))
                self.flipped += 1
            elif roll < drop:
                self.dropped += 1
            else:
                out += bytes((byte, byte))
                self.duplicated += 1
        return bytes(out)
