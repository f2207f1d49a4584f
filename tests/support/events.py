"""Events are loaded from events/, the same files `sam local invoke -e` takes."""

import json

from support.paths import EVENTS


def load_event(name: str) -> dict:
    return json.loads((EVENTS / name).read_text())


def function_environment(function: str = "RenderFunction") -> dict[str, str]:
    """The environment events/env.json gives a function under `sam local invoke --env-vars`."""
    return load_event("env.json")[function]
