"""moto's server on 127.0.0.1, as the local stack runs it."""

from podpages.local.aws import REGION, LocalAws, free_port

__all__ = ["REGION", "LocalAws", "free_port"]
