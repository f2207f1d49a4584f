"""The two Lambda functions of template.yaml, imported in this process with the environment
`sam local invoke --env-vars events/env.json` would give them, pointed at the local endpoint."""

import os
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from podpages.local import template

FUNCTIONS = ("RenderFunction", "NearbyFunction")

# A Lambda handler as the local stack calls it: the event in, the function's response out.
type Handler = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass
class LambdaContext:
    """The parts of Lambda's context object that powertools reads."""

    function_name: str = "RenderFunction"
    memory_limit_in_mb: int = 1024
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:RenderFunction"
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    timeout_seconds: float = 120  # RenderFunction's: the function's `Timeout` in template.yaml
    started: float = field(default_factory=lambda: time.monotonic())

    def get_remaining_time_in_millis(self) -> int:
        """What is left of the invocation's timeout, counted from when the context was made."""
        return max(0, round((self.started + self.timeout_seconds - time.monotonic()) * 1000))


@dataclass
class LocalFunction:
    name: str
    module: ModuleType
    timeout_seconds: float  # its `Timeout` in template.yaml

    def __call__(self, event: dict[str, Any]) -> dict[str, Any]:
        context = LambdaContext(function_name=self.name, timeout_seconds=self.timeout_seconds)
        response: dict[str, Any] = self.module.lambda_handler(event, context)
        return response


def load_functions(
    site_url: str,
    aws_environment: dict[str, str],
    buckets: dict[str, str] | None = None,
    names: tuple[str, ...] = FUNCTIONS,
) -> dict[str, LocalFunction]:
    """Import each handler once, as a cold start would. The environment is this process's, so it
    is set for all of them first: events/env.json's, with the site's URL, the AWS endpoint or
    profile, and any other buckets (SOURCE_BUCKET, SITE_BUCKET) given."""
    environment: dict[str, str] = {}
    for name in names:
        environment |= template.function_environment(name)
    os.environ.update(environment | {"SITE_URL": site_url} | aws_environment | (buckets or {}))
    return {name: LocalFunction(name, template.load_handler(name)[1], _timeout(name)) for name in names}


def _timeout(function: str) -> float:
    """The function's `Timeout` in template.yaml, in seconds."""
    seconds: float = template.properties(function)["Timeout"]
    return seconds
