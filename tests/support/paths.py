"""Where the project's own files are, seen from the tests."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "events"
EXAMPLES = ROOT / "examples"
GOLDEN = ROOT / "tests" / "golden"
TEMPLATE = ROOT / "template.yaml"
SEED_EPISODE = EXAMPLES / "episodes" / "pytorch" / "backend-flexibility-revolution.json"
JSON_CHAPTERS_SCHEMA = ROOT / "tests" / "support" / "schemas" / "json-chapters-1.2.0.schema.json"
