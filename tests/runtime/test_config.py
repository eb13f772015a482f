"""The station's config: a typo is an error naming the key; the shipped examples
pass `dealer-station config check`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dealer_station.config import ConfigError, load_config, parse_config

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.toml"))
MINIMAL = 'studio = "s"\nstation = "st"\n[[tables]]\nid = "t1"\ngame = "baccarat"\n'


def _check(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dealer_station", "config", "check", str(path)],
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_every_example_config_is_valid(example: Path, tmp_path: Path) -> None:
    # On a Pi installed as systemd/README.md says: the files it names exist.
    text = example.read_text()
    for installed in ("/etc/dealer-station/", "/var/lib/dealer-station/"):
        text = text.replace(installed, f"{tmp_path}{installed}")
    for name in ("mqtt-password", "studio-ca.pem", "wheel-calibration.json"):
        (tmp_path / "etc" / "dealer-station").mkdir(parents=True, exist_ok=True)
        (tmp_path / "etc" / "dealer-station" / name).write_text("secret\n")
    config = tmp_path / example.name
    config.write_text(text)
    result = _check(config)
    assert result.returncode == 0, result.stderr
    assert "OK" in result.stdout


def test_there_is_an_example_for_each_seed_table() -> None:
    names = {p.stem for p in EXAMPLES}
    assert names >= {
        "live-blackjack",
        "blackjack-3-position",
        "standard-blackjack",
        "diamond-blackjack",
        "live-baccarat",
        "european-roulette",
    }


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (MINIMAL + 'recovry = "void"\n', "tables[0].recovry: unknown key"),
        (
            MINIMAL.replace("[[tables]]", "[mqtt]\nprot = 1883\n[[tables]]"),
            "mqtt.prot: unknown key",
        ),
        (MINIMAL.replace('"baccarat"', '"poker"'), "tables[0].game"),
        (MINIMAL + 'shoe = { port = "/dev/x", protocol = "morse" }\n', "tables[0].shoe.protocol"),
        (MINIMAL.replace('id = "t1"', 'id = "T 1"'), "tables[0].id"),
        (MINIMAL + MINIMAL.split("\n", 2)[2], "tables: Value error, table id 't1' is used twice"),
        ('studio = "s"\nstation = "st"\ntables = []\n', "a station runs at least one table"),
    ],
)
def test_a_bad_config_names_the_key(text: str, where: str) -> None:
    with pytest.raises(ConfigError, match=where.replace("[", r"\[").replace("]", r"\]")):
        parse_config(text)


def test_check_refuses_an_unknown_variant(tmp_path: Path) -> None:
    path = tmp_path / "station.toml"
    path.write_text(MINIMAL + 'variant = "mini-baccarat"\n')
    result = _check(path)
    assert result.returncode == 2
    assert "tables[0].variant: no baccarat variant 'mini-baccarat'" in result.stderr
    assert "shipped: live-baccarat" in result.stderr


def test_relative_paths_are_relative_to_the_file(tmp_path: Path) -> None:
    path = tmp_path / "conf" / "station.toml"
    path.parent.mkdir()
    path.write_text(
        'studio = "s"\nstation = "st"\njournal = "state/j.sqlite3"\n[[tables]]\nid = "r"\n'
        'game = "roulette"\ncamera = { source = "wheel.mkv", calibration = "cal.json" }\n'
    )
    (path.parent / "cal.json").write_text("{}")
    config = load_config(path)
    assert config.journal == path.parent / "state" / "j.sqlite3"
    camera = config.tables[0].camera
    assert camera is not None
    assert camera.source == str(path.parent / "wheel.mkv")
    assert camera.calibration == path.parent / "cal.json"


def test_password_and_password_file_are_exclusive() -> None:
    text = MINIMAL.replace("[[tables]]", '[mqtt]\npassword = "x"\npassword_file = "/p"\n[[tables]]')
    with pytest.raises(ConfigError, match="password or password_file"):
        parse_config(text)


def _mqtt(section: str) -> str:
    return MINIMAL.replace("[[tables]]", f"[mqtt]\n{section}\n[[tables]]")


def test_brokers_are_a_list_of_host_port_or_tables_and_host_port_a_list_of_one() -> None:
    config = parse_config(
        _mqtt('brokers = ["mq1:1884", "mq2", "[::1]:1885", { host = "mq4", port = 1886 }]')
    )
    assert [(b.host, b.port) for b in config.mqtt.addresses()] == [
        ("mq1", 1884),
        ("mq2", 1883),  # MQTT's registered port when none is given
        ("::1", 1885),
        ("mq4", 1886),
    ]
    one = parse_config(_mqtt('host = "mq9"\nport = 1890'))
    assert [(b.host, b.port) for b in one.mqtt.addresses()] == [("mq9", 1890)]


@pytest.mark.parametrize(
    ("section", "why"),
    [
        ('host = "mq1"\nbrokers = ["mq2:1883"]', "give host and port, or brokers, not both"),
        ('port = 1884\nbrokers = ["mq2:1883"]', "give host and port, or brokers, not both"),
        ('brokers = ["mq1:mqtt"]', "mqtt.brokers[0]: 'mq1:mqtt': not host:port"),
        ("brokers = []", "mqtt.brokers: List should have at least 1 item"),
        ('brokers = ["mq1:0"]', "mqtt.brokers[0].port"),
    ],
)
def test_a_bad_broker_list_is_refused_with_its_reason(section: str, why: str) -> None:
    with pytest.raises(ConfigError, match=why.replace("[", r"\[").replace("]", r"\]")):
        parse_config(_mqtt(section))
