"""A small stand-in for the Lambda context object, as powertools' own examples use."""

from dataclasses import dataclass


@dataclass
class LambdaContext:
    function_name: str = "RenderFunction"
    memory_limit_in_mb: int = 1024
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:123456789012:function:RenderFunction"
    aws_request_id: str = "da658bd3-2d6f-4e7b-8ec2-937234644fdc"

    def get_remaining_time_in_millis(self) -> int:
        return 60_000
