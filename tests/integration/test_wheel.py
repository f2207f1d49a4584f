"""`pip install .`, not editable, gives a working `podpages`: the wheel carries every sub-package and
the templates behind the podpages/templates link, and the command it installs in a venv of its own
renders, byte for byte, the site the development checkout renders."""

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from podpages.cli.site_folder import MANIFEST
from support.folders import contents
from support.paths import EXAMPLES
from support.paths import ROOT as REPO

PACKAGE = REPO / "layers" / "podpages" / "podpages"
TEMPLATES = REPO / "templates"
SYNTHETIC = REPO / "bench" / "synthetic.py"
SITE_URL = "https://podcasts.example.com"
SEED_PAGE = "pytorch/backend-flexibility-revolution/index.html"
GENERATED_SHOW = "wheel"  # not one of the examples' shows
GENERATED_EPISODES = 30

# Never copied into the scratch source tree: machine state, not the project.
LOCAL_STATE = {".git", ".venv", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".aws-sam", "node_modules", "build"}


def _ignore_local_state(folder: str, names: list[str]) -> set[str]:
    ignored = {name for name in names if name == "__pycache__" or name.endswith(".egg-info")}
    if Path(folder) == REPO:
        ignored |= LOCAL_STATE & set(names)
    return ignored


def _clean_environment() -> dict[str, str]:
    # Nothing may lead an interpreter back to the checkout but the editable install itself.
    return {name: value for name, value in os.environ.items() if name not in {"PYTHONPATH", "PYTHONHOME"}}


def _run(command: list, **options) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [str(part) for part in command],
        capture_output=True,
        text=True,
        timeout=180,
        env=_clean_environment(),
        **options,
    )
    assert result.returncode == 0, f"{command} exited {result.returncode}\n{result.stdout[-4000:]}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    # Built from a copy of the checkout: an in-tree build would write build/ and an .egg-info into the
    # checkout and could package files a previous build left in build/lib. The copy keeps the
    # podpages/templates link as a link, so the wheel has to follow it as `pip install .` does.
    source = work / "source"
    shutil.copytree(REPO, source, symlinks=True, ignore=_ignore_local_state)
    wheels = work / "dist"
    _run(
        [sys.executable, "-m", "pip", "wheel", "--disable-pip-version-check", "--no-index", "--no-deps"]
        + ["--no-build-isolation", "--wheel-dir", wheels, source],
        cwd=work,
    )
    [built] = wheels.glob("podpages-*.whl")
    return built


@pytest.fixture(scope="module")
def fresh_venv(wheel, tmp_path_factory) -> Path:
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    _run(
        [sys.executable, "-m", "pip", "--python", python, "install", "--disable-pip-version-check"]
        + ["--no-index", "--no-deps", wheel],
        cwd=venv,
    )
    # The third-party dependencies come from the dev venv: a path line in a .pth only adds the folder
    # to sys.path, so the dev venv's own .pth files, its editable install among them, never run.
    site_packages = Path(
        _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    )
    (site_packages / "dev_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    return venv


def _catalogue(folder: Path) -> Path:
    """The examples and a generated show the repo does not ship, laid out like the source bucket."""
    shutil.copytree(EXAMPLES, folder)
    spec = importlib.util.spec_from_file_location("synthetic", SYNTHETIC)
    synthetic = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(synthetic)
    synthetic.write_catalogue(folder, GENERATED_EPISODES, show=GENERATED_SHOW)
    return folder


def test_wheel_ships_every_sub_package_module_and_template(wheel):
    # Given the package's sub-packages (its folders with an __init__.py), its modules and the repo's templates/
    sub_packages = {
        f"podpages/{path.relative_to(PACKAGE).as_posix()}"
        for path in PACKAGE.rglob("__init__.py")
        if path.parent != PACKAGE and "__pycache__" not in path.parts
    }
    modules = {f"podpages/{path.relative_to(PACKAGE).as_posix()}" for path in PACKAGE.rglob("*.py")}
    templates = {
        f"podpages/templates/{path.relative_to(TEMPLATES).as_posix()}"
        for path in TEMPLATES.rglob("*")
        if path.is_file()
    }
    # When the wheel `pip install .` would install is listed
    with zipfile.ZipFile(wheel) as archive:
        names = {name for name in archive.namelist() if not name.endswith("/")}
        shipped_templates = {name: archive.read(name) for name in names if name.startswith("podpages/templates/")}
    # Then every sub-package, a new one too, and every module is in it
    assert len(sub_packages) >= 8, sub_packages
    assert sorted(sub_packages - names) == []
    assert sorted(modules - names) == []
    # And the templates behind the link, all of them, with the repo's bytes
    assert {"podpages/templates/base.html", "podpages/templates/cover.png"} <= names
    assert sorted(shipped_templates) == sorted(templates)
    for name, data in shipped_templates.items():
        assert data == (TEMPLATES / name.removeprefix("podpages/templates/")).read_bytes(), name
    # And nothing but the package and its metadata
    assert [name for name in names if not name.startswith(("podpages/", "podpages-"))] == []


def test_the_fresh_venv_imports_podpages_from_the_wheel(fresh_venv):
    # Given a venv with the wheel installed and only the dev venv's site-packages added as a path
    code = "import json, podpages.templating as t, podpages as p; print(json.dumps([p.__file__, t.__file__]))"
    # When it imports the package
    result = _run([fresh_venv / "bin" / "python", "-c", code], cwd=fresh_venv)
    # Then the package is the installed copy, not the checkout's
    for file in json.loads(result.stdout):
        assert Path(file).resolve().is_relative_to(fresh_venv.resolve()), file
        assert not Path(file).resolve().is_relative_to(PACKAGE.resolve()), file


def test_the_installed_command_renders_what_the_checkout_renders(fresh_venv, tmp_path):
    # Given a catalogue the repo does not ship, and the command the wheel installed
    catalogue = _catalogue(tmp_path / "catalogue")
    installed = fresh_venv / "bin" / "podpages"
    checkout = Path(sys.executable).with_name("podpages")
    assert installed.is_file() and checkout.is_file()
    # When each renders the whole site
    for command, out in ((installed, "from-wheel"), (checkout, "from-checkout")):
        _run([command, "render", catalogue, "--out", tmp_path / out, "--site-url", SITE_URL], cwd=tmp_path)
    from_wheel, from_checkout = contents(tmp_path / "from-wheel"), contents(tmp_path / "from-checkout")
    # Then both wrote the same files with the same bytes; the manifest lists them in the order the
    # render's workers wrote them, which varies from run to run
    manifests = [sorted(tree.pop(MANIFEST).splitlines()) for tree in (from_wheel, from_checkout)]
    assert manifests[0] == manifests[1]
    assert sorted(from_wheel) == sorted(from_checkout)
    assert [name for name in from_wheel if from_wheel[name] != from_checkout[name]] == []
    # And the site has every generated episode's page and an example's
    generated = {f"{GENERATED_SHOW}/episode-{number:05d}/index.html" for number in range(GENERATED_EPISODES)}
    assert generated <= set(from_wheel)
    assert SEED_PAGE in from_wheel
    assert b"<html" in from_wheel[SEED_PAGE]
