"""Reading template.yaml, so that tests use the handlers, resources and notifications it declares."""

from podpages.local.template import handler_source, load_handler, queue_notifications, resource, template

__all__ = ["handler_source", "load_handler", "queue_notifications", "resource", "template"]
