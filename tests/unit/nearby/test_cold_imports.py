"""The nearby function's cold start: what its modules import, in a fresh interpreter. It reads a
small JSON index with the standard library, so the libraries that render and validate stay out."""

import json
import subprocess
import sys

HEAVY = ("pydantic", "jinja2", "feedgen", "lxml", "webvtt", "cmarkgfm", "nh3")
PROBE = """
import json, sys
import podpages.nearby.api, podpages.nearby.cache
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def test_the_nearby_modules_load_none_of_the_rendering_or_validating_libraries():
    loaded = json.loads(
        subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    )

    assert [name for name in HEAVY if name in loaded] == []
    assert "podpages" in loaded  # the probe imported what it was meant to
