"""The files in systemd/ checked by systemd's own tools, as a Pi would read them.

- ``systemd-analyze verify`` exits 0 on unknown keys and typos, so any output on
  stderr is a failure.
- ``systemd-analyze security --offline=yes`` scores the sandbox; the test pins the
  exact list of checks the unit does not pass, each with its reason.
- ``systemd-sysusers`` creates the account in a scratch root.
- ``udevadm verify`` only exists from systemd 253 (Debian 12 has 252), so the udev
  rules are parsed against udev(7)'s grammar here, and handed to udevadm as well where
  it can check them.

A missing tool fails the test with a message: systemd is part of Debian's base system.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SYSTEMD_DIR = Path(__file__).resolve().parents[2] / "systemd"
UNIT = SYSTEMD_DIR / "dealer-station.service"
LOCAL_BROKER_DROPIN = SYSTEMD_DIR / "local-broker.conf"
CREDENTIALS_DROPIN = SYSTEMD_DIR / "credentials.conf"
RULES = SYSTEMD_DIR / "99-dealer-shoe.rules"
SYSUSERS = SYSTEMD_DIR / "dealer-station.sysusers"

SHIPPED_EXEC_START = (
    "/opt/dealer-station/venv/bin/dealer-station run --config /etc/dealer-station/station.toml"
)

# "OK" in systemd's own scale runs from 1.0 to 4.9; the unit scores 1.5 today.
MAX_EXPOSURE = 2.0

# Every check of `systemd-analyze security` the unit does not pass, and why. The test
# wants this list exact, so a weakened unit and a stale excuse both fail it.
ACCEPTED_EXPOSURES = {
    "PrivateNetwork": "MQTT, the HTTP API and the console page need the network",
    "RestrictAddressFamilies_AF_INET_INET6": "MQTT and HTTP over IP",
    "RestrictAddressFamilies_AF_UNIX": "sd_notify and a local broker use AF_UNIX",
    "IPAddressDeny": "the broker may be on any address; a site may add an allow list",
    "PrivateDevices": "the shoe and the camera are real devices; DevicePolicy= fences them",
    "DeviceAllow": "the shoe and camera driver classes (and the RTC, read-only)",
    "SupplementaryGroups": "dialout and video own the shoe and the camera",
    "PrivateUsers": "left off: see systemd/README.md",
    "ProcSubset": "left off: see systemd/README.md",
    "RootDirectoryOrRootImage": "the station runs from a venv on the host's root",
    "UMask": "0027: nothing world-readable; group read kept for a support account",
}


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"`{name}` is not installed; these tests need it (Debian: systemd, util-linux)")
    return path


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    # A SYSTEMD_LOG_LEVEL=debug inherited from a CI runner would fill stderr.
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYSTEMD_")}
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)


def unit_settings(text: str) -> dict[str, list[str]]:
    """``Section.Key`` -> every value assigned to it, in order."""
    settings: dict[str, list[str]] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        settings.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return settings


# --- systemd-analyze verify ---------------------------------------------------------


def verify(tmp_path: Path, unit_text: str) -> subprocess.CompletedProcess[str]:
    """Verify ``unit_text`` with the shipped drop-ins beside it.

    The shipped ExecStart= names /opt/dealer-station/venv, which exists only on an
    installed Pi, and verify fails on a missing executable. A test drop-in points
    ExecStart= at this venv's entry point instead, so the unit file itself is
    verified byte for byte as shipped.
    """
    entry_point = Path(sys.executable).parent / "dealer-station"
    if not entry_point.is_file():
        pytest.fail(f"{entry_point} is missing: install the project into the venv (./dev test)")
    unit = tmp_path / "dealer-station.service"
    unit.write_text(unit_text)
    dropins = tmp_path / "dealer-station.service.d"
    dropins.mkdir()
    for dropin in (LOCAL_BROKER_DROPIN, CREDENTIALS_DROPIN):
        shutil.copyfile(dropin, dropins / dropin.name)
    (dropins / "zz-test-exec-start.conf").write_text(
        "[Service]\nExecStart=\n"
        f"ExecStart={entry_point} run --config /etc/dealer-station/station.toml\n"
    )
    return run(tool("systemd-analyze"), "verify", str(unit))


def test_unit_and_drop_ins_verify_without_a_word(tmp_path: Path) -> None:
    result = verify(tmp_path, UNIT.read_text())
    assert result.stderr == ""
    assert result.stdout == ""
    assert result.returncode == 0


def test_verify_catches_an_unknown_key(tmp_path: Path) -> None:
    """The check above can fail: verify reports a misspelt key on stderr only."""
    result = verify(tmp_path, UNIT.read_text() + "\n[Service]\nWatchDogSec=10s\n")
    assert "Unknown key 'WatchDogSec'" in result.stderr
    assert result.returncode == 0


def test_unit_keeps_its_contract_with_the_runtime() -> None:
    settings = unit_settings(UNIT.read_text())
    # The drop-in above replaces ExecStart=, so the shipped one is checked here.
    assert settings["Service.ExecStart"] == [SHIPPED_EXEC_START]
    # dealer_station.sdnotify: ready() ends the start-up, run_watchdog() pings.
    assert settings["Service.Type"] == ["notify"]
    assert settings["Service.NotifyAccess"] == ["main"]
    assert settings["Service.WatchdogSec"] == ["10s"]
    assert settings["Service.Restart"] == ["on-failure"]
    # The journal lives in /var/lib/dealer-station ($STATE_DIRECTORY).
    assert settings["Service.StateDirectory"] == ["dealer-station"]
    assert settings["Service.ConfigurationDirectory"] == ["dealer-station"]
    # Journal and MQTT times are wall-clock: the clock is set first.
    assert "time-sync.target" in settings["Unit.After"][-1].split()
    assert "time-sync.target" in " ".join(settings["Unit.Wants"]).split()
    # SIGHUP reloads (dealer_station.station.Station.reload); works on systemd 252 and 253+.
    assert settings["Service.ExecReload"] == ["/bin/kill -HUP $MAINPID"]
    # start_report_seconds (at most 30 s, config.py) extends it well within.
    assert settings["Service.TimeoutStartSec"] == ["90s"]


def test_the_credentials_drop_in_loads_what_the_config_names() -> None:
    """Each credential is a file the config can name as $CREDENTIALS_DIRECTORY/<name>:
    the broker's password and the TLS client key, from root-only files."""
    settings = unit_settings(CREDENTIALS_DROPIN.read_text())
    loaded = dict(value.split(":", 1) for value in settings["Service.LoadCredential"])
    assert set(loaded) == {"mqtt-password", "mqtt-client.key"}
    assert all(path.startswith("/etc/dealer-station/credentials/") for path in loaded.values())


