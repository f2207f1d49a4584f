"""A handler's init runs with the garbage collector off: what it builds lives as long as the process,
so a collection then only lengthens the cold start. The collector is on again for the events."""

import gc
import os
import subprocess
import sys

import pytest

from support.events import function_environment
from support.template import handler_source, load_handler

FUNCTIONS = ("RenderFunction", "NearbyFunction", "NotifyFunction", "RebuildFunction")


def running(source: str) -> bool:
    """Whether the module `source` is among the frames being run."""
    frame = sys._getframe()
    while frame is not None and frame.f_code.co_filename != source:
        frame = frame.f_back
    return frame is not None


@pytest.mark.parametrize("function", FUNCTIONS)
def test_a_handler_collects_no_garbage_during_its_init_and_turns_the_collector_back_on(function, monkeypatch):
    for name, value in function_environment(function).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    source = str(handler_source(function)[0])
    during_init: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and running(source):
            during_init.append(info["generation"])

    gc.callbacks.append(record)
    try:
        load_handler(function)
    finally:
        gc.callbacks.remove(record)
        enabled = gc.isenabled()
        gc.enable()  # for the tests that follow, should the init have left it off

    assert during_init == []
    assert enabled


# The handler's file run as Lambda runs it, and nothing of the tests' own imported first.
IMPORTS_OF_INIT = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("handler", {path!r})
spec.loader.exec_module(importlib.util.module_from_spec(spec))
print(" ".join(sorted(name for name in ("boto3", "s3transfer") if name in sys.modules)))
"""


@pytest.mark.parametrize("function", FUNCTIONS)
def test_a_handler_makes_its_clients_without_importing_boto3_or_s3transfer(function):
    """botocore makes the same clients: importing boto3, and s3transfer below it, would only add
    to every cold start."""
    environment = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")}
    environment |= function_environment(function) | {"AWS_DEFAULT_REGION": "us-east-1"}
    code = IMPORTS_OF_INIT.format(path=str(handler_source(function)[0]))
    result = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == []
