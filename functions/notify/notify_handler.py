"""NotifyFunction: what each publish changed, sent to WebSub hubs, feed-change ping endpoints and IndexNow."""

import gc

# Init builds modules, clients and settings that live as long as the process, so a collection
# during it finds nothing to free: it only costs the cold start. The collector is on again at the end.
gc.disable()

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from podpages.notify.endpoints import Endpoints
from podpages.notify.notify_function import handle_notify_event
from podpages.notify.sender import Sender
from podpages.observability import logger, metrics, tracer
from podpages.settings import Settings

sender = Sender(Endpoints.from_env(), Settings.from_env().site_url)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return handle_notify_event(event, sender)


gc.enable()
