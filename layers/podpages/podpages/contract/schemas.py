"""JSON Schema of the contract, exported to schemas/ so that uploaders can check files with their own tools.

Regenerate with `make schemas`; a test fails when the files and the models disagree.
"""

import json
import sys
from pathlib import Path

from podpages.contract.documents import CONTRACT_VERSION, Episode, Show
from podpages.contract.fields import Contract

SCHEMAS: dict[str, type[Contract]] = {"episode.schema.json": Episode, "show.schema.json": Show}


def schema_text(name: str) -> str:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://podpages.dev/schemas/v{CONTRACT_VERSION}/{name}",
        **SCHEMAS[name].model_json_schema(),
    }
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    out = Path(argv[1] if len(argv) > 1 else "schemas")
    out.mkdir(parents=True, exist_ok=True)
    for name in SCHEMAS:
        (out / name).write_text(schema_text(name), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
