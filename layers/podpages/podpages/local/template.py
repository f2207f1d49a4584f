"""template.yaml as data: the resources, handlers and settings the local stack copies."""

import importlib.util
import json
import re
from functools import cache
from pathlib import Path
from types import ModuleType

import yaml

ROOT = Path(__file__).resolve().parents[4]
TEMPLATE = ROOT / "template.yaml"
EVENTS = ROOT / "events"


class _TemplateLoader(yaml.SafeLoader):
    """YAML with CloudFormation's short tags (!Ref, !Sub, …) kept as plain values."""


def _tag(loader, _suffix, node):
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_mapping(node, deep=True)


_TemplateLoader.add_multi_constructor("!", _tag)


@cache
def template() -> dict:
    return yaml.load(TEMPLATE.read_text(), Loader=_TemplateLoader)  # noqa: S506 - a safe loader with tags kept


def resource(logical_id: str) -> dict:
    return template()["Resources"][logical_id]


def properties(logical_id: str) -> dict:
    return resource(logical_id)["Properties"]


def handler_source(function: str) -> tuple[Path, str]:
    """The file and function that the function's `CodeUri` plus `Handler` name."""
    module, name = properties(function)["Handler"].rsplit(".", 1)
    return ROOT / properties(function)["CodeUri"] / f"{module}.py", name


def load_handler(function: str) -> tuple[object, ModuleType]:
    """Import a handler as Lambda would: its module runs once, reading the environment then."""
    path, name = handler_source(function)
    spec = importlib.util.spec_from_file_location(f"{function.lower()}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name), module


def function_environment(function: str) -> dict[str, str]:
    """The environment events/env.json gives a function under `sam local invoke --env-vars`."""
    return json.loads((EVENTS / "env.json").read_text())[function]


def queue_notifications(queue_arn: str) -> dict:
    """The source bucket's notification configuration, aimed at `queue_arn`."""
    configurations = properties("SourceBucket")["NotificationConfiguration"]["QueueConfigurations"]
    return {
        "QueueConfigurations": [
            {
                "QueueArn": queue_arn,
                "Events": [configuration["Event"]],
                "Filter": {"Key": {"FilterRules": configuration["Filter"]["S3Key"]["Rules"]}},
            }
            for configuration in configurations
        ]
    }


def max_receive_count() -> int:
    return int(properties("RenderQueue")["RedrivePolicy"]["maxReceiveCount"])


def queue_events(function: str = "RenderFunction") -> dict[str, dict]:
    """The properties of the function's SQS events (batch size, batching window, response types),
    by the logical id of the queue each reads."""
    return {
        event["Properties"]["Queue"].removesuffix(".Arn"): event["Properties"]
        for event in properties(function)["Events"].values()
        if event["Type"] == "SQS"
    }


def api_route() -> tuple[str, re.Pattern]:
    """The HTTP API's route: its key, and a pattern that matches its paths and names their parameters."""
    route_key = properties("NearbyRoute")["RouteKey"]
    _method, path = route_key.split(" ", 1)
    return route_key, re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", path) + "$")


def directory_index_code() -> str:
    """The JavaScript of the CloudFront function that maps directory URLs to index.html."""
    return properties("DirectoryIndexFunction")["FunctionCode"]


def security_headers() -> dict[str, str]:
    """The response headers SecurityHeadersPolicy makes CloudFront add to the site's responses."""
    config = properties("SecurityHeadersPolicy")["ResponseHeadersPolicyConfig"]["SecurityHeadersConfig"]
    hsts = config["StrictTransportSecurity"]
    return {
        "Strict-Transport-Security": f"max-age={hsts['AccessControlMaxAgeSec']}"
        + ("; includeSubDomains" if hsts.get("IncludeSubdomains") else "")
        + ("; preload" if hsts.get("Preload") else ""),
        "Content-Security-Policy": config["ContentSecurityPolicy"]["ContentSecurityPolicy"],
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": config["FrameOptions"]["FrameOption"],
        "Referrer-Policy": config["ReferrerPolicy"]["ReferrerPolicy"],
    }
