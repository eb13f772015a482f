"""The station on arm64 before a Pi: a Debian bookworm arm64 root built with
mmdebstrap, run through qemu-user's binfmt handler, where the station is
installed from requirements/station.lock and run; each step is timed there and
natively, for the slowdown (systemd/README.md, "Check on arm64 before a Pi").

    ./dev pi-check            # the whole check, as root (an hour or more; the root is cached)
    ./dev pi-check --quick    # only: the lock holds an aarch64 wheel of every package

The quick part needs no emulation and no root: pip resolves the lock for a
Pi's platform (CPython 3.11, glibc 2.36, aarch64) from wheels only, and each
chosen file's hash must be one of the lock's. CI runs it (tests/test_pi_check.py);
the whole check is run by hand, its figures written into the README.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache"
PI_ROOT = CACHE / "pi-root"
NATIVE = CACHE / "pi-native"

# The root's recipe: a change to any of it builds the root anew. The packages a
# station needs on a Pi (systemd/README.md step 1), mosquitto for the demo's broker,
# and its client to read that broker inside the root by hand (the check reads it
# with this machine's).
SUITE = "bookworm"
ARCH = "arm64"
PACKAGES = (
    "python3",
    "python3-venv",
    "sqlite3",
    "mosquitto",
    "mosquitto-clients",
    "ca-certificates",
)
RECIPE = {"suite": SUITE, "arch": ARCH, "variant": "apt", "packages": sorted(PACKAGES)}

# The rules tests' own tools, taken from requirements/dev.lock with what they need.
TEST_TOOLS = ("pytest", "pytest-timeout", "hypothesis")
RULES_TESTS = "tests/games"
WHEEL_FIXTURE = "tests/fixtures/wheel/valid-190"  # .mkv, and .json: the number it shows
DEMO_SECONDS = 30
DEMO_TABLES = 3  # baccarat, blackjack, roulette
# Where the demo says its broker is (it picks a free port): host, port, topic prefix.
BROKER = re.compile(r"watch MQTT  mosquitto_sub -h (\S+) -p (\d+) -t '([^']+)/#'")
STEP_TIMEOUT = 3600.0
# A stopping station first lets its rounds in play settle (drain_seconds, 120 s):
# the demo gets what the unit gives the station (TimeoutStopSec=).
DEMO_STOP_TIMEOUT = 150.0
# Under qemu, on a shared machine: 30 min when measured, with room for a loaded day.
RULES_TESTS_TIMEOUT = 2 * 3600.0
VENV = "/opt/dealer-station/venv"
HOST_PACKAGES = {
    "mmdebstrap": "mmdebstrap",
    "arch-test": "arch-test",
    "qemu-aarch64-static": "qemu-user-static",
    "update-binfmts": "binfmt-support",
    "mosquitto_sub": "mosquitto-clients",
    "unshare": "util-linux",
}
BINFMT = Path("/proc/sys/fs/binfmt_misc")
CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"  # Debian's, on both sides


class CheckFailed(Exception):
    """A step that could not be done, with what to do about it."""


# --- the quick part: a Pi's wheels in the lock ------------------------------------------

PIN = re.compile(r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>[^\s;]+)")
# pip takes a --platform tag as it is (no older manylinux with it): every glibc a
# bookworm Pi runs wheels for, 2.17 (manylinux2014) to its own 2.36.
PI_PLATFORM = [
    arg for minor in range(17, 37) for arg in ("--platform", f"manylinux_2_{minor}_aarch64")
]
PIP_DRY_RUN = [
    "install",
    "--dry-run",
    "--quiet",
    "--no-deps",
    "--ignore-installed",
    "--only-binary",
    ":all:",
]
PI_PYTHON = ["--python-version", "3.11", "--implementation", "cp", "--abi", "cp311"]


@dataclass(frozen=True)
class PiWheels:
    """What a Pi installs from a lock: each package's wheel, pure or compiled
    (its platform tag), or pip's reasons why it cannot."""

    kinds: dict[str, str]
    problems: list[str]


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pi_wheels(lock: Path) -> PiWheels:
    """pip resolves the lock for a Pi from wheels only (``--only-binary :all:``)
    and checks each chosen file's hash against the lock's (``--require-hashes``,
    implied by the hashes): a package with no aarch64 or pure wheel, or a wheel
    whose hash the lock lacks, fails it, and pip names the package.
    ``--dry-run`` reads the wheels' metadata, not the wheels."""
    with tempfile.TemporaryDirectory(prefix="pi-check-") as tmp:
        report = Path(tmp) / "report.json"
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                *PIP_DRY_RUN,
                *PI_PLATFORM,
                *PI_PYTHON,
                "--target",
                str(Path(tmp) / "target"),
                "--report",
                str(report),
                "-r",
                str(lock),
            ],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            # pip's own words, a file's address shortened to its name.
            said = re.sub(r"https?://\S+/", "", run.stderr).strip().splitlines()
            reason = [line for line in said if line.startswith(("ERROR", "    "))] or said[-5:]
            reason += [
                f"{found}: no wheel for a Pi (CPython 3.11 on aarch64, or pure): "
                "it would be built from source there, if it builds at all"
                for found in re.findall(r"No matching distribution found for (\S+)", run.stderr)
            ]
            return PiWheels({}, [f"pip cannot install {lock.name} on a Pi from wheels:", *reason])
        chosen = json.loads(report.read_text())["install"]
    kinds = {}
    for item in chosen:
        filename = item["download_info"]["url"].rsplit("/", 1)[-1]
        platform = filename.removesuffix(".whl").rsplit("-", 1)[-1]
        kinds[canonical(item["metadata"]["name"])] = "pure" if platform == "any" else platform
    return PiWheels(kinds, [])


