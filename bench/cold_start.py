"""How much each handler's cold import and init cost, as a ratio to boto3 alone.

Each sample is a fresh interpreter that times, from inside, either `import boto3;
boto3.client("s3")` or the import of the handler template.yaml names (which builds its S3
client, settings and the rest). The two kinds alternate, so drift on the machine hits both alike.
Both run with LAMBDA_TASK_ROOT set, as on Lambda, where the X-Ray SDK takes another path: off
Lambda it builds a sampler that polls the X-Ray API (far slower) and the Tracer patches nothing.

Both run in an interpreter that holds what a function's does on Lambda and nothing more: boto3 (the
runtime's), the layer's pinned requirements and the podpages package, installed without the dev
extras (`lambda_python`). The project's own venv would not do: aws-sam-cli brings awscrt and
pyOpenSSL into it, which botocore then imports too, adding about 100 ms to the baseline and to each
handler alike, and so making every ratio look nearer 1 than Lambda's.

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
LAYER_REQUIREMENTS = ROOT / "layers" / "podpages" / "requirements.txt"
ENVIRONMENT = {
    "SITE_URL": "https://podcasts.example.com",
    "SOURCE_BUCKET": "podpages-source-bench",
    "SITE_BUCKET": "podpages-site-bench",
    "AWS_DEFAULT_REGION": "us-east-1",
    "POWERTOOLS_SERVICE_NAME": "podpages",
    "LAMBDA_TASK_ROOT": "/var/task",
}
TIMED = """
import time
start = time.perf_counter()
{body}
print(time.perf_counter() - start)
"""
BASELINE = 'import boto3\nboto3.client("s3")'
HANDLER_IMPORT = """
import importlib.util
spec = importlib.util.spec_from_file_location("handler", {path!r})
spec.loader.exec_module(importlib.util.module_from_spec(spec))
"""


@cache
def lambda_python() -> str:
    """An interpreter with what a function has on Lambda: this Python, boto3 at the version the tests
    use, the layer's pinned requirements and podpages itself, as `pip install .` installs it."""
    folder = Path(tempfile.mkdtemp(prefix="podpages-lambda-python-"))
    subprocess.run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", str(folder)], check=True)
    python = str(folder / "bin" / "python")
    install = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    print("cold start: installing the layer's requirements into an interpreter of their own", file=sys.stderr)
    subprocess.run([*install, f"boto3=={version('boto3')}", "-r", str(LAYER_REQUIREMENTS)], check=True)
    subprocess.run([*install, "--no-deps", str(ROOT)], check=True)
    return python


def sample(body: str) -> float:
    environment = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")} | ENVIRONMENT
    result = subprocess.run(
        [lambda_python(), "-c", TIMED.format(body=body)], capture_output=True, text=True, env=environment, check=True
    )
    return float(result.stdout)


def measure(function: str, samples: int = 40) -> dict:
    """Medians and ratios over `samples` pairs of fresh interpreters."""
    handler = HANDLER_IMPORT.format(path=str(handler_source(function)[0]))
    sample(BASELINE), sample(handler)  # warm the OS page cache and the bytecode caches
    baseline, imports = [], []
    for number in range(1, samples + 1):
        baseline.append(sample(BASELINE))
        imports.append(sample(handler))
        print(f"\r{function}: sample {number}/{samples}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    paired = [mine / base for base, mine in zip(baseline, imports, strict=True)]
    return {
        "samples": samples,
        "boto3_median_ms": round(statistics.median(baseline) * 1000, 1),
        "handler_median_ms": round(statistics.median(imports) * 1000, 1),
        "ratio_of_medians": round(statistics.median(imports) / statistics.median(baseline), 3),
        "median_of_paired_ratios": round(statistics.median(paired), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--function", choices=FUNCTIONS, action="append")
    options = parser.parse_args()
    for function in options.function or FUNCTIONS:
        print(json.dumps({function: measure(function, options.samples)}, indent=2))


if __name__ == "__main__":
    main()
