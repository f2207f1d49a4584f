"""README, Makefile, events/, CI and the layer's pins agree with each other."""

import re
import subprocess
import sys
import tomllib

from packaging.requirements import Requirement

from support.paths import EVENTS, ROOT

README = (ROOT / "README.md").read_text()
MAKEFILE = (ROOT / "Makefile").read_text()


def test_every_make_target_the_readme_names_exists_and_is_listed_by_make_help():
    documented = set(re.findall(r"make ([a-z-]+)", README))
    listed = set(re.findall(r"^([a-z-]+):.*## ", MAKEFILE, re.MULTILINE))

    assert documented and documented <= listed


def test_every_event_file_the_readme_names_exists():
    named = set(re.findall(r"events/([\w.-]+\.json)", README))

    assert named and all((EVENTS / name).exists() for name in named)


def test_ci_runs_the_readme_s_test_command():
    assert "make test" in README
    assert re.search(r"^make test$", (ROOT / ".ci" / "run").read_text(), re.MULTILINE)


def test_the_layer_pins_every_runtime_dependency_within_its_range():
    declared = [
        Requirement(line) for line in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    ]
    pins = {}
    for line in (ROOT / "layers" / "podpages" / "requirements.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[name.lower().replace("_", "-")] = version

    for requirement in declared:
        if requirement.name == "boto3":  # the Lambda runtime provides it
            continue
        pinned = pins.get(requirement.name.lower())
        assert pinned and requirement.specifier.contains(pinned), requirement


def test_each_tier_is_selected_by_its_marker():
    # Given the tests as pytest collects them, all of them and by marker
    def collected(*args: str) -> int:
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "--collect-only", "-q", *args], cwd=ROOT, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
        return int(re.search(r"(\d+)(?:/\d+)? tests? collected", result.stdout).group(1))

    # Then `-m integration` selects every test of tests/integration and no other
    assert collected("-m", "integration", "tests") == collected("tests/integration") > 0
