"""How much each handler's cold import and init cost, as a ratio to boto3 alone.

Each sample is a fresh interpreter that times, from inside, either `import boto3;
boto3.client("s3")` or the import of the handler template.yaml names (which builds its S3
client, settings and the rest). The two kinds alternate, so drift on the machine hits both alike.
Both run with LAMBDA_TASK_ROOT set, as on Lambda, where the X-Ray SDK takes another path: off
Lambda it builds a sampler that polls the X-Ray API (far slower) and the Tracer patches nothing.

    make bench        or        python bench/cold_start.py [--samples 40] [--function NearbyFunction]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

from podpages.local.template import handler_source

FUNCTIONS = ("RenderFunction", "NearbyFunction")
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


def sample(body: str) -> float:
    environment = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")} | ENVIRONMENT
    result = subprocess.run(
        [sys.executable, "-c", TIMED.format(body=body)], capture_output=True, text=True, env=environment, check=True
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
