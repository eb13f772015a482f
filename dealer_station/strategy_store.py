"""The basic strategy tables of the shipped blackjack variants, worked out in
advance and shipped as package data (``strategy_tables/<variant>.json``).

Working a table out (``games/blackjack_strategy_table.build``) takes seconds
per variant, far longer than a station's loop may hold still; reading one takes
a millisecond. Each file holds the hash of the rules it was worked out for:
a table is used only for rules of play of exactly that hash, so a variant file
whose rules of play changed since has no packaged table, and the station works
its table out again (at its start, off the loop) rather than play a stale one. ``dealer-station
strategy-tables`` writes the files again (after a change to a variant or to the
solver) and ``--check`` says whether they are current.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any, Final

from dealer_station.games.blackjack_rules import BlackjackRules
from dealer_station.games.blackjack_strategy_table import BasicStrategy

TABLES: Final = Path(__file__).with_name("strategy_tables")


# What a variant file says beside its rules of play: its words, and what the
# station does around the game (the timer's choice, the warning's threshold).
# Nothing in dealer_station/games reads them (tests/runtime/test_strategy_store.py
# checks it), so no table depends on them: a variant file that changes only
# these plays its base's packaged table.
NOT_OF_PLAY: Final = frozenset(
    {"title", "source", "published_rtp", "default_decision", "warn_deviation_ev"}
)


def rules_hash(rules: BlackjackRules) -> str:
    """A hash of every rule of play of the variant (all but ``NOT_OF_PLAY``),
    the same in every process: a rule added later counts unless listed there."""

    def plain(value: object) -> object:
        if isinstance(value, Decimal):
            return str(value)
        raise TypeError(f"{type(value).__name__} in the rules")

    of_play = {k: v for k, v in dataclasses.asdict(rules).items() if k not in NOT_OF_PLAY}
    text = json.dumps(of_play, sort_keys=True, default=plain)
    return hashlib.sha256(text.encode()).hexdigest()


def table_file(variant: str, rules: BlackjackRules, strategy: BasicStrategy) -> str:
    """The packaged file's text for a shipped variant's table."""
    data = {"variant": variant, "rules_sha256": rules_hash(rules), **strategy.to_data()}
    return json.dumps(data, indent=1) + "\n"


@cache
def _packaged(directory: Path) -> dict[str, dict[str, Any]]:
    """The packaged tables by the hash of their rules, read once."""
    found = {}
    for path in sorted(directory.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        found[data["rules_sha256"]] = data
    return found


def packaged(rules: BlackjackRules, directory: Path = TABLES) -> BasicStrategy | None:
    """The packaged table for exactly these rules, or None."""
    data = _packaged(directory).get(rules_hash(rules))
    return None if data is None else BasicStrategy.from_data(data)
