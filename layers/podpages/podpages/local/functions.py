"""The two Lambda functions of template.yaml, imported in this process with the environment
`sam local invoke --env-vars events/env.json` would give them, pointed at the local endpoint."""

import os
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

    def get_remaining_time_in_millis(self) -> int:
        return 60_000


@dataclass
class LocalFunction:
    name: str
    module: ModuleType

    def __call__(self, event: dict[str, Any]) -> dict[str, Any]:
        response: dict[str, Any] = self.module.lambda_handler(event, LambdaContext(function_name=self.name))
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
    return {name: LocalFunction(name, template.load_handler(name)[1]) for name in names}
