"""The notify function's endpoints, read from the environment the template gives it."""

import pytest

from podpages.notify.endpoints import TIMEOUT, Endpoints


def test_nothing_configured_tells_nobody():
    endpoints = Endpoints.from_env({})

    assert endpoints == Endpoints() and not endpoints.any and endpoints.timeout == TIMEOUT


def test_the_template_s_variables_name_every_endpoint():
    endpoints = Endpoints.from_env(
        {
            "WEBSUB_HUBS": "https://hub.example/,https://other.example/hub",
            "PING_ENDPOINTS": "https://ping.example/pubnotify",
            "INDEXNOW_KEY": "0123456789abcdef",
            "INDEXNOW_ENDPOINT": "https://api.indexnow.example/indexnow",
            "NOTIFY_TIMEOUT": "2.5",
        }
    )

    assert endpoints.hubs == ("https://hub.example/", "https://other.example/hub")
    assert endpoints.pings == ("https://ping.example/pubnotify",)
    assert (endpoints.indexnow_key, endpoints.indexnow_endpoint) == (
        "0123456789abcdef",
        "https://api.indexnow.example/indexnow",
    )
    assert endpoints.timeout == 2.5 and endpoints.any


def test_a_key_without_an_endpoint_tells_indexnow_nothing():
    assert not Endpoints.from_env({"INDEXNOW_KEY": "0123456789abcdef"}).any


@pytest.mark.parametrize(
    ("variables", "named"),
    [
        ({"PING_ENDPOINTS": "ftp://ping.example/"}, "PING_ENDPOINTS"),
        ({"WEBSUB_HUBS": "https://hub.example/ x"}, "WEBSUB_HUBS"),
        ({"INDEXNOW_ENDPOINT": "https://a.example/,https://b.example/"}, "INDEXNOW_ENDPOINT"),
        ({"INDEXNOW_KEY": "short"}, "INDEXNOW_KEY"),
        ({"NOTIFY_TIMEOUT": "soon"}, "NOTIFY_TIMEOUT"),
        ({"NOTIFY_TIMEOUT": "0"}, "NOTIFY_TIMEOUT"),
    ],
)
def test_a_bad_variable_is_refused_by_name(variables, named):
    with pytest.raises(ValueError, match=named):
        Endpoints.from_env(variables)
