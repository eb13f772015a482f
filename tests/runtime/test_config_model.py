"""Every config check lives in the models (issue 14, step 3): a table built in
code is refused for a bad variant as the file is, a config validated with its
file's directory (`ConfigFile`) checks every file it names, the game names are
the games' own list, and the shoe's defaults are the registry's.

On main the variant and the files were checked by ``load_config`` after the
models, so the models themselves took a variant that does not exist; the game
names were typed out again in config.py and cli/simulate.py; a framed shoe in a
config waited 5 s of silence where ``open_shoe`` waits 3 s.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pydantic import ValidationError

from dealer_station.cli import build_parser
from dealer_station.config import ConfigFile, StationConfig, TableConfig, parse_config
from dealer_station.games.table import GAMES
from drivers.shoe.framed_session import FramedSession

ROOT = Path(__file__).resolve().parents[2]
MINIMAL = 'studio = "s"\nstation = "st"\n[[tables]]\nid = "t1"\ngame = "baccarat"\n'


def test_a_table_built_in_code_is_refused_for_a_variant_that_does_not_exist() -> None:
    with pytest.raises(ValidationError) as refused:
        TableConfig(id="t1", game="baccarat", variant="mini-baccarat")
    (error,) = refused.value.errors()
    assert error["loc"] == ("variant",)
    assert error["msg"].startswith("no baccarat variant 'mini-baccarat'; shipped: live-baccarat")


def test_a_table_built_in_code_is_refused_for_another_game_s_variant() -> None:
    with pytest.raises(ValidationError, match="game: is 'roulette', expected 'baccarat'"):
        TableConfig(id="t1", game="baccarat", variant="european-roulette")


def _station(**extra: object) -> dict[str, object]:
    return {"studio": "s", "station": "st", "tables": [{"id": "t1", "game": "baccarat"}],
            **extra}


def test_the_model_with_the_file_s_directory_checks_the_files_it_names(tmp_path: Path) -> None:
    (tmp_path / "mqtt-password").write_text("\n")
    raw = _station(journal="state/j.sqlite3",
                   mqtt={"password_file": "mqtt-password", "tls": {"ca_file": "ca.pem"}})
    with pytest.raises(ValidationError) as refused:
        StationConfig.model_validate(raw, context=ConfigFile(tmp_path))
    problems = {error["loc"]: error["msg"] for error in refused.value.errors()}
    assert problems == {
        ("mqtt", "password_file"): f"{tmp_path / 'mqtt-password'}: is empty",
        ("mqtt", "tls", "ca_file"): f"{tmp_path / 'ca.pem'}: No such file or directory",
    }


def test_the_model_resolves_relative_paths_against_the_file_s_directory(tmp_path: Path) -> None:
    (tmp_path / "mqtt-password").write_text("secret\n")
    raw = _station(journal="state/j.sqlite3", mqtt={"password_file": "mqtt-password"})
    config = StationConfig.model_validate(raw, context=ConfigFile(tmp_path))
    assert config.journal == tmp_path / "state" / "j.sqlite3"
    assert config.mqtt.resolved_password() == "secret"
    assert not (tmp_path / "state").exists()  # checked, not made


def test_the_game_names_are_the_games_own_list() -> None:
    """No module but games/table.py lists two game names: config.py and
    cli/simulate.py read `GAMES`."""
    names = set(GAMES)
    listed = []
    for path in sorted((ROOT / "dealer_station").rglob("*.py")):
        file = path.relative_to(ROOT).as_posix()
        if file == "dealer_station/games/table.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Tuple | ast.List | ast.Set):
                games = [e.value for e in node.elts
                         if isinstance(e, ast.Constant) and e.value in names]
                if len(games) > 1:
                    listed.append(f"{file}:{node.lineno}: {games}")
    assert listed == []


def test_the_config_and_the_simulator_offer_exactly_the_games() -> None:
    schema = StationConfig.model_json_schema()
    assert schema["$defs"]["TableConfig"]["properties"]["game"]["enum"] == list(GAMES)
    simulate = build_parser().parse_args(["simulate"])
    assert simulate.game == "all"
    for game in GAMES:
        assert build_parser().parse_args(["simulate", "--game", game]).game == game
    with pytest.raises(SystemExit):
        build_parser().parse_args(["simulate", "--game", "poker"])


def test_a_framed_shoe_in_a_config_goes_offline_after_the_protocol_s_silence() -> None:
    """One heartbeat default: the config's is the link's own (PROTOCOL.md §4.6)."""
    shoe = parse_config(MINIMAL + 'shoe = { port = "/dev/x" }\n').tables[0].shoe
    assert shoe is not None
    assert shoe.link_options()["heartbeat_timeout"] == FramedSession().heartbeat_timeout == 3.0


def test_a_wheel_sensor_is_a_roulette_table_s_and_the_primary_must_exist() -> None:
    with pytest.raises(ValidationError, match="a wheel sensor belongs to a roulette table"):
        TableConfig(id="t1", game="baccarat", wheel_sensor={"port": "/dev/dealer-wheel"})
    with pytest.raises(ValidationError, match="primary is the sensor, but the table has none"):
        TableConfig(id="t1", game="roulette", wheel_readings={"primary": "sensor"})
    table = TableConfig(
        id="t1",
        game="roulette",
        camera={"source": "0"},
        wheel_sensor={"port": "/dev/dealer-wheel"},
        wheel_readings={"primary": "sensor"},
    )
    assert table.wheel_sources == ("sensor", "camera")
    # The sensor's defaults are its protocol's (drivers/wheel/PROTOCOL.md: 9600 baud).
    assert table.wheel_sensor is not None
    assert table.wheel_sensor.link_options() == {"baudrate": 9600, "status_timeout": 3.0}
