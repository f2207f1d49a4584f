"""template.yaml as data: the resources, handlers and settings the local stack copies."""

import importlib.util
import json
import re
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml  # PyYAML ships no types, and types-PyYAML is no dependency

ROOT = Path(__file__).resolve().parents[4]
TEMPLATE = ROOT / "template.yaml"
EVENTS = ROOT / "events"


class _TemplateLoader(yaml.SafeLoader):  # SafeLoader is Any: yaml is untyped (above)
    """YAML with CloudFormation's short tags (!Ref, !Sub, …) kept as plain values."""


def _tag(loader: _TemplateLoader, _suffix: str, node: yaml.Node) -> object:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_mapping(node, deep=True)


_TemplateLoader.add_multi_constructor("!", _tag)


@cache
def template() -> dict[str, Any]:
    document: dict[str, Any] = yaml.load(  # a safe loader with tags kept
        TEMPLATE.read_text(encoding="utf-8"), Loader=_TemplateLoader
    )
    return document


def resource(logical_id: str) -> dict[str, Any]:
    resources: dict[str, dict[str, Any]] = template()["Resources"]
    return resources[logical_id]


def properties(logical_id: str) -> dict[str, Any]:
    resource_properties: dict[str, Any] = resource(logical_id)["Properties"]
    return resource_properties


def handler_source(function: str) -> tuple[Path, str]:
    """The file and function that the function's `CodeUri` plus `Handler` name."""
    module, name = properties(function)["Handler"].rsplit(".", 1)
    return ROOT / properties(function)["CodeUri"] / f"{module}.py", name


def load_handler(function: str) -> tuple[object, ModuleType]:
    """Import a handler as Lambda would: its module runs once, reading the environment then."""
    path, name = handler_source(function)
    spec = importlib.util.spec_from_file_location(f"{function.lower()}_{path.stem}", path)
    if spec is None or spec.loader is None:  # only for a path that is no Python source
        raise ImportError(f"{function}'s handler {path} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name), module


def function_environment(function: str) -> dict[str, str]:
    """The environment events/env.json gives a function under `sam local invoke --env-vars`."""
    environments: dict[str, dict[str, str]] = json.loads((EVENTS / "env.json").read_text(encoding="utf-8"))
    return environments[function]


def queue_notifications(queue_arn: str) -> dict[str, Any]:
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


def max_receive_count(queue: str = "RenderQueue") -> int:
    return int(properties(queue)["RedrivePolicy"]["maxReceiveCount"])


def queue_events(function: str = "RenderFunction") -> dict[str, dict[str, Any]]:
    """The properties of the function's SQS events (batch size, batching window, response types),
    by the logical id of the queue each reads."""
    return {
        event["Properties"]["Queue"].removesuffix(".Arn"): event["Properties"]
        for event in properties(function)["Events"].values()
        if event["Type"] == "SQS"
    }


def api_route() -> tuple[str, re.Pattern[str]]:
    """The HTTP API's route: its key, and a pattern that matches its paths and names their parameters."""
    route_key = properties("NearbyRoute")["RouteKey"]
    _method, path = route_key.split(" ", 1)
    return route_key, re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", path) + "$")


def directory_index_code() -> str:
    """The JavaScript of the CloudFront function that maps directory URLs to index.html."""
    code: str = properties("DirectoryIndexFunction")["FunctionCode"]
    return code


def nearby_format_code() -> str:
    """The JavaScript of the CloudFront function that maps an API request's Accept header to its format."""
    code: str = properties("NearbyFormatFunction")["FunctionCode"]
    return code


def api_origin_header() -> str:
    """The name of the header CloudFront adds to every request it sends the nearby API's origin."""
    config = properties("Distribution")["DistributionConfig"]
    [behaviour] = [item for item in config["CacheBehaviors"] if item["PathPattern"] == "/api/*"]
    [origin] = [item for item in config["Origins"] if item["Id"] == behaviour["TargetOriginId"]]
    [header] = origin["OriginCustomHeaders"]
    name: str = header["HeaderName"]
    return name


def cors_headers() -> dict[str, str]:
    """What SecurityHeadersPolicy's CORS configuration makes CloudFront add to a response to a
    cross-origin request (one that sends `Origin`), unless the origin sent its own."""
    config = properties("SecurityHeadersPolicy")["ResponseHeadersPolicyConfig"]["CorsConfig"]
    return {
        "Access-Control-Allow-Origin": ", ".join(config["AccessControlAllowOrigins"]["Items"]),
        "Access-Control-Allow-Methods": ", ".join(config["AccessControlAllowMethods"]["Items"]),
    }


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
