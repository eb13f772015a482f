"""What the people at the table are told to do: the words of the table's alarms.

One place for the wording, so that a croupier reads the same sentence whichever
channel shows the alarm (the console, the overlay's operator view, MQTT), and a
change of wording is one edit. The alarms name inputs, records and sources,
never a card the players may not see.
"""

from __future__ import annotations

from collections.abc import Sequence

# When the station refuses an input from the shoe or the camera, by the reason.
REFUSAL_ADVICE = {
    "misdeal": "Card {card} was not due. Hold it aside; pit boss: burn it or void the round.",
    "impossible_card": "Card {card} cannot come from this shoe (foreign card or misread). "
    "The round holds; pit boss: enter the card as it really is, or remove it and release.",
    "round_held": "The round holds: a pit boss resolves it first (enter, release or void).",
    "card_unread": "A card passed the scanner unread: pit boss, enter it by hand or void.",
    "bad_card": "The shoe sent something that is not a card. Pit boss: check the shoe.",
}

# When a device goes offline.
OFFLINE_ADVICE = {
    "shoe": "Shoe offline: do not draw. Check the shoe's cable; the round waits.",
    "camera": "Wheel camera offline: enter each number on the pad (tap, then confirm).",
    "wheel_sensor": "Wheel sensor offline: the camera's numbers settle alone (or enter each "
    "number on the pad). Check the wheel controller's cable.",
}

# How many set-aside records a restart's alarm names one by one.
REPLAY_ALARM_LISTS = 5


def replay_refused(problems: Sequence[tuple[int, str, str, str]]) -> str:
    """The restart's alarm for journaled inputs it could not apply: each
    (record, event type, source, reason), in journal order."""
    listed = "; ".join(
        f"record {seq} ({kind} from {source}): {reason}"
        for seq, kind, source, reason in problems[:REPLAY_ALARM_LISTS]
    )
    more = len(problems) - REPLAY_ALARM_LISTS
    return (
        f"At the restart {len(problems)} journaled input(s) could not be applied and were "
        f"set aside: {listed}{f'; and {more} more' if more > 0 else ''}. "
        "Pit boss: check the table's last rounds against the journal."
    )


def journal_changed(seq: int) -> str:
    """The restart's alarm when a table's snapshot no longer matches the
    journal's hash chain at the record it folds in."""
    return (
        f"The journal was changed at or before record {seq} after this table's snapshot was "
        "taken: the record no longer has the hash the snapshot folded in. The table was rebuilt "
        "from the whole journal as it stands now. Studio engineer: run `dealer-station journal "
        "verify` against the last published digest before the next round."
    )


def reload_refused(problem: str) -> str:
    """The alarm when a reload of the config file (``systemctl reload``) was
    refused: why, and that the table runs on as before."""
    return (
        f"The station did not take its reloaded config: {problem}. The table runs on the "
        "config it had. Studio engineer: fix station.toml and reload again, or restart the "
        "station for a change a reload cannot make."
    )
