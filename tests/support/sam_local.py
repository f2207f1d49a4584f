"""`sam local invoke` against the local stack, as `make sam-local` runs it: Docker's engine (started
here, and stopped again, when no daemon is running), the image tests/support/lambda-image.sh builds,
`sam build`, and a relay from the containers' gateway to moto's server on 127.0.0.1.

Whatever cannot run here (no root, no dockerd, no socat, no debootstrap for a first build, an engine
that will not start) raises Unavailable, which the tests turn into a loud skip, or a failure in CI."""

import fcntl
import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3

from support.paths import ROOT

IMAGE = "podpages/lambda-python:3.13"
BUILD_IMAGE = ROOT / "tests" / "support" / "lambda-image.sh"
# docker0, the default bridge's gateway: a container reaches the host there, and the image's
# AWS_ENDPOINT_URL names it. (SAM gives `--docker-network host` no host networking.)
GATEWAY = "172.17.0.1"
RELAY_PORT = 4566
# What every invocation adds to the function and the event; the README's commands are these.
FLAGS = ("--env-vars", "events/env.json", "--invoke-image", IMAGE, "--skip-pull-image")
APT = "apt-get install docker.io debootstrap socat iptables"
LOGS = ROOT / "build" / "sam-local"


class Unavailable(Exception):
    """Docker cannot run the functions here; the message says what is missing."""


def command(function: str, event: str) -> list[str]:
    """The README's command for `event` (a file in events/), run from the project's root."""
    return ["sam", "local", "invoke", function, "-e", f"events/{event}", *FLAGS]


type Say = Callable[[str], None]


@dataclass
class Invocation:
    function: str
    event: str
    answer: Any  # the function's response, as `sam local invoke` prints it on stdout
    log: str  # SAM's and the function's output on stderr
    seconds: float


class SamLocal:
    """Runs the README's commands; `sam build` and the image are done, the engine and relay up."""

    def __init__(self, sam: str, environment: dict[str, str]):
        self.sam, self.environment = sam, environment

    def invoke(self, function: str, event: str) -> Invocation:
        started = time.monotonic()
        result = run([self.sam, *command(function, event)[1:]], self.environment, timeout=600)
        seconds = time.monotonic() - started
        try:
            answer = json.loads(result.stdout)
        except json.JSONDecodeError:
            raise AssertionError(f"{shlex.join(command(function, event))} printed no answer:\n{tail(result)}") from None
        return Invocation(function, event, answer, result.stderr, seconds)


@contextmanager
def sam_local(aws_port: int, say: Say = print) -> Iterator[SamLocal]:
    """Everything `sam local invoke` needs, with the local stack's S3 and SQS on 127.0.0.1:`aws_port`;
    what it starts it stops, and what the engine changed on the host it puts back. `say` reports."""
    sam = Path(sys.executable).with_name("sam")
    if not sam.exists():
        raise Unavailable(f"no `sam` beside {sys.executable} (make install)")
    environment = dict(os.environ, SAM_CLI_TELEMETRY="0")
    environment.setdefault("PYENV_VERSION", "3.13.0")  # sam build and the image need python3.13
    for tool, package in (("docker", "docker.io"), ("socat", "socat")):
        if shutil.which(tool) is None:
            raise Unavailable(f"no `{tool}` ({APT}; {package} brings it)")
    LOGS.mkdir(parents=True, exist_ok=True)
    with one_at_a_time(say), docker_engine(LOGS / "dockerd.log", say), removing_new_images():
        started = time.monotonic()
        say(f"sam-local: {build_image(environment)} ({time.monotonic() - started:.0f} s)")
        started = time.monotonic()
        sam_build(str(sam), environment)
        say(f"sam-local: sam build ({time.monotonic() - started:.0f} s)")
        with relay(aws_port):
            yield SamLocal(str(sam), environment)


