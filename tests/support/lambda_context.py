"""A small stand-in for the Lambda context object, as powertools' own examples use."""

from podpages.local.functions import LambdaContext

__all__ = ["LambdaContext"]
