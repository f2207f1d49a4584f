"""template.yaml lints clean, a real `sam build` yields both functions and a layer with the package,
its pinned requirements built for Lambda's Linux x86_64 and the repo's templates/; the nearby API
is wired to the route the resolver serves, behind CloudFront, with read-only access to catalogs."""

import importlib.util
import json
import marshal
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from jinja2 import ModuleLoader

from podpages.catalog.spooled_cues import SpooledCues
from podpages.contract.companion_transcripts import parse_companion
from podpages.contract.source_keys import MAX_COMPANION_BYTES
from podpages.nearby.api import ROUTE
from podpages.templating import TEMPLATE_SUFFIXES
from support.paths import ROOT as REPO
from support.paths import TEMPLATE
from support.template import resource, template

TEMPLATES = REPO / "templates"
PACKAGE = REPO / "layers" / "podpages" / "podpages"

# Keys the render function writes to the source bucket; no notification may match them.
KEYS_THE_FUNCTION_WRITES = ["catalog/show.json", "errors/episodes/show/ep.json.json"]
UPLOAD_KEYS = ["episodes/show/ep.json", "shows/show.json"]


@pytest.fixture(scope="module")
def sam() -> str:
    beside_interpreter = Path(sys.executable).with_name("sam")
    found = str(beside_interpreter) if beside_interpreter.exists() else shutil.which("sam")
    if found is None:
        pytest.skip(
            "SKIPPED: no `sam` executable beside this Python or on PATH, so template.yaml was NOT "
            "linted or built. Install the dev extra (aws-sam-cli)."
        )
    return found


@pytest.fixture(scope="module")
def sam_env() -> dict[str, str]:
    env = dict(os.environ, SAM_CLI_TELEMETRY="0")
    # sam build needs python3.13 on PATH; pyenv provides it when asked.
    env.setdefault("PYENV_VERSION", "3.13.0")
    return env