@contextmanager
def one_at_a_time(say: Say) -> Iterator[None]:
    """The engine and the gateway's port are the machine's: one run at a time, whatever the checkout."""
    temporary = Path(tempfile.gettempdir())
    with open(temporary / "podpages-sam-local.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say("sam-local: waiting for another run to finish …")
            fcntl.flock(lock, fcntl.LOCK_EX)
        # A `sam local invoke` stopped by Ctrl-C while building its image leaves its lock behind, and
        # the next one waits 5 minutes for it; no other run of ours is building now.
        for stale in temporary.glob("samcli_lambda-python_3.13-*.building.lock"):
            stale.unlink(missing_ok=True)
        yield


def docker_responds() -> bool:
    return subprocess.run(["docker", "info"], capture_output=True, timeout=60).returncode == 0


@contextmanager
def docker_engine(log: Path, say: Say) -> Iterator[None]:
    """A running daemon is used and left running. Otherwise dockerd starts here, as root, and is
    stopped at the end, with the host's forwarding state as it found it."""
    if docker_responds():
        say("sam-local: using the Docker engine already running")
        yield
        return
    if os.geteuid() != 0:
        raise Unavailable("no Docker engine is running, and starting dockerd takes root")
    dockerd = shutil.which("dockerd")
    if dockerd is None:
        raise Unavailable(f"no Docker engine is running, and no dockerd to start ({APT})")
    before = HostNetwork.read()
    # The functions' containers need no way out: they reach the local stack at the gateway, which is
    # the host itself. So dockerd leaves forwarding and iptables alone, and a DNS lookup fails at once.
    options = ["--iptables=false", "--ip-forward=false", "--dns", "127.0.0.1"]
    with open(log, "w") as output:  # a session of its own: a Ctrl-C stops the run, which then stops dockerd
        process = subprocess.Popen([dockerd, *options], stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not docker_responds():
            if process.poll() is not None or time.monotonic() > deadline:
                raise Unavailable(f"dockerd did not start; the end of {log.relative_to(ROOT)}:\n{log_tail(log)}")
            time.sleep(0.25)
        say(f"sam-local: started dockerd ({' '.join(options)})")
        yield
    finally:
        process.terminate()
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        changed = before.restore()
        say("\nsam-local: stopped dockerd" + (f"; put back {', '.join(changed)}" if changed else ""))
        left = HostNetwork.read().differences(before)
        if left:
            raise RuntimeError(f"dockerd left the host changed: {left}")


@dataclass(frozen=True)
class HostNetwork:
    """What dockerd changes on the host when it is let: forwarding, iptables' chains, rules and
    policies (filter and nat), and the docker0 bridge."""

    ip_forward: str
    iptables: dict[str, tuple[str, ...]]  # table: `iptables -t table -S`
    bridge: bool

    TABLES = ("filter", "nat")
    IP_FORWARD = Path("/proc/sys/net/ipv4/ip_forward")

    @classmethod
    def read(cls) -> "HostNetwork":
        tables = {table: tuple(_iptables(table, "-S").splitlines()) for table in cls.TABLES}
        return cls(cls.IP_FORWARD.read_text().strip(), tables, Path("/sys/class/net/docker0").exists())

    def differences(self, other: "HostNetwork") -> list[str]:
        found = [] if self.ip_forward == other.ip_forward else ["ip_forward"]
        found += [f"iptables {table}" for table in self.TABLES if self.iptables[table] != other.iptables[table]]
        return found + ([] if self.bridge == other.bridge else ["docker0"])

    def restore(self) -> list[str]:
        """Undo what was added since `self` was read; the names of what was put back."""
        now = HostNetwork.read()
        changed = now.differences(self)
        for table in self.TABLES:
            added = [line for line in now.iptables[table] if line not in self.iptables[table]]
            for rule in (line for line in added if line.startswith("-A ")):
                _iptables(table, "-D", *shlex.split(rule)[1:])
            chains = [line.split()[1] for line in added if line.startswith("-N ")]
            for chain in chains:
                _iptables(table, "-F", chain)
            for chain in chains:
                _iptables(table, "-X", chain)
            for policy in (line.split() for line in self.iptables[table] if line.startswith("-P ")):
                _iptables(table, "-P", *policy[1:])
        if now.ip_forward != self.ip_forward:
            self.IP_FORWARD.write_text(self.ip_forward)  # the kernel resets each interface's forwarding too
        if now.bridge and not self.bridge:
            subprocess.run(["ip", "link", "delete", "docker0"], check=True)
        return changed


def _iptables(table: str, *arguments: str) -> str:
    if shutil.which("iptables") is None:
        return ""
    return subprocess.run(["iptables", "-t", table, *arguments], capture_output=True, text=True, check=True).stdout


@contextmanager
def removing_new_images() -> Iterator[None]:
    """SAM builds an image over the base one for every invocation (the layer is the template's own);
    they go at the end, with the build's leftovers. The base image stays, to be reused."""
    before = set(docker_images())
    try:
        yield
    finally:
        keep = before | set(docker_images(IMAGE))
        if new := [image for image in docker_images() if image not in keep]:
            subprocess.run(["docker", "image", "rm", "--force", *new], capture_output=True, timeout=300)


def docker_images(name: str = "") -> list[str]:
    """Every image's id (with the intermediate ones), or `name`'s; none when the engine is gone."""
    arguments = ["docker", "images", "--all", "--quiet", "--no-trunc", *([name] if name else [])]
    return subprocess.run(arguments, capture_output=True, text=True, timeout=60).stdout.split()


def build_image(environment: dict[str, str]) -> str:
    """The image, unless it is built already (about a minute, 200 MB); what the script said."""
    present = subprocess.run(["docker", "image", "inspect", IMAGE], capture_output=True).returncode == 0
    if not present and (shutil.which("debootstrap") is None or os.geteuid() != 0):
        raise Unavailable(f"the image {IMAGE} is not built, and building it takes root and debootstrap ({APT})")
    result = run([str(BUILD_IMAGE), IMAGE], environment | {"BOTO3_VERSION": boto3.__version__}, timeout=900)
    if (bridge := bridge_gateway()) != GATEWAY:
        raise RuntimeError(f"docker0 is {bridge}, but the image's AWS_ENDPOINT_URL names {GATEWAY}")
    return result.stdout.strip()


def bridge_gateway() -> str:
    """The default bridge's gateway, where the functions' containers reach the host. On a daemon's
    very first start (no network store yet), Docker 20.10's `network inspect` names the subnet but
    not the gateway; the bridge interface carries it then."""
    inspect = ["docker", "network", "inspect", "bridge", "--format", "{{range .IPAM.Config}}{{.Gateway}}{{end}}"]
    if gateway := subprocess.run(inspect, capture_output=True, text=True, check=True).stdout.strip():
        return gateway
    shown = subprocess.run(["ip", "-4", "-o", "addr", "show", "docker0"], capture_output=True, text=True).stdout.split()
    return shown[shown.index("inet") + 1].split("/")[0] if "inet" in shown else ""


def sam_build(sam: str, environment: dict[str, str]) -> None:
    """`make build`: into .aws-sam/, where `sam local invoke` finds the built template."""
    run([sam, "build", "--template", "template.yaml"], environment, timeout=900)


@contextmanager
def relay(aws_port: int) -> Iterator[None]:
    """The gateway's port 4566, where the image's AWS_ENDPOINT_URL points, relayed to moto's server."""
    if _listening(GATEWAY, RELAY_PORT):
        raise RuntimeError(f"{GATEWAY}:{RELAY_PORT} is taken (a relay to `make demo`, started by hand?): stop it")
    process = subprocess.Popen(
        ["socat", f"TCP-LISTEN:{RELAY_PORT},bind={GATEWAY},fork,reuseaddr", f"TCP:127.0.0.1:{aws_port}"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 10
        while not _listening(GATEWAY, RELAY_PORT):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"no relay on {GATEWAY}:{RELAY_PORT}: {process.communicate()[1] or 'not ready'}")
            time.sleep(0.1)
        yield
    finally:
        process.terminate()
        process.wait(10)


def _listening(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=1).close()
    except OSError:
        return False
    return True


def run(arguments: list[str], environment: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(arguments, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise AssertionError(f"{shlex.join(arguments)} exited {result.returncode}:\n{tail(result)}")
    return result


def tail(result: subprocess.CompletedProcess[str], lines: int = 40) -> str:
    return "\n".join((result.stdout + result.stderr).splitlines()[-lines:])


def log_tail(path: Path, lines: int = 20) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
