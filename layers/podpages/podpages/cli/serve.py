"""`podpages serve`: the local CDN and API on their own, over the local stack's buckets or a
deployed stack's."""

import secrets
from collections.abc import Callable

from podpages.cli.targets import Target
from podpages.cli.terminal import echo
from podpages.errors import UsageError
from podpages.local.cdn import LocalCdn
from podpages.local.functions import load_functions


def serve(
    target: Target,
    host: str,
    port: int,
    profile: str | None = None,
    region: str | None = None,
    say: Callable[[str], None] = echo,
) -> int:
    if not target.site_bucket:
        raise UsageError("name the site bucket (--site-bucket), or a stack whose outputs name it (--stack)")
    site_url = f"http://{host}:{port}"
    if target.endpoint:
        from podpages.local.aws import local_environment

        aws = local_environment(target.endpoint)
    else:
        aws = {name: value for name, value in (("AWS_PROFILE", profile), ("AWS_DEFAULT_REGION", region)) if value}
    buckets = {"SOURCE_BUCKET": target.source_bucket, "SITE_BUCKET": target.site_bucket}
    secret = secrets.token_urlsafe(16)  # as on AWS, the API answers only what the CDN sends it
    nearby = load_functions(site_url, aws | {"ORIGIN_SECRET": secret}, buckets, names=("NearbyFunction",))
    cdn = LocalCdn((host, port), target.s3, target.site_bucket, nearby["NearbyFunction"], origin_secret=secret)
    say(f"serving {target.label} at {site_url} (Ctrl-C stops)")
    try:
        cdn.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        cdn.server_close()
    return 0
