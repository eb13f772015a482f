"""Secrets as systemd credentials (issue 19): the unit's LoadCredential= puts the
broker's password and the TLS client key in a private directory named by
$CREDENTIALS_DIRECTORY, and station.toml names them there as
``$CREDENTIALS_DIRECTORY/<name>``. The directory is a real one, as systemd would
make it; the station is started as `dealer-station run` is, and its link logs in
to a real mosquitto that wants that password."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.broker import Broker

from dealer_station.config import ConfigError, load_config

SECRET = "s3cret-from-a-credential"


def _config(tmp_path: Path, mqtt: str) -> Path:
    path = tmp_path / "station.toml"
    path.write_text(
        f'studio = "s"\nstation = "st"\njournal = "{tmp_path / "j.sqlite3"}"\n'
        f'[mqtt]\nhost = "127.0.0.1"\nport = 1\nusername = "station"\n{mqtt}'
        '[http]\nport = 0\n[[tables]]\nid = "t1"\ngame = "roulette"\n'
    )
    return path


def _credentials(tmp_path: Path) -> Path:
    directory = tmp_path / "credentials"
    directory.mkdir()
    (directory / "mqtt-password").write_text(SECRET + "\n")
    (directory / "mqtt-client.key").write_text("-----BEGIN PRIVATE KEY-----\n")
    return directory


def test_credential_paths_resolve_under_the_credentials_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = _credentials(tmp_path)
    monkeypatch.setenv("CREDENTIALS_DIRECTORY", str(directory))
    config = load_config(
        _config(
            tmp_path,
            'password_file = "$CREDENTIALS_DIRECTORY/mqtt-password"\n'
            '[mqtt.tls]\nkey_file = "$CREDENTIALS_DIRECTORY/mqtt-client.key"\n',
        )
    )
    assert config.mqtt.password_file == directory / "mqtt-password"
    assert config.mqtt.resolved_password() == SECRET
    assert config.mqtt.tls is not None
    assert config.mqtt.tls.key_file == directory / "mqtt-client.key"


def test_a_credential_without_the_directory_is_refused_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CREDENTIALS_DIRECTORY", raising=False)
    path = _config(tmp_path, 'password_file = "$CREDENTIALS_DIRECTORY/mqtt-password"\n')
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    assert str(refused.value) == (
        f"{path}: mqtt.password_file: $CREDENTIALS_DIRECTORY/mqtt-password: names a systemd "
        "credential, but $CREDENTIALS_DIRECTORY is not set (the station runs outside its "
        "unit, or the unit has no LoadCredential= for it)"
    )


def test_a_credential_the_unit_did_not_load_is_a_missing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = _credentials(tmp_path)
    monkeypatch.setenv("CREDENTIALS_DIRECTORY", str(directory))
    path = _config(tmp_path, 'password_file = "$CREDENTIALS_DIRECTORY/broker-password"\n')
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    assert str(refused.value) == (
        f"{path}: mqtt.password_file: {directory / 'broker-password'}: No such file or directory"
    )


def test_the_station_logs_in_with_the_credential(tmp_path: Path) -> None:
    """mosquitto with a password file: the station's link is accepted only with
    the credential's password, so its `connected` line proves it was read."""
    passwords = tmp_path / "passwd"
    passwords.touch()
    subprocess.run(["mosquitto_passwd", "-b", str(passwords), "station", SECRET], check=True)
    broker = Broker(tmp_path)
    conf = broker.conf.read_text().replace("allow_anonymous true", "allow_anonymous false")
    # "user root": started as root, mosquitto would drop to its own user, which
    # cannot read pytest's private directory (support/broker.py says the same).
    broker.conf.write_text(conf + f"password_file {passwords}\nuser root\n")
    broker.start()
    directory = _credentials(tmp_path)
    path = _config(tmp_path, 'password_file = "$CREDENTIALS_DIRECTORY/mqtt-password"\n')
    path.write_text(path.read_text().replace("port = 1\n", f"port = {broker.port}\n", 1))
    process = subprocess.Popen(
        [sys.executable, "-m", "dealer_station", "run", "--config", str(path)],
        env={**os.environ, "CREDENTIALS_DIRECTORY": str(directory)},
        stderr=subprocess.PIPE,
        text=True,
    )
    line = ""
    try:
        assert process.stderr is not None
        # Until the station says how the broker took it, or ends (a config error).
        for line in process.stderr:
            if "connected to the broker" in line or "refused the connection" in line:
                break
    finally:
        process.terminate()
        process.wait(timeout=20)
        broker.stop()
    assert "connected to the broker" in line, line
