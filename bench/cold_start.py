"""How much each handler's cold import and init cost, as a ratio to boto3 alone.

Each sample is a fresh interpreter that times, from inside, either `import boto3;
boto3.client("s3")` or the import of the handler template.yaml names (which builds its S3
client, settings and the rest). The two kinds alternate, so drift on the machine hits both alike.
Both run with LAMBDA_TASK_ROOT set, as on Lambda, where the X-Ray SDK takes another path: off
Lambda it builds a sampler that polls the X-Ray API (far slower) and the Tracer patches nothing.

Both run as on Lambda: in an interpreter holding boto3 alone (the runtime's, at the version the tests
use), with PYTHONDONTWRITEBYTECODE set (Lambda's /opt and /var/runtime are read-only); the handler
with the layer as `sam build` builds it (layers/podpages/Makefile) first on PYTHONPATH, as /opt/python
is on Lambda. The project's own venv would not do: aws-sam-cli brings awscrt and pyOpenSSL into it,
which botocore then imports too, adding about 100 ms to the baseline and to each handler alike; nor
would an install of the layer's requirements by pip, which writes bytecode that a layer carries only
if its build makes it.

    make bench        or        python bench/cold_start.py [--samples 40] [--function NearbyFunction]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from functools import cache
from importlib.metadata import version
from pathlib import Path

from podpages.local.template import handler_source

FUNCTIONS = ("RenderFunction", "NearbyFunction")
ROOT = Path(__file__).resolve().parent.parent
LAYER_MAKEFILE = ROOT / "layers" / "podpages" / "Makefile"
ENVIRONMENT = {
    "SITE_URL": "https://podcasts.example.com",
    "SOURCE_BUCKET": "podpages-source-bench",
    "SITE_BUCKET": "podpages-site-bench",
    "AWS_DEFAULT_REGION": "us-east-1",
    # Lambda hands the function's role credentials over in the environment; without them each S3
    # client would ask the instance metadata service first.
    "AWS_ACCESS_KEY_ID": "ASIABENCHMARK",
    "AWS_SECRET_ACCESS_KEY": "bench",
    "AWS_SESSION_TOKEN": "bench",
    "POWERTOOLS_SERVICE_NAME": "podpages",
    "LAMBDA_TASK_ROOT": "/var/task",
    "PYTHONDONTWRITEBYTECODE": "1",
}
TIMED = """
import time
start = time.perf_counter()
{body}
print(time.perf_counter() - start)
"""
BASELINE = 'import boto3\nboto3.client("s3")'
# The render function's floor, a step at a time, each sampled with the steps before it: the
# libraries its first event uses and the contract's pydantic models, imported and set up as its
# handler does (the collector off, powertools' batch before pydantic, which would otherwise load
# powertools' own models too, botocore's client, and the functions' one Logger, Metrics and
# Tracer), with none of podpages' other modules.
STEPS = {
    "the render function's floor, a step at a time: the product's libraries (powertools, botocore's "
    "client, feedgen and lxml, isodate, Jinja)": """
import gc
gc.disable()
import aws_lambda_powertools.utilities.batch, aws_lambda_powertools.utilities.data_classes
from botocore.session import Session
Session().create_client("s3")
import feedgen.feed, isodate, jinja2, lxml.etree
import podpages.observability
""",
    "… and cmark, nh3 and webvtt, for show notes and companion transcripts": "import cmarkgfm, nh3, webvtt\n",
    "… and pydantic": "import pydantic.main\n",
    "… and the contract's pydantic models: the floor": "import podpages.contract.documents\n",
}
STEP_BODIES = {name: "".join(list(STEPS.values())[: number + 1]) for number, name in enumerate(STEPS)}
HANDLER_IMPORT = """
import importlib.util
spec = importlib.util.spec_from_file_location("handler", {path!r})
spec.loader.exec_module(importlib.util.module_from_spec(spec))
"""


@cache
def runtime_python() -> str:
    """An interpreter with what Lambda's python3.13 runtime adds to the standard library: boto3."""
    folder = Path(tempfile.mkdtemp(prefix="podpages-lambda-runtime-"))
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(folder)], check=True)
    python = str(folder / "bin" / "python")
    print("cold start: an interpreter with boto3 alone, and the layer as sam build builds it", file=sys.stderr)
    install = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*install, f"boto3=={version('boto3')}"], check=True)
    return python


@cache
def layer() -> str:
    """The layer's python/ folder, built by its own Makefile, as Lambda mounts it at /opt/python."""
    artifacts = Path(tempfile.mkdtemp(prefix="podpages-layer-"))
    base = getattr(sys, "_base_executable", sys.executable)
    command = ["make", "-s", "-f", str(LAYER_MAKEFILE), "build-PodpagesLayer", f"ARTIFACTS_DIR={artifacts}"]
    subprocess.run([*command, f"PYTHON={base}"], check=True, capture_output=True)
    return str(artifacts / "python")


def as_on_lambda() -> list[str]:
    """A command that runs an interpreter as Lambda's: boto3 alone beside the standard library, and
    the layer as its Makefile builds it on the path. (The project's venv would add aws-sam-cli's
    awscrt and pyOpenSSL to every process that makes an S3 client.)"""
    return ["env", f"PYTHONPATH={layer()}", runtime_python()]


def sample(body: str, with_layer: bool) -> float:
    environment = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")} | ENVIRONMENT
    environment.pop("PYTHONPATH", None)
    if with_layer:
        environment["PYTHONPATH"] = layer()
    result = subprocess.run(
        [runtime_python(), "-c", TIMED.format(body=body)], capture_output=True, text=True, env=environment, check=True
    )
    return float(result.stdout)


def measure(function: str, samples: int = 40) -> dict:
    """Medians and ratios over `samples` pairs of fresh interpreters; for the render function, with
    each of its floor's steps beside them (`STEPS`), the last of them the floor."""
    handler = HANDLER_IMPORT.format(path=str(handler_source(function)[0]))
    steps = STEP_BODIES if function == "RenderFunction" else {}
    sample(BASELINE, False), sample(handler, True)  # warm the OS page cache
    baseline, imports = [], []
    stepped: dict[str, list[float]] = {name: [] for name in steps}
    for number in range(1, samples + 1):
        baseline.append(sample(BASELINE, False))
        imports.append(sample(handler, True))
        for name, body in steps.items():
            stepped[name].append(sample(body, True))
        print(f"\r{function}: sample {number}/{samples}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    paired = [mine / base for base, mine in zip(baseline, imports, strict=True)]
    base = statistics.median(baseline)
    result = {
        "samples": samples,
        "boto3_median_ms": round(base * 1000, 1),
        "handler_median_ms": round(statistics.median(imports) * 1000, 1),
        "ratio_of_medians": round(statistics.median(imports) / base, 3),
        "median_of_paired_ratios": round(statistics.median(paired), 3),
    }
    if steps:
        medians = {name: statistics.median(times) for name, times in stepped.items()}
        result["steps"] = {
            name: {"median_ms": round(median * 1000, 1), "ratio_of_medians": round(median / base, 3)}
            for name, median in medians.items()
        }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--function", choices=FUNCTIONS, action="append")
    options = parser.parse_args()
    for function in options.function or FUNCTIONS:
        print(json.dumps({function: measure(function, options.samples)}, indent=2))


if __name__ == "__main__":
    main()