def run_quick(lock: Path) -> int:
    found = pi_wheels(lock)
    for name, kind in sorted(found.kinds.items()):
        print(f"  {name:28} {kind}")
    if found.problems:
        print(f"pi-check: {lock.name} is not installable on a Pi from wheels:", file=sys.stderr)
        for line in found.problems:
            print(f"  {line}", file=sys.stderr)
        return 1
    compiled = sum(kind != "pure" for kind in found.kinds.values())
    print(
        f"pi-check: {lock.name}: an aarch64 wheel for each of its {len(found.kinds)} packages "
        f"({compiled} compiled), each hash in the lock"
    )
    return 0


# --- the host: packages, binfmt, the root -----------------------------------------------


def sh(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """A host command whose failure ends the check, with its own words."""
    run = subprocess.run(list(args), capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    if run.returncode != 0:
        raise CheckFailed(
            f"{' '.join(args)} failed ({run.returncode}): {run.stderr.strip()[-2000:]}"
        )
    return run  # type: ignore[no-any-return]


def ensure_host_tools() -> None:
    missing = sorted(
        {
            pkg
            for tool, pkg in HOST_PACKAGES.items()
            if shutil.which(tool) is None and not Path("/usr/sbin", tool).exists()
        }
    )
    if not missing:
        return
    print(f"pi-check: installing {' '.join(missing)}", flush=True)
    sh("apt-get", "update", "-q")
    sh(
        "apt-get",
        "install",
        "-y",
        "-q",
        *missing,
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
    )


def ensure_binfmt() -> str:
    """Makes the kernel run aarch64 programs through qemu; returns its interpreter,
    which a chroot must hold too unless the handler is fixed (flag F: the kernel
    opened it at registration, as Debian's qemu-user-static registers it)."""
    if not (BINFMT / "status").exists():
        run = subprocess.run(
            ["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            raise CheckFailed(
                f"binfmt_misc is not mounted at {BINFMT} and root cannot mount it here "
                f"({run.stderr.strip()}): run pi-check in a VM or on a host, not in an "
                "unprivileged container"
            )
    entry = BINFMT / "qemu-aarch64"
    if not entry.exists() or not entry.read_text().startswith("enabled"):
        subprocess.run(["update-binfmts", "--enable", "qemu-aarch64"], capture_output=True)
    if not entry.exists() or not entry.read_text().startswith("enabled"):
        raise CheckFailed(
            f"qemu-aarch64 is not enabled in {BINFMT} after `update-binfmts --enable "
            "qemu-aarch64`: see `update-binfmts --display qemu-aarch64`"
        )
    fields = dict(line.split(" ", 1) for line in entry.read_text().splitlines()[1:] if " " in line)
    return "" if "F" in fields.get("flags:", "") else fields["interpreter"]


def recipe_digest() -> str:
    return hashlib.sha256(json.dumps(RECIPE, sort_keys=True).encode()).hexdigest()


def ensure_root() -> dict[str, object]:
    """The arm64 root, built once for its recipe; returns its build record
    (recipe, first-build seconds, size in bytes, built by this run or not)."""
    record_file = PI_ROOT / "build.json"
    target = PI_ROOT / "root"
    if record_file.exists() and target.is_dir():
        record: dict[str, object] = json.loads(record_file.read_text())
        if record["recipe"] == recipe_digest():
            return {**record, "built_now": False}
    print(f"pi-check: building the {SUITE} {ARCH} root with mmdebstrap (minutes)", flush=True)
    building = PI_ROOT / "root.new"
    for stale in (building, target):
        shutil.rmtree(stale, ignore_errors=True)
    PI_ROOT.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    # No mirror named: mmdebstrap takes Debian's default one.
    sh(
        "mmdebstrap",
        "--mode=root",
        f"--variant={RECIPE['variant']}",
        f"--architectures={ARCH}",
        f"--include={','.join(PACKAGES)}",
        SUITE,
        str(building),
    )
    seconds = time.monotonic() - started
    building.rename(target)
    record = {"recipe": recipe_digest(), "seconds": round(seconds, 1), "bytes": tree_bytes(target)}
    record_file.write_text(json.dumps(record, indent=2) + "\n")
    return {**record, "built_now": True}


def tree_bytes(path: Path) -> int:
    return int(sh("du", "-sb", "--one-file-system", str(path)).stdout.split()[0])


def copy_project(target: Path) -> None:
    """The work tree's files (tracked and new, not ignored), as a Pi gets them."""
    shutil.rmtree(target, ignore_errors=True)
    listed = sh("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    for name in filter(None, listed.stdout.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def rules_test_lock(dev_lock: Path) -> str:
    """The test tools' part of requirements/dev.lock: each tool and, over and
    over, every package whose ``# via`` names one already taken."""
    blocks: dict[str, str] = {}
    via: dict[str, set[str]] = {}
    name = ""
    for line in dev_lock.read_text().splitlines(keepends=True):
        pin = PIN.match(line)
        if pin:
            name = canonical(pin["name"])
            blocks[name], via[name] = "", set()
        if not name:
            continue
        blocks[name] += line
        comment = line.strip().removeprefix("#").strip().removeprefix("via").strip()
        if line.strip().startswith("#") and comment and not comment.startswith("-"):
            via[name].add(canonical(comment.split()[0]))
    taken = set(TEST_TOOLS)
    while grown := {n for n, by in via.items() if n not in taken and by & taken}:
        taken |= grown
    return "".join(blocks[n] for n in sorted(taken))


# --- the steps, under emulation and natively ---------------------------------------------


@dataclass(frozen=True)
class Figure:
    """One step at one place: its wall-clock seconds and the CPU seconds (user and
    system) of its processes, None where the clock figure is not one run's."""

    clock: float
    cpu: float | None


@dataclass
class Timings:
    steps: dict[str, dict[str, Figure]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def add(self, step: str, place: Place, figure: Figure) -> None:
        self.steps.setdefault(step, {})[place.name] = figure


def start(command: Sequence[str], out: IO[bytes]) -> subprocess.Popen[bytes]:
    # A session of its own: one kill of its process group ends the step's every
    # process (pip's builds, pytest's, each with its qemu), not only the first.
    return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def reap(process: subprocess.Popen[bytes]) -> float:
    """Waits for the process; returns the CPU seconds of it and of every child it
    waited for, from wait4's own account (this machine is shared: the clock also
    counts the time others took)."""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


def running(process: subprocess.Popen[bytes]) -> bool:
    # WNOWAIT: left for reap(), whose wait4 alone tells the CPU it used.
    return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None


@dataclass
class Place:
    """Where the steps run: the arm64 root (through unshare and chroot) or this
    machine; ``src`` and ``venv`` are paths as the commands there see them."""

    name: str
    root: Path | None
    src: str
    venv: str
    logs: Path

    def command(self, args: Sequence[str]) -> list[str]:
        env = [
            "/usr/bin/env",
            "-i",
            "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
            "HOME=/root",
            "LANG=C.UTF-8",
            "TZ=UTC",
            f"PIP_CERT={CA_BUNDLE}",
        ]
        inside = [*env, "sh", "-c", 'cd "$0" && exec "$@"', self.src, *args]
        if self.root is None:
            return inside
        # A private mount namespace: /proc and /dev inside the root vanish with the
        # command, even one that is killed.
        mount = (
            'r=$0; mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" '
            '&& exec chroot "$r" "$@"'
        )
        return [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            mount,
            str(self.root),
            *inside,
        ]

    def finish(self, process: subprocess.Popen[bytes], timeout: float) -> float | None:
        """Waits up to ``timeout`` s for the process; returns its CPU seconds (reap),
        or None when it was still running then: its process group is killed, and
        in the root whatever else still runs there."""
        cpu: list[float] = []
        waiter = threading.Thread(target=lambda: cpu.append(reap(process)), daemon=True)
        waiter.start()
        waiter.join(timeout)
        if not waiter.is_alive():
            return cpu[0]
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        waiter.join()
        if self.root is not None:
            self.kill_left_in_root()
        return None

    def kill_left_in_root(self) -> None:
        """Kills the processes left in the root: those that made a session of their
        own (the demo's broker), out of reach of their step's process group."""
        assert self.root is not None
        root = str(self.root.resolve())
        for proc in Path("/proc").iterdir():
            with suppress(OSError, ValueError):
                if proc.name.isdigit() and os.readlink(proc / "root") == root:
                    os.kill(int(proc.name), signal.SIGKILL)

    def run(
        self, timings: Timings, step: str, log_name: str, args: Sequence[str], timeout: float
    ) -> str:
        """Runs one step's command, timed, its output kept in the step's log;
        returns the output. A step still running after ``timeout`` s fails."""
        print(f"pi-check: {self.name}: {step}", flush=True)
        log = self.logs / f"{self.name}-{log_name}.log"
        with log.open("wb") as out:
            started = time.monotonic()
            process = start(self.command(args), out)
            cpu = self.finish(process, timeout)
            clock = time.monotonic() - started
        output = log.read_text(errors="replace")
        if cpu is None:
            raise CheckFailed(
                f"{self.name}: {step} was still running after {timeout:.0f} s: stopped, "
                f"its processes killed; see {log}:\n" + output[-1500:]
            )
        if process.returncode != 0:
            raise CheckFailed(
                f"{self.name}: {step} failed ({process.returncode}), see {log}:\n" + output[-1500:]
            )
        timings.add(step, self, Figure(clock, cpu))
        return output


def run_steps(place: Place, timings: Timings) -> None:
    py, bin_ = f"{place.venv}/bin/python", f"{place.venv}/bin"

    def step(name: str, log_name: str, args: Sequence[str], timeout: float = STEP_TIMEOUT) -> str:
        return place.run(timings, name, log_name, args, timeout)

    step(
        "venv",
        "venv",
        ["sh", "-c", f'rm -rf "{place.venv}" && /usr/bin/python3 -m venv "{place.venv}"'],
    )
    pip_install = [py, "-m", "pip", "install", "--no-cache-dir"]
    out = step(
        "install the lock",
        "install-lock",
        [*pip_install, "--require-hashes", "-r", "requirements/station.lock"],
    )
    built = sorted(set(re.findall(r"Building wheel for (\S+)", out)))
    if built:
        timings.notes.append(f"{place.name}: built from source, no wheel: {', '.join(built)}")
    step("install the project", "install-project", [*pip_install, "--no-deps", "."])
    station = f"{bin_}/dealer-station"
    version = step("--version", "version", [station, "--version"]).strip()
    step("odds baccarat", "odds-baccarat", [station, "odds", "baccarat"])
    step("odds roulette", "odds-roulette", [station, "odds", "roulette"])
    out = step(
        "wheel detect",
        "wheel-detect",
        [station, "wheel", "detect", "--json", f"{WHEEL_FIXTURE}.mkv"],
    )
    expect_wheel_number(place, out)
    step(
        "test tools (dev.lock)",
        "test-tools",
        [*pip_install, "--require-hashes", "-r", "rules-tests.lock"],
    )
    out = step(
        f"rules tests ({RULES_TESTS})",
        "rules-tests",
        rules_tests_command(place),
        timeout=RULES_TESTS_TIMEOUT,
    )
    timings.notes.append(f"{place.name}: {version}; rules tests: {out.strip().splitlines()[-1]}")
    run_demo(place, timings)


def rules_tests_command(place: Place) -> list[str]:
    # pytest-timeout's limit per test (pyproject.toml) is set for native speed;
    # under qemu the tests run ten times slower: there only the step's limit holds.
    per_test = ["--timeout=0"] if place.root is not None else []
    return [f"{place.venv}/bin/pytest", "-q", "-p", "no:cacheprovider", *per_test, RULES_TESTS]


def expect_wheel_number(place: Place, output: str) -> None:
    truth = json.loads((ROOT / f"{WHEEL_FIXTURE}.json").read_text())["number"]
    results = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    numbers = [r.get("number") for r in results if r.get("type") == "result"]
    if numbers != [truth]:
        raise CheckFailed(
            f"{place.name}: wheel detect read {numbers} from {WHEEL_FIXTURE}.mkv, "
            f"which shows {truth}"
        )


class StatusWatch:
    """Every table's ``status`` on the demo's broker, retained or new, as this
    machine's mosquitto_sub reads it: a subscriber's view of the station, which
    a log line is not."""

    def __init__(self, host: str, port: str, prefix: str) -> None:
        self.command = ["mosquitto_sub", "-h", host, "-p", port, "-t", f"{prefix}/+/+/status"]
        self.states: dict[str, str] = {}
        self.lines: queue.Queue[str] = queue.Queue()
        self.sub: subprocess.Popen[str] | None = None

    def poll(self) -> None:
        """Reads what came; subscribes anew when the last subscriber ended (the
        broker was not listening yet)."""
        if self.sub is None or self.sub.poll() is not None:
            self.sub = subprocess.Popen(
                [*self.command, "-v"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
            )
            threading.Thread(target=self._read, args=(self.sub,), daemon=True).start()
        while not self.lines.empty():
            topic, _, payload = self.lines.get().rstrip("\n").partition(" ")
            # An empty payload clears a retained status: nothing is said then.
            self.states[topic] = json.loads(payload).get("state", "") if payload else ""

    def _read(self, sub: subprocess.Popen[str]) -> None:
        assert sub.stdout is not None
        for line in sub.stdout:
            self.lines.put(line)

    def online(self) -> bool:
        return len(self.states) == DEMO_TABLES and set(self.states.values()) == {"online"}

    def stop(self) -> None:
        if self.sub is not None:
            self.sub.terminate()
            self.sub.wait()


def run_demo(place: Place, timings: Timings) -> dict[str, str]:
    """The demo for DEMO_SECONDS; it must go online: every table's ``status`` on
    its broker says online. Records the seconds from the start to then, and the
    CPU seconds of the whole run; returns each table's last status."""
    print(f"pi-check: {place.name}: demo ({DEMO_SECONDS} s)", flush=True)
    log = place.logs / f"{place.name}-demo.log"
    command = [
        f"{place.venv}/bin/dealer-station",
        "demo",
        "--http-port",
        str(free_port()),
        "--seed",
        "7",
        "--broker",
        "mosquitto",
    ]
    watch: StatusWatch | None = None
    online: float | None = None
    with log.open("wb") as out:
        started = time.monotonic()
        demo = start(place.command(command), out)
        try:
            while (clock := time.monotonic() - started) < DEMO_SECONDS:
                if not running(demo):
                    raise CheckFailed(f"{place.name}: the demo ended, see {log}")
                # The demo picks its broker's port, and says it.
                address = BROKER.search(log.read_text(errors="replace"))
                if watch is None and address is not None:
                    watch = StatusWatch(*address.groups())
                if watch is not None:
                    watch.poll()
                    if online is None and watch.online():
                        online = clock
                time.sleep(0.1)
            if watch is None or online is None:
                raise CheckFailed(
                    f"{place.name}: the demo's {DEMO_TABLES} tables did not all say online on "
                    f"its broker in {DEMO_SECONDS} s "
                    f"({watch.states if watch else 'no broker address printed'}), see {log}"
                )
            watch.poll()
            if not watch.online():
                raise CheckFailed(
                    f"{place.name}: the demo went online, then its broker held {watch.states}, "
                    f"see {log}"
                )
        finally:
            if watch is not None:
                watch.stop()
            if running(demo):
                # Not Popen.send_signal: its poll() would reap the demo, and with it
                # the CPU account that only wait4 gives.
                os.kill(demo.pid, signal.SIGINT)
            cpu = place.finish(demo, DEMO_STOP_TIMEOUT)
    clock = time.monotonic() - started
    if cpu is None:
        raise CheckFailed(
            f"{place.name}: the demo did not stop in {DEMO_STOP_TIMEOUT:.0f} s on SIGINT: "
            f"killed, see {log}"
        )
    assert watch is not None and online is not None
    timings.add("demo: start to online", place, Figure(online, None))
    timings.add(f"demo: {DEMO_SECONDS} s", place, Figure(clock, cpu))
    timings.notes.append(
        f"{place.name}: demo online, {DEMO_TABLES} tables' status online on its broker"
    )
    return watch.states


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# --- the whole check ---------------------------------------------------------------------


def run_whole() -> int:
    if os.geteuid() != 0:
        raise CheckFailed(
            "the whole check builds a root and chroots into it: run it as root "
            "(`--quick` needs neither)"
        )
    ensure_host_tools()
    interpreter = ensure_binfmt()
    record = ensure_root()
    root = PI_ROOT / "root"
    if interpreter:  # a handler not fixed at registration is looked up inside the root
        (root / interpreter.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(interpreter, root / interpreter.lstrip("/"))
    # pip in the root reaches the index as this machine does: its name servers, and
    # the certificate authorities it trusts (a network whose proxy signs with its own).
    shutil.copyfile("/etc/resolv.conf", root / "etc/resolv.conf")
    shutil.copyfile(CA_BUNDLE, root / CA_BUNDLE.lstrip("/"))
    logs = CACHE / "pi-check-logs"
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir(parents=True)
    tests_lock = rules_test_lock(ROOT / "requirements/dev.lock")
    arm64 = Place("arm64", root, "/src", VENV, logs)
    native = Place("native", None, str(NATIVE / "src"), str(NATIVE / "venv"), logs)
    for src in (root / "src", NATIVE / "src"):
        copy_project(src)
        (src / "rules-tests.lock").write_text(tests_lock)
    machine = arm64.run(Timings(), "machine", "machine", ["uname", "-m"], 300).strip()
    if machine != "aarch64":
        raise CheckFailed(f"the root runs as {machine!r}, not aarch64: binfmt did not take it")
    timings = Timings()
    try:
        for place in (native, arm64):
            run_steps(place, timings)
    finally:
        # A failed run's figures too: those of every step that ended.
        print_table(timings)
    print(
        f"\nroot: {SUITE} {ARCH}, built in {record['seconds']} s"
        + (" (by this run)" if record["built_now"] else " (cached)")
        + f", {int(str(record['bytes'])) / 2**20:.0f} MiB as built, "
        f"{tree_bytes(root) / 2**20:.0f} MiB with the venv and the project"
    )
    return 0


def print_table(timings: Timings) -> None:
    """The figures as systemd/README.md's table has them: seconds on the clock
    (CPU seconds), and the ratios arm64 / native."""
    print("\n| step | native | arm64 (qemu) | clock ratio | CPU ratio |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for step, by_place in timings.steps.items():
        native, arm64 = by_place.get("native"), by_place.get("arm64")
        ratios = ["", ""]
        if native and arm64:
            ratios[0] = f"{arm64.clock / native.clock:.1f}x"
            if native.cpu and arm64.cpu is not None:
                ratios[1] = f"{arm64.cpu / native.cpu:.1f}x"
        print(f"| {step} | {seconds(native)} | {seconds(arm64)} | {' | '.join(ratios)} |")
    for note in timings.notes:
        print(f"  {note}")


def seconds(figure: Figure | None) -> str:
    if figure is None:
        return "-"
    cpu = "" if figure.cpu is None else f" ({figure.cpu:.1f} CPU)"
    return f"{figure.clock:.1f} s{cpu}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="only check that the lock holds an aarch64 wheel of every package",
    )
    parser.add_argument("--lock", type=Path, default=ROOT / "requirements/station.lock")
    args = parser.parse_args(argv)
    try:
        return run_quick(args.lock) if args.quick else run_whole()
    except CheckFailed as failure:
        print(f"pi-check: {failure}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
