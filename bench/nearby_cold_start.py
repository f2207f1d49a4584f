"""How much the nearby handler's cold import and init cost, as a ratio to boto3 alone.

Each sample is a fresh interpreter that times, from inside, either `import boto3;
boto3.client("s3")` or the import of functions/nearby/nearby_handler.py (which builds its S3
client, settings and routes). The two kinds alternate, so drift on the machine hits both alike.

    make bench        or        python bench/nearby_cold_start.py [--samples 40]
"""

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HANDLER = ROOT / "functions" / "nearby" / "nearby_handler.py"
ENVIRONMENT = {
    "SITE_URL": "https://podcasts.example.com",
    "SOURCE_BUCKET": "podpages-source-bench",
    "AWS_DEFAULT_REGION": "us-east-1",
    "POWERTOOLS_SERVICE_NAME": "podpages",
}
TIMED = """
import time
start = time.perf_counter()
{body}
print(time.perf_counter() - start)
"""
BASELINE = 'import boto3\nboto3.client("s3")'
HANDLER_IMPORT = f"""
import importlib.util
spec = importlib.util.spec_from_file_location("nearby_handler", {str(HANDLER)!r})
spec.loader.exec_module(importlib.util.module_from_spec(spec))
"""


def sample(body: str) -> float:
    environment = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")} | ENVIRONMENT
    result = subprocess.run(
        [sys.executable, "-c", TIMED.format(body=body)], capture_output=True, text=True, env=environment, check=True
    )
    return float(result.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=40)
    samples = parser.parse_args().samples
    sample(BASELINE), sample(HANDLER_IMPORT)  # warm the OS page cache and the bytecode caches
    baseline, handler = [], []
    for number in range(1, samples + 1):
        baseline.append(sample(BASELINE))
        handler.append(sample(HANDLER_IMPORT))
        print(f"\rsample {number}/{samples}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    for label, times in (("import boto3; boto3.client('s3')", baseline), ("nearby handler import and init", handler)):
        print(f"{label:33} median {statistics.median(times) * 1000:.1f} ms, fastest {min(times) * 1000:.1f} ms")
    paired = [mine / base for base, mine in zip(baseline, handler, strict=True)]
    of_medians = statistics.median(handler) / statistics.median(baseline)
    print(
        f"ratio over {samples} pairs of interpreters: median of medians {of_medians:.3f}, "
        f"median of pairs {statistics.median(paired):.3f}, fastest to fastest {min(handler) / min(baseline):.3f}"
    )


if __name__ == "__main__":
    main()