# --- systemd-analyze security -------------------------------------------------------


def test_security_exposure_is_ok() -> None:
    result = run(tool("systemd-analyze"), "security", "--offline=yes", "--no-pager", str(UNIT))
    assert result.stderr == ""
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert match, result.stdout
    score = float(match.group(1))
    print(f"systemd-analyze security --offline=yes: {score}")
    assert score <= MAX_EXPOSURE


def test_security_exposures_are_exactly_the_accepted_ones() -> None:
    result = run(
        tool("systemd-analyze"), "security", "--offline=yes", "--json=short", str(UNIT)
    )
    assert result.stderr == ""
    unmet = {check["json_field"] for check in json.loads(result.stdout) if check["set"] is False}
    assert unmet - ACCEPTED_EXPOSURES.keys() == set(), "the unit lost some hardening"
    assert ACCEPTED_EXPOSURES.keys() - unmet == set(), "stale entries in ACCEPTED_EXPOSURES"


# --- sysusers.d -----------------------------------------------------------------------


def colon_table(path: Path) -> dict[str, list[str]]:
    """/etc/passwd or /etc/group: name -> all fields."""
    return {line.split(":")[0]: line.split(":") for line in path.read_text().splitlines()}


def test_sysusers_creates_the_account_in_dialout_and_video(tmp_path: Path) -> None:
    etc = tmp_path / "etc"
    etc.mkdir()
    # Debian's static groups, as on a Pi.
    (etc / "group").write_text("root:x:0:\ndialout:x:20:\nvideo:x:44:pi\n")
    (etc / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    argv = [
        tool("systemd-sysusers"),
        f"--root={tmp_path}",
        "--replace=/etc/sysusers.d/dealer-station.conf",
        str(SYSUSERS),
    ]
    if os.geteuid() != 0:
        # sysusers writes the account files as root; a user namespace lets it do so
        # in the scratch root without privileges.
        argv = [tool("unshare"), "--map-root-user", *argv]
    result = run(*argv)
    assert result.returncode == 0, result.stderr
    unexpected = [line for line in result.stderr.splitlines() if not line.startswith("Creating ")]
    assert unexpected == []

    users = colon_table(etc / "passwd")
    assert users["dealer-station"][6] == "/usr/sbin/nologin"
    groups = colon_table(etc / "group")
    assert "dealer-station" in groups
    # Existing groups keep their GIDs (device nodes are owned by those numbers).
    assert groups["dialout"][2:] == ["20", "dealer-station"]
    assert groups["video"][2] == "44"
    assert set(groups["video"][3].split(",")) == {"pi", "dealer-station"}


# --- udev rules -----------------------------------------------------------------------

# udev(7): keys that only match, keys that only assign, keys that may do either.
MATCH_KEYS = {"ACTION", "DEVPATH", "KERNEL", "KERNELS", "SUBSYSTEM", "SUBSYSTEMS",
              "DRIVER", "DRIVERS", "ATTRS", "TAGS", "RESULT", "CONST", "TEST", "PROGRAM"}
ASSIGN_KEYS = {"OWNER", "GROUP", "MODE", "RUN", "LABEL", "GOTO", "IMPORT", "OPTIONS",
               "SECLABEL"}
EITHER_KEYS = {"NAME", "SYMLINK", "ATTR", "SYSCTL", "ENV", "TAG"}
MATCH_OPS = {"==", "!="}
ASSIGN_OPS = {"=", "+=", "-=", ":="}

RULE_TOKEN = re.compile(
    r'\s*(?P<key>[A-Z]+)(?:\{(?P<attr>[^}]+)\})?\s*(?P<op>==|!=|\+=|-=|:=|=)\s*"(?P<value>[^"]*)"\s*'
)


def parse_rules(text: str) -> list[dict[str, tuple[str, str]]]:
    """Each rule as ``{"KEY" or "KEY{attr}": (operator, value)}``; fails on bad syntax."""
    rules = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        rule: dict[str, tuple[str, str]] = {}
        for field in line.split(","):
            token = RULE_TOKEN.fullmatch(field)
            assert token, f"line {number}: cannot parse {field!r}"
            key, op = token["key"], token["op"]
            if key in MATCH_KEYS:
                assert op in MATCH_OPS, f"line {number}: {key} only matches, not {op}"
            elif key in ASSIGN_KEYS:
                assert op in ASSIGN_OPS, f"line {number}: {key} only assigns, not {op}"
            else:
                assert key in EITHER_KEYS, f"line {number}: {key} is not a udev key"
            name = f"{key}{{{token['attr']}}}" if token["attr"] else key
            assert name not in rule, f"line {number}: {name} twice"
            rule[name] = (op, token["value"])
        rules.append(rule)
    return rules


def rule_for(symlink: str) -> dict[str, tuple[str, str]]:
    [rule] = [r for r in parse_rules(RULES.read_text()) if r.get("SYMLINK") == ("+=", symlink)]
    return rule


def test_the_shoe_gets_a_stable_name_and_group() -> None:
    shoe = rule_for("dealer-shoe")
    assert shoe["SUBSYSTEM"] == ("==", "tty")
    # ModemManager leaves the line alone (no AT probes into the shoe).
    assert shoe["ENV{ID_MM_DEVICE_IGNORE}"] == ("=", "1")
    assert re.fullmatch("[0-9a-f]{4}", shoe["ATTRS{idVendor}"][1])
    assert re.fullmatch("[0-9a-f]{4}", shoe["ATTRS{idProduct}"][1])
    assert shoe["GROUP"] == ("=", "dialout")
    assert shoe["MODE"] == ("=", "0660")


def test_the_wheel_sensor_gets_a_stable_name_and_modemmanager_leaves_it_alone() -> None:
    wheel = rule_for("dealer-wheel")
    assert wheel["SUBSYSTEM"] == ("==", "tty")
    assert wheel["ENV{ID_MM_DEVICE_IGNORE}"] == ("=", "1")
    assert wheel["GROUP"] == ("=", "dialout")


def test_the_camera_gets_a_stable_name_and_group() -> None:
    camera = rule_for("dealer-camera")
    assert camera["SUBSYSTEM"] == ("==", "video4linux")
    assert re.fullmatch("[0-9a-f]{4}", camera["ATTRS{idVendor}"][1])
    assert re.fullmatch("[0-9a-f]{4}", camera["ATTRS{idProduct}"][1])
    assert camera["ATTR{index}"] == ("==", "0")
    assert camera["GROUP"] == ("=", "video")
    assert camera["MODE"] == ("=", "0660")


def test_the_rules_parser_rejects_what_udev_would() -> None:
    with pytest.raises(AssertionError, match="not a udev key"):
        parse_rules('SUBSYSTEM=="tty", SYMLNK+="dealer-shoe"')
    with pytest.raises(AssertionError, match="only matches"):
        parse_rules('SUBSYSTEM="tty", SYMLINK+="dealer-shoe"')
    with pytest.raises(AssertionError, match="cannot parse"):
        parse_rules('SUBSYSTEM=="tty" SYMLINK+="dealer-shoe"')


def test_udevadm_verify_accepts_the_rules() -> None:
    udevadm = shutil.which("udevadm")
    if udevadm is None or run(udevadm, "verify", "--help").returncode != 0:
        pytest.skip("udevadm verify needs systemd >= 253; the rules were parsed above")
    result = run(udevadm, "verify", "--no-style", str(RULES))
    assert result.returncode == 0, result.stdout + result.stderr


# --- the files agree with each other ------------------------------------------------


def test_unit_rules_and_sysusers_name_the_same_user_groups_and_device() -> None:
    settings = unit_settings(UNIT.read_text())
    assert settings["Service.User"] == ["dealer-station"]
    unit_groups = set(settings["Service.SupplementaryGroups"][0].split())
    sysusers = [line.split() for line in SYSUSERS.read_text().splitlines()
                if line and not line.startswith("#")]
    assert ["u", "dealer-station"] in [fields[:2] for fields in sysusers]
    member_of = {fields[2] for fields in sysusers if fields[:2] == ["m", "dealer-station"]}

    device_groups = {rule_for(name)["GROUP"][1] for name in ("dealer-shoe", "dealer-camera")}
    assert device_groups == unit_groups == member_of == {"dialout", "video"}
    assert "/dev/dealer-shoe rw" in settings["Service.DeviceAllow"]
    assert settings["Service.DevicePolicy"] == ["closed"]


# --- the journal's backup: dealer-station-backup.service and .timer ------------------

BACKUP_UNIT = SYSTEMD_DIR / "dealer-station-backup.service"
BACKUP_TIMER = SYSTEMD_DIR / "dealer-station-backup.timer"
BACKUP_EXEC_START = (
    "/opt/dealer-station/venv/bin/dealer-station journal backup"
    " --journal /var/lib/dealer-station/journal.sqlite3"
    " --to /var/lib/dealer-station-backup --keep 14"
)
# Where the backup's sandbox is not the station's, and why: tighter, each of them.
BACKUP_TIGHTER = {
    "Service.RestrictAddressFamilies": ["AF_UNIX"],  # no network: a copy of a file
    "Service.StateDirectory": ["dealer-station dealer-station-backup"],  # and the copies
}
BACKUP_MAX_EXPOSURE = 1.0


def _sandbox(settings: dict[str, list[str]]) -> dict[str, list[str]]:
    kinds = ("Protect", "Private", "Restrict", "NoNew", "Capability", "SystemCall", "Lock",
             "Memory", "RemoveIPC", "UMask", "User", "Group", "StateDirectory")  # fmt: skip
    return {k: v for k, v in settings.items() if k.split(".")[-1].startswith(kinds)}


def test_backup_unit_and_timer_verify_without_a_word(tmp_path: Path) -> None:
    entry_point = Path(sys.executable).parent / "dealer-station"
    unit = tmp_path / BACKUP_UNIT.name
    shutil.copyfile(BACKUP_UNIT, unit)
    shutil.copyfile(BACKUP_TIMER, tmp_path / BACKUP_TIMER.name)
    dropins = tmp_path / f"{BACKUP_UNIT.name}.d"
    dropins.mkdir()
    # As for the station: the shipped ExecStart= names a venv only a Pi has.
    (dropins / "zz-test-exec-start.conf").write_text(
        "[Service]\nExecStart=\nExecStart="
        + BACKUP_EXEC_START.replace("/opt/dealer-station/venv/bin/dealer-station", str(entry_point))
        + "\n"
    )
    result = run(tool("systemd-analyze"), "verify", str(unit), str(tmp_path / BACKUP_TIMER.name))
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_backup_runs_the_command_as_the_station_in_its_sandbox() -> None:
    backup = unit_settings(BACKUP_UNIT.read_text())
    assert backup["Service.ExecStart"] == [BACKUP_EXEC_START]
    assert backup["Service.Type"] == ["oneshot"]
    station = _sandbox(unit_settings(UNIT.read_text()))
    ours = _sandbox(backup)
    assert {k: ours.get(k) for k in station} == {**station, **BACKUP_TIGHTER}
    # And what the station cannot have (it has a network and devices).
    assert backup["Service.PrivateNetwork"] == ["yes"]
    assert backup["Service.PrivateDevices"] == ["yes"]


def test_backup_timer_runs_daily_at_a_random_time_and_catches_up() -> None:
    timer = unit_settings(BACKUP_TIMER.read_text())
    assert timer["Timer.OnCalendar"] == ["daily"]
    assert timer["Timer.RandomizedDelaySec"] == ["3h"]
    assert timer["Timer.Persistent"] == ["true"]
    assert "Timer.Unit" not in timer  # so it starts the .service of its own name
    assert timer["Install.WantedBy"] == ["timers.target"]


def test_backup_security_exposure_is_lower_than_the_stations() -> None:
    result = run(
        tool("systemd-analyze"), "security", "--offline=yes", "--no-pager", str(BACKUP_UNIT)
    )
    assert result.stderr == ""
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert match, result.stdout
    assert float(match.group(1)) <= BACKUP_MAX_EXPOSURE
