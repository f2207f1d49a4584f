"""Reading template.yaml, so that tests use the handler and the notifications it declares."""

import importlib.util
from functools import cache
from pathlib import Path

import yaml

from support.paths import ROOT, TEMPLATE


class _TemplateLoader(yaml.SafeLoader):
    """YAML with CloudFormation's short tags (!Ref, !Sub, …) kept as plain values."""


def _tag(loader, suffix, node):
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


def handler_source(logical_id: str) -> tuple[Path, str]:
    """The file and function that `CodeUri` plus `Handler` name."""
    properties = resource(logical_id)["Properties"]
    module, function = properties["Handler"].rsplit(".", 1)
    return ROOT / properties["CodeUri"] / f"{module}.py", function


def load_handler(logical_id: str):
    """Import the handler as Lambda would: its module runs once, reading the environment then."""
    path, function = handler_source(logical_id)
    spec = importlib.util.spec_from_file_location(f"{logical_id.lower()}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, function), module


def queue_notifications(queue_arn: str) -> dict:
    """The source bucket's notification configuration, aimed at a local queue."""
    configurations = resource("SourceBucket")["Properties"]["NotificationConfiguration"]["QueueConfigurations"]
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
