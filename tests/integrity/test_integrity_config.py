"""``[integrity] level``: the monitor's significance level, from the config."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_station.config import ConfigError, parse_config

BASE = (
    'studio = "s"\nstation = "st"\njournal = "{journal}"\n[[tables]]\nid = "r"\ngame = "roulette"\n'
)


def test_the_level_defaults_to_one_percent_and_can_be_set(tmp_path: Path) -> None:
    base = BASE.format(journal=tmp_path / "j.sqlite")
    assert parse_config(base).integrity.level == 0.01
    assert parse_config(base + "[integrity]\nlevel = 0.001\n").integrity.level == 0.001


@pytest.mark.parametrize("bad", ["level = 0", "level = 0.5", "level = -0.01", "alpha = 0.01"])
def test_a_level_that_means_nothing_is_refused_by_name(tmp_path: Path, bad: str) -> None:
    with pytest.raises(ConfigError, match="integrity"):
        parse_config(BASE.format(journal=tmp_path / "j.sqlite") + f"[integrity]\n{bad}\n")