@pytest.fixture(scope="module")
def build_dir(sam, sam_env, tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("sam")
    build = work / "build"
    result = subprocess.run(
        [sam, "build", "--template", str(TEMPLATE), "--build-dir", str(build), "--cache-dir", str(work / "cache")],
        cwd=work,
        env=sam_env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if result.returncode != 0:
        pytest.fail(f"sam build exited {result.returncode}\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}")
    return build


@pytest.fixture(scope="module")
def layer_site(build_dir) -> Path:
    return build_dir / "PodpagesLayer" / "python"


def _files_under(root: Path) -> set[str]:
    return {path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file()}


def test_template_passes_sam_validate_lint(sam, sam_env):
    # Given the repo's template
    # When SAM validates it and runs cfn-lint over it
    result = subprocess.run(
        [sam, "validate", "--lint", "--template", str(TEMPLATE), "--region", "us-east-1"],
        cwd=REPO,
        env=sam_env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    # Then it is valid with nothing to report
    assert result.returncode == 0, result.stdout + result.stderr
    assert "valid SAM Template" in result.stdout


def test_source_bucket_notifications_never_match_what_the_function_writes():
    yamlhelper = pytest.importorskip("samcli.yamlhelper")
    # Given the notification filters on the source bucket
    template = yamlhelper.yaml_parse(TEMPLATE.read_text(encoding="utf-8"))
    configs = template["Resources"]["SourceBucket"]["Properties"]["NotificationConfiguration"]["QueueConfigurations"]

    def matches(config, key):
        rules = {rule["Name"]: rule["Value"] for rule in config["Filter"]["S3Key"]["Rules"]}
        return key.startswith(rules.get("prefix", "")) and key.endswith(rules.get("suffix", ""))

    # Then uploads are created and removed through the queue, and the function's own writes never are
    for key in UPLOAD_KEYS:
        assert {c["Event"] for c in configs if matches(c, key)} == {"s3:ObjectCreated:*", "s3:ObjectRemoved:*"}
    for key in KEYS_THE_FUNCTION_WRITES:
        assert not [c for c in configs if matches(c, key)], key
    assert "NotificationConfiguration" not in template["Resources"]["SiteBucket"]["Properties"]


def test_layer_ships_the_podpages_package(layer_site):
    assert (layer_site / "podpages" / "__init__.py").is_file()


def test_layer_ships_the_repo_templates_unchanged(layer_site):
    # Given the repo's templates/, whatever it holds, and the built copy
    shipped = layer_site / "podpages" / "templates"
    assert shipped.is_dir()
    # Then the built copy lists the same files with the same bytes
    assert _files_under(shipped) == _files_under(TEMPLATES)
    for name in _files_under(TEMPLATES):
        assert (shipped / name).read_bytes() == (TEMPLATES / name).read_bytes(), name


@pytest.mark.parametrize("package", ["jinja2", "pydantic_core", "feedgen", "isodate", "aws_lambda_powertools"])
def test_layer_ships_pinned_requirements(layer_site, package):
    assert (layer_site / package / "__init__.py").is_file()


def test_pydantic_core_is_built_for_lambda_linux_x86_64(layer_site):
    # The host may differ from Lambda; pip must have fetched the manylinux x86_64 wheel.
    extensions = [path.name for path in (layer_site / "pydantic_core").glob("*.so")]
    assert extensions, "pydantic_core ships no compiled extension"
    assert all("x86_64-linux-gnu" in name for name in extensions), extensions
    [wheel_info] = (layer_site).glob("pydantic_core-*.dist-info/WHEEL")
    tags = [line for line in wheel_info.read_text().splitlines() if line.startswith("Tag:")]
    assert tags and all("manylinux" in tag and tag.endswith("x86_64") for tag in tags), tags


def test_layer_ships_the_bytecode_of_every_module_made_the_same_at_every_build(layer_site):
    # Lambda mounts the layer read-only at /opt: a module without its bytecode is compiled at each cold start.
    sources = sorted(layer_site.rglob("*.py"))
    assert len(sources) > 500  # the package and its pinned requirements
    for source in sources:
        cached = Path(importlib.util.cache_from_source(str(source)))
        data = cached.read_bytes()
        # PEP 552: the magic of this Python (Lambda's python3.13), flags 0b01 (hash-based, not checked at
        # import), then the hash of the very source beside it: nothing of the build's time or place.
        assert data[:4] == importlib.util.MAGIC_NUMBER, cached
        assert int.from_bytes(data[4:8], "little") == 0b01, cached
        assert data[8:16] == importlib.util.source_hash(source.read_bytes()), cached
        code = marshal.loads(data[16:])
        assert code.co_filename == f"/opt/python/{source.relative_to(layer_site).as_posix()}", cached
    assert not [path for path in layer_site.rglob("*.pyc") if path.parent.name != "__pycache__"]


@pytest.mark.parametrize("package", ["boto3", "botocore", "s3transfer", "urllib3"])
def test_layer_leaves_out_what_the_runtime_provides_and_make_lock_leaves_unpinned(layer_site, package):
    # A copy in the layer would stand in front of the runtime's, at whatever version pip found that day.
    assert not (layer_site / package).exists()


# What Lambda's python3.13 runtime provides beside the standard library.
LAMBDA_RUNTIME_PACKAGES = ["boto3", "botocore", "s3transfer", "jmespath", "dateutil", "urllib3", "six"]
# Development tooling the layer must never load: the CLI's and the local stack's.
DEV_ONLY_MODULES = ["tqdm", "moto", "yaml", "podpages.cli", "podpages.local"]
NOT_IN_THE_LAYER = {"cli", "local"}

# Run with site-packages off: the layer and the runtime first on sys.path, then every module of the
# package imported one by one.
IMPORT_EVERY_MODULE = """
import importlib, json, pkgutil, sys
sys.path[:0] = sys.argv[1:3]
import podpages

def fail(name):
    raise ImportError(f"cannot import {name}")

names = []
for module in pkgutil.walk_packages(podpages.__path__, "podpages.", onerror=fail):
    importlib.import_module(module.name)
    names.append(module.name)
loaded = [name for name in json.loads(sys.argv[3]) if name in sys.modules]
print(json.dumps({"modules": names, "file": podpages.__file__, "dev_only_loaded": loaded}))
"""


def _lambda_runtime(folder: Path) -> Path:
    """A folder holding only what Lambda's python3.13 runtime adds to the standard library."""
    folder.mkdir()
    for name in LAMBDA_RUNTIME_PACKAGES:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin, f"{name} is not in the dev venv"
        source = Path(spec.submodule_search_locations[0]) if spec.submodule_search_locations else Path(spec.origin)
        (folder / source.name).symlink_to(source, target_is_directory=source.is_dir())
    return folder


def _layer_modules() -> list[str]:
    """podpages' modules, from the source, but for the development tooling the layer leaves out."""
    names = []
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[0] in NOT_IN_THE_LAYER or parts == ("__init__",):
            continue
        names.append(".".join(("podpages",) + (parts[:-1] if parts[-1] == "__init__" else parts)))
    return sorted(names)


@pytest.mark.skipif(
    not (sys.platform == "linux" and platform.machine() == "x86_64" and sys.version_info[:2] == (3, 13)),
    reason="the layer's compiled wheels import only on Linux x86_64 CPython 3.13, like Lambda's python3.13",
)
def test_every_module_the_layer_ships_imports_with_only_what_lambda_provides(layer_site, tmp_path):
    # Given the built layer and, beside the standard library, only what Lambda's runtime provides
    runtime = _lambda_runtime(tmp_path / "runtime")
    expected = _layer_modules()
    assert len(expected) >= 40, expected
    # When a fresh interpreter, site-packages switched off, imports every module of the layer's podpages
    report = _with_only_the_layer(IMPORT_EVERY_MODULE, layer_site, runtime, DEV_ONLY_MODULES)
    # Then each imports, from the layer, and the development tooling stays out
    assert Path(report["file"]).is_relative_to(layer_site), report["file"]
    assert sorted(report["modules"]) == expected
    assert report["dev_only_loaded"] == []
    assert not (layer_site / "podpages" / "cli").exists()
    assert not (layer_site / "podpages" / "local").exists()


# With site-packages off, as above: every template the layer's environment loads, with Jinja's compiler
# made to fail, so that a template read from its source instead of its module fails the run.
LOAD_EVERY_TEMPLATE = """
import json, sys
sys.path[:0] = sys.argv[1:3]
import jinja2
from podpages import templating

def compiled(*_args, **_kwargs):
    raise AssertionError("a template was compiled")

jinja2.Environment.compile = compiled
environment = templating.environment()
names = sorted(json.loads(sys.argv[3]))
for name in names:
    environment.get_template(name)
print(json.dumps({"loader": type(environment.loader).__name__, "loaded": names}))
"""


@pytest.mark.skipif(
    not (sys.platform == "linux" and platform.machine() == "x86_64" and sys.version_info[:2] == (3, 13)),
    reason="the layer's compiled wheels import only on Linux x86_64 CPython 3.13, like Lambda's python3.13",
)
def test_the_layer_carries_its_templates_compiled_and_loads_them_without_compiling(layer_site, tmp_path):
    # Given the built layer, and the repository's templates
    names = [name for name in _files_under(TEMPLATES) if name.endswith(TEMPLATE_SUFFIXES)]
    assert len(names) >= 15
    modules = layer_site / "podpages" / "templates_compiled"
    assert sorted(path.name for path in modules.glob("*.py")) == sorted(map(ModuleLoader.get_module_filename, names))
    # When a fresh interpreter with only the layer and Lambda's runtime loads every one of them
    report = _with_only_the_layer(LOAD_EVERY_TEMPLATE, layer_site, _lambda_runtime(tmp_path / "runtime"), names)
    # Then each came from its module: none was compiled
    assert report == {"loader": "ModuleLoader", "loaded": sorted(names)}


def _with_only_the_layer(script: str, layer_site: Path, runtime: Path, names: list[str]) -> dict:
    """What `script` prints as JSON, run by a fresh interpreter with site-packages switched off, the
    layer and `runtime` first on its path, and `names` as JSON for its third argument."""
    result = subprocess.run(
        [sys.executable, "-I", "-S", "-c", script, str(layer_site), str(runtime), json.dumps(names)],
        cwd=runtime.parent,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_render_function_is_built_with_its_handler(build_dir):
    assert (build_dir / "RenderFunction" / "render_handler.py").is_file()


def test_nearby_function_is_built_with_its_handler(build_dir):
    assert (build_dir / "NearbyFunction" / "nearby_handler.py").is_file()


def test_notify_function_is_built_with_its_handler(build_dir):
    assert (build_dir / "NotifyFunction" / "notify_handler.py").is_file()


def test_the_api_route_is_the_route_the_resolver_serves():
    route = resource("NearbyRoute")["Properties"]
    integration = resource("NearbyIntegration")["Properties"]

    assert route["RouteKey"] == "GET " + ROUTE.replace("<", "{").replace(">", "}")
    assert route["Target"] == "integrations/${NearbyIntegration}"
    assert integration["IntegrationUri"] == "NearbyFunction.Alias"  # the published version SnapStart applies to
    assert (integration["IntegrationType"], integration["PayloadFormatVersion"]) == ("AWS_PROXY", "2.0")
    assert resource("NearbyApi")["Properties"]["ProtocolType"] == "HTTP"


def test_snapstart_is_a_parameter_off_by_default_and_the_api_invokes_the_published_alias():
    function = resource("NearbyFunction")["Properties"]
    parameter = template()["Parameters"]["SnapStart"]

    assert (parameter["Default"], parameter["AllowedValues"]) == ("None", ["None", "PublishedVersions"])
    assert function["SnapStart"] == {"ApplyOn": "SnapStart"} and function["AutoPublishAlias"] == "live"
    assert resource("NearbyApiPermission")["Properties"]["FunctionName"] == "NearbyFunction.Alias"


def test_the_render_functions_tmp_holds_a_full_batch_of_the_densest_companions_set_down():
    # Given a WebVTT file of the densest cues there are, the shortest times and a letter each, set
    # down as a batch sets each companion's cues down in /tmp until it publishes
    def time(ms: int) -> str:
        return f"{ms // 60_000:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"

    body = ("WEBVTT\n\n" + "".join(f"{time(ms)} --> {time(ms + 1)}\na\n\n" for ms in range(5_000))).encode()
    per_file_byte = SpooledCues.alone(parse_companion(body, "vtt"))._spool.end / len(body)  # 1.1 today

    # When a full batch of such files at the contract's maximum is set down, beside the long texts a
    # publish sets aside there (150 MB at the contract's maximum: README)
    function = resource("RenderFunction")["Properties"]
    batch = function["Events"]["Uploads"]["Properties"]["BatchSize"]
    needed = batch * per_file_byte * MAX_COMPANION_BYTES + 150 * 10**6

    # Then the function's /tmp holds them
    assert function["EphemeralStorage"]["Size"] * 2**20 >= needed


def test_nearby_function_may_only_read_catalogs():
    [policy] = resource("NearbyFunction")["Properties"]["Policies"]
    granted = {(statement["Action"], str(statement["Resource"])) for statement in policy["Statement"]}

    assert granted == {("s3:GetObject", "${SourceBucket.Arn}/catalog/*"), ("s3:ListBucket", "SourceBucket.Arn")}
    assert "Events" not in resource("NearbyFunction")["Properties"]  # nothing but its route invokes it


def test_cloudfront_sends_api_paths_to_the_api_keyed_by_limit_and_format():
    config = resource("Distribution")["Properties"]["DistributionConfig"]
    [behaviour] = [item for item in config["CacheBehaviors"] if item["PathPattern"] == "/api/*"]
    [origin] = [item for item in config["Origins"] if item["Id"] == behaviour["TargetOriginId"]]
    key = resource("NearbyCachePolicy")["Properties"]["CachePolicyConfig"]["ParametersInCacheKeyAndForwardedToOrigin"]

    assert behaviour["CachePolicyId"] == "NearbyCachePolicy"
    assert origin["DomainName"].startswith("${NearbyApi}.execute-api.")
    assert origin["CustomOriginConfig"]["OriginProtocolPolicy"] == "https-only"
    assert set(key["QueryStringsConfig"]["QueryStrings"]) == {"limit", "format"}
    assert key["CookiesConfig"]["CookieBehavior"] == "none"


def test_the_api_cache_policy_keys_no_header_so_varying_accept_cannot_pass_the_cache():
    # Given what the API's cache policy puts in the cache key
    key = resource("NearbyCachePolicy")["Properties"]["CachePolicyConfig"]["ParametersInCacheKeyAndForwardedToOrigin"]

    # Then no header is part of it: Accept reaches the key only as the format NearbyFormatFunction sets
    assert key["HeadersConfig"] == {"HeaderBehavior": "none"}


def test_the_api_behaviour_maps_accept_to_a_format_before_the_cache_is_looked_up():
    # Given the distribution's behaviour for /api/*
    config = resource("Distribution")["Properties"]["DistributionConfig"]
    [behaviour] = [item for item in config["CacheBehaviors"] if item["PathPattern"] == "/api/*"]

    # Then the format function runs on each viewer request, before CloudFront computes the cache key
    assert behaviour["FunctionAssociations"] == [
        {"EventType": "viewer-request", "FunctionARN": "NearbyFormatFunction.FunctionMetadata.FunctionARN"}
    ]
